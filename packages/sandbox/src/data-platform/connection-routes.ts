import type { SandboxCore } from '../core.js';
import type { Router } from '../http/router.js';
import { platformCaller } from './auth.js';
import { fabricError } from './errors.js';
import { page } from './paging.js';

/** GET /v1/connections (paged) and GET /v1/connections/{id}: the tenant's cloud connections (platform/swagger.json). */
export function connectionRoutes(core: SandboxCore, router: Router): void {
  router.get('/v1/connections', async (ctx) => {
    await platformCaller(core, ctx);
    const all = [...core.dataPlatform.connections.values()];
    return {
      status: 200,
      body: page(ctx, all, core.switches['dataPlatform.pageSize'], `${core.urls.dataPlatform}/v1/connections`, 'connections'),
    };
  });
  router.get('/v1/connections/:id', async (ctx) => {
    await platformCaller(core, ctx);
    const c = core.dataPlatform.connections.get(ctx.params.id!.toLowerCase());
    if (!c) throw fabricError(404, 'ConnectionNotFound', 'The requested connection was not found');
    return { status: 200, body: c };
  });
}
