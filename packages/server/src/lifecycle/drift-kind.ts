import type { CloudProfile } from '../cloud/profiles.js';
import type { JobRecord, LifecycleStepRow } from '../install/job-rows.js';
import type { JobStore } from '../install/job-store.js';
import { compareParts } from '../install/plan-compare.js';
import { isItemTypeId, isLive, plannerOf } from '../item-types/index.js';
import type { Db } from '../store/db.js';
import { type LiveRecord, recordDrift } from './item-state.js';
import type { KindHandler } from './lifecycle-runner.js';
import type { NewStep } from './start-job.js';
import { loadStoredApp, type StoredApp, type StoredAppDeps, storedContext } from './stored-app.js';
import type { LifecycleStepResult } from './types.js';

/** The live record statuses that leave a live resource the drift check can read. */
const LIVE_STATUSES = new Set(['created', 'exists', 'updated']);

/** Whether an item's live record names a live resource the service made and has not deleted. */
export function hasLiveResource(live: LiveRecord | null): boolean {
  return !!live?.resourceId && LIVE_STATUSES.has(live.status) && !live.deleted;
}

/**
 * The steps of a drift job of the workspace: one per item of a live type with a live resource, an installed app's
 * items together (apps by id, then the standalone items; each by key), the step's key the item's key in its app (a
 * standalone item: its id).
 */
export async function driftSteps(db: Db, profile: CloudProfile, tenantId: string, workspaceId: string): Promise<NewStep[]> {
  const rows = await db
    .selectFrom('items')
    .leftJoin('installed_app_items as a', (j) => j.onRef('a.item_id', '=', 'items.id').onRef('a.workspace_id', '=', 'items.workspace_id'))
    .select(['items.id', 'items.item_type', 'items.display_name', 'items.provisioning', 'a.app_id', 'a.item_key'])
    .where('items.tenant_id', '=', tenantId)
    .where('items.workspace_id', '=', workspaceId)
    .execute();
  const live = rows.filter(
    (r) =>
      isItemTypeId(r.item_type) &&
      isLive(r.item_type, profile, (r.provisioning as LiveRecord | null)?.backend) &&
      hasLiveResource((r.provisioning as LiveRecord | null) ?? null),
  );
  // Standalone items (no app) sort after every app's.
  const sortKey = (r: (typeof live)[number]) => [r.app_id === null ? 1 : 0, r.app_id ?? '', r.item_key ?? r.id] as const;
  live.sort((x, y) => {
    const [a, b] = [sortKey(x), sortKey(y)];
    return a[0] - b[0] || a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]);
  });
  return live.map((r) => ({
    itemKey: r.item_key ?? r.id,
    itemType: r.item_type,
    displayName: r.display_name,
    live: true,
    cosmosItemId: r.id,
  }));
}

/** Where a step's item is in what a drift job loaded: its stored app and its key there. */
interface Located {
  stored: StoredApp;
  key: string;
}

/**
 * Drift: reads each live item's definition or state from its backing service with the type's read-only calls and
 * compares it with what its stored content would send: `in-sync`, `drifted` (with the diff) or `missing`. The verdict is
 * recorded on the item (its live state shows drifted or missing). Steps run in parallel: each reads, none writes.
 */
export function driftKind(deps: StoredAppDeps & { jobs: JobStore }): KindHandler<Map<string, Located>> {
  return {
    order: 'parallel',
    prepare: (job) => loadApps(deps, job),
    runStep: (job, located, step) => driftStep(deps, job, located, step),
    finish: async () => {},
  };
}

/** Each installed app of the job's items loaded once (and the standalone items together), by stored item id. */
async function loadApps(deps: StoredAppDeps & { jobs: JobStore }, job: JobRecord): Promise<Map<string, Located>> {
  const ids = (await deps.jobs.lifecycleSteps(job.id)).flatMap((s) => (s.cosmosItemId ? [s.cosmosItemId] : []));
  const located = new Map<string, Located>();
  if (!ids.length) return located;
  const members = await deps.db
    .selectFrom('installed_app_items')
    .select(['app_id', 'item_id'])
    .where('workspace_id', '=', job.workspaceId)
    .where('item_id', 'in', ids)
    .execute();
  const appOf = new Map(members.map((m) => [m.item_id, m.app_id]));
  const groups = new Map<string | null, string[]>();
  for (const id of ids) {
    const app = appOf.get(id) ?? null;
    groups.set(app, [...(groups.get(app) ?? []), id]);
  }
  for (const [appId, itemIds] of groups) {
    const stored = await loadStoredApp(deps, job, appId, appId ? [] : itemIds);
    for (const item of stored.items.values()) located.set(item.itemId, { stored, key: item.key });
  }
  return located;
}

/** Reads one item's live resource and compares it with its stored content; records the verdict on the item. */
async function driftStep(
  deps: StoredAppDeps,
  job: JobRecord,
  located: Map<string, Located>,
  step: LifecycleStepRow,
): Promise<LifecycleStepResult> {
  const where = step.cosmosItemId ? located.get(step.cosmosItemId) : undefined;
  const item = where?.stored.items.get(where.key);
  if (!where || !item)
    return { status: 'failed', code: 'item_deleted', message: 'the stored item was deleted before its drift check', steps: [] };
  const log: string[] = [];
  const ctx = storedContext(deps, where.stored, where.key, (line) => log.push(line));
  const planner = plannerOf(item.itemType, deps.profile, item.live?.backend)!;
  const live = await planner.readLive(ctx);
  const at = new Date().toISOString();
  if (!live) {
    await recordDrift(deps.db, job.tenantId, item.itemId, { status: 'missing', jobId: job.id, at, etag: item.etag });
    return {
      status: 'missing',
      resourceId: item.live?.resourceId ?? undefined,
      message: 'the live resource is gone: it was deleted outside the service (apply creates it again)',
      steps: [...log, 'the live resource was not found'],
    };
  }
  const diff = compareParts(live.parts, await planner.desired(ctx));
  await recordDrift(deps.db, job.tenantId, item.itemId, { status: diff ? 'drifted' : 'in-sync', diff, jobId: job.id, at, etag: item.etag });
  const ids = { resourceId: live.resourceId, ...(live.secondaryIds ? { secondaryIds: live.secondaryIds } : {}) };
  return diff
    ? { status: 'drifted', ...ids, diff, steps: [...log, 'the live resource differs from the stored content'] }
    : { status: 'in-sync', ...ids, steps: [...log, 'the live resource holds the stored content'] };
}
