import type { NativeHosts, SharedSet } from '../tenancy/shared-set.js';
import { address, type Setting, text } from './setting.js';

/** The default tenant's shared-mode targets. */
export const SHARED_SET = {
  platformWorkspaceId: text('SVC_DEFAULT_PLATFORM_WORKSPACE', {
    meaning:
      "the default tenant's platform workspace, for its workspaces not bound by an admin; reserved for the default tenant at start (another tenant never falls back to it: see [Tenants](#tenants-and-the-deployment-operator))",
  }),
  kqlClusterUri: address('SVC_KQL_CLUSTER_URI', { meaning: 'KQL cluster data-plane address' }),
  kqlClusterResourceId: text('SVC_KQL_CLUSTER_NAME', {
    meaning: 'ARM id of the cluster: `/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Kusto/clusters/{name}`',
  }),
  kqlLocation: text('SVC_KQL_LOCATION', { fallback: 'eastus', meaning: 'region sent with the database PUT' }),
  searchService: address('SVC_SEARCH_SERVICE', { meaning: 'search service address (`https://<name>.search.windows.net`)' }),
  warehouseWorkspace: text('SVC_WAREHOUSE_WORKSPACE', {
    shown: '– (the sandbox sets it)',
    meaning: 'the Synapse workspace of the warehouse (absent: the "warehouse dedicated pool not configured" gate)',
  }),
  warehousePool: text('SVC_WAREHOUSE_DEDICATED_POOL', {
    shown: '– (the sandbox sets it)',
    meaning: 'its dedicated SQL pool (absent, with no `SVC_WAREHOUSE_DATABASE` either: the same gate)',
  }),
  warehouseServer: text('SVC_WAREHOUSE_SERVER', {
    shown: "`<workspace>.sql.azuresynapse.net` (the sandbox's TDS endpoint in the sandbox)",
    meaning: 'T-SQL host[:port]',
  }),
  warehouseDatabase: text('SVC_WAREHOUSE_DATABASE', { shown: 'the pool', meaning: 'T-SQL database' }),
  lakeAccount: text('SVC_LAKE_ACCOUNT', { meaning: 'lake storage account of the shared set' }),
  lakeContainer: text('SVC_LAKE_CONTAINER', { meaning: 'its container' }),
} satisfies { [K in keyof Required<Omit<SharedSet, keyof NativeHosts>>]: Setting<SharedSet[K]> };
