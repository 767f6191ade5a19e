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
  const content = JSON.stringify(expandSeedTokens(item.content, now));
  const result = await sql<{ id: string }>`
    INSERT INTO items (id, tenant_id, workspace_id, item_type, display_name, description, content, etag, content_source, app_id, seeded_at)
    VALUES (${randomUUID()}, ${where.tenantId}, ${where.workspaceId}, ${item.itemType}, ${item.displayName}, ${item.description}, ${content}::jsonb, ${newEtag()}, 'catalog', ${where.appId}, ${now.toISOString()})
    ON CONFLICT (workspace_id, item_type, lower(display_name)) DO UPDATE SET
      content = CASE WHEN items.content_source = 'user' THEN items.content ELSE EXCLUDED.content END,
      etag = CASE WHEN items.content_source = 'user' THEN items.etag ELSE EXCLUDED.etag END,
      seeded_at = CASE WHEN items.content_source = 'user' THEN items.seeded_at ELSE EXCLUDED.seeded_at END,
      description = EXCLUDED.description, app_id = EXCLUDED.app_id, updated_at = now()
    RETURNING id`.execute(db);
  return result.rows[0]!.id;
}
