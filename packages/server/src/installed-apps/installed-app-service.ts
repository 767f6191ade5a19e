import type { Caller } from '../auth/caller.js';
import type { Catalog } from '../catalog/types.js';
import { NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { StoreRow } from '../store/schema.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import type { InstalledApp, InstalledAppItem } from './types.js';

type AppRow = StoreRow<'installed_apps'>;

/** The apps installed in a workspace, with their items; another tenant's workspace is 404 like an unknown one. */
export class InstalledAppService {
  private constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly catalog: Catalog,
  ) {}

  static create(db: Db, workspaces: WorkspaceService, catalog: Catalog): InstalledAppService {
    return new InstalledAppService(db, workspaces, catalog);
  }

  /** A page of the workspace's installed apps, in the order they were first installed. */
  async list(caller: Caller, workspaceId: string, page: PageRequest) {
    await this.workspaces.get(caller, workspaceId);
    let q = this.db
      .selectFrom('installed_apps')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    if (page.cursor) q = q.where(afterCursor(page.cursor));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    const items = await this.itemsOf(
      workspaceId,
      rows.map((r) => r.app_id),
    );
    return { apps: rows.map((r) => this.toApp(r, items.get(r.app_id) ?? [])), nextCursor };
  }

  /** One installed app of the workspace; 404 when the app is not installed there. */
  async get(caller: Caller, workspaceId: string, appId: string): Promise<InstalledApp> {
    await this.workspaces.get(caller, workspaceId);
    const row = await this.db
      .selectFrom('installed_apps')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .where('workspace_id', '=', workspaceId)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Installed app', appId);
    return this.toApp(row, (await this.itemsOf(workspaceId, [appId])).get(appId) ?? []);
  }

  /** The items of these apps, each with its stored item's current name, in the catalog's order of keys. */
  private async itemsOf(workspaceId: string, appIds: string[]): Promise<Map<string, InstalledAppItem[]>> {
    const out = new Map<string, InstalledAppItem[]>();
    if (!appIds.length) return out;
    const rows = await this.db
      .selectFrom('installed_app_items as a')
      .innerJoin('items as i', 'i.id', 'a.item_id')
      .select(['a.app_id', 'a.item_key', 'a.item_type', 'a.item_id', 'a.resource_id', 'a.status', 'i.display_name'])
      .where('a.workspace_id', '=', workspaceId)
      .where('a.app_id', 'in', appIds)
      .execute();
    for (const r of rows) {
      const list = out.get(r.app_id) ?? [];
      list.push({
        key: r.item_key,
        itemType: r.item_type,
        displayName: r.display_name,
        itemId: r.item_id,
        resourceId: r.resource_id,
        status: r.status,
      });
      out.set(r.app_id, list);
    }
    for (const [appId, list] of out) {
      const order = new Map(this.catalog.get(appId)?.items.map((item, i) => [item.key, i]));
      list.sort((x, y) => (order.get(x.key) ?? Infinity) - (order.get(y.key) ?? Infinity) || x.key.localeCompare(y.key));
    }
    return out;
  }

  private toApp(r: AppRow, items: InstalledAppItem[]): InstalledApp {
    const app = this.catalog.get(r.app_id);
    return {
      appId: r.app_id,
      displayName: app?.displayName ?? r.app_id,
      version: r.version,
      catalogVersion: app?.version ?? null,
      mode: r.mode,
      status: r.status,
      target: r.target ?? {},
      items,
      lastJobId: r.last_job_id,
      installedAt: r.created_at.toISOString(),
      installedBy: r.created_by,
      updatedAt: r.updated_at.toISOString(),
      updatedBy: r.updated_by,
    };
  }
}
