import type { SandboxCore } from '../core.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { authorizePage, authorizeSubmit } from './authorize.js';
import { discoveryRoutes } from './discovery.js';
import { entraErrorReply } from './entra-errors.js';
import { tokenEndpoint } from './token-endpoint.js';

/** The identity provider: token endpoint (v2 and v1 paths), authorization endpoint with its sign-in page, discovery and keys. */
export function identityService(core: SandboxCore): ServiceModule {
  const router = new Router();
  router.post('/:tenant/oauth2/v2.0/token', (ctx) => tokenEndpoint(core, ctx));
  router.post('/:tenant/oauth2/token', (ctx) => tokenEndpoint(core, ctx));
  router.get('/:tenant/oauth2/v2.0/authorize', (ctx) => authorizePage(core, ctx));
  router.post('/:tenant/oauth2/v2.0/authorize', (ctx) => authorizeSubmit(core, ctx));
  discoveryRoutes(core, router);
  router.get('/', () => ({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    raw: `<!doctype html><h1>Sandbox identity provider</h1><p>Tenant ${core.ids.tenantId} (${core.ids.tenantDomain}). Discovery: <a href="/${core.ids.tenantId}/v2.0/.well-known/openid-configuration">openid-configuration</a></p>`,
  }));
  return {
    name: 'identity',
    router,
    errorReply: entraErrorReply,
    faultCode: (status) =>
      status === 429 || status >= 500 ? 'temporarily_unavailable' : status === 401 ? 'invalid_client' : 'invalid_request',
    notFound: (ctx) =>
      new ServiceError(
        404,
        'invalid_request',
        `AADSTS900561: The endpoint only accepts known requests; ${ctx.method} ${ctx.path} is not one.`,
        { error: 'invalid_request', error_codes: [900561] },
      ),
  };
}
