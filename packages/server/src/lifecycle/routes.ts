import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { applyRoutes } from './apply-routes.js';
import type { buildLifecycle } from './index.js';
import { jobRoutes } from './job-routes.js';
import { upgradeRoutes } from './upgrade-routes.js';

export { JOB_SCHEMAS } from './schemas.js';

/** The lifecycle's routes: jobs of every kind, apply, drift, upgrade and uninstall. */
export const lifecycleRoutes =
  (lifecycle: ReturnType<typeof buildLifecycle>): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(jobRoutes(lifecycle.jobs));
    await app.register(applyRoutes(lifecycle.applies, lifecycle.jobs));
    await app.register(upgradeRoutes(lifecycle.upgrades, lifecycle.jobs));
  };
