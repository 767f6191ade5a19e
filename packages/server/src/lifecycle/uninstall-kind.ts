import { sql } from 'kysely';
import type { JobRecord, LifecycleStepRow } from '../install/job-rows.js';
import type { JobStatus } from '../install/types.js';
import { removerOf } from '../item-types/index.js';
import { underLiveLock } from '../provisioning/live-lock.js';
import type { Db } from '../store/db.js';
import { claimForDelete, markDeleting } from './delete-claim.js';
import { recordDeleted } from './item-state.js';
import type { KindHandler } from './lifecycle-runner.js';
import { loadStoredApp, type StoredApp, type StoredAppDeps, storedContext } from './stored-app.js';
import type { LifecycleStepResult } from './types.js';

/** Each step's stored item: the stored app it belongs to (bindings resolve through it) and its key there. */
export type UninstallScope = Map<string, { stored: StoredApp; key: string }>;

/**
 * Whether an item with no recorded resource may still have one: its last provisioning step failed (a create accepted,
 * then its operation or a later call failed), rather than never running or stopping at a gate before any write.
 */
export const searchedAfterFailure = (live: { status?: string; resourceId?: string | null; deleted?: boolean } | null) =>
  Boolean(live && !live.resourceId && !live.deleted && live.status === 'failed');

/** The statuses after which the stored item goes: its live resource is gone (or never was). */
const GONE = new Set(['deleted', 'not-found']);

/**
 * Uninstall: deletes live resources in the order the steps were written (dependants first), keeps data stores unless
 * purgeData, then (finish) deletes the stored items whose resource went, detaches the kept ones from their app and
 * removes the installed app — or, with deleteWorkspace and every step done, the workspace.
 */
export function uninstallKind(deps: StoredAppDeps): KindHandler<UninstallScope> {
  return {
    order: 'ordered',
    prepare: (job) => prepareUninstall(deps, job),
    runStep: (job, scope, step) => uninstallStep(deps, job, scope, step),
    finish: (trx, job, steps, status) => finishUninstall(trx, job, steps, status),
  };
}

/** Loads every step's stored item with its app (an app item) or on its own (a standalone item). */
async function prepareUninstall(deps: StoredAppDeps, job: JobRecord): Promise<UninstallScope> {
  const rows = await deps.db.selectFrom('install_steps').select('cosmos_item_id').where('job_id', '=', job.id).execute();
  const ids = rows.map((r) => r.cosmos_item_id).filter((id): id is string => Boolean(id));
  const scope: UninstallScope = new Map();
  if (!ids.length) return scope;
  const members = await deps.db
    .selectFrom('installed_app_items')
    .select(['item_id', 'app_id'])
    .where('workspace_id', '=', job.workspaceId)
    .where('item_id', 'in', ids)
    .execute();
  const apps = new Set(members.map((m) => m.app_id));
  const standalone = ids.filter((id) => !members.some((m) => m.item_id === id));
  const loaded = await Promise.all([
    ...[...apps].map((appId) => loadStoredApp(deps, job, appId)),
    ...(standalone.length ? [loadStoredApp(deps, job, null, standalone)] : []),
  ]);
  for (const stored of loaded) for (const item of stored.items.values()) scope.set(item.itemId, { stored, key: item.key });
  return scope;
}

/** One item: its live resource deleted (or kept, or already gone); never deletes anything twice across a resume. */
async function uninstallStep(
  deps: StoredAppDeps,
  job: JobRecord,
  scope: UninstallScope,
  step: LifecycleStepRow,
): Promise<LifecycleStepResult> {
  const entry = step.cosmosItemId ? scope.get(step.cosmosItemId) : undefined;
  if (!entry) return { status: 'not-found', message: 'the stored item was already deleted', steps: [] };
  const item = entry.stored.items.get(entry.key)!;
  const remover = removerOf(item.itemType, deps.profile, item.live?.backend);
  const live = item.live as (typeof item.live & { deleting?: boolean }) | null;
  const log: string[] = [];
  const ctx = storedContext(deps, entry.stored, entry.key, (line) => log.push(line));
  // Under the live resource's lock: an install of the same resource elsewhere either recorded it (a sharer) or waits.
  return underLiveLock(deps.locks, job.tenantId, ctx, async () => {
    let resourceId = live?.resourceId ?? undefined;
    // A step that failed midway (its create went through, a later call did not) recorded no resource: look it up by name.
    if (remover && !resourceId && searchedAfterFailure(live)) {
      resourceId = await remover.find(ctx);
      log.push(
        resourceId
          ? `its last step failed midway; found what it made: ${resourceId}`
          : 'its last step failed; nothing of that name was made',
      );
    }
    if (!remover || !resourceId) {
      const why = remover ? 'it was never provisioned' : `a ${item.itemType} is stored in the service only`;
      return { status: 'deleted', message: `nothing live to delete: ${why}; the stored item is deleted`, steps: log };
    }
    // An item deleted on its own (deleteLive) was asked for explicitly: a data store goes too.
    const purge = Boolean(job.options.purgeData || job.options.itemId);
    if (remover.holdsData && !purge)
      return {
        status: 'kept',
        resourceId,
        message: `kept because a ${item.itemType} holds data; pass purgeData to delete it. The stored item stays in the workspace, detached from the app`,
        steps: log,
      };
    // Written before the delete (a run resumed after the delete went through finds nothing and still answers
    // `deleted`), unless another stored item still uses the same live resource (another workspace's install of the app
    // into the same platform workspace finds and shares it by name): then it is kept for that item.
    const sharer = await claimForDelete(deps.db, job.tenantId, item.itemId, item.itemType, resourceId);
    if (sharer)
      return {
        status: 'kept',
        code: 'shared',
        resourceId,
        message: `the stored item is deleted; its live resource is kept because another item still uses this live ${item.itemType}${sharer.workspace ? ` (in workspace '${sharer.workspace}')` : ''}; it is deleted with the last item that uses it`,
        steps: [],
      };
    try {
      const { removed, keptFor } = await remover.remove(ctx, resourceId);
      await recordDeleted(deps.db, job.tenantId, item.itemId);
      if (keptFor && removed) return { status: 'deleted', resourceId, message: `deleted; part of it is kept: ${keptFor}`, steps: log };
      if (keptFor)
        return {
          status: 'kept',
          code: 'shared',
          resourceId,
          message: `the stored item is deleted; its live resource is kept because ${keptFor}; it is deleted with the last item that uses it`,
          steps: log,
        };
      if (removed) return { status: 'deleted', resourceId, steps: log };
      if (live?.deleting || live?.deleted)
        return { status: 'deleted', resourceId, message: 'deleted by an earlier run of this job', steps: log };
      return { status: 'not-found', resourceId, message: 'the live resource was already gone (deleted outside the service)', steps: log };
    } catch (err) {
      // The delete did not happen: a later uninstall that finds nothing must not claim it.
      if (!live?.deleting) await markDeleting(deps.db, job.tenantId, item.itemId, false);
      throw err;
    }
  });
}

/**
 * In the job's final transaction: stored items whose resource is gone are deleted (their edges and app rows cascade);
 * kept data stores are detached from their app; an app whose steps all succeeded is removed, else marked failed with
 * the items that remain; a forced workspace delete deletes the workspace once everything succeeded.
 */
async function finishUninstall(trx: Db, job: JobRecord, steps: LifecycleStepRow[], status: JobStatus) {
  const idsOf = (ok: (s: string) => boolean) =>
    steps.filter((s) => s.cosmosItemId && s.result && ok(s.result.status)).map((s) => s.cosmosItemId!);
  // A resource kept because another item shares it is that item's now: this stored item goes like a deleted one.
  const shared = new Set(steps.filter((s) => s.result?.status === 'kept' && s.result.code === 'shared').map((s) => s.cosmosItemId));
  const gone = idsOf((s) => GONE.has(s)).concat(steps.filter((s) => shared.has(s.cosmosItemId)).map((s) => s.cosmosItemId!));
  const kept = idsOf((s) => s === 'kept').filter((id) => !shared.has(id));
  const bad = idsOf((s) => s === 'failed' || s === 'remediation');
  const apps = await trx
    .selectFrom('installed_app_items')
    .select(['app_id', 'item_id'])
    .where('workspace_id', '=', job.workspaceId)
    .where('item_id', 'in', [...gone, ...kept, ...bad, ''])
    .execute();
  if (gone.length) await trx.deleteFrom('items').where('tenant_id', '=', job.tenantId).where('id', 'in', gone).execute();
  if (kept.length) {
    await trx.deleteFrom('installed_app_items').where('workspace_id', '=', job.workspaceId).where('item_id', 'in', kept).execute();
    await trx.updateTable('items').set({ app_id: null }).where('tenant_id', '=', job.tenantId).where('id', 'in', kept).execute();
  }
  if (job.options.itemId) return;
  // A forced workspace delete uninstalls every app the workspace has (all were marked uninstalling at accept).
  const appIds = job.appId
    ? [job.appId]
    : (await trx.selectFrom('installed_apps').select('app_id').where('workspace_id', '=', job.workspaceId).execute()).map((a) => a.app_id);
  for (const appId of appIds) {
    const failed = apps.some((a) => a.app_id === appId && bad.includes(a.item_id));
    const q = trx.updateTable('installed_apps').where('workspace_id', '=', job.workspaceId).where('app_id', '=', appId);
    if (failed) await q.set({ status: 'failed', updated_by: job.createdBy, updated_at: new Date().toISOString() }).execute();
    else await trx.deleteFrom('installed_apps').where('workspace_id', '=', job.workspaceId).where('app_id', '=', appId).execute();
  }
  if (job.options.deleteWorkspace && status === 'done')
    await trx.deleteFrom('workspaces').where('id', '=', job.workspaceId).where('tenant_id', '=', job.tenantId).execute();
}
