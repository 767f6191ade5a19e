import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../store/db.js';
import type { InstalledAppRecord } from './types.js';

/**
 * Records a job's app in its workspace, inside the transaction of the job's final write: one row per app per
 * workspace (a re-run updates it), its items replaced by the job's. An item deleted while the job ran is left out.
 */
export async function recordInstalledApp(trx: Db, r: InstalledAppRecord): Promise<void> {
  // Only into a workspace that still exists (of the job's tenant): a workspace deleted meanwhile records nothing.
  const recorded = await sql<{ app_id: string }>`
    INSERT INTO installed_apps (id, tenant_id, workspace_id, app_id, version, mode, target, status, last_job_id, created_by, updated_by, updated_at)
    SELECT ${randomUUID()}, ${r.tenantId}, w.id, ${r.appId}, ${r.version}, ${r.mode}, ${JSON.stringify(r.target)}::jsonb, ${r.status},
      ${r.jobId}, ${r.by}, ${r.by}, now()
    FROM workspaces w WHERE w.id = ${r.workspaceId} AND w.tenant_id = ${r.tenantId}
    ON CONFLICT (workspace_id, app_id) DO UPDATE SET
      version = EXCLUDED.version, mode = EXCLUDED.mode, target = EXCLUDED.target, status = EXCLUDED.status,
      last_job_id = EXCLUDED.last_job_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at
    RETURNING app_id`.execute(trx);
  if (!recorded.rows.length) return;
  let gone = trx.deleteFrom('installed_app_items').where('workspace_id', '=', r.workspaceId).where('app_id', '=', r.appId);
  if (r.items.length)
    gone = gone.where(
      'item_key',
      'not in',
      r.items.map((i) => i.key),
    );
  await gone.execute();
  if (!r.items.length) return;
  const items = JSON.stringify(
    r.items.map((i) => ({
      key: i.key,
      item_id: i.itemId,
      item_type: i.itemType,
      resource_id: i.resourceId,
      status: i.status,
      base: i.baseContent ?? null,
    })),
  );
  // The base of a later upgrade: what this version shipped, as stored (an item the user edited keeps the base it had).
  await sql`
    INSERT INTO installed_app_items (workspace_id, app_id, item_key, item_id, item_type, resource_id, status, base_content)
    SELECT ${r.workspaceId}, ${r.appId}, x.key, x.item_id, x.item_type, x.resource_id, x.status,
      coalesce(x.base, CASE WHEN items.content_source = 'catalog' THEN items.content END)
    FROM jsonb_to_recordset(${items}::jsonb) AS x(key text, item_id text, item_type text, resource_id text, status text, base jsonb)
    JOIN items ON items.id = x.item_id AND items.tenant_id = ${r.tenantId} AND items.workspace_id = ${r.workspaceId}
    ON CONFLICT (workspace_id, app_id, item_key) DO UPDATE SET
      item_id = EXCLUDED.item_id, item_type = EXCLUDED.item_type, resource_id = EXCLUDED.resource_id, status = EXCLUDED.status,
      base_content = CASE WHEN installed_app_items.item_id = EXCLUDED.item_id
        THEN coalesce(EXCLUDED.base_content, installed_app_items.base_content) ELSE EXCLUDED.base_content END`.execute(trx);
}
