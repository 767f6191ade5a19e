import type { CloudProfile } from '../cloud/profiles.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { isItemTypeId } from '../item-types/index.js';
import type { LiveRecord } from '../lifecycle/item-state.js';
import { ConflictError, InputError, NotFoundError, PreconditionError } from '../errors.js';
import type { Db, Store } from '../store/db.js';
import { afterPosition, decodeCursor, encodeCursor, type PageRequest } from '../store/paging.js';
import { precompiled } from '../store/precompiled.js';
import type { StoreRow } from '../store/schema.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { ITEM_JSON_COLUMNS, ItemJson } from './item-json.js';
import { liveView, type LiveView } from './live-view.js';

/** An item as the API shows it (content is read separately, with its ETag). */
export interface Item extends LiveView {
  id: string;
  workspaceId: string;
  itemType: string;
  displayName: string;
  description: string;
  appId: string | null;
  contentSource: string;
  provisioning: unknown | null;
  createdAt: string;
  updatedAt: string;
}

/** A page of a workspace's items, each as its JSON text (ItemJson), and the cursor of the next page when there is one. */
export interface ItemJsonPage {
  items: string[];
  nextCursor?: string;
}

const COLUMNS = [
  'id',
  'workspace_id',
  'item_type',
  'display_name',
  'description',
  'app_id',
  'content_source',
  'provisioning',
  'etag',
  'created_at',
  'updated_at',
] as const;

type Row = StoreRow<'items', (typeof COLUMNS)[number]>;

/** The values a listing binds to its precompiled statement. */
const LIST_SLOTS = ['workspaceId', 'tenantId', 'itemType', 'afterAt', 'afterId', 'limit'] as const;

const iso = (at: Date | string) => (typeof at === 'string' ? at : at.toISOString());

function toItem(r: Row, profile: CloudProfile): Item {
  const { liveState, backend, portal } = liveView(r.item_type, r.etag, (r.provisioning as LiveRecord | null) ?? null, profile);
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    itemType: r.item_type,
    displayName: r.display_name,
    description: r.description,
    appId: r.app_id,
    contentSource: r.content_source,
    provisioning: r.provisioning ?? null,
    liveState,
    backend,
    portal,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** A new strong ETag value. */
export const newEtag = () => `"${randomBytes(12).toString('hex')}"`;

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

/** Items of a workspace: create, list, read, change, delete, and their stored content with an ETag. */
export class ItemService {
  private readonly listQueries = new Map<string, ReturnType<ItemService['compileList']>>();
  private readonly db: Db;
  private readonly json: ItemJson;

  private constructor(
    private readonly store: Pick<Store, 'db' | 'readText'>,
    private readonly workspaces: WorkspaceService,
    private readonly profile: CloudProfile,
  ) {
    this.db = store.db;
    this.json = new ItemJson(profile);
  }

  /** The cloud the items live in (what their backends and portal links are chosen by). */
  get cloud(): CloudProfile {
    return this.profile;
  }

  static create(store: Pick<Store, 'db' | 'readText'>, workspaces: WorkspaceService, profile: CloudProfile): ItemService {
    return new ItemService(store, workspaces, profile);
  }

  async create(
    caller: Caller,
    workspaceId: string,
    input: { itemType: string; displayName: string; description?: string; content?: unknown },
  ): Promise<Item> {
    if (!isItemTypeId(input.itemType))
      throw new InputError(`body/itemType '${input.itemType}' is not an item type; see GET /api/item-types`, 'itemType');
    await this.workspaces.get(caller, workspaceId);
    try {
      const row = await this.db
        .insertInto('items')
        .values({
          id: randomUUID(),
          tenant_id: caller.tenantId,
          workspace_id: workspaceId,
          item_type: input.itemType,
          display_name: input.displayName.trim(),
          description: input.description ?? '',
          content: JSON.stringify(input.content ?? {}),
          etag: newEtag(),
          app_id: null,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toItem(row, this.profile);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName(input.itemType, input.displayName);
      throw err;
    }
  }

  /**
   * A page of the workspace's items as their JSON, in one round trip: the items joined to the workspace itself, so an
   * unknown workspace is told apart from an empty one.
   */
  async listJson(caller: Caller, workspaceId: string, page: PageRequest, filter: { itemType?: string } = {}): Promise<ItemJsonPage> {
    const after = page.cursor ? decodeCursor(page.cursor) : undefined;
    const rows = await this.listQuery(
      Boolean(filter.itemType),
      Boolean(after),
    )({
      workspaceId,
      tenantId: caller.tenantId,
      itemType: filter.itemType,
      afterAt: after?.createdAt.toISOString(),
      afterId: after?.id,
      limit: page.limit + 1,
    });
    if (!rows.length) throw new NotFoundError('Workspace', workspaceId);
    const found = rows[0]![0] === null ? [] : rows; // a workspace without items is one row of nulls
    const pageRows = found.length > page.limit ? found.slice(0, page.limit) : found;
    const items = pageRows.map((r) => this.json.of(r));
    if (found.length === pageRows.length) return { items };
    const last = this.json.position(pageRows.at(-1)!);
    return { items, nextCursor: encodeCursor({ createdAt: new Date(last.createdAt), id: last.id }) };
  }

  /** The listing's statement of one shape (a type filter or not, a cursor or not), compiled on first use. */
  private listQuery(byType: boolean, afterCursor: boolean) {
    const shape = `${byType}:${afterCursor}`;
    let run = this.listQueries.get(shape);
    if (!run) this.listQueries.set(shape, (run = this.compileList(byType, afterCursor)));
    return run;
  }

  private compileList(byType: boolean, afterCursor: boolean) {
    return precompiled(this.store, LIST_SLOTS, (slot) =>
      this.db
        .selectFrom('workspaces as w')
        .leftJoin('items', (join) => {
          // The tenant too, so the (tenant_id, workspace_id, created_at, id) index yields the page in order.
          let j = join.onRef('items.workspace_id', '=', 'w.id').onRef('items.tenant_id', '=', 'w.tenant_id');
          if (byType) j = j.on('items.item_type', '=', slot('itemType'));
          if (afterCursor) j = j.on(afterPosition(slot('afterAt'), slot('afterId'), 'items'));
          return j;
        })
        .select(ITEM_JSON_COLUMNS)
        .where('w.id', '=', slot('workspaceId'))
        .where('w.tenant_id', '=', slot('tenantId'))
        .orderBy('items.created_at')
        .orderBy('items.id')
        .limit(slot('limit')),
    );
  }

  async get(caller: Caller, workspaceId: string, itemId: string): Promise<Item> {
    const row = await this.db
      .selectFrom('items')
      .select(COLUMNS)
      .where('id', '=', itemId)
      .where('workspace_id', '=', workspaceId)
      .where('tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Item', itemId);
    return toItem(row, this.profile);
  }

  async update(caller: Caller, workspaceId: string, itemId: string, patch: { displayName?: string; description?: string }): Promise<Item> {
    const current = await this.get(caller, workspaceId, itemId);
    try {
      const row = await this.db
        .updateTable('items')
        .set({
          ...(patch.displayName !== undefined ? { display_name: patch.displayName.trim() } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', itemId)
        .where('tenant_id', '=', caller.tenantId)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toItem(row, this.profile);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateName(current.itemType, patch.displayName ?? current.displayName);
      throw err;
    }
  }

  /** Deletes the item; an installed app it belonged to no longer lists it (the store cascades) and shows the change. */
  async delete(caller: Caller, workspaceId: string, itemId: string): Promise<void> {
    const deleted = await this.db
      .with('gone', (db) =>
        db
          .deleteFrom('items')
          .where('id', '=', itemId)
          .where('workspace_id', '=', workspaceId)
          .where('tenant_id', '=', caller.tenantId)
          .returning('id'),
      )
      .with('apps', (db) =>
        db
          .updateTable('installed_apps')
          .set({ updated_at: new Date().toISOString() })
          .where('tenant_id', '=', caller.tenantId)
          .where('workspace_id', '=', workspaceId)
          .where('app_id', 'in', db.selectFrom('installed_app_items').select('app_id').where('item_id', '=', itemId))
          .where(({ exists, selectFrom }) => exists(selectFrom('gone').select('id')))
          .returning('app_id'),
      )
      .selectFrom('gone')
      .select('id')
      .executeTakeFirst();
    if (!deleted) throw new NotFoundError('Item', itemId);
  }

  async getContent(caller: Caller, workspaceId: string, itemId: string): Promise<{ content: unknown; etag: string }> {
    const row = await this.db
      .selectFrom('items')
      .select(['content', 'etag'])
      .where('id', '=', itemId)
      .where('workspace_id', '=', workspaceId)
      .where('tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Item', itemId);
    return { content: row.content, etag: row.etag };
  }

  /** Saves content when If-Match names the current ETag (or is *); a stale ETag answers 412. */
  async putContent(caller: Caller, workspaceId: string, itemId: string, content: unknown, ifMatch: string | undefined) {
    if (!ifMatch) throw new PreconditionError(428, 'Saving content needs an If-Match header with the ETag you read (or *)');
    const etag = newEtag();
    let q = this.db
      .updateTable('items')
      .set({ content: JSON.stringify(content), etag, content_source: 'user', updated_at: new Date().toISOString() })
      .where('id', '=', itemId)
      .where('workspace_id', '=', workspaceId)
      .where('tenant_id', '=', caller.tenantId);
    if (ifMatch.trim() !== '*') q = q.where('etag', '=', ifMatch.trim());
    const result = await q.executeTakeFirst();
    if (!result.numUpdatedRows) {
      await this.getContent(caller, workspaceId, itemId); // 404 when it is not there at all
      throw new PreconditionError(412, 'The content changed since you read it (stale If-Match); reload it and apply your change again');
    }
    return { etag };
  }
}

function duplicateName(itemType: string, displayName: string) {
  return new ConflictError(
    `An item of type '${itemType}' named '${displayName}' already exists in this workspace`,
    'duplicate_item',
    'displayName',
  );
}
