import { expandSeedTokens } from '../catalog/seed-tokens.js';
import type { JobRecord, LifecycleStepRow } from '../install/job-rows.js';
import { recordAppEdges } from '../install/thread-edges.js';
import type { JobStatus } from '../install/types.js';
import { recordInstalledApp } from '../installed-apps/app-records.js';
import type { AppItemStatus, InstalledAppRecord } from '../installed-apps/types.js';
import type { Db } from '../store/db.js';
import type { StoredAppDeps } from './stored-app.js';
import type { LifecycleStepResult } from './types.js';
import { installedParts, mergeItem } from './upgrade-merge.js';

/** An item's state in its app after an upgrade step; undefined: the step did not touch its live state (kept as it was). */
function appStatusOf(step: LifecycleStepRow): AppItemStatus | undefined {
  const r: LifecycleStepResult | null = step.result;
  if (!step.live) return 'stored';
  if (!r) return undefined;
  if (r.status === 'created' || r.status === 'updated' || r.status === 'no-change') return 'created';
  if (r.status === 'remediation' || r.status === 'failed') return r.status;
  return undefined;
}

/**
 * The upgrade's record, written with the job's end: the installed app at the new version when every step merged (else
 * the version it had, partial), its items (the new version's and the dropped ones kept), and each item's merge base:
 * the new version's content where the stored content now holds it, the old base where it does not (a conflict), so
 * the next upgrade merges against what the item really holds. The new version's thread edges are recorded too.
 */
export async function recordUpgrade(trx: Db, deps: StoredAppDeps, job: JobRecord, steps: LifecycleStepRow[], status: JobStatus) {
  const appId = job.appId ?? '';
  const current = await trx
    .selectFrom('installed_apps')
    .select(['mode', 'target', 'version'])
    .where('tenant_id', '=', job.tenantId)
    .where('workspace_id', '=', job.workspaceId)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  // The app was uninstalled (or its workspace deleted) meanwhile: there is nothing left to record.
  if (!current) return;
  const next = deps.catalog.get(appId);
  const merged = status === 'done' && next?.version === job.options.toVersion;
  const parts = await installedParts(trx, job, appId);
  const added = steps.filter((s) => s.cosmosItemId && !parts.has(s.itemKey)).map((s) => s.cosmosItemId!);
  const addedRows = added.length
    ? await trx
        .selectFrom('items')
        .select(['id', 'item_type', 'content', 'seeded_at'])
        .where('id', 'in', added)
        .where('tenant_id', '=', job.tenantId)
        .execute()
    : [];
  const now = new Date();
  const items: InstalledAppRecord['items'] = [];
  for (const step of steps) {
    const nextItem = next?.items.find((i) => i.key === step.itemKey);
    const part = parts.get(step.itemKey);
    if (part) {
      let base: unknown = part.base ?? undefined;
      if (nextItem) {
        const m = mergeItem(part, nextItem, now);
        if (!m.conflicts.length && !m.changed) base = m.theirs;
      }
      items.push({
        key: step.itemKey,
        itemType: part.itemType,
        itemId: part.itemId,
        resourceId: step.result?.resourceId ?? part.resourceId,
        status: appStatusOf(step) ?? part.appStatus,
        baseContent: base,
      });
      continue;
    }
    const row = addedRows.find((r) => r.id === step.cosmosItemId);
    if (!row || !nextItem) continue;
    items.push({
      key: step.itemKey,
      itemType: row.item_type,
      itemId: row.id,
      resourceId: step.result?.resourceId ?? null,
      status: appStatusOf(step) ?? 'pending',
      baseContent: expandSeedTokens(nextItem.content, row.seeded_at ?? now),
    });
  }
  await recordInstalledApp(trx, {
    tenantId: job.tenantId,
    workspaceId: job.workspaceId,
    appId,
    version: merged ? (job.options.toVersion ?? current.version) : current.version,
    mode: current.mode,
    target: current.target ?? {},
    status: merged ? 'installed' : 'partial',
    jobId: job.id,
    by: job.createdBy,
    items,
  });
  if (next) await recordAppEdges(trx, job, next, new Map(items.map((i) => [i.key, i.itemId])));
}
