import { randomBytes, randomUUID } from 'node:crypto';
import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import type { Principal, Secret } from '../identity/directory.js';

const GRAPH_AUDIENCES = ['https://graph.microsoft.com', 'https://graph.microsoft.com/'];
const TWO_YEARS_MS = 2 * 365 * 86_400_000;

/** A directory secret with the metadata Graph shows (the directory's Secret plus a display name and start). */
type GraphSecret = Secret & { displayName?: string; startDateTime?: string };

const graphError = (status: number, code: string, message: string) => new ServiceError(status, code, message);

/** The caller: a valid Graph token of an application allowed to manage application credentials. */
async function caller(core: SandboxCore, ctx: RequestContext) {
  const v = await core.tokens.verifyBearer(ctx.header('authorization'), GRAPH_AUDIENCES);
  if (!v.ok) {
    if (v.reason === 'missing') throw graphError(401, 'InvalidAuthenticationToken', 'Access token is empty.');
    if (v.reason === 'expired') throw graphError(401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.');
    throw graphError(401, 'InvalidAuthenticationToken', `Access token validation failure. ${v.detail}`);
  }
  const p = core.directory.byObjectId(String(v.claims.oid ?? ''));
  ctx.identity = p?.objectId;
  // The service identity manages the applications (Application.ReadWrite.OwnedBy); others need Application.ReadWrite.All.
  if (!p || (p.objectId !== core.directory.serviceIdentity.objectId && !p.appRoles?.includes('Application.ReadWrite.All'))) {
    throw graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
  }
  return p;
}

function application(core: SandboxCore, ctx: RequestContext): Principal {
  const { id, appId } = ctx.params;
  const p = appId ? core.directory.byAppId(appId) : core.directory.byObjectId(id);
  if (!p || (p.kind !== 'servicePrincipal' && p.kind !== 'application')) {
    throw graphError(
      404,
      'Request_ResourceNotFound',
      `Resource '${appId ?? id}' does not exist or one of its queried reference-property objects are not present.`,
    );
  }
  return p;
}

const credentialJson = (s: GraphSecret, withText = false) => ({
  customKeyIdentifier: null,
  displayName: s.displayName ?? null,
  endDateTime: s.expiresAt,
  hint: s.hint,
  keyId: s.keyId,
  secretText: withText ? s.value : null,
  startDateTime: s.startDateTime ?? null,
});

/**
 * A Graph-shaped application API for the sandbox's directory: GET an application, addPassword, removePassword.
 * Addressed as /v1.0/applications/{objectId} or /v1.0/applications(appId='{appId}'). Secrets added here sign in at
 * the token endpoint at once (they live in the directory); removed ones answer AADSTS7000215.
 */
export function graphService(core: SandboxCore): ServiceModule {
  const router = new Router();
  // Two address forms; the action group matches '' rather than nothing, so every named group has a value.
  const paths = [
    /^\/v1\.0\/applications\/(?<id>[^/(]+)(?<action>\/addPassword|\/removePassword|)\/?$/i,
    /^\/v1\.0\/applications\(appId='(?<appId>[^']+)'\)(?<action>\/addPassword|\/removePassword|)\/?$/i,
  ];
  for (const path of paths) routes(core, router, path);
  return module(router);
}

function routes(core: SandboxCore, router: Router, path: RegExp): void {
  router.get(path, async (ctx): Promise<Reply> => {
    await caller(core, ctx);
    if (ctx.params.action) throw graphError(405, 'Request_BadRequest', `Method GET is not allowed on ${ctx.params.action.slice(1)}.`);
    const app = application(core, ctx);
    return {
      status: 200,
      body: {
        id: app.objectId,
        appId: app.appId,
        displayName: app.displayName,
        passwordCredentials: (app.secrets ?? []).map((s) => credentialJson(s)),
      },
    };
  });
  router.post(path, async (ctx): Promise<Reply> => {
    await caller(core, ctx);
    const app = application(core, ctx);
    const body = await ctx
      .json((d) => graphError(400, 'BadRequest', d))
      .catch((e) => (ctx.params.action?.toLowerCase() === '/addpassword' ? {} : Promise.reject(e)));
    if (ctx.params.action?.toLowerCase() === '/addpassword') {
      const pc = body?.passwordCredential ?? {};
      const end = pc.endDateTime ? Date.parse(pc.endDateTime) : Date.now() + TWO_YEARS_MS;
      if (!Number.isFinite(end) || end <= Date.now())
        throw graphError(400, 'InvalidValue', 'The endDateTime of the password credential must be a future date-time.');
      const value = `${randomBytes(2).toString('hex').slice(0, 3)}~${randomBytes(24).toString('base64url').slice(0, 34)}`;
      const secret: GraphSecret = {
        keyId: randomUUID(),
        hint: value.slice(0, 3),
        value,
        expiresAt: new Date(end).toISOString(),
        displayName: pc.displayName,
        startDateTime: new Date().toISOString(),
      };
      (app.secrets ??= []).push(secret);
      return {
        status: 200,
        body: {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#microsoft.graph.passwordCredential',
          ...credentialJson(secret, true),
        },
      };
    }
    if (ctx.params.action?.toLowerCase() === '/removepassword') {
      const i = (app.secrets ?? []).findIndex((s) => s.keyId === String(body?.keyId ?? '').toLowerCase());
      if (i < 0) throw graphError(400, 'Request_BadRequest', `No password credential found with keyId ${body?.keyId}.`);
      app.secrets!.splice(i, 1);
      return { status: 204 };
    }
    throw graphError(405, 'Request_BadRequest', 'POST is allowed only on addPassword and removePassword.');
  });
}

function module(router: Router): ServiceModule {
  return {
    name: 'identity', // the application API is part of the identity provider; fault rules use service 'identity' and a /v1.0/applications path
    router,
    errorReply: (err, ctx) => ({
      status: err.status,
      body: {
        error: {
          code: err.code,
          message: err.message,
          innerError: {
            date: new Date().toISOString().replace(/\.\d+Z$/, ''),
            'request-id': ctx.requestId,
            'client-request-id': ctx.header('client-request-id') ?? ctx.requestId,
          },
        },
      },
      headers: err.headers,
    }),
    commonHeaders: (ctx) => ({ 'request-id': ctx.requestId, 'client-request-id': ctx.header('client-request-id') ?? ctx.requestId }),
  };
}
