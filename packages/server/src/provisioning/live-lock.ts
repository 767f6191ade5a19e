import type { NamedLocks } from '../store/named-locks.js';
import type { StepContext } from './context.js';

/**
 * The lock of one live resource by what names it: the tenant, the platform workspace its names fall under, the item
 * type and display name. Installs of one app into two workspaces of a tenant that share a platform workspace (or its
 * Azure-native prefix) make and share the same resources by name; a step that provisions one and records it, and a
 * removal that checks for other users and deletes it, hold this lock, so neither runs in the middle of the other.
 */
export function liveLockName(tenantId: string, ctx: Pick<StepContext, 'target' | 'item'>): string {
  const ws = ctx.target.platformWorkspaceId ?? '';
  return `svc-live:${tenantId}:${ws}:${ctx.item.itemType}:${ctx.item.displayName.trim().toLowerCase()}`;
}

/** Runs fn under the live resource's lock. */
export const underLiveLock = <T>(locks: NamedLocks, tenantId: string, ctx: Pick<StepContext, 'target' | 'item'>, fn: () => Promise<T>) =>
  locks.run(liveLockName(tenantId, ctx), fn);
