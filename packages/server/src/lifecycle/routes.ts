import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { applyRoutes } from './apply-routes.js';
import { DRIFT_SCHEMAS, driftRoutes } from './drift-routes.js';
import type { buildLifecycle } from './index.js';
import { jobRoutes } from './job-routes.js';
import { uninstallRoutes } from './uninstall-routes.js';
import { upgradeRoutes } from './upgrade-routes.js';

import { JOB_SCHEMAS as BASE_SCHEMAS } from './schemas.js';

/** The lifecycle's shared schemas, registered once for the document. */
export const JOB_SCHEMAS = [...BASE_SCHEMAS, ...DRIFT_SCHEMAS];

/** The lifecycle's routes: jobs of every kind, apply, drift, upgrade and uninstall. */
export const lifecycleRoutes =
  (lifecycle: ReturnType<typeof buildLifecycle>): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(jobRoutes(lifecycle.jobs));
    await app.register(applyRoutes(lifecycle.applies, lifecycle.jobs));
    await app.register(driftRoutes(lifecycle.drift, lifecycle.jobs));
    await app.register(uninstallRoutes(lifecycle.uninstalls, lifecycle.jobs));
    await app.register(upgradeRoutes(lifecycle.upgrades, lifecycle.jobs));
  };
