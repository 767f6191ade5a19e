import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../store/paging.js';
import type { AuditService } from './audit-service.js';

const Nullable = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);

export const AuditEventSchema = Type.Object(
  {
    id: Type.String(),
    at: Type.String({ format: 'date-time' }),
    tenantId: Type.String(),
    actor: Type.Object({
      userId: Nullable(Type.String({ description: 'null for a refused call that never authenticated' })),
      userName: Nullable(Type.String()),
      tokenId: Type.Optional(Type.String({ description: 'the token used, directly or through the session it opened' })),
      method: Nullable(Type.String({ description: 'token, session, or the sign-in method (token, oidc) of a sign-in event' })),
    }),
    kind: Type.String({
      description:
        'role-assignment.created|changed|deleted, token.created|revoked, session.signed-in|sign-in-failed|signed-out, workspace.created|updated|deleted|bound, item.deleted, app.installed|upgraded|uninstalled, identity.<operationId>, report.published|deleted|cloned|definition-updated|datasources-updated|exported',
    }),
    workspaceId: Type.Optional(Type.String()),
    target: Type.Object({ type: Type.String(), id: Type.Optional(Type.String()), name: Type.Optional(Type.String()) }),
    outcome: Type.Union(['succeeded', 'refused', 'failed', 'accepted'].map((o) => Type.Literal(o))),
    status: Type.Integer({ description: 'the HTTP status the operation answered' }),
    detail: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'named fields of the request and answer; never a secret' }),
    ),
    requestId: Type.String({ description: 'the x-request-id of the request' }),
  },
  { $id: 'AuditEvent' },
);

const AuditQuery = Type.Object(
  {
    workspaceId: Type.Optional(Id('events of this workspace')),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'events of this user id' })),
    kind: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: '^[A-Za-z][A-Za-z-]*(\\.[A-Za-z][A-Za-z-]*)?(\\.\\*)?$',
        description: 'an exact kind (token.created) or a prefix ending in .* (report.*)',
      }),
    ),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'events at or after this instant' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'events at or before this instant' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'nextCursor of the previous page' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `page size, 1 to ${MAX_LIMIT}` }),
    ),
  },
  { additionalProperties: false },
);

/** GET /api/audit-events: the tenant's audit trail, newest first (tenant admins). */
export const auditRoutes =
  (audit: AuditService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/audit-events',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listAuditEvents',
          tags: ['audit'],
          summary: 'The tenant’s audit trail, newest first: access changes, destructive and outward operations, sign-ins',
          querystring: AuditQuery,
          response: {
            200: Type.Object({ ok: Ok, auditEvents: Type.Array(Type.Ref(AuditEventSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(404),
          },
        },
      },
      async (req) => {
        const { cursor, limit, ...filters } = req.query;
        return { ok: true as const, ...(await audit.list(req.caller!, filters, { cursor, limit: limit ?? DEFAULT_LIMIT })) };
      },
    );
  };
