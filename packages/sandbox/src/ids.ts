import { createHash } from 'node:crypto';

/** A GUID derived from the seed and a label: the same inputs always give the same id. */
export function stableUuid(seed: string, label: string): string {
  const h = createHash('sha256').update(`${seed}\u0000${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16]!, 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Hex text derived from the seed and a label. */
function stableHex(seed: string, label: string, length = 32): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += createHash('sha256').update(`${seed}\u0000${label}\u0000${i}`).digest('hex');
  return out.slice(0, length);
}

/** Hands out repeatable ids for things created at run time (items, operations, jobs). */
export class IdSource {
  private counter = 0;
  constructor(private readonly seed: string) {}
  next(kind: string): string {
    return stableUuid(this.seed, `${kind}#${++this.counter}`);
  }
  /** A pseudo-random number in [0, 1), repeatable for a seed (fault probabilities). */
  random(): number {
    return parseInt(stableHex(this.seed, `random#${++this.counter}`, 8), 16) / 0x1_0000_0000;
  }
}

export interface PrincipalIds {
  objectId: string;
  appId: string;
  name: string;
}

export interface UserIds {
  objectId: string;
  upn: string;
  displayName: string;
  kind: 'member' | 'guest';
}

/** A directory security group: its object id (what the id token's groups claim carries) and its members' object ids. */
export interface GroupIds {
  objectId: string;
  name: string;
  members: string[];
}

export interface ServicePrincipalIds extends PrincipalIds {
  secret: string;
  secretExpiresAt: string;
}

/** Every seeded identifier a test or the service needs to address the sandbox. */
export interface SandboxIds {
  tenantId: string;
  tenantDomain: string;
  serviceIdentity: PrincipalIds;
  identityHeader: string;
  platformWorkspaceId: string;
  platformWorkspaceName: string;
  capacityId: string;
  subscriptionId: string;
  resourceGroup: string;
  kqlClusterName: string;
  kqlClusterResourceId: string;
  kqlLocation: string;
  searchServiceName: string;
  searchAdminKey: string;
  searchQueryKey: string;
  /** The Synapse-style workspace and dedicated pool (a database of the TDS endpoint) the warehouse provisioner targets. */
  warehouseWorkspace: string;
  warehousePool: string;
  /** The Event Hubs namespace eventstreams' event hubs go in (Standard tier): its name and resource manager id. */
  eventHubNamespace: string;
  eventHubNamespaceId: string;
  /** The lake: a Data Lake Storage Gen2 account and its container (filesystem) the lakehouses' folders go in. */
  lakeAccount: string;
  lakeContainer: string;
  /** The console's app registration (OIDC sign-in with PKCE). */
  consoleApp: { appId: string; objectId: string; name: string; secret: string };
  servicePrincipals: ServicePrincipalIds[];
  users: UserIds[];
  /** Security groups of the directory; id tokens of their members carry their object ids in `groups`. */
  groups: GroupIds[];
  /**
   * The data platform's cloud connections a tenant admin made beforehand (mirrored databases name one by id): the
   * Azure SQL sources of the catalog's mirror onboarding app, so its mirrors install in the default setup.
   */
  connections: Array<{ id: string; displayName: string; server: string; database: string }>;
}

const DAY = 86_400_000;

/** Derives the seeded ids. Secret expiry dates are relative to `now` so the alerts (90/30/7 days) can be exercised. */
export function makeIds(seed: string, now = Date.now()): SandboxIds {
  // Expiry dates count from the start of the day, so two sandboxes of a seed agree.
  const today = Math.floor(now / DAY) * DAY;
  const u = (label: string) => stableUuid(seed, label);
  const tenantDomain = 'sandbox.onmicrosoft.com';
  const sp = (name: string, days: number): ServicePrincipalIds => ({
    name,
    appId: u(`sp:${name}:app`),
    objectId: u(`sp:${name}:object`),
    secret: `${name.slice(0, 3)}~${stableHex(seed, `sp:${name}:secret`, 34)}`,
    secretExpiresAt: new Date(today + days * DAY).toISOString(),
  });
  const user = (alias: string, displayName: string, kind: 'member' | 'guest' = 'member'): UserIds => ({
    objectId: u(`user:${alias}`),
    displayName,
    kind,
    upn: kind === 'guest' ? `${alias}_partner.example.com#EXT#@${tenantDomain}` : `${alias}@${tenantDomain}`,
  });
  const users = [
    user('ada', 'Ada Admin'),
    user('ari', 'Ari Analyst'),
    user('mo', 'Mo Mfa'),
    user('una', 'Una Unassigned'),
    user('pat', 'Pat Partner', 'guest'),
  ];
  const group = (name: string, aliases: string[]): GroupIds => ({
    objectId: u(`group:${name}`),
    name,
    members: aliases.map((a) => u(`user:${a}`)),
  });
  const subscriptionId = u('subscription');
  const resourceGroup = 'rg-analytics-sandbox';
  const kqlClusterName = 'sandboxkql';
  const eventHubNamespace = 'sandbox-events';
  return {
    tenantId: u('tenant'),
    tenantDomain,
    serviceIdentity: { name: 'svc-analytics-identity', appId: u('mi:app'), objectId: u('mi:object') },
    identityHeader: stableHex(seed, 'identity-header', 32),
    platformWorkspaceId: u('workspace:platform'),
    platformWorkspaceName: 'Analytics Platform',
    capacityId: u('capacity'),
    subscriptionId,
    resourceGroup,
    kqlClusterName,
    kqlClusterResourceId: `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Kusto/clusters/${kqlClusterName}`,
    kqlLocation: 'eastus',
    searchServiceName: 'sandbox-search',
    searchAdminKey: stableHex(seed, 'search:admin-key', 52).toUpperCase(),
    searchQueryKey: stableHex(seed, 'search:query-key', 52).toUpperCase(),
    warehouseWorkspace: 'sandbox-synapse',
    warehousePool: 'sandboxpool',
    eventHubNamespace,
    eventHubNamespaceId: `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.EventHub/namespaces/${eventHubNamespace}`,
    lakeAccount: 'sandboxlake',
    lakeContainer: 'lakehouses',
    consoleApp: {
      name: 'analytics-console',
      appId: u('app:console'),
      objectId: u('app:console:object'),
      secret: `con~${stableHex(seed, 'app:console:secret', 34)}`,
    },
    servicePrincipals: [sp('ci-deployer', 80), sp('reporting-automation', 5), sp('legacy-etl', -10)],
    users,
    groups: [group('analysts', ['ari', 'pat']), group('admins', ['ada']), group('reviewers', ['ari', 'mo'])],
    connections: (['sales', 'hr', 'inventory'] as const).map((n) => ({
      id: u(`connection:${n}`),
      displayName: `sql-${n}-prod`,
      server: `sql-${n}-prod.database.usgovcloudapi.net`,
      database: `${n[0]!.toUpperCase()}${n.slice(1)}Db`,
    })),
  };
}
