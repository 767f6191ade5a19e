import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../store/db.js';
import type { InstalledAppRecord } from './types.js';

/**
 * Records a job's app in its workspace, inside the transaction of the job's final write: one row per app per
 * workspace (a re-run updates it), its items replaced by the job's. An item deleted while the job ran is left out.
 */
export async function recordInstalledApp(trx: Db, r: InstalledAppRecord): Promise<void> {
  const now = new Date().toISOString();
  await trx
    .insertInto('installed_apps')
    .values({
      id: randomUUID(),
      tenant_id: r.tenantId,
      workspace_id: r.workspaceId,
      app_id: r.appId,
      version: r.version,
      mode: r.mode,
      target: JSON.stringify(r.target),
      status: r.status,
      last_job_id: r.jobId,
      created_by: r.by,
      updated_by: r.by,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'app_id']).doUpdateSet((eb) => ({
        version: eb.ref('excluded.version'),
        mode: eb.ref('excluded.mode'),
        target: eb.ref('excluded.target'),
        status: eb.ref('excluded.status'),
        last_job_id: eb.ref('excluded.last_job_id'),
        updated_by: eb.ref('excluded.updated_by'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  await trx.deleteFrom('installed_app_items').where('workspace_id', '=', r.workspaceId).where('app_id', '=', r.appId).execute();
  if (!r.items.length) return;
  const items = JSON.stringify(
    r.items.map((i) => ({ key: i.key, item_id: i.itemId, item_type: i.itemType, resource_id: i.resourceId, status: i.status })),
  );
  await sql`
    INSERT INTO installed_app_items (workspace_id, app_id, item_key, item_id, item_type, resource_id, status)
    SELECT ${r.workspaceId}, ${r.appId}, x.key, x.item_id, x.item_type, x.resource_id, x.status
    FROM jsonb_to_recordset(${items}::jsonb) AS x(key text, item_id text, item_type text, resource_id text, status text)
    JOIN items ON items.id = x.item_id AND items.tenant_id = ${r.tenantId} AND items.workspace_id = ${r.workspaceId}`.execute(trx);
}
