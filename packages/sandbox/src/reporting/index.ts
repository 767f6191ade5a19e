import type { SandboxCore } from '../core.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { pbiError, reportingErrorReply, reportingFaultCode } from './errors.js';
import { importRoutes } from './imports-routes.js';
import { reportRoutes } from './reports-routes.js';
import { exportRoutes } from './exports-routes.js';
import { tokenRoutes } from './tokens-routes.js';
import { adminRoutes } from './admin-routes.js';
import { viewerRoutes } from './viewer-routes.js';
import { datasetRoutes } from './datasets-routes.js';

/** The reporting API emulator (Power BI REST /v1.0/myorg, paginated reports). */
export function reportingService(core: SandboxCore): ServiceModule {
  const router = new Router();
  importRoutes(core, router);
  adminRoutes(core, router);
  tokenRoutes(core, router);
  exportRoutes(core, router);
  reportRoutes(core, router);
  datasetRoutes(core, router);
  viewerRoutes(core, router);
  return {
    name: 'reporting',
    router,
    errorReply: reportingErrorReply,
    faultCode: reportingFaultCode,
    commonHeaders: (ctx) => ({ RequestId: ctx.requestId }),
    notFound: () => pbiError(404, 'PowerBIEntityNotFound'),
  };
}
