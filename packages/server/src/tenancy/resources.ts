import { hostAllowed, type CloudProfile } from '../cloud/profiles.js';
import { InputError } from '../errors.js';
import { GUID_PATTERN } from '../values.js';

/** The kinds of backing resource a tenant is assigned: platform workspaces and the targets of its installs. */
export const TARGET_KINDS = ['kql-cluster', 'search-service', 'warehouse', 'lake'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
/** Every kind: platform workspaces, install targets, and the app registrations and vault secrets rotations change. */
export const RESOURCE_KINDS = ['platform-workspace', ...TARGET_KINDS, 'application', 'vault-secret'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Each kind as a message names it. */
export const KIND_NAMES: Record<ResourceKind, string> = {
  'platform-workspace': 'Platform workspace',
  'kql-cluster': 'KQL cluster',
  'search-service': 'Search service',
  warehouse: 'Warehouse server',
  lake: 'Lake account',
  application: 'Application',
  'vault-secret': 'Vault secret',
};

const GUID = new RegExp(GUID_PATTERN);

/** What an assigned target carries besides its address (the shared-mode settings of that kind). */
export interface TargetSettings {
  /** kql-cluster: the data-plane URI; search-service: the service URI; warehouse: the T-SQL host[:port]; lake: the account host. */
  address: string;
  /** kql-cluster: ARM id of the cluster (needed to create databases). */
  resourceId?: string;
  /** kql-cluster: region sent with the database PUT. */
  location?: string;
  /** warehouse: the Synapse workspace name. */
  workspace?: string;
  /** warehouse: the dedicated pool (database). */
  database?: string;
  /** lake: the container. */
  container?: string;
}

/** What an assigned application (an app registration whose secrets the tenant rotates) carries. */
export interface ApplicationSettings {
  /** The vault secret its rotations write the new secret to, assigned with it. */
  vaultSecretName?: string;
}

/** What an assignment carries: a target's settings, an application's, or nothing (a platform workspace, a vault secret). */
export type ResourceSettings = TargetSettings | ApplicationSettings | Record<string, never>;

/** The lowercase key of a platform workspace id, or 400 naming the field. */
export function platformWorkspaceKey(id: string, field: string): string {
  if (!GUID.test(id)) throw new InputError(`${field} must be a platform workspace id (a GUID), got '${id.slice(0, 80)}'`, field);
  return id.toLowerCase();
}

/**
 * The address of a target as a URL and its key (lowercase host[:port]). Only a scheme and a host are accepted: a path,
 * query, fragment or credentials would let a value steer the service's token elsewhere. 400 naming the field.
 */
export function addressOf(profile: CloudProfile, value: string, field: string): { url: string; key: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new InputError(`${field} is not a host or https address: '${value.slice(0, 80)}'`, field);
  }
  const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password && !/[?#@\\]/.test(value);
  if (!bare || !['https:', 'http:'].includes(u.protocol)) {
    throw new InputError(
      `${field} must be a host or https://host (no path, query, fragment or credentials), got '${value.slice(0, 80)}'`,
      field,
    );
  }
  if (!hostAllowed(profile, u.origin)) {
    throw new InputError(
      `${field} points at ${u.host}, outside the ${profile.name} cloud's allowed DNS suffixes; the service's token is never sent there`,
      field,
    );
  }
  return { url: u.origin, key: u.host.toLowerCase() };
}

/**
 * A lake's address: a storage account name (`contosolake`), which is its DFS host in the cloud
 * (`contosolake.dfs.core.usgovcloudapi.net`, reached path-style where SVC_LAKE_DFS_URL is set), or that host itself.
 */
export function lakeAddressOf(profile: CloudProfile, value: string, field: string): { url: string; key: string } {
  if (!/^[a-z0-9]{3,24}$/.test(value)) return addressOf(profile, value, field);
  const host = `${value}.dfs${profile.storageSuffix}`;
  return { url: `https://${host}`, key: host };
}

/** Names as the backing services accept them, checked before they travel into a path or a command. */
export const NAME_PATTERNS = {
  /** A KQL database (letters, digits, '_', '-', '.'; a leading letter or digit). */
  kqlDatabase: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,259}$',
  /** A Synapse workspace: lowercase letters, digits and inner hyphens, up to 50. */
  warehouseWorkspace: '^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$',
  /** A dedicated SQL pool (the warehouse database): letters, digits, '_' and '-', up to 60. */
  warehouseDatabase: '^[A-Za-z0-9_-]{1,60}$',
  /** A storage container: 3-63 lowercase letters, digits and single inner hyphens. */
  lakeContainer: '^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$',
  /** The resource manager id of a KQL cluster. */
  kqlClusterResourceId:
    '^/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[-\\w.()]{1,90}/providers/Microsoft\\.Kusto/clusters/[a-z][a-z0-9]{3,21}$',
  /** An Azure region name. */
  location: '^[a-z][a-z0-9]{1,39}$',
} as const;
