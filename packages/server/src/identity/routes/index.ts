import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IdentityService } from '../identity-service.js';
import { diagnoseRoutes } from './diagnose-routes.js';
import { fixRoutes } from './fix-routes.js';
import { incidentRoutes } from './incident-routes.js';
import { secretRoutes } from './secret-routes.js';

/** Every identity-operations route, under /api/admin/identity/ (admin scope). */
export const identityRoutes = (identity: IdentityService): FastifyPluginAsyncTypebox => async (app) => {
  await app.register(diagnoseRoutes(identity));
  await app.register(fixRoutes(identity));
  await app.register(secretRoutes(identity));
  await app.register(incidentRoutes(identity));
};
