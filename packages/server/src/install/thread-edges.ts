import { randomUUID } from 'node:crypto';
import type { CuratedApp } from '../catalog/types.js';
import type { Db } from '../store/db.js';

/** Records the thread edges the app declares between its stored items (by key), in one statement; idempotent. */
export async function recordAppEdges(
  db: Db,
  where: { tenantId: string; workspaceId: string },
  app: Pick<CuratedApp, 'edges'>,
  idByKey: Map<string, string | null>,
): Promise<void> {
  const rows = app.edges.flatMap((edge) => {
    const from = idByKey.get(edge.from);
    const to = idByKey.get(edge.to);
    return from && to
      ? [
          {
            id: randomUUID(),
            tenant_id: where.tenantId,
            workspace_id: where.workspaceId,
            from_item_id: from,
            to_item_id: to,
            kind: edge.kind,
            source: 'app',
          },
        ]
      : [];
  });
  if (!rows.length) return;
  await db
    .insertInto('thread_edges')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}
