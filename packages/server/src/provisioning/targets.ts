import { InputError } from '../errors.js';
import { hostAllowed, type CloudProfile } from '../cloud/profiles.js';
import type { Mode, TargetOverrides } from '../install/types.js';

/** Where an install provisions: resolved from the cloud profile and SVC_* settings, or from targetOverrides. */
export interface ResolvedTarget {
  mode: Mode;
  platformWorkspaceId?: string;
  dataPlatformApiUrl: string;
  armUrl: string;
  oneLakeUrl: string;
  kqlClusterUri?: string;
  /** ARM id of the cluster: /subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Kusto/clusters/{name} */
  kqlClusterResourceId?: string;
  kqlDatabase?: string;
  kqlLocation: string;
  searchService?: string;
  warehouseWorkspace?: string;
  warehousePool?: string;
  warehouseServer?: string;
  warehouseDatabase?: string;
  lakeAccount?: string;
  lakeContainer?: string;
}

const ADDRESS_FIELDS: Array<keyof TargetOverrides> = ['kqlClusterUri', 'searchService', 'warehouseServer', 'lakeAccount'];

/** Refuses targetOverrides whose addresses leave the selected cloud (400 naming the field); nothing is sent. */
export function checkOverrides(profile: CloudProfile, overrides: TargetOverrides): void {
  for (const field of ADDRESS_FIELDS) {
    const value = overrides[field];
    if (!value) continue;
    const url = /^[a-z]+:\/\//i.test(value) ? value : `https://${value}`;
    if (!hostAllowed(profile, url)) {
      let host = value;
      try { host = new URL(url).host; } catch { /* keep the raw value */ }
      throw new InputError(`body/targetOverrides/${field} points at ${host}, outside the ${profile.name} cloud's allowed DNS suffixes; the service's token is never sent there`, `targetOverrides.${field}`);
    }
  }
}

/** Resolves the install's target (a plain record: it is stored in the job and shown in the report). */
export function resolveTarget(profile: CloudProfile, env: Readonly<Record<string, string | undefined>>, mode: Mode, boundWorkspace: string | null, overrides?: TargetOverrides | null): ResolvedTarget {
  const shared: ResolvedTarget = {
    mode,
    platformWorkspaceId: boundWorkspace ?? env.SVC_DEFAULT_PLATFORM_WORKSPACE ?? undefined,
    dataPlatformApiUrl: profile.dataPlatformApiUrl,
    armUrl: profile.armUrl,
    oneLakeUrl: profile.oneLakeUrl,
    kqlClusterUri: env.SVC_KQL_CLUSTER_URI?.replace(/\/+$/, ''),
    kqlClusterResourceId: env.SVC_KQL_CLUSTER_NAME,
    kqlLocation: env.SVC_KQL_LOCATION ?? 'eastus',
    searchService: env.SVC_SEARCH_SERVICE?.replace(/\/+$/, ''),
    warehouseWorkspace: env.SVC_WAREHOUSE_WORKSPACE,
    warehousePool: env.SVC_WAREHOUSE_DEDICATED_POOL,
    warehouseServer: env.SVC_WAREHOUSE_SERVER,
    warehouseDatabase: env.SVC_WAREHOUSE_DATABASE ?? env.SVC_WAREHOUSE_DEDICATED_POOL,
    lakeAccount: env.SVC_LAKE_ACCOUNT,
    lakeContainer: env.SVC_LAKE_CONTAINER,
  };
  if (mode === 'shared' || !overrides) return shared;
  const withScheme = (v?: string) => (v && !/^[a-z]+:\/\//i.test(v) ? `https://${v}` : v);
  return {
    ...shared,
    platformWorkspaceId: overrides.platformWorkspaceId ?? shared.platformWorkspaceId,
    kqlClusterUri: withScheme(overrides.kqlClusterUri) ?? shared.kqlClusterUri,
    kqlDatabase: overrides.kqlDatabase,
    searchService: withScheme(overrides.searchService) ?? shared.searchService,
    warehouseWorkspace: overrides.warehouseWorkspace ?? shared.warehouseWorkspace,
    warehouseServer: overrides.warehouseServer ?? shared.warehouseServer,
    warehouseDatabase: overrides.warehouseDatabase ?? shared.warehouseDatabase,
    lakeAccount: overrides.lakeAccount ?? shared.lakeAccount,
    lakeContainer: overrides.lakeContainer ?? shared.lakeContainer,
  };
}

/** The target as stored and shown in the report: every set value, as strings. */
export function targetRecord(t: ResolvedTarget): Record<string, string> {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
}
