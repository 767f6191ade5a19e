import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IdentityService } from '../identity-service.js';
import type { TenancyService } from '../../tenancy/tenancy-service.js';
import { diagnoseRoutes } from './diagnose-routes.js';
import { fixRoutes } from './fix-routes.js';
import { incidentRoutes } from './incident-routes.js';
import { secretRoutes } from './secret-routes.js';

/**
 * Every identity-operations route, under /api/admin/identity/ (admin scope). A platform workspace named in the path or
 * the body (firewall rules, role assignments, probes, an incident's verification) must be assigned to the caller's
 * tenant, or the operation is 404 as for an unknown id: checked here once, before any handler sends a backing call.
 */
export const identityRoutes =
  (identity: IdentityService, tenancy: TenancyService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addHook('preHandler', async (req) => {
      const fromPath = (req.params as { workspaceId?: unknown } | undefined)?.workspaceId;
      const fromBody = (req.body as { workspaceId?: unknown } | undefined)?.workspaceId;
      if (typeof fromPath === 'string') await tenancy.requirePlatformWorkspace(req.caller!, fromPath, 'workspaceId');
      if (typeof fromBody === 'string') await tenancy.requirePlatformWorkspace(req.caller!, fromBody, 'workspaceId');
    });
    await app.register(diagnoseRoutes(identity));
    await app.register(fixRoutes(identity));
    await app.register(secretRoutes(identity));
    await app.register(incidentRoutes(identity));
  };
