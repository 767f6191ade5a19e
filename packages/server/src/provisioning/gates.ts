import type { RemediationGate } from '../errors.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { BackingError } from '../backends/http-pipeline.js';

/** The eight remediation gates of SPEC.md, by name, and the reporting service's tenant prerequisites. */
export type GateName =
  | 'no-platform-workspace'
  | 'data-platform-auth'
  | 'kql-not-configured'
  | 'kql-arm-auth'
  | 'kql-create-table-auth'
  | 'search-auth'
  | 'warehouse-not-configured'
  | 'warehouse-tsql-auth'
  | 'reporting-auth'
  | 'reporting-tenant-setting'
  | 'reporting-capacity';

/** The SVC_* settings serve the default tenant; another tenant's resources are assigned by the deployment operator. */
const OTHER_TENANTS = '; in a tenant other than the default one, the deployment operator assigns it (POST /api/operator/tenants/{tenantId}';

/** The gate object for a name, with links into the selected cloud's portals. */
export function gate(name: GateName, profile: CloudProfile, detail: { principal?: string; sql?: string; setting?: string } = {}): RemediationGate {
  const portal = profile.portalUrl;
  const fabric = profile.fabricPortalUrl;
  switch (name) {
    case 'no-platform-workspace':
      return { reason: 'no bound platform workspace', remediation: `bind a capacity to the workspace in the admin area, or set SVC_DEFAULT_PLATFORM_WORKSPACE${OTHER_TENANTS}/platform-workspaces)`, link: `${fabric}/admin-portal/capacities` };
    case 'data-platform-auth':
      return { reason: 'data platform 401/403', remediation: 'grant the service identity Contributor on the workspace and enable the service-principal tenant setting ("Service principals can use Fabric APIs")', link: `${fabric}/admin-portal/tenantSettings` };
    case 'kql-not-configured':
      return { reason: 'KQL cluster not configured', remediation: `set SVC_KQL_CLUSTER_URI and SVC_KQL_CLUSTER_NAME${OTHER_TENANTS}/targets, kind kql-cluster with its resourceId)`, link: `${portal}/#browse/Microsoft.Kusto%2Fclusters` };
    case 'kql-arm-auth':
      return { reason: 'KQL 401/403 from resource manager', remediation: 'assign Contributor on the cluster to the identity', link: `${portal}/#browse/Microsoft.Kusto%2Fclusters` };
    case 'kql-create-table-auth':
      return { reason: 'KQL 401/403 on .create table', remediation: `create a cluster principal assignment with role AllDatabasesAdmin, principal type App${detail.principal?.includes(':') ? ` for ${detail.principal.split(':')[1]}` : ''}`, link: `${portal}/#browse/Microsoft.Kusto%2Fclusters` };
    case 'search-auth':
      return { reason: 'search service 401/403', remediation: 'assign Search Service Contributor on the search service (and Search Index Data Contributor to load documents)', link: `${portal}/#browse/Microsoft.Search%2FsearchServices` };
    case 'warehouse-not-configured':
      return { reason: 'warehouse dedicated pool not configured', remediation: `set SVC_WAREHOUSE_WORKSPACE and SVC_WAREHOUSE_DEDICATED_POOL${OTHER_TENANTS}/targets, kind warehouse)`, link: `${portal}/#browse/Microsoft.Synapse%2Fworkspaces` };
    case 'warehouse-tsql-auth':
      return { reason: 'warehouse T-SQL not authorized', remediation: detail.sql ?? 'create the identity as a database user FROM EXTERNAL PROVIDER and add it to db_owner', link: `${portal}/#browse/Microsoft.Synapse%2Fworkspaces` };
    case 'reporting-auth':
      return { reason: 'reporting service 401/403', remediation: 'enable the tenant setting "Service principals can use Fabric APIs" (formerly "Allow service principals to use Power BI APIs") and add the service identity as Member or higher of the workspace', link: `${profile.biAppUrl}/admin-portal/tenantSettings` };
    case 'reporting-tenant-setting':
      return { reason: `the tenant setting "${detail.setting ?? 'unknown'}" is off`, remediation: `enable the tenant setting "${detail.setting ?? 'named in the message'}" for the service identity in the admin portal's tenant settings`, link: `${profile.biAppUrl}/admin-portal/tenantSettings` };
    case 'reporting-capacity':
      return { reason: 'the workspace has no capacity or licence that allows this', remediation: 'assign the workspace to a Premium, Embedded (A/EM) or Fabric (F) capacity; Premium Per User allows one export every 5 minutes', link: `${profile.biAppUrl}/admin-portal/capacities` };
  }
}

/** Thrown by a provisioner when a gate applies: the runner turns it into a remediation step. */
export class GateRaised extends Error {
  constructor(readonly gate: RemediationGate, readonly cause?: BackingError) {
    super(gate.reason);
  }
}

/** A 401 or 403 from a backing call becomes the named gate; anything else stays an error. Decided by status, never by text. */
export function gateOnAuth(err: unknown, name: GateName, profile: CloudProfile, detail?: { principal?: string }): never {
  if (err instanceof BackingError && (err.status === 401 || err.status === 403)) throw new GateRaised(gate(name, profile, detail), err);
  throw err;
}
