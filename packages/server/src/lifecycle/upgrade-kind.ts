import { sql } from 'kysely';
import type { CatalogItem, CuratedApp } from '../catalog/types.js';
import type { JobRecord, LifecycleStepRow } from '../install/job-rows.js';
import { upsertCatalogItem } from '../install/item-upsert.js';
import { isItemTypeId, removerOf } from '../item-types/index.js';
import { underLiveLock } from '../provisioning/live-lock.js';
import { claimForDelete } from './delete-claim.js';
import { newEtag } from '../items/item-service.js';
import { applyStep } from './apply-kind.js';
import { type LiveRecord, recordDeleted } from './item-state.js';
import type { KindHandler } from './lifecycle-runner.js';
import { describeConflicts } from './merge3.js';
import { catalogItemOf, loadStoredApp, type StoredApp, type StoredAppDeps, storedContext } from './stored-app.js';
import type { LifecycleStepResult } from './types.js';
import { recordUpgrade } from './upgrade-finish.js';
import { contentDiff, type InstalledPart, installedParts, mergeItem } from './upgrade-merge.js';

/** What every step of an upgrade reads once per run. */
interface UpgradeScope {
  stored: StoredApp;
  parts: Map<string, InstalledPart>;
  /** The catalog's app, when it is still the version the job was accepted for. */
  next: CuratedApp | undefined;
  now: Date;
}

/**
 * Moves an installed app to the catalog's current version, one item at a time in the new version's dependency order:
 * a three-way merge of each kept item (a conflict writes nothing), the merged content applied live, added items
 * created, dropped ones listed (or removed with removeDropped, data stores always kept). Every step is idempotent.
 */
export function upgradeKind(deps: StoredAppDeps): KindHandler<UpgradeScope> {
  return {
    order: 'ordered',
    prepare: async (job) => {
      const next = deps.catalog.get(job.appId ?? '');
      return {
        stored: await loadStoredApp(deps, job, job.appId),
        parts: await installedParts(deps.db, job, job.appId ?? ''),
        next: next?.version === job.options.toVersion ? next : undefined,
        now: new Date(),
      };
    },
    runStep: (job, scope, step) => upgradeStep(deps, job, scope, step),
    finish: (trx, job, steps, status) => recordUpgrade(trx, deps, job, steps, status),
  };
}

async function upgradeStep(deps: StoredAppDeps, job: JobRecord, scope: UpgradeScope, step: LifecycleStepRow): Promise<LifecycleStepResult> {
  if (!scope.next)
    return {
      status: 'failed',
      code: 'catalog_changed',
      message: `the catalog no longer has ${job.appId} at version ${job.options.toVersion}; upgrade again`,
      steps: [],
    };
  const next = scope.next.items.find((i) => i.key === step.itemKey);
  const part = scope.parts.get(step.itemKey);
  if (next && part) return mergeStep(deps, job, scope, step, part, next);
  if (next) return createStep(deps, job, scope, step, next);
  return dropStep(deps, job, scope, step, part);
}

/** A kept item: merged, the merge stored, and (live) applied to its live resource. */
async function mergeStep(
  deps: StoredAppDeps,
  job: JobRecord,
  scope: UpgradeScope,
  step: LifecycleStepRow,
  part: InstalledPart,
  next: CatalogItem,
): Promise<LifecycleStepResult> {
  const log: string[] = [];
  if (!part.seededAt) {
    // The new version's seed tokens are expanded at one instant, kept, so the job's finish and a later upgrade agree.
    const row = await sql<{ seeded_at: Date }>`
      UPDATE items SET seeded_at = coalesce(seeded_at, ${scope.now.toISOString()}::timestamptz)
      WHERE id = ${part.itemId} AND tenant_id = ${job.tenantId} RETURNING seeded_at`.execute(deps.db);
    part.seededAt = row.rows[0]?.seeded_at ?? scope.now;
  }
  const m = mergeItem(part, next, scope.now);
  if (m.conflicts.length)
    return {
      status: 'conflict',
      conflicts: m.conflicts,
      message: `your edits and version ${job.options.toVersion} change the same parts; nothing was written:\n${describeConflicts(m.conflicts)}`,
      steps: [`merged against version ${job.options.toVersion}: ${m.conflicts.length} conflict(s)`],
    };
  const stored = contentDiff(part.content, m.merged);
  if (m.changed) {
    const etag = newEtag();
    // Only over the content merged against: a save meanwhile is never overwritten (the step fails; a retry merges it).
    const written = await deps.db
      .updateTable('items')
      .set({ content: JSON.stringify(m.merged), etag, updated_at: new Date().toISOString() })
      .where('id', '=', part.itemId)
      .where('tenant_id', '=', job.tenantId)
      .where('etag', '=', part.etag)
      .executeTakeFirst();
    if (!written.numUpdatedRows)
      return { status: 'failed', code: 'item_edited', message: 'the item was saved while the upgrade ran; retry the step', steps: log };
    Object.assign(part, { content: m.merged, etag });
    const item = scope.stored.items.get(step.itemKey);
    if (item) Object.assign(item, { content: m.merged, etag });
    log.push(`merged version ${job.options.toVersion} into the stored content`);
  } else log.push(`the stored content already holds version ${job.options.toVersion}`);
  if (!step.live || !scope.stored.items.has(step.itemKey))
    return { status: m.changed ? 'updated' : 'no-change', ...(stored ? { diff: stored } : {}), steps: log };
  const applied = await applyStep(deps, job, scope.stored, step);
  const status = applied.status === 'no-change' && m.changed ? 'updated' : applied.status;
  const diff = [stored, applied.diff].filter(Boolean).join('\n');
  return { ...applied, status, ...(diff ? { diff } : {}), steps: [...log, ...applied.steps] };
}

/** An item the new version adds: stored (idempotent on its name) and, live, provisioned. */
async function createStep(
  deps: StoredAppDeps,
  job: JobRecord,
  scope: UpgradeScope,
  step: LifecycleStepRow,
  next: CatalogItem,
): Promise<LifecycleStepResult> {
  const where = { tenantId: job.tenantId, workspaceId: job.workspaceId, appId: job.appId ?? '' };
  const id = await upsertCatalogItem(deps.db, where, next, scope.now);
  // The step names its stored item from now on (the job's finish records it in the app).
  await deps.db
    .updateTable('install_steps')
    .set({ cosmos_item_id: id })
    .where('job_id', '=', job.id)
    .where('step_index', '=', step.stepIndex)
    .execute();
  step.cosmosItemId = id;
  const row = await deps.db
    .selectFrom('items')
    .select(['display_name', 'description', 'content', 'etag', 'provisioning'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const item = {
    key: next.key,
    itemId: id,
    itemType: next.itemType,
    displayName: row.display_name,
    description: row.description,
    content: row.content,
    etag: row.etag,
    live: (row.provisioning as LiveRecord | null) ?? null,
  };
  scope.stored.items.set(next.key, item);
  scope.stored.app.items = [...scope.stored.app.items.filter((i) => i.key !== next.key), catalogItemOf(item, deps.profile)];
  const log = [`stored the new item ${next.displayName}`];
  if (!step.live) return { status: 'created', steps: log };
  const applied = await applyStep(deps, job, scope.stored, step);
  // A resumed step finds the resource it created before the process died: it is created, once.
  return { ...applied, status: applied.status === 'no-change' ? 'created' : applied.status, steps: [...log, ...applied.steps] };
}

/** An item the new version no longer has: listed and kept, or (removeDropped) removed unless it holds data. */
async function dropStep(
  deps: StoredAppDeps,
  job: JobRecord,
  scope: UpgradeScope,
  step: LifecycleStepRow,
  part: InstalledPart | undefined,
): Promise<LifecycleStepResult> {
  const version = job.options.toVersion;
  if (!job.options.removeDropped)
    return {
      status: 'dropped',
      message: `version ${version} no longer has ${step.displayName}: it is kept, stored and live as it was (upgrade with removeDropped true to remove it)`,
      steps: [],
    };
  if (!part) return { status: 'not-found', message: `${step.displayName} is already gone`, steps: [] };
  const remover = isItemTypeId(step.itemType) ? removerOf(step.itemType, deps.profile, part.live?.backend) : undefined;
  if (step.live && remover?.holdsData)
    return {
      status: 'kept',
      message: `version ${version} no longer has ${step.displayName}, a data store: an upgrade never deletes data; delete it yourself if it is no longer needed`,
      steps: [],
    };
  const log: string[] = [];
  let removed = false;
  const resourceId = part.live?.resourceId;
  if (step.live && remover && resourceId && !part.live?.deleted) {
    const ctx = storedContext(deps, scope.stored, step.itemKey, (line) => log.push(line));
    // Under the live resource's lock, as an uninstall's step: an install of it elsewhere either recorded it or waits.
    removed = await underLiveLock(deps.locks, job.tenantId, ctx, async () => {
      const sharer = await claimForDelete(deps.db, job.tenantId, part.itemId, step.itemType, resourceId);
      if (sharer) {
        log.push(
          `kept the live resource ${resourceId}: another item still uses it${sharer.workspace ? ` (in workspace '${sharer.workspace}')` : ''}`,
        );
        return false;
      }
      const outcome = await remover.remove(ctx, resourceId);
      await recordDeleted(deps.db, job.tenantId, part.itemId);
      log.push(
        outcome.keptFor
          ? `${outcome.removed ? `deleted the live resource ${resourceId}; part of it is kept` : `kept the live resource ${resourceId}`}: ${outcome.keptFor}`
          : outcome.removed
            ? `deleted the live resource ${resourceId}`
            : `the live resource ${resourceId} was already gone`,
      );
      return outcome.removed;
    });
  }
  const gone = await deps.db.deleteFrom('items').where('id', '=', part.itemId).where('tenant_id', '=', job.tenantId).executeTakeFirst();
  if (gone.numDeletedRows) log.push('deleted the stored item');
  scope.parts.delete(step.itemKey);
  scope.stored.items.delete(step.itemKey);
  return { status: removed || gone.numDeletedRows ? 'deleted' : 'not-found', resourceId: resourceId ?? undefined, steps: log };
}
