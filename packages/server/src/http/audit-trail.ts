import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { DEFAULT_TENANT } from '../auth/token-service.js';
import type { Metrics } from '../metrics.js';
import type { AuditService } from '../audit/audit-service.js';
import { outcomeOf, type AuditActor, type AuditRecord, type SignInSubject } from '../audit/audit-types.js';
import { AUDITED_OPERATIONS, type AuditContext, type AuditedOperation } from '../audit/audited-operations.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the sign-in routes (POST /api/session, the OIDC callback) for the audit trail. */
    signInSubject?: SignInSubject;
    /** True once this request's audit event was written: one event per request. */
    auditRecorded?: boolean;
  }
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The answer as JSON, when it is JSON text (a page, a redirect or a stream has none). */
function parsed(payload: unknown): Record<string, unknown> {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return {};
  try {
    return obj(JSON.parse(payload));
  } catch {
    return {};
  }
}

function actorOf(req: FastifyRequest): AuditActor {
  const c = req.caller;
  if (c) return { userId: c.userId, userName: c.userName, ...(c.tokenId ? { tokenId: c.tokenId } : {}), method: c.method };
  const s = req.signInSubject;
  return {
    userId: s?.userId ?? null,
    userName: s?.userName ?? null,
    ...(s?.tokenId ? { tokenId: s.tokenId } : {}),
    method: s?.method ?? null,
  };
}

/** The event of one answered request of an audited operation. */
function eventOf(req: FastifyRequest, reply: FastifyReply, op: AuditedOperation, payload: Record<string, unknown>): AuditRecord {
  // A refused sign-in answered with a redirect to the console's page saying so is recorded with the refusal's status.
  const status = req.signInSubject?.status ?? reply.statusCode;
  const c: AuditContext = {
    params: obj(req.params) as Record<string, string | undefined>,
    query: obj(req.query),
    body: obj(req.body),
    payload,
    status,
  };
  const kind = typeof op.kind === 'function' ? op.kind(c) : op.kind;
  const read = op.read(c);
  const subject = req.signInSubject;
  const error = obj(payload.error);
  const reason = typeof error.code === 'string' ? error.code : subject?.reason;
  const failedSignIn = kind === 'session.sign-in-failed';
  const message = typeof error.message === 'string' ? error.message : subject?.message;
  const detail = {
    ...read.detail,
    ...(status >= 400 && reason ? { reason } : {}),
    ...(failedSignIn && message ? { message: message.slice(0, 300) } : {}),
  };
  return {
    tenantId: req.caller?.tenantId ?? subject?.tenantId ?? DEFAULT_TENANT,
    actor: actorOf(req),
    kind,
    ...(read.workspaceId ? { workspaceId: read.workspaceId } : {}),
    target: { type: op.target, ...(read.id ? { id: read.id } : {}), ...(read.name ? { name: read.name } : {}) },
    outcome: outcomeOf(status),
    status,
    ...(Object.keys(detail).length ? { detail } : {}),
    requestId: req.id,
  };
}

/**
 * The audit trail's one hook, on each route of an audited operation (AUDITED_OPERATIONS): each answered request records
 * one event, whatever its outcome. It runs as the answer is sent, so a caller who reads the trail after an answer finds
 * the event; a failed write is logged and counted, never turned into an error of the operation. Register it before the
 * routes: the routes registered after it get the hook.
 */
export function registerAuditTrail(app: FastifyInstance, deps: { audit: AuditService; metrics: Metrics }) {
  app.addHook('onRoute', (route) => {
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
    const op = operationId ? AUDITED_OPERATIONS[operationId] : undefined;
    if (!op) return;
    const signIn = Boolean(route.config?.signIn);
    const record: onSendHookHandler = (req, reply, payload, done) => {
      // A refusal without credentials has no actor and no tenant: only sign-in attempts (limited per client address)
      // are recorded then, so an anonymous caller cannot fill the trail.
      if (req.auditRecorded || (!req.caller && !signIn)) return done(null, payload);
      req.auditRecorded = true;
      const write = async () => deps.audit.record(eventOf(req, reply, op, parsed(payload)));
      write()
        .catch((err: unknown) => {
          req.log.error({ err, operationId }, 'the audit event could not be written');
          deps.metrics.count('svc_audit_write_failures_total', 'Audit events that could not be written, by operation', {
            operation: operationId!,
          });
        })
        .then(() => done(null, payload));
    };
    route.onSend = [...[route.onSend ?? []].flat(), record];
  });
}
