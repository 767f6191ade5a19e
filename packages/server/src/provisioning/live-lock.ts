import type { NamedLocks } from '../store/named-locks.js';
import type { StepContext } from './context.js';
import type { ResolvedTarget } from './targets.js';

/**
 * Where an item type's names fall when that is not the platform workspace: the tenant's shared services, which every
 * workspace of the tenant reaches whatever platform workspace it is bound to. A KQL database (and an eventhouse's) is
 * named on the KQL cluster, a search index in the search service, a warehouse's schemas and tables in the dedicated
 * pool. Everything else is named in the platform workspace: its items, and the Azure-native names under its prefix
 * (provisioning/native-scope.ts).
 */
const SHARED_SERVICE_SCOPE: Partial<Record<string, (target: ResolvedTarget) => string>> = {
  'kql-database': (t) => `kql ${t.kqlClusterUri ?? ''}`,
  eventhouse: (t) => `kql ${t.kqlClusterUri ?? ''}`,
  'search-index': (t) => `search ${t.searchService ?? ''}`,
  warehouse: (t) => `sql ${t.warehouseServer ?? ''}/${t.warehouseDatabase ?? t.warehousePool ?? ''}`,
};

/**
 * The lock of one live resource by what names it: the tenant, where its name falls (the platform workspace, or the
 * shared service above), the item type and display name. Installs of one app into two workspaces of a tenant make and
 * share the same resources by name when their names fall in the same place (one platform workspace, or the tenant's
 * KQL cluster, search service or pool whatever platform workspace each is bound to); a step that provisions one and
 * records it, and a removal that checks for other users and deletes it, hold this lock, so neither runs in the middle of
 * the other.
 */
export function liveLockName(tenantId: string, ctx: Pick<StepContext, 'target' | 'item'>): string {
  const scope = SHARED_SERVICE_SCOPE[ctx.item.itemType]?.(ctx.target) ?? ctx.target.platformWorkspaceId ?? '';
  return `svc-live:${tenantId}:${scope}:${ctx.item.itemType}:${ctx.item.displayName.trim().toLowerCase()}`;
}

/** Runs fn under the live resource's lock. */
export const underLiveLock = <T>(locks: NamedLocks, tenantId: string, ctx: Pick<StepContext, 'target' | 'item'>, fn: () => Promise<T>) =>
  locks.run(liveLockName(tenantId, ctx), fn);
