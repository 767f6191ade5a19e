import type { Catalog, CatalogItem, CuratedApp } from '../catalog/types.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { isItemTypeId, isLive, type ItemTypeId } from '../item-types/index.js';
import type { Backends, ProvisionContext } from '../provisioning/context.js';
import { installTarget, type ResolvedTarget } from '../provisioning/targets.js';
import { JobLists } from '../provisioning/job-lists.js';
import type { NamedLocks } from '../store/named-locks.js';
import type { Db } from '../store/db.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { bindContent } from '../install/runner.js';
import type { StepResult } from '../install/types.js';
import type { LiveRecord } from './item-state.js';

/** What a lifecycle job reads of its workspace. */
export interface StoredAppDeps {
  db: Db;
  catalog: Catalog;
  profile: CloudProfile;
  tenancy: TenancyService;
  backends: Backends;
  /** Live resources' locks: a step that provisions or removes one holds it (provisioning/live-lock.ts). */
  locks: NamedLocks;
}

/** One stored item as a lifecycle step works on it. */
export interface StoredItem {
  key: string;
  itemId: string;
  itemType: ItemTypeId;
  displayName: string;
  description: string;
  content: unknown;
  etag: string;
  live: LiveRecord | null;
}

/**
 * The stored items of one installed app (or standalone items, keyed by their id) as a lifecycle job sees them: the app
 * rebuilt from what is stored (so a user's edits are what apply and drift compare), the live ids its bindings resolve
 * to, and the target the app was installed into.
 */
export interface StoredApp {
  app: CuratedApp;
  items: Map<string, StoredItem>;
  results: Map<string, StepResult>;
  target: ResolvedTarget;
  /** What the job lists once for all the app's items. */
  lists: JobLists;
}

type Scope = { tenantId: string; workspaceId: string };

/** The stored app `appId` of the workspace, or (appId null) the standalone items named. */
export async function loadStoredApp(deps: StoredAppDeps, scope: Scope, appId: string | null, itemIds: string[] = []): Promise<StoredApp> {
  let q = deps.db
    .selectFrom('items')
    .select(['items.id', 'items.item_type', 'items.display_name', 'items.description', 'items.content', 'items.etag', 'items.provisioning'])
    .where('items.tenant_id', '=', scope.tenantId)
    .where('items.workspace_id', '=', scope.workspaceId);
  const rows = appId
    ? await q
        .innerJoin('installed_app_items as a', 'a.item_id', 'items.id')
        .select('a.item_key')
        .where('a.app_id', '=', appId)
        .where('a.workspace_id', '=', scope.workspaceId)
        .execute()
    : (await (q = q.where('items.id', 'in', itemIds.length ? itemIds : [''])).execute()).map((r) => ({ ...r, item_key: r.id }));
  const items = new Map<string, StoredItem>();
  for (const r of rows) {
    if (!isItemTypeId(r.item_type)) continue;
    items.set(r.item_key, {
      key: r.item_key,
      itemId: r.id,
      itemType: r.item_type,
      displayName: r.display_name,
      description: r.description,
      content: r.content,
      etag: r.etag,
      live: (r.provisioning as LiveRecord | null) ?? null,
    });
  }
  const catalogApp = appId ? deps.catalog.get(appId) : undefined;
  const app: CuratedApp = {
    id: appId ?? `workspace/${scope.workspaceId}`,
    displayName: catalogApp?.displayName ?? appId ?? 'workspace items',
    summary: '',
    description: '',
    version: catalogApp?.version ?? '',
    items: [...items.values()].map((i) => catalogItemOf(i, deps.profile)),
    edges: [],
  };
  const results = new Map<string, StepResult>();
  for (const item of items.values()) {
    const live = item.live;
    if (live?.resourceId && (live.status === 'created' || live.status === 'exists' || live.status === 'updated'))
      results.set(item.key, { status: 'exists', resourceId: live.resourceId, secondaryIds: live.secondaryIds ?? undefined, steps: [] });
  }
  return { app, items, results, target: await targetOf(deps, scope, appId), lists: new JobLists(deps.backends.dataPlatform) };
}

/** A stored item in the shape provisioners read (its live provisioning from its type). */
export function catalogItemOf(item: StoredItem, profile: CloudProfile): CatalogItem {
  return {
    key: item.key,
    itemType: item.itemType,
    displayName: item.displayName,
    description: item.description,
    provisioning: isLive(item.itemType, profile, item.live?.backend) ? 'live' : 'stored',
    content: item.content,
  };
}

/** The context a type's lifecycle operations get for one stored item: its stored content bound to the live ids. */
export function storedContext(deps: StoredAppDeps, stored: StoredApp, key: string, log: (line: string) => void): ProvisionContext {
  const item = stored.items.get(key)!;
  return {
    app: stored.app,
    item: catalogItemOf(item, deps.profile),
    content: bindContent(item.content, stored.results, stored.target, deps.profile),
    storedItemId: item.itemId,
    target: stored.target,
    profile: deps.profile,
    backends: deps.backends,
    log,
    dependency: (k) => stored.results.get(k),
    contentOf: (k) => stored.items.get(k)?.content,
    ...(item.live?.backend ? { backend: item.live.backend } : {}),
    ...(item.live?.secondaryIds ? { recordedIds: item.live.secondaryIds } : {}),
    lists: stored.lists,
  };
}

/** The target the app was installed into (its mode and its last install's overrides), or the workspace's shared target. */
async function targetOf(deps: StoredAppDeps, scope: Scope, appId: string | null): Promise<ResolvedTarget> {
  const ws = await deps.db
    .selectFrom('workspaces')
    .select('platform_workspace_id')
    .where('id', '=', scope.workspaceId)
    .where('tenant_id', '=', scope.tenantId)
    .executeTakeFirst();
  const installed = appId
    ? await deps.db
        .selectFrom('installed_apps')
        .leftJoin('install_jobs', 'install_jobs.id', 'installed_apps.last_job_id')
        .select(['installed_apps.mode', 'install_jobs.target_overrides'])
        .where('installed_apps.tenant_id', '=', scope.tenantId)
        .where('installed_apps.workspace_id', '=', scope.workspaceId)
        .where('installed_apps.app_id', '=', appId)
        .executeTakeFirst()
    : undefined;
  return installTarget(deps.tenancy, deps.profile, {
    tenantId: scope.tenantId,
    mode: installed?.mode ?? 'shared',
    binding: ws?.platform_workspace_id ?? null,
    overrides: installed?.target_overrides ?? null,
  });
}
