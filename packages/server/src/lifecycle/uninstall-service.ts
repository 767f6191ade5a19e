import type { CloudProfile } from '../cloud/profiles.js';
import type { Caller } from '../auth/caller.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { JobStore } from '../install/job-store.js';
import { dependenciesOf, isItemTypeId, isLive } from '../item-types/index.js';
import type { Db } from '../store/db.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import type { LiveRecord } from './item-state.js';
import { type NewStep, startLifecycleJob } from './start-job.js';

/** A stored item as an uninstall orders it. */
interface ItemRow {
  key: string;
  id: string;
  itemType: string;
  displayName: string;
  content: unknown;
  provisioning: unknown;
}

/** The items in uninstall order: dependants before what they depend on (the reverse of the install's order). */
export function reverseDependencyOrder<T extends { key: string; itemType: string; content: unknown; provisioning?: unknown }>(
  items: T[],
  profile: CloudProfile,
): T[] {
  const byKey = new Map(items.map((i) => [i.key, i]));
  const order: T[] = [];
  const seen = new Set<string>();
  const visit = (item: T) => {
    if (seen.has(item.key)) return;
    seen.add(item.key);
    const recorded = (item.provisioning as LiveRecord | null | undefined)?.backend;
    const deps = isItemTypeId(item.itemType) ? dependenciesOf(item.itemType, item.content, profile, recorded) : [];
    for (const k of deps) if (byKey.has(k)) visit(byKey.get(k)!);
    order.push(item);
  };
  for (const item of items) visit(item);
  return order.reverse();
}

/** The step of one stored item: live when it has a live resource to delete. */
function stepOf(item: ItemRow, profile: CloudProfile): NewStep {
  const live = item.provisioning as LiveRecord | null;
  return {
    itemKey: item.key,
    itemType: item.itemType,
    displayName: item.displayName,
    live: isItemTypeId(item.itemType) && isLive(item.itemType, profile, live?.backend) && Boolean(live?.resourceId),
    cosmosItemId: item.id,
  };
}

/** Starts uninstall jobs: an installed app, one item's live resource (deleteLive), every app of a workspace being deleted. */
export class UninstallService {
  constructor(
    private readonly deps: { db: Db; profile: CloudProfile; jobs: JobStore; workspaces: WorkspaceService; onAccepted: () => void },
  ) {}

  /** Writes the uninstall job of an installed app and marks the app uninstalling, in one transaction; answers its id. */
  async uninstallApp(caller: Caller, workspaceId: string, appId: string, opts: { purgeData?: boolean }): Promise<{ jobId: string }> {
    await this.deps.workspaces.get(caller, workspaceId);
    const jobId = await this.deps.db.transaction().execute(async (trx) => {
      const app = await trx
        .selectFrom('installed_apps')
        .select(['app_id', 'mode'])
        .where('tenant_id', '=', caller.tenantId)
        .where('workspace_id', '=', workspaceId)
        .where('app_id', '=', appId)
        .forUpdate()
        .executeTakeFirst();
      if (!app) throw new NotFoundError('Installed app', appId);
      await this.refuseRunning(trx, caller.tenantId, workspaceId, [appId]);
      const items = reverseDependencyOrder(await this.appItems(trx, workspaceId, [appId]), this.deps.profile);
      const id = await startLifecycleJob(
        this.deps.jobs,
        caller,
        {
          kind: 'uninstall',
          workspaceId,
          appId,
          options: { purgeData: opts.purgeData ?? false },
          mode: app.mode,
          steps: items.map((i) => stepOf(i, this.deps.profile)),
        },
        trx,
      );
      await this.markUninstalling(trx, workspaceId, [appId], caller.userId);
      return id;
    });
    this.deps.onAccepted();
    return { jobId };
  }

  /** Writes the uninstall job of one item's live resource (a data store too: the caller asked for it); answers its id. */
  async deleteLive(caller: Caller, workspaceId: string, itemId: string): Promise<{ jobId: string }> {
    await this.deps.workspaces.get(caller, workspaceId);
    const item = await this.deps.db
      .selectFrom('items')
      .leftJoin('installed_app_items as a', 'a.item_id', 'items.id')
      .select(['items.id', 'items.item_type', 'items.display_name', 'items.content', 'items.provisioning', 'a.app_id', 'a.item_key'])
      .where('items.id', '=', itemId)
      .where('items.workspace_id', '=', workspaceId)
      .where('items.tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!item) throw new NotFoundError('Item', itemId);
    if (item.app_id) await this.refuseRunning(this.deps.db, caller.tenantId, workspaceId, [item.app_id]);
    const row = {
      key: item.item_key ?? item.id,
      id: item.id,
      itemType: item.item_type,
      displayName: item.display_name,
      content: item.content,
      provisioning: item.provisioning,
    };
    const jobId = await startLifecycleJob(this.deps.jobs, caller, {
      kind: 'uninstall',
      workspaceId,
      appId: item.app_id ?? null,
      options: { itemId, purgeData: true },
      steps: [stepOf(row, this.deps.profile)],
    });
    this.deps.onAccepted();
    return { jobId };
  }

  /** The apps installed in a workspace (of the tenant), by app id. */
  async installedApps(tenantId: string, workspaceId: string): Promise<string[]> {
    const rows = await this.deps.db
      .selectFrom('installed_apps')
      .select('app_id')
      .where('tenant_id', '=', tenantId)
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => r.app_id);
  }

  /**
   * Writes ONE uninstall job over every installed app's items (app by app, each in uninstall order) whose end deletes
   * the workspace when every step succeeded; the apps are marked uninstalling with it. Answers its id.
   */
  async uninstallWorkspace(caller: Caller, workspaceId: string, opts: { purgeData?: boolean }): Promise<{ jobId: string }> {
    const jobId = await this.deps.db.transaction().execute(async (trx) => {
      const apps = (
        await trx
          .selectFrom('installed_apps')
          .select('app_id')
          .where('tenant_id', '=', caller.tenantId)
          .where('workspace_id', '=', workspaceId)
          .orderBy('created_at')
          .forUpdate()
          .execute()
      ).map((a) => a.app_id);
      await this.refuseRunning(trx, caller.tenantId, workspaceId, apps);
      const all = await this.appItems(trx, workspaceId, apps);
      const steps = apps.flatMap((appId) =>
        reverseDependencyOrder(
          all.filter((i) => i.appId === appId),
          this.deps.profile,
        ).map((i) => stepOf(i, this.deps.profile)),
      );
      const id = await startLifecycleJob(
        this.deps.jobs,
        caller,
        { kind: 'uninstall', workspaceId, appId: null, options: { deleteWorkspace: true, purgeData: opts.purgeData ?? false }, steps },
        trx,
      );
      await this.markUninstalling(trx, workspaceId, apps, caller.userId);
      return id;
    });
    this.deps.onAccepted();
    return { jobId };
  }

  /** 409 job_running while a job of one of these apps runs (the caller waits for it, or its retry). */
  private async refuseRunning(db: Db, tenantId: string, workspaceId: string, appIds: string[]) {
    if (!appIds.length) return;
    const running = await db
      .selectFrom('install_jobs')
      .select(['id', 'kind', 'app_id'])
      .where('tenant_id', '=', tenantId)
      .where('workspace_id', '=', workspaceId)
      .where('app_id', 'in', appIds)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (running)
      throw new ConflictError(
        `A ${running.kind} job of ${running.app_id} is running (${running.id}); wait for it to finish, then uninstall`,
        'job_running',
      );
  }

  private async appItems(db: Db, workspaceId: string, appIds: string[]): Promise<Array<ItemRow & { appId: string }>> {
    if (!appIds.length) return [];
    const rows = await db
      .selectFrom('installed_app_items as a')
      .innerJoin('items', 'items.id', 'a.item_id')
      .select(['a.app_id', 'a.item_key', 'items.id', 'items.item_type', 'items.display_name', 'items.content', 'items.provisioning'])
      .where('a.workspace_id', '=', workspaceId)
      .where('a.app_id', 'in', appIds)
      .orderBy('a.item_key')
      .execute();
    return rows.map((r) => ({
      appId: r.app_id,
      key: r.item_key,
      id: r.id,
      itemType: r.item_type,
      displayName: r.display_name,
      content: r.content,
      provisioning: r.provisioning,
    }));
  }

  private async markUninstalling(db: Db, workspaceId: string, appIds: string[], by: string) {
    if (!appIds.length) return;
    await db
      .updateTable('installed_apps')
      .set({ status: 'uninstalling', updated_by: by, updated_at: new Date().toISOString() })
      .where('workspace_id', '=', workspaceId)
      .where('app_id', 'in', appIds)
      .execute();
  }
}
