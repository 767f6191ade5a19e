import type { SandboxCore } from '../core.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { connectionRoutes } from './connection-routes.js';
import { definitionRoutes } from './definition-routes.js';
import { fabricError, fabricErrorReply, fabricFaultCode } from './errors.js';
import { extensionRoutes } from './extension-routes.js';
import { itemRoutes, typedItemRoutes } from './items-routes.js';
import { jobRoutes } from './jobs-routes.js';
import { lakehouseRoutes } from './lakehouse-routes.js';
import { operationRoutes } from './operations.js';
import { workspaceRoutes } from './workspace-routes.js';

/** The data platform API emulator (Fabric REST /v1). Fixed paths first, typed collections last. */
export function dataPlatformService(core: SandboxCore): ServiceModule {
  const router = new Router();
  operationRoutes(core, router);
  workspaceRoutes(core, router);
  connectionRoutes(core, router);
  extensionRoutes(core, router);
  lakehouseRoutes(core, router);
  jobRoutes(core, router);
  definitionRoutes(core, router);
  itemRoutes(core, router);
  typedItemRoutes(core, router);
  return {
    name: 'dataPlatform',
    router,
    errorReply: fabricErrorReply,
    faultCode: fabricFaultCode,
    commonHeaders: (ctx) => ({ requestid: ctx.requestId, 'x-ms-request-id': ctx.requestId }),
    notFound: (ctx) => fabricError(404, 'EntityNotFound', `The requested resource '${ctx.path}' was not found`),
  };
}
