import { sql } from 'kysely';
import type { Db } from '../store/db.js';

/**
 * Marks the item's delete as under way, unless another stored item of the tenant (in any of its workspaces) uses the
 * same live resource and is not being deleted itself: then answers it, with its workspace's name. Two
 * uninstalls of the last two users of one resource are serialized on a lock of the resource id, so exactly one deletes it.
 */
export async function claimForDelete(db: Db, tenantId: string, itemId: string, itemType: string, resourceId: string) {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`svc-live:${resourceId}`}))`.execute(trx);
    const other = await trx
      .selectFrom('items')
      .innerJoin('workspaces', 'workspaces.id', 'items.workspace_id')
      .select(['items.tenant_id', 'workspaces.name'])
      .where('items.id', '<>', itemId)
      // Platform workspaces and targets are a tenant's own (DESIGN.md "Tenancy of backing resources"): only the tenant's
      // items can share a live resource, and another tenant's never keep one alive.
      .where('items.tenant_id', '=', tenantId)
      .where('items.item_type', '=', itemType)
      .where(sql<boolean>`items.provisioning->>'resourceId' = ${resourceId}`)
      .where(sql<boolean>`coalesce((items.provisioning->>'deleting')::boolean, false) = false`)
      .where(sql<boolean>`coalesce((items.provisioning->>'deleted')::boolean, false) = false`)
      .executeTakeFirst();
    if (other) return { workspace: other.name };
    await markDeleting(trx, tenantId, itemId, true);
    return undefined;
  });
}

/** Sets or clears the item's "delete under way" marker on its live record. */
export async function markDeleting(db: Db, tenantId: string, itemId: string, on: boolean) {
  await db
    .updateTable('items')
    .set({
      provisioning: on
        ? sql`coalesce(provisioning, '{}'::jsonb) || '{"deleting": true}'::jsonb`
        : sql`coalesce(provisioning, '{}'::jsonb) - 'deleting'`,
    })
    .where('id', '=', itemId)
    .where('tenant_id', '=', tenantId)
    .execute();
}
