import type { CloudProfile } from '../cloud/profiles.js';
// What an upgrade (and its plan) computes per item: the installed app's items as stored with their merge base, the
// order of the steps, and the three-way merge of the stored content with the new catalog version's.
import { expandSeedTokens } from '../catalog/seed-tokens.js';
import type { CatalogItem, CuratedApp } from '../catalog/types.js';
import { dependenciesOf, isItemTypeId, isLive, type ItemTypeId } from '../item-types/index.js';
import { unifiedDiff } from '../provisioning/line-diff.js';
import type { AppItemStatus } from '../installed-apps/types.js';
import type { Db } from '../store/db.js';
import type { LiveRecord } from './item-state.js';
import { jsonEqual, type MergeConflict, merge3 } from './merge3.js';

/** One item of an installed app as an upgrade reads it. */
export interface InstalledPart {
  key: string;
  itemId: string;
  itemType: ItemTypeId;
  displayName: string;
  content: unknown;
  etag: string;
  seededAt: Date | null;
  /** What the installed version shipped (installed_app_items.base_content); null when not recorded. */
  base: unknown;
  live: LiveRecord | null;
  /** Its state in the app (installed_app_items.status) and the live resource recorded there. */
  appStatus: AppItemStatus;
  resourceId: string | null;
}

/** The items of the installed app `appId` of the workspace, by key. */
export async function installedParts(
  db: Db,
  scope: { tenantId: string; workspaceId: string },
  appId: string,
): Promise<Map<string, InstalledPart>> {
  const rows = await db
    .selectFrom('installed_app_items as a')
    .innerJoin('items', 'items.id', 'a.item_id')
    .select([
      'a.item_key',
      'a.base_content',
      'a.status',
      'a.resource_id',
      'items.id',
      'items.item_type',
      'items.display_name',
      'items.content',
      'items.etag',
      'items.seeded_at',
      'items.provisioning',
    ])
    .where('a.workspace_id', '=', scope.workspaceId)
    .where('a.app_id', '=', appId)
    .where('items.tenant_id', '=', scope.tenantId)
    .execute();
  const parts = new Map<string, InstalledPart>();
  for (const r of rows) {
    if (!isItemTypeId(r.item_type)) continue;
    parts.set(r.item_key, {
      key: r.item_key,
      itemId: r.id,
      itemType: r.item_type,
      displayName: r.display_name,
      content: r.content,
      etag: r.etag,
      seededAt: r.seeded_at,
      base: r.base_content ?? null,
      live: (r.provisioning as LiveRecord | null) ?? null,
      appStatus: r.status,
      resourceId: r.resource_id,
    });
  }
  return parts;
}

/** Whether the app was installed live: false only when every live-typed item was stored with deploy false. */
export function deployedApp(parts: Map<string, InstalledPart>, profile: CloudProfile): boolean {
  const live = [...parts.values()].filter((p) => isLive(p.itemType, profile, p.live?.backend));
  return !live.length || live.some((p) => p.live && p.live.status !== 'skipped');
}

/** Whether an installed item has (or is to have) a live resource the upgrade works on. */
export const liveOf = (part: InstalledPart, profile: CloudProfile) =>
  isLive(part.itemType, profile, part.live?.backend) && part.live?.status !== 'skipped';

/** The merge of one item: the new version's content expanded at the item's seed instant, the merged content, its conflicts. */
export interface ItemMerge {
  theirs: unknown;
  merged: unknown;
  conflicts: MergeConflict[];
  /** The merged content differs from the stored one. */
  changed: boolean;
}

/** The three-way merge of a stored item: base = what the installed version shipped (or ours), theirs = the new version. */
export function mergeItem(part: Pick<InstalledPart, 'content' | 'base' | 'seededAt'>, next: CatalogItem, now: Date): ItemMerge {
  const theirs = expandSeedTokens(next.content, part.seededAt ?? now);
  const base = part.base ?? part.content;
  const { merged, conflicts } = merge3(base, part.content, theirs);
  return { theirs, merged, conflicts, changed: !conflicts.length && !jsonEqual(merged, part.content) };
}

/** A unified diff of a stored content change (stored/content → upgrade/content); undefined when equal. */
export function contentDiff(before: unknown, after: unknown): string | undefined {
  return unifiedDiff(JSON.stringify(before, null, 2), JSON.stringify(after, null, 2), {
    from: 'stored/content',
    to: 'upgrade/content',
  });
}

/** One step of an upgrade, in execution order. */
export interface UpgradeEntry {
  key: string;
  itemType: ItemTypeId;
  displayName: string;
  /** both: in the installed and the new version; new: added by the new version; dropped: removed by it. */
  kind: 'both' | 'new' | 'dropped';
  part?: InstalledPart;
  next?: CatalogItem;
}

/** Items in dependency order (a dependency before its dependants; the given order otherwise). */
function dependencyOrder<T extends { key: string; itemType: ItemTypeId; content: unknown }>(items: T[], profile: CloudProfile): T[] {
  const keys = new Set(items.map((i) => i.key));
  const done = new Set<string>();
  const out: T[] = [];
  const pending = [...items];
  while (pending.length) {
    const ready = pending.findIndex((i) =>
      dependenciesOf(i.itemType, i.content, profile).every((k) => !keys.has(k) || done.has(k) || k === i.key),
    );
    // A reference cycle cannot be ordered: take the next in order rather than stall.
    const [item] = pending.splice(ready >= 0 ? ready : 0, 1);
    done.add(item!.key);
    out.push(item!);
  }
  return out;
}

/**
 * The upgrade's steps: every item of the new version in its dependency order (kept or added), then the items only the
 * installed version has, in reverse dependency order (a dependant is removed before what it depends on).
 */
export function upgradeEntries(next: CuratedApp, parts: Map<string, InstalledPart>, profile: CloudProfile): UpgradeEntry[] {
  const kept: UpgradeEntry[] = dependencyOrder(next.items, profile).map((item) => {
    const part = parts.get(item.key);
    return part
      ? { key: item.key, itemType: part.itemType, displayName: part.displayName, kind: 'both' as const, part, next: item }
      : { key: item.key, itemType: item.itemType, displayName: item.displayName, kind: 'new' as const, next: item };
  });
  const newKeys = new Set(next.items.map((i) => i.key));
  const dropped = dependencyOrder(
    [...parts.values()].filter((p) => !newKeys.has(p.key)),
    profile,
  )
    .reverse()
    .map((part) => ({ key: part.key, itemType: part.itemType, displayName: part.displayName, kind: 'dropped' as const, part }));
  return [...kept, ...dropped];
}
