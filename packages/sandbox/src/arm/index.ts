import type { SandboxCore } from '../core.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { armCaller, resolveCluster } from './auth.js';
import { CLUSTER_PATH, databaseRoutes } from './databases.js';
import { armError, armErrorReply, armFaultCode, armHeaders } from './errors.js';
import { principalAssignmentRoutes } from './principal-assignments.js';
import { scheduledQueryRuleRoutes } from './monitor-rules.js';
import { actionGroupRoutes } from './monitor-groups.js';
import { eventHubRoutes } from './eventhubs.js';
import { dataConnectionRoutes } from './data-connections.js';

/**
 * The resource manager emulator: Microsoft.Kusto (the cluster, its databases, principal assignments and Event Hub data
 * connections), Microsoft.EventHub (the seeded namespace, its event hubs and consumer groups) and Microsoft.Insights
 * (scheduled query rules, action groups).
 */
export function armService(core: SandboxCore): ServiceModule {
  const router = new Router();
  router.get(CLUSTER_PATH, async (ctx) => {
    const caller = await armCaller(core, ctx);
    resolveCluster(core, ctx, caller, 'Microsoft.Kusto/clusters/read');
    return {
      status: 200,
      body: {
        id: core.ids.kqlClusterResourceId,
        name: core.ids.kqlClusterName,
        type: 'Microsoft.Kusto/Clusters',
        location: core.ids.kqlLocation,
        sku: { name: 'Dev(No SLA)_Standard_E2a_v4', tier: 'Basic', capacity: 1 },
        properties: {
          state: 'Running',
          provisioningState: 'Succeeded',
          uri: core.urls.kql,
          dataIngestionUri: core.urls.kql,
          enableStreamingIngest: false,
          engineType: 'V3',
        },
      },
    };
  });
  databaseRoutes(core, router);
  principalAssignmentRoutes(core, router);
  scheduledQueryRuleRoutes(core, router);
  actionGroupRoutes(core, router);
  dataConnectionRoutes(core, router);
  eventHubRoutes(core, router);
  return {
    name: 'arm',
    router,
    errorReply: armErrorReply,
    faultCode: armFaultCode,
    commonHeaders: armHeaders,
    notFound: (ctx) =>
      armError(404, 'InvalidResourceType', `The resource type could not be found in the namespace for path '${ctx.path}'.`),
  };
}
