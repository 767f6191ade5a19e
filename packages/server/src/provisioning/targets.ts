import type { CloudProfile } from '../cloud/profiles.js';
import type { NativeHosts, SharedSet } from '../tenancy/shared-set.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import type { Mode, TargetOverrides } from '../install/types.js';

/**
 * Where an install provisions: its tenant's shared set (platform workspace, KQL cluster, search service, warehouse,
 * lake), with the dedicated overrides over it, and the cloud's service addresses.
 */
export interface ResolvedTarget extends SharedSet {
  mode: Mode;
  /** Absent in a cloud without the data platform. */
  dataPlatformApiUrl?: string;
  armUrl: string;
  kqlDatabase?: string;
  kqlLocation: string;
}

/** The Azure-native settings a target carries from the shared set (tenancy/shared-set.ts NativeHosts). */
const NATIVE_FIELDS = [
  'sparkPool',
  'eventHubNamespace',
  'alertResourceGroup',
  'alertScope',
  'serverlessServer',
] as const satisfies ReadonlyArray<keyof NativeHosts>;

/** Resolves the install's target (a plain record: it is stored in the job and shown in the report). */
export function resolveTarget(profile: CloudProfile, shared: SharedSet, mode: Mode, overrides?: TargetOverrides | null): ResolvedTarget {
  const base: ResolvedTarget = {
    mode,
    platformWorkspaceId: shared.platformWorkspaceId,
    dataPlatformApiUrl: profile.dataPlatformApiUrl,
    armUrl: profile.armUrl,
    kqlClusterUri: shared.kqlClusterUri,
    kqlClusterResourceId: shared.kqlClusterResourceId,
    kqlLocation: shared.kqlLocation ?? 'eastus',
    searchService: shared.searchService,
    warehouseWorkspace: shared.warehouseWorkspace,
    warehousePool: shared.warehousePool,
    warehouseServer: shared.warehouseServer,
    warehouseDatabase: shared.warehouseDatabase,
    lakeAccount: shared.lakeAccount,
    lakeContainer: shared.lakeContainer,
    // The deployment's Azure-native services (config/native.ts), the same for every tenant: only those set.
    ...Object.fromEntries(NATIVE_FIELDS.filter((k) => shared[k] !== undefined).map((k) => [k, shared[k]])),
  };
  if (mode === 'shared' || !overrides) return base;
  const withScheme = (v?: string) => (v && !/^[a-z]+:\/\//i.test(v) ? `https://${v}` : v);
  return {
    ...base,
    platformWorkspaceId: overrides.platformWorkspaceId ?? base.platformWorkspaceId,
    kqlClusterUri: withScheme(overrides.kqlClusterUri) ?? base.kqlClusterUri,
    kqlDatabase: overrides.kqlDatabase,
    searchService: withScheme(overrides.searchService) ?? base.searchService,
    warehouseWorkspace: overrides.warehouseWorkspace ?? base.warehouseWorkspace,
    warehouseServer: overrides.warehouseServer ?? base.warehouseServer,
    warehouseDatabase: overrides.warehouseDatabase ?? base.warehouseDatabase,
    lakeAccount: overrides.lakeAccount ?? base.lakeAccount,
    lakeContainer: overrides.lakeContainer ?? base.lakeContainer,
  };
}

/**
 * The target of a tenant's install: its shared set (the workspace's binding, else the tenant's default platform
 * workspace), and in dedicated mode the overrides, each of which must be assigned to the tenant. `strict` answers 404
 * for one that is not; otherwise (a job running later) it is left unset, so the step meets its gate and nothing
 * falls back to a resource the install did not name.
 */
export async function installTarget(
  tenancy: TenancyService,
  profile: CloudProfile,
  job: { tenantId: string; mode: Mode; binding: string | null; overrides?: TargetOverrides | null },
  strict = false,
): Promise<ResolvedTarget> {
  const shared = await tenancy.sharedSet(job.tenantId, job.binding);
  if (job.mode === 'shared' || !job.overrides) return resolveTarget(profile, shared, job.mode);
  const { unheld, kql } = await tenancy.checkOverrides(job.tenantId, job.overrides, strict);
  const target = resolveTarget(profile, shared, job.mode, job.overrides);
  if (job.overrides.kqlClusterUri) {
    target.kqlClusterResourceId = kql?.resourceId;
    target.kqlLocation = kql?.location ?? target.kqlLocation;
  }
  for (const field of unheld) {
    target[field] = undefined;
    if (field === 'warehouseServer') target.warehouseWorkspace = undefined;
    if (field === 'kqlClusterUri') target.kqlClusterResourceId = undefined;
  }
  return target;
}

/** The target as stored and shown in the report: every set value, as strings. */
export function targetRecord(t: ResolvedTarget): Record<string, string> {
  return Object.fromEntries(
    Object.entries(t)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
}
