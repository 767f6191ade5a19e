import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expandSeedTokens } from '../catalog/seed-tokens.js';
import type { CatalogItem } from '../catalog/types.js';
import { newEtag } from '../items/item-service.js';
import type { Db } from '../store/db.js';

/**
 * Stores a catalog item of an app in the workspace (its seed tokens expanded at `now`), idempotent on (workspace, type,
 * name): an existing item the user edited keeps its content, ETag and seed instant; answers the stored item's id.
 */
export async function upsertCatalogItem(
  db: Db,
  where: { tenantId: string; workspaceId: string; appId: string },
  item: CatalogItem,
  now: Date,
): Promise<string> {
  return (await upsertCatalogItems(db, where, [item], now))[0]!;
}

/**
 * Stores catalog items of an app as `upsertCatalogItem` does, all in one statement; answers their ids in the order
 * given. The catalog holds no two items of an app with the same type and name (load-catalog.ts), which one statement's
 * upsert needs: it may not reach a row twice.
 */
export async function upsertCatalogItems(
  db: Db,
  where: { tenantId: string; workspaceId: string; appId: string },
  items: readonly CatalogItem[],
  now: Date,
): Promise<string[]> {
  if (!items.length) return [];
  const seededAt = now.toISOString();
  const rows = items.map(
    (item) =>
      sql`(${randomUUID()}, ${where.tenantId}, ${where.workspaceId}, ${item.itemType}, ${item.displayName}, ${item.description}, ${JSON.stringify(expandSeedTokens(item.content, now))}::jsonb, ${newEtag()}, 'catalog', ${where.appId}, ${seededAt})`,
  );
  const result = await sql<{ id: string; item_type: string; display_name: string }>`
    INSERT INTO items (id, tenant_id, workspace_id, item_type, display_name, description, content, etag, content_source, app_id, seeded_at)
    VALUES ${sql.join(rows)}
    ON CONFLICT (workspace_id, item_type, lower(display_name)) DO UPDATE SET
      content = CASE WHEN items.content_source = 'user' THEN items.content ELSE EXCLUDED.content END,
      etag = CASE WHEN items.content_source = 'user' THEN items.etag ELSE EXCLUDED.etag END,
      seeded_at = CASE WHEN items.content_source = 'user' THEN items.seeded_at ELSE EXCLUDED.seeded_at END,
      description = EXCLUDED.description, app_id = EXCLUDED.app_id, updated_at = now()
    RETURNING id, item_type, display_name`.execute(db);
  const key = (type: string, name: string) => `${type}\n${name.toLowerCase()}`;
  const ids = new Map(result.rows.map((r) => [key(r.item_type, r.display_name), r.id]));
  return items.map((item) => {
    const id = ids.get(key(item.itemType, item.displayName));
    if (!id) throw new Error(`the upsert of ${item.itemType} '${item.displayName}' answered no row`);
    return id;
  });
}
