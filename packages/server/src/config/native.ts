import type { NativeHosts } from '../tenancy/shared-set.js';
import { type Setting, text } from './setting.js';

const armId = (of: string) => `resource manager id of ${of}: \`/subscriptions/{sub}/resourceGroups/{rg}/providers/${''}…\``;

/**
 * The Azure-native services a deployment without the data platform provisions on (issue 20), shared by every tenant:
 * what each creates there is named under the tenant's platform workspace (provisioning/native-scope.ts). The Synapse
 * workspace is the warehouse's (SVC_WAREHOUSE_WORKSPACE) and the lake the shared set's (SVC_LAKE_ACCOUNT).
 */
export const NATIVE = {
  sparkPool: text('SVC_SYNAPSE_SPARK_POOL', {
    meaning: "the Synapse workspace's Apache Spark pool that notebooks attach to (absent: the Synapse gate of notebooks)",
  }),
  eventHubNamespace: text('SVC_EVENTHUB_NAMESPACE', { meaning: armId('the Event Hubs namespace eventstreams create their event hubs in') }),
  alertResourceGroup: text('SVC_ALERT_RESOURCE_GROUP', {
    meaning:
      'resource manager id of the resource group (`/subscriptions/{sub}/resourceGroups/{rg}`) activator rules and their action groups go in; the service identity holds Monitoring Contributor on it (absent: the "activator alerts not configured" gate)',
  }),
  serverlessServer: text('SVC_SYNAPSE_SERVERLESS_SERVER', {
    meaning:
      "the Synapse workspace's serverless SQL pool (T-SQL host[:port]) lakehouses get their SQL endpoint on (absent: `<SVC_WAREHOUSE_WORKSPACE>-ondemand.sql.azuresynapse.net` of the cloud)",
  }),
  alertScope: text('SVC_ALERT_SCOPE', {
    meaning:
      'resource manager id of the Log Analytics workspace activator rules are scoped to: their log search alert reads the KQL table with an `adx()` cross-service query from it (absent: the "activator alerts not configured" gate)',
  }),
} satisfies { [K in keyof Required<NativeHosts>]: Setting<NativeHosts[K]> };
