import { Value } from '@sinclair/typebox/value';
import { sql } from 'kysely';
import type { Caller } from '../auth/caller.js';
import { InputError, NotFoundError } from '../errors.js';
import type { JobStore } from '../install/job-store.js';
import { isItemTypeId, liveItemType } from '../item-types/index.js';
import type { Db } from '../store/db.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { startLifecycleJob } from './start-job.js';

/** Starts apply jobs: an item's stored content pushed to its live resource (a new item's first provisioning too). */
export class ApplyService {
  constructor(private readonly deps: { db: Db; jobs: JobStore; workspaces: WorkspaceService; onAccepted: () => void }) {}

  /**
   * Checks that an item of this type with this content can be provisioned: a live type, content its schema accepts.
   * A 400 names the field; nothing is written.
   */
  checkDeployable(itemType: string, content: unknown): void {
    const type = isItemTypeId(itemType) ? liveItemType(itemType) : undefined;
    if (!type)
      throw new InputError(
        `a ${itemType} is stored in the service only: it has no backing service to deploy to`,
        'deploy',
        'item_stored_only',
      );
    const error = Value.Errors(type.content, content ?? {}).First();
    if (error)
      throw new InputError(
        `body/content${error.path} ${error.message}: a ${itemType} cannot be deployed with this content`,
        `content${error.path}`,
      );
  }

  /** Writes an apply job of one item of the workspace (404 for another's), answers its id. */
  async start(caller: Caller, workspaceId: string, itemId: string): Promise<{ jobId: string }> {
    await this.deps.workspaces.get(caller, workspaceId);
    const item = await this.deps.db
      .selectFrom('items')
      .leftJoin('installed_app_items as a', 'a.item_id', 'items.id')
      .select(['items.id', 'items.item_type', 'items.display_name', 'items.content', 'a.app_id', 'a.item_key'])
      .where('items.id', '=', itemId)
      .where('items.workspace_id', '=', workspaceId)
      .where('items.tenant_id', '=', caller.tenantId)
      .executeTakeFirst();
    if (!item) throw new NotFoundError('Item', itemId);
    this.checkDeployable(item.item_type, item.content);
    const installed = item.app_id
      ? await this.deps.db
          .selectFrom('installed_apps')
          .leftJoin('install_jobs', 'install_jobs.id', 'installed_apps.last_job_id')
          .select(['installed_apps.mode', 'install_jobs.target_overrides'])
          .where('installed_apps.workspace_id', '=', workspaceId)
          .where('installed_apps.app_id', '=', item.app_id)
          .executeTakeFirst()
      : undefined;
    const jobId = await startLifecycleJob(this.deps.jobs, caller, {
      kind: 'apply',
      workspaceId,
      appId: item.app_id ?? null,
      options: { itemId },
      mode: installed?.mode,
      targetOverrides: installed?.target_overrides,
      steps: [
        { itemKey: item.item_key ?? item.id, itemType: item.item_type, displayName: item.display_name, live: true, cosmosItemId: item.id },
      ],
    });
    // The item names the job working on it (a new item's record says pending until the job has provisioned it).
    await this.deps.db
      .updateTable('items')
      .set({
        provisioning: sql`coalesce(provisioning, jsonb_build_object('status', 'pending')) || jsonb_build_object('jobId', ${jobId}::text)`,
      })
      .where('id', '=', itemId)
      .where('tenant_id', '=', caller.tenantId)
      .execute();
    this.deps.onAccepted();
    return { jobId };
  }
}
