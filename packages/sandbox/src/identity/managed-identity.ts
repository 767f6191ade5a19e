import type { SandboxCore } from '../core.js';
import { RequestContext, type Reply } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import { handle, listen, send, type RunningServer, type ServerHooks, type ServiceModule } from '../http/service-server.js';
import { entraError, entraErrorReply } from './entra-errors.js';
import { audienceFor } from './resources.js';
import { checkForcedFailure } from './token-endpoint.js';

const invalidRequest = (message: string) =>
  new ServiceError(400, 'invalid_request', message, { error: 'invalid_request', error_codes: [] });

/** The managed-identity token answer for the service identity (App Service 2019-08-01 and IMDS shapes). */
async function mint(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const resource = ctx.query('resource');
  if (!resource) throw invalidRequest("The 'resource' query parameter is required.");
  const mi = core.directory.serviceIdentity;
  for (const [param, value] of [
    ['client_id', mi.appId],
    ['object_id', mi.objectId],
    ['principal_id', mi.objectId],
  ] as const) {
    const asked = ctx.query(param);
    if (asked && asked.toLowerCase() !== value) throw invalidRequest(`Unable to load the requested managed identity (${param}=${asked}).`);
  }
  if (ctx.query('mi_res_id') || ctx.query('msi_res_id'))
    throw invalidRequest('Unable to load the requested managed identity: only the system-assigned identity exists in the sandbox.');
  const audience = audienceFor(resource, core.extraResources());
  if (!audience) throw entraError(500011, { resource, tenantName: core.ids.tenantDomain });
  checkForcedFailure(core, mi, { resource, clientId: mi.appId });
  const t = await core.appToken(mi, audience, 'managed');
  ctx.identity = mi.objectId;
  const now = Math.floor(Date.now() / 1000);
  return {
    status: 200,
    body: {
      access_token: t.token,
      expires_on: String(t.expiresOn),
      expires_in: String(t.expiresOn - now),
      not_before: String(now - 300),
      resource,
      token_type: 'Bearer',
      client_id: mi.appId,
    },
  };
}

function managedIdentityModule(core: SandboxCore, acceptedHeaders: () => Set<string>): ServiceModule {
  const router = new Router();
  router.get('/msi/token', (ctx) => {
    const header = ctx.header('x-identity-header');
    if (!header) throw invalidRequest('The X-IDENTITY-HEADER header is required.');
    if (!acceptedHeaders().has(header))
      throw new ServiceError(401, 'invalid_client', 'The X-IDENTITY-HEADER value is not valid.', {
        error: 'invalid_client',
        error_codes: [],
      });
    const version = ctx.query('api-version');
    if (version !== '2019-08-01') throw invalidRequest(`The api-version '${version ?? ''}' is not supported; use 2019-08-01.`);
    return mint(core, ctx);
  });
  router.get('/metadata/identity/oauth2/token', (ctx) => {
    if (ctx.header('metadata') !== 'true') throw invalidRequest('Required metadata header not specified');
    if (!ctx.query('api-version')) throw invalidRequest("Required query variable 'api-version' is missing");
    return mint(core, ctx);
  });
  return {
    name: 'identity',
    router,
    errorReply: entraErrorReply,
    faultCode: (status) => (status === 429 || status >= 500 ? 'temporarily_unavailable' : 'invalid_request'),
    // No keep-alive: the endpoint outlives sandboxes and must not hold the process open.
    commonHeaders: () => ({ connection: 'close' }),
  };
}

interface Attached {
  header: string;
  module: ServiceModule;
  hooks: ServerHooks;
}

interface Registry {
  server: Promise<RunningServer>;
  live: Attached[];
  headers: Set<string>;
}

const registries = new Map<string, Registry>();

/**
 * The App-Service-style managed-identity endpoint. MSAL pins the first IDENTITY_ENDPOINT and IDENTITY_HEADER it
 * sees for the whole process, so one endpoint per host serves every sandbox of the process: a request goes to the
 * newest running sandbox whose header it carries (or that it carried earlier).
 */
export async function attachManagedIdentity(core: SandboxCore, hooks: ServerHooks, host: string): Promise<{ url: string; detach(): void }> {
  let reg = registries.get(host);
  if (!reg) {
    const created: Registry = { live: [], headers: new Set(), server: undefined as unknown as Promise<RunningServer> };
    created.server = listen(
      host,
      (req, res, base) => {
        const ctx = new RequestContext(req, res, base);
        const header = ctx.header('x-identity-header');
        const target = [...created.live].reverse().find((a) => a.header === header) ?? created.live.at(-1);
        if (!target) {
          send(
            ctx,
            entraErrorReply(
              new ServiceError(400, 'invalid_request', 'No sandbox is running behind this managed-identity endpoint.', {
                error: 'invalid_request',
                error_codes: [],
              }),
              ctx,
            ),
            { connection: 'close' },
          );
          return;
        }
        void handle(target.module, target.hooks, ctx);
      },
      { unref: true },
    );
    registries.set(host, (reg = created));
  }
  const registry = reg;
  const entry: Attached = { header: core.ids.identityHeader, module: managedIdentityModule(core, () => registry.headers), hooks };
  registry.live.push(entry);
  registry.headers.add(entry.header);
  const { url } = await registry.server;
  return { url, detach: () => void registry.live.splice(registry.live.indexOf(entry), 1) };
}
