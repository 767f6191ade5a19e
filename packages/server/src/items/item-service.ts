import { portalLink, type PortalLink } from '../item-types/portal-links.js';
import type { BackendId } from '../item-types/descriptor.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { backendIdOf, isItemTypeId, liveItemType } from '../item-types/index.js';
import { type LiveRecord, type LiveState, liveStateOf } from '../lifecycle/item-state.js';
import { ConflictError, InputError, NotFoundError, PreconditionError } from '../errors.js';
import { sql } from 'kysely';
import type { Db } from '../store/db.js';
import { afterPosition, decodeCursor, toPage, type PageRequest } from '../store/paging.js';
import { precompiled } from '../store/precompiled.js';
import type { StoreRow } from '../store/schema.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';

/** An item as the API shows it (content is read separately, with its ETag). */
export interface Item {
  id: string;
  workspaceId: string;
  itemType: string;
  displayName: string;
  description: string;
  appId: string | null;
  contentSource: string;
  provisioning: unknown | null;
  /** The live resource's state: stored only, not provisioned, created, changed since provisioned, drifted, missing, deleted, remediation, failed. */
  liveState: LiveState;
  /** Where the item lives in this cloud: its backend (the live record's, else the cloud's choice); null for a stored-only type. */
  backend: BackendId | null;
  /** The portal of the cloud that shows its live resource, when it has one. */
  portal: PortalLink | null;
  createdAt: string;
  updatedAt: string;
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
/** A row whose timestamps the store wrote as ISO text (isoText). */
type ListedRow = Omit<Row, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/**
 * A timestamp column as Date#toISOString writes it (UTC, milliseconds cut), formatted by the store: reading timestamps
 * as Dates and writing them back cost the listing more than the rest of its rows.
 */
const isoText = (column: 'items.created_at' | 'items.updated_at') =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const LISTED_COLUMNS = [
  ...COLUMNS.filter((c) => c !== 'created_at' && c !== 'updated_at').map((c) => `items.${c}` as const),
  isoText('items.created_at').as('created_at'),
  isoText('items.updated_at').as('updated_at'),
];

/** The values a listing binds to its precompiled statement. */
const LIST_SLOTS = ['workspaceId', 'tenantId', 'itemType', 'afterAt', 'afterId', 'limit'] as const;

const iso = (at: Date | string) => (typeof at === 'string' ? at : at.toISOString());

function toItem(r: Row | ListedRow, profile: CloudProfile): Item {
  const live = (r.provisioning as LiveRecord | null) ?? null;
  const backend =
    live?.status === 'stored'
      ? 'stored'
      : isItemTypeId(r.item_type) && liveItemType(r.item_type)
        ? backendIdOf(r.item_type, profile, live?.backend)
        : null;
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    itemType: r.item_type,
    displayName: r.display_name,
    description: r.description,
    appId: r.app_id,
    contentSource: r.content_source,
    provisioning: r.provisioning ?? null,
    liveState: liveStateOf(r.item_type, r.etag, live, profile),
    backend,
    portal: (backend && live && portalLink(profile, backend, live)) || null,
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

  private constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly profile: CloudProfile,
  ) {}

  /** The cloud the items live in (what their backends and portal links are chosen by). */
  get cloud(): CloudProfile {
    return this.profile;
  }

  static create(db: Db, workspaces: WorkspaceService, profile: CloudProfile): ItemService {
    return new ItemService(db, workspaces, profile);
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

  /** One round trip: the workspace's items joined to the workspace itself, so an unknown workspace is told apart from an empty one. */
  async list(caller: Caller, workspaceId: string, page: PageRequest, filter: { itemType?: string } = {}) {
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
    const found = rows.filter((r) => r.id !== null) as ListedRow[]; // a workspace without items is one row of nulls
    const { rows: pageRows, nextCursor } = toPage(found, page.limit);
    return { items: pageRows.map((r) => toItem(r, this.profile)), nextCursor };
  }

  /** The listing's statement of one shape (a type filter or not, a cursor or not), compiled on first use. */
  private listQuery(byType: boolean, afterCursor: boolean) {
    const shape = `${byType}:${afterCursor}`;
    let run = this.listQueries.get(shape);
    if (!run) this.listQueries.set(shape, (run = this.compileList(byType, afterCursor)));
    return run;
  }

  private compileList(byType: boolean, afterCursor: boolean) {
    return precompiled(this.db, LIST_SLOTS, (slot) =>
      this.db
        .selectFrom('workspaces as w')
        .leftJoin('items', (join) => {
          // The tenant too, so the (tenant_id, workspace_id, created_at, id) index yields the page in order.
          let j = join.onRef('items.workspace_id', '=', 'w.id').onRef('items.tenant_id', '=', 'w.tenant_id');
          if (byType) j = j.on('items.item_type', '=', slot('itemType'));
          if (afterCursor) j = j.on(afterPosition(slot('afterAt'), slot('afterId'), 'items'));
          return j;
        })
        .select(LISTED_COLUMNS)
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
