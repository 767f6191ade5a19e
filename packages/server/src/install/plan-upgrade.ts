import type { Caller } from '../auth/caller.js';
import { expandSeedTokens } from '../catalog/seed-tokens.js';
import { NotFoundError } from '../errors.js';
import { dependenciesOf, isLive, removerOf } from '../item-types/index.js';
import { loadStoredApp, type StoredAppDeps, storedContext } from '../lifecycle/stored-app.js';
import {
  contentDiff,
  deployedApp,
  installedParts,
  liveOf,
  mergeItem,
  type UpgradeEntry,
  upgradeEntries,
} from '../lifecycle/upgrade-merge.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { type InstallPlan, type PlanItem, planItem } from './plan-service.js';

/** The body of an upgrade's plan. */
export interface UpgradePlanBody {
  workspaceId: string;
  removeDropped?: boolean;
}

/**
 * The dry run of an upgrade: per item, what upgrading the installed app to the catalog's version would do, from the
 * same merge the upgrade runs (create, update with the diff of the stored content and of the live resource, no-change,
 * conflict with the conflicting parts, remove or keep for dropped items, blocked, failed). Live resources are read with
 * read-only calls only; nothing is stored and nothing is changed.
 */
export class UpgradePlanner {
  constructor(private readonly deps: StoredAppDeps & { workspaces: WorkspaceService }) {}

  async plan(caller: Caller, appId: string, body: UpgradePlanBody): Promise<InstallPlan> {
    const workspace = await this.deps.workspaces.get(caller, body.workspaceId);
    const scope = { tenantId: caller.tenantId, workspaceId: workspace.id };
    const installed = await this.deps.db
      .selectFrom('installed_apps')
      .select(['version', 'mode'])
      .where('tenant_id', '=', caller.tenantId)
      .where('workspace_id', '=', workspace.id)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (!installed) throw new NotFoundError('Installed app', appId);
    const next = this.deps.catalog.get(appId);
    if (!next) throw new NotFoundError('App', appId);
    const parts = await installedParts(this.deps.db, scope, appId);
    const stored = await loadStoredApp(this.deps, scope, appId);
    const deployed = deployedApp(parts, this.deps.profile);
    const now = new Date();
    const planned = new Map<string, PlanItem>();
    for (const entry of upgradeEntries(next, parts, this.deps.profile)) {
      const item = await this.planEntry(entry, { stored, deployed, now, planned, removeDropped: body.removeDropped ?? false });
      planned.set(entry.key, item);
    }
    return {
      appId,
      version: next.version,
      fromVersion: installed.version,
      workspaceId: workspace.id,
      mode: installed.mode,
      items: [...planned.values()],
    };
  }

  private async planEntry(
    entry: UpgradeEntry,
    run: {
      stored: Awaited<ReturnType<typeof loadStoredApp>>;
      deployed: boolean;
      now: Date;
      planned: Map<string, PlanItem>;
      removeDropped: boolean;
    },
  ): Promise<PlanItem> {
    const head = { key: entry.key, itemType: entry.itemType, displayName: entry.displayName };
    const { stored } = run;
    // What the item would send may depend on items the upgrade creates first (their live ids are not known yet).
    const created = (content: unknown) =>
      dependenciesOf(entry.itemType, content, this.deps.profile).filter((k) => run.planned.get(k)?.action === 'create');
    const readLive = async (content: unknown) => {
      const current = stored.items.get(entry.key);
      if (current) current.content = content;
      const result = await planItem(
        storedContext(this.deps, stored, entry.key, () => {}),
        created(content),
      );
      if (result.resourceId)
        stored.results.set(entry.key, { status: 'exists', resourceId: result.resourceId, secondaryIds: result.secondaryIds, steps: [] });
      return result.item;
    };

    if (entry.kind === 'dropped') {
      const part = entry.part!;
      const remover = removerOf(entry.itemType, this.deps.profile, entry.part?.live?.backend);
      if (!run.removeDropped)
        return {
          ...head,
          action: 'keep',
          message: 'the new version no longer has it: kept (upgrade with removeDropped true to remove it)',
        };
      if (liveOf(part, this.deps.profile) && remover?.holdsData)
        return {
          ...head,
          action: 'keep',
          message: 'the new version no longer has it, but it holds data: an upgrade never deletes a data store',
        };
      return { ...head, action: 'remove', calls: liveOf(part, this.deps.profile) && remover ? [...remover.calls(part.content)] : [] };
    }

    if (entry.kind === 'new') {
      const content = expandSeedTokens(entry.next!.content, run.now);
      stored.items.set(entry.key, {
        key: entry.key,
        itemId: '',
        itemType: entry.itemType,
        displayName: entry.displayName,
        description: entry.next!.description,
        content,
        etag: '',
        live: null,
      });
      if (!run.deployed || !isLive(entry.itemType, this.deps.profile)) return { ...head, action: 'create' };
      const live = await readLive(content);
      // The stored item is created either way; a live resource of that name already there is taken over, not made twice.
      return live.action === 'no-change' ? { ...live, action: 'create' } : live;
    }

    const part = entry.part!;
    const m = mergeItem(part, entry.next!, run.now);
    if (m.conflicts.length)
      return {
        ...head,
        action: 'conflict',
        conflicts: m.conflicts,
        message: 'your edits and the new version change the same parts: the upgrade leaves this item as it is',
      };
    const storedDiff = m.changed ? contentDiff(part.content, m.merged) : undefined;
    if (!liveOf(part, this.deps.profile))
      return storedDiff ? { ...head, action: 'update', diff: storedDiff } : { ...head, action: 'no-change' };
    const live = await readLive(m.merged);
    if (live.action === 'update' || (live.action === 'no-change' && storedDiff)) {
      const diff = [storedDiff, live.diff].filter(Boolean).join('\n');
      return { ...live, action: 'update', ...(diff ? { diff } : {}) };
    }
    return storedDiff && live.action === 'create' ? { ...live, diff: storedDiff } : live;
  }
}
