import type { RemediationGate } from '../errors.js';
import type { CloudProfile } from '../cloud/profiles.js';

/**
 * The eight remediation gates of SPEC.md, by name, and the reporting service's tenant prerequisites: the table of what
 * each gate says. Which failure calls for which gate is decided in one place, backends/failures.ts.
 */
export type GateName =
  | 'no-platform-workspace'
  | 'data-platform-absent'
  | 'data-platform-auth'
  | 'data-platform-role'
  | 'data-platform-tenant-setting'
  | 'mirror-connection-missing'
  | 'kql-not-configured'
  | 'kql-arm-auth'
  | 'kql-create-table-auth'
  | 'search-auth'
  | 'warehouse-not-configured'
  | 'warehouse-tsql-auth'
  | 'eventhub-not-configured'
  | 'eventhub-auth'
  | 'reporting-auth'
  | 'reporting-tenant-setting'
  | 'reporting-capacity'
  | 'reporting-admin-apis'
  | 'report-effective-username'
  | 'alert-not-configured'
  | 'monitor-auth'
  | 'synapse-not-configured'
  | 'synapse-auth'
  | 'lake-not-configured'
  | 'lake-auth'
  | 'serverless-sql-not-configured'
  | 'serverless-sql-auth';

/** The SVC_* settings serve the default tenant; another tenant's resources are assigned by the deployment operator. */
const OTHER_TENANTS = '; in a tenant other than the default one, the deployment operator assigns it (POST /api/operator/tenants/{tenantId}';

/** The data platform's workspace roles, lowest first. */
export const WORKSPACE_ROLES = ['Viewer', 'Contributor', 'Member', 'Admin'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/**
 * The data-platform calls of the service and the workspace role each needs (reference/data-platform-api.md): a Viewer
 * reads the workspace, a Contributor creates items and runs jobs, a Member grants roles up to its own, an Admin grants
 * Admin and holds the networking calls, firewall rules among them.
 */
export const PLATFORM_CALLS = {
  'read-workspace': { role: 'Viewer', what: 'reading the workspace' },
  'list-role-assignments': { role: 'Viewer', what: 'listing the workspace role assignments' },
  'create-item': { role: 'Contributor', what: 'creating and updating items (provisioning)' },
  'run-pipeline': { role: 'Contributor', what: 'running a pipeline job' },
  'grant-role': { role: 'Member', what: 'granting a workspace role (a Member grants up to Member; only an Admin grants Admin)' },
  'remove-role-assignment': { role: 'Member', what: 'removing a role assignment (only an Admin removes an Admin)' },
  'firewall-rules': { role: 'Admin', what: 'reading and changing the workspace firewall rules' },
} as const satisfies Record<string, { role: WorkspaceRole; what: string }>;
export type PlatformCall = keyof typeof PLATFORM_CALLS;

/** One data-platform call on a workspace; `role` is the role a grant or removal is about. */
export interface PlatformNeed {
  call: PlatformCall;
  role?: WorkspaceRole;
  workspaceId?: string;
}

/** The workspace role a call needs: the call's own, or the role it grants or removes when that is higher. */
export function roleNeeded(need: PlatformNeed): WorkspaceRole {
  const own: WorkspaceRole = PLATFORM_CALLS[need.call].role;
  return need.role && WORKSPACE_ROLES.indexOf(need.role) > WORKSPACE_ROLES.indexOf(own) ? need.role : own;
}

/** What a gate's text names: the principal, the T-SQL to run, the tenant setting, the data-platform call. */
export interface GateDetail {
  principal?: string;
  sql?: string;
  setting?: string;
  need?: PlatformNeed;
  connection?: string;
}

/** The gate object for a name, with links into the selected cloud's portals. */
export function gate(name: GateName, profile: CloudProfile, detail: GateDetail = {}): RemediationGate {
  const portal = profile.portalUrl;
  const fabric = profile.fabricPortalUrl;
  switch (name) {
    case 'no-platform-workspace':
      return {
        reason: 'no bound platform workspace',
        remediation: `bind a capacity to the workspace in the admin area, or set SVC_DEFAULT_PLATFORM_WORKSPACE${OTHER_TENANTS}/platform-workspaces)`,
        link: `${fabric}/admin-portal/capacities`,
      };
    case 'data-platform-absent':
      return {
        reason: `the data platform is not available in the ${profile.name} cloud`,
        remediation:
          'set SVC_DATA_PLATFORM_API_URL when the cloud publishes it; until then the Azure-native backends serve the item types that have one (SVC_BACKEND_<TYPE>)',
        link: portal,
      };
    case 'data-platform-auth':
      return {
        reason: 'data platform 401/403',
        remediation:
          'grant the service identity Contributor on the workspace and enable the service-principal tenant setting ("Service principals can use Fabric APIs")',
        link: `${fabric}/admin-portal/tenantSettings`,
      };
    case 'data-platform-role': {
      const need = detail.need ?? { call: 'create-item' };
      const role = roleNeeded(need);
      return {
        reason: `data platform 403: the service identity is not ${role} on the workspace`,
        remediation: `grant the service identity ${role} on the platform workspace${need.workspaceId ? ` ${need.workspaceId}` : ''}: ${PLATFORM_CALLS[need.call].what} needs ${role} or higher`,
        link: need.workspaceId ? `${fabric}/groups/${encodeURIComponent(need.workspaceId)}` : fabric,
      };
    }
    case 'data-platform-tenant-setting': {
      const need = detail.need ?? { call: 'create-item' };
      return {
        reason: 'data platform 401: the service identity may not use the platform APIs',
        remediation: `enable the tenant setting "Service principals can use Fabric APIs" for the service identity (or a security group holding it); ${PLATFORM_CALLS[need.call].what} also needs ${roleNeeded(need)} or higher on the workspace`,
        link: `${fabric}/admin-portal/tenantSettings`,
      };
    }
    case 'mirror-connection-missing':
      return {
        reason: `the data platform has no connection '${detail.connection ?? 'unknown'}'`,
        remediation: `create the cloud connection '${detail.connection ?? 'named by the mirrored database'}' to the source database (Manage connections and gateways) and give the service identity a role on it (User or higher), then retry the step`,
        link: `${fabric}/groups/me/gateways`,
      };
    case 'kql-not-configured':
      return {
        reason: 'KQL cluster not configured',
        remediation: `set SVC_KQL_CLUSTER_URI and SVC_KQL_CLUSTER_NAME${OTHER_TENANTS}/targets, kind kql-cluster with its resourceId)`,
        link: `${portal}/#browse/Microsoft.Kusto%2Fclusters`,
      };
    case 'kql-arm-auth':
      return {
        reason: 'KQL 401/403 from resource manager',
        remediation: 'assign Contributor on the cluster to the identity',
        link: `${portal}/#browse/Microsoft.Kusto%2Fclusters`,
      };
    case 'kql-create-table-auth':
      return {
        reason: 'KQL 401/403 on .create table',
        remediation: `create a cluster principal assignment with role AllDatabasesAdmin, principal type App${detail.principal?.includes(':') ? ` for ${detail.principal.split(':')[1]}` : ''}`,
        link: `${portal}/#browse/Microsoft.Kusto%2Fclusters`,
      };
    case 'search-auth':
      return {
        reason: 'search service 401/403',
        remediation: 'assign Search Service Contributor on the search service (and Search Index Data Contributor to load documents)',
        link: `${portal}/#browse/Microsoft.Search%2FsearchServices`,
      };
    case 'warehouse-not-configured':
      return {
        reason: 'warehouse dedicated pool not configured',
        remediation: `set SVC_WAREHOUSE_WORKSPACE and SVC_WAREHOUSE_DEDICATED_POOL${OTHER_TENANTS}/targets, kind warehouse)`,
        link: `${portal}/#browse/Microsoft.Synapse%2Fworkspaces`,
      };
    case 'warehouse-tsql-auth':
      return {
        reason: 'warehouse T-SQL not authorized',
        remediation: detail.sql ?? 'create the identity as a database user FROM EXTERNAL PROVIDER and add it to db_owner',
        link: `${portal}/#browse/Microsoft.Synapse%2Fworkspaces`,
      };
    case 'eventhub-not-configured':
      return {
        reason: 'Event Hubs namespace not configured',
        remediation:
          'set SVC_EVENTHUB_NAMESPACE to the resource manager id of the Event Hubs namespace eventstreams create their event hubs in (/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.EventHub/namespaces/{name})',
        link: `${portal}/#browse/Microsoft.EventHub%2Fnamespaces`,
      };
    case 'eventhub-auth':
      return {
        reason: 'Event Hubs 401/403 from resource manager',
        remediation: 'assign Azure Event Hubs Data Owner or Contributor on the Event Hubs namespace to the identity',
        link: `${portal}/#browse/Microsoft.EventHub%2Fnamespaces`,
      };
    case 'lake-not-configured':
      return {
        reason: 'lake storage account not configured',
        remediation: `set SVC_LAKE_ACCOUNT (a Data Lake Storage Gen2 account: hierarchical namespace on) and SVC_LAKE_CONTAINER${OTHER_TENANTS}/targets, kind lake with its container)`,
        link: `${portal}/#browse/Microsoft.Storage%2FStorageAccounts`,
      };
    case 'lake-auth':
      return {
        reason: 'lake storage 401/403',
        remediation: 'assign Storage Blob Data Contributor on the storage account to the service identity',
        link: `${portal}/#browse/Microsoft.Storage%2FStorageAccounts`,
      };
    case 'serverless-sql-not-configured':
      return {
        reason: 'Synapse serverless SQL pool not configured',
        remediation: `set SVC_WAREHOUSE_WORKSPACE (the Synapse workspace, whose serverless pool is <workspace>-ondemand) or SVC_SYNAPSE_SERVERLESS_SERVER${OTHER_TENANTS}/targets, kind warehouse with its workspace)`,
        link: `${portal}/#browse/Microsoft.Synapse%2Fworkspaces`,
      };
    case 'serverless-sql-auth':
      return {
        reason: 'Synapse serverless SQL pool T-SQL not authorized',
        remediation:
          "assign the Synapse SQL Administrator role on the Synapse workspace to the service identity (Synapse Studio, Manage, Access control): it creates the lakehouses' databases on the serverless SQL pool",
        link: profile.synapseStudioUrl,
      };
    case 'reporting-auth':
      return {
        reason: 'reporting service 401/403',
        remediation:
          'enable the tenant setting "Service principals can use Fabric APIs" (formerly "Allow service principals to use Power BI APIs") and add the service identity as Member or higher of the workspace',
        link: `${profile.biAppUrl}/admin-portal/tenantSettings`,
      };
    case 'reporting-tenant-setting':
      return {
        reason: `the tenant setting "${detail.setting ?? 'unknown'}" is off`,
        remediation: `enable the tenant setting "${detail.setting ?? 'named in the message'}" for the service identity in the admin portal's tenant settings`,
        link: `${profile.biAppUrl}/admin-portal/tenantSettings`,
      };
    case 'alert-not-configured':
      return {
        reason: 'activator alerts not configured',
        remediation:
          'set SVC_ALERT_RESOURCE_GROUP (the resource group id activator rules and action groups go in) and SVC_ALERT_SCOPE (the Log Analytics workspace id the rules are scoped to; their adx() query reads the KQL table)',
        link: `${portal}/#view/Microsoft_Azure_Monitoring/AzureMonitoringBrowseBlade/~/alertsV2`,
      };
    case 'monitor-auth':
      return {
        reason: 'Azure Monitor 401/403 from resource manager',
        remediation: 'assign Monitoring Contributor on the alert resource group (SVC_ALERT_RESOURCE_GROUP) to the identity',
        link: `${portal}/#browse/resourcegroups`,
      };
    case 'reporting-admin-apis':
      return {
        reason: 'the reporting service refused its admin API to the service identity, so modifiedDateTime and modifiedBy are not known',
        remediation:
          'enable the tenant setting "Service principals can access read-only admin APIs" for the service identity (or a security group holding it) in the admin portal\'s tenant settings',
        link: `${profile.biAppUrl}/admin-portal/tenantSettings`,
      };
    case 'report-effective-username':
      return {
        reason:
          'the report reads a semantic model, which the reporting service renders only for an effective identity, and this caller has no user principal name',
        remediation:
          'set SVC_REPORT_EFFECTIVE_USERNAME to the user principal name exports by API tokens run as, or export as a user signed in through the identity provider (its user principal name is used)',
        link: 'https://learn.microsoft.com/power-bi/developer/embedded/export-paginated-report',
      };
    case 'reporting-capacity':
      return {
        reason: 'the workspace has no capacity or licence that allows this',
        remediation:
          'assign the workspace to a Premium, Embedded (A/EM) or Fabric (F) capacity; Premium Per User allows one export every 5 minutes',
        link: `${profile.biAppUrl}/admin-portal/capacities`,
      };
    case 'synapse-not-configured':
      return {
        reason: 'Synapse workspace or Spark pool not configured',
        remediation: `set SVC_WAREHOUSE_WORKSPACE (the Synapse workspace) and SVC_SYNAPSE_SPARK_POOL (its Apache Spark pool)${OTHER_TENANTS}/targets, kind warehouse)`,
        link: `${portal}/#browse/Microsoft.Synapse%2Fworkspaces`,
      };
    case 'synapse-auth':
      return {
        reason: 'Synapse workspace 401/403',
        remediation:
          'assign the Synapse RBAC role "Synapse Artifact Publisher" (or Synapse Contributor) on the Synapse workspace to the service identity (Synapse Studio, Manage, Access control)',
        link: profile.synapseStudioUrl,
      };
  }
}

/** The tenant setting that governs each export format (exact names of the Export and sharing settings), named by the reporting-tenant-setting gate. */
export const EXPORT_SETTINGS: Record<string, string> = {
  PDF: 'Export reports as PowerPoint presentations or PDF documents',
  ACCESSIBLEPDF: 'Export reports as PowerPoint presentations or PDF documents',
  PPTX: 'Export reports as PowerPoint presentations or PDF documents',
  DOCX: 'Export reports as Word documents',
  XLSX: 'Export to Excel',
  CSV: 'Export to .csv',
  XML: 'Export reports as XML documents',
  MHTML: 'Export reports as MHTML documents',
  IMAGE: 'Export reports as image files',
};
