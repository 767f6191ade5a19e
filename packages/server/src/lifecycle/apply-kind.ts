import type { JobRecord, LifecycleStepRow } from '../install/job-rows.js';
import { runProvisioner } from '../install/runner.js';
import { compareParts } from '../install/plan-compare.js';
import { plannerOf } from '../item-types/index.js';
import { underLiveLock } from '../provisioning/live-lock.js';
import type { Db } from '../store/db.js';
import { recordLiveStep } from './item-state.js';
import type { KindHandler } from './lifecycle-runner.js';
import { loadStoredApp, type StoredApp, type StoredAppDeps, storedContext } from './stored-app.js';
import type { LifecycleStepResult } from './types.js';

/**
 * Pushes an item's stored content to its live resource through its type's create-or-update (update definition, index
 * PUT, `.create-or-alter`, the warehouse's view batches, the report import with Overwrite). The live resource is read
 * first: nothing is sent when it already holds what the content would send (`no-change`).
 */
export function applyKind(deps: StoredAppDeps): KindHandler<StoredApp> {
  return {
    order: 'ordered',
    prepare: (job) => loadStoredApp(deps, job, job.appId, job.options.itemId ? [job.options.itemId] : []),
    runStep: (job, stored, step) => applyStep(deps, job, stored, step),
    finish: async () => {},
  };
}

/** Applies one stored item to its live resource and records the result as the item's live state; never throws past a step. */
export async function applyStep(
  deps: StoredAppDeps,
  job: JobRecord,
  stored: StoredApp,
  step: LifecycleStepRow,
): Promise<LifecycleStepResult> {
  const item = stored.items.get(step.itemKey);
  if (!item) return { status: 'failed', code: 'item_deleted', message: 'the stored item was deleted before it was applied', steps: [] };
  const log: string[] = [];
  const ctx = storedContext(deps, stored, step.itemKey, (line) => log.push(line));
  // Under the live resource's lock, like an install's step: a removal of the same resource elsewhere never runs midway.
  return underLiveLock(deps.locks, job.tenantId, ctx, async () => {
    const planner = plannerOf(item.itemType, deps.profile, item.live?.backend)!;
    const live = await planner.readLive(ctx);
    if (live) {
      const diff = compareParts(live.parts, await planner.desired(ctx));
      if (!diff) {
        const result: LifecycleStepResult = {
          status: 'no-change',
          resourceId: live.resourceId,
          secondaryIds: live.secondaryIds,
          steps: [...log, 'the live resource already holds the stored content'],
        };
        await record(deps.db, job, stored, step, { ...result, status: 'exists' }, item.etag);
        return result;
      }
      log.push('the live resource differs from the stored content: updating');
      const applied = await runProvisioner({ ...ctx, liveDiffers: true });
      await record(deps.db, job, stored, step, applied, item.etag);
      return applied.status === 'created' || applied.status === 'exists'
        ? { ...applied, status: 'updated', diff, steps: [...log, ...applied.steps] }
        : { ...applied, status: applied.status === 'remediation' ? 'remediation' : 'failed', steps: [...log, ...applied.steps] };
    }
    const created = await runProvisioner(ctx);
    await record(deps.db, job, stored, step, created, item.etag);
    const ok = created.status === 'created' || created.status === 'exists';
    return {
      ...created,
      status: ok ? 'created' : created.status === 'remediation' ? 'remediation' : 'failed',
      steps: [...log, ...created.steps],
    };
  });
}

/** The item's live record, its app's item row, and the live ids its dependants bind to in this job. */
async function record(
  db: Db,
  job: JobRecord,
  stored: StoredApp,
  step: LifecycleStepRow,
  result: Parameters<typeof recordLiveStep>[3],
  etag: string,
) {
  const item = stored.items.get(step.itemKey)!;
  await recordLiveStep(db, job.tenantId, item.itemId, { ...result, jobId: job.id }, etag);
  if (result.resourceId) {
    stored.results.set(step.itemKey, { status: 'exists', resourceId: result.resourceId, secondaryIds: result.secondaryIds, steps: [] });
    if (job.appId)
      await db
        .updateTable('installed_app_items')
        .set({ resource_id: result.resourceId, status: 'created' })
        .where('workspace_id', '=', job.workspaceId)
        .where('app_id', '=', job.appId)
        .where('item_key', '=', step.itemKey)
        .execute();
  }
}
