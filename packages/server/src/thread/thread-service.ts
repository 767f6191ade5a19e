import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { StoreRow } from '../store/schema.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';

export const EDGE_KINDS = ['feeds', 'reads-from', 'visualizes', 'triggers-on', 'runs'] as const;

/** A lineage edge between two items of a workspace. */
export interface ThreadEdge {
  id: string;
  fromItemId: string;
  toItemId: string;
  kind: string;
  source: string;
  createdAt: string;
}

type Row = StoreRow<'thread_edges', 'id' | 'from_item_id' | 'to_item_id' | 'kind' | 'source' | 'created_at'>;
const toEdge = (r: Row): ThreadEdge => ({
  id: r.id,
  fromItemId: r.from_item_id,
  toItemId: r.to_item_id,
  kind: r.kind,
  source: r.source,
  createdAt: r.created_at.toISOString(),
});

/** The thread of a workspace: edges an install records and edges users add. */
export class ThreadService {
  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
  ) {}

  async list(caller: Caller, workspaceId: string): Promise<ThreadEdge[]> {
    await this.workspaces.get(caller, workspaceId);
    const rows = await this.db
      .selectFrom('thread_edges')
      .select(['id', 'from_item_id', 'to_item_id', 'kind', 'source', 'created_at'])
      .where('tenant_id', '=', caller.tenantId)
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toEdge);
  }

  async add(caller: Caller, workspaceId: string, input: { fromItemId: string; toItemId: string; kind: string }): Promise<ThreadEdge> {
    await this.workspaces.get(caller, workspaceId);
    if (input.fromItemId === input.toItemId) throw new InputError('body/toItemId must differ from fromItemId', 'toItemId');
    for (const field of ['fromItemId', 'toItemId'] as const) {
      const found = await this.db
        .selectFrom('items')
        .select('id')
        .where('id', '=', input[field])
        .where('workspace_id', '=', workspaceId)
        .where('tenant_id', '=', caller.tenantId)
        .executeTakeFirst();
      if (!found) throw new InputError(`body/${field} '${input[field]}' is not an item of this workspace`, field);
    }
    const row = await this.db
      .insertInto('thread_edges')
      .values({
        id: randomUUID(),
        tenant_id: caller.tenantId,
        workspace_id: workspaceId,
        from_item_id: input.fromItemId,
        to_item_id: input.toItemId,
        kind: input.kind,
        source: 'user',
      })
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'from_item_id', 'to_item_id', 'kind', 'source', 'created_at'])
      .executeTakeFirst();
    if (!row) throw new ConflictError('This edge already exists', 'duplicate_edge');
    return toEdge(row);
  }

  async remove(caller: Caller, workspaceId: string, edgeId: string): Promise<void> {
    const r = await this.db
      .deleteFrom('thread_edges')
      .where('id', '=', edgeId)
      .where('workspace_id', '=', workspaceId)
      .where('tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!r.numDeletedRows) throw new NotFoundError('Edge', edgeId);
  }
}
