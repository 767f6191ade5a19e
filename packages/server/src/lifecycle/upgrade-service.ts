import type { CloudProfile } from '../cloud/profiles.js';
import type { Caller } from '../auth/caller.js';
import type { Catalog } from '../catalog/types.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { JobStore } from '../install/job-store.js';
import { provisionedLive } from '../item-types/index.js';
import type { Db } from '../store/db.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { startLifecycleJob } from './start-job.js';
import { deployedApp, installedParts, liveOf, upgradeEntries } from './upgrade-merge.js';

/** What an upgrade is asked. */
export interface UpgradeBody {
  removeDropped?: boolean;
}

/** Starts upgrades: an installed app moved to the catalog's current version, as a three-way merge per item. */
export class UpgradeService {
  constructor(
    private readonly deps: {
      db: Db;
      profile: CloudProfile;
      jobs: JobStore;
      catalog: Catalog;
      workspaces: WorkspaceService;
      onAccepted: () => void;
    },
  ) {}

  /**
   * Writes the upgrade job of an installed app and marks the app `upgrading`, in one transaction: 404 for an app not
   * installed in the workspace (or another tenant's) or no longer in the catalog, 409 app_current when the installed
   * version is the catalog's, 409 job_running when a job of the app runs.
   */
  async start(caller: Caller, workspaceId: string, appId: string, body: UpgradeBody): Promise<{ jobId: string }> {
    await this.deps.workspaces.get(caller, workspaceId);
    const jobId = await this.deps.db.transaction().execute(async (trx) => {
      // The row lock makes a second upgrade (or an uninstall) of the app wait, then see the job this one wrote.
      const installed = await trx
        .selectFrom('installed_apps')
        .leftJoin('install_jobs', 'install_jobs.id', 'installed_apps.last_job_id')
        .select(['installed_apps.version', 'installed_apps.mode', 'install_jobs.target_overrides'])
        .where('installed_apps.tenant_id', '=', caller.tenantId)
        .where('installed_apps.workspace_id', '=', workspaceId)
        .where('installed_apps.app_id', '=', appId)
        .forUpdate('installed_apps')
        .executeTakeFirst();
      if (!installed) throw new NotFoundError('Installed app', appId);
      const next = this.deps.catalog.get(appId);
      if (!next) throw new NotFoundError('App', appId);
      if (installed.version === next.version)
        throw new ConflictError(
          `${appId} is installed at the catalog's version ${next.version}: there is nothing to upgrade`,
          'app_current',
        );
      const running = await trx
        .selectFrom('install_jobs')
        .select(['id', 'kind'])
        .where('tenant_id', '=', caller.tenantId)
        .where('workspace_id', '=', workspaceId)
        .where('app_id', '=', appId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (running)
        throw new ConflictError(
          `a ${running.kind} job of ${appId} is running (${running.id}); upgrade once it has finished`,
          'job_running',
        );
      const parts = await installedParts(trx, { tenantId: caller.tenantId, workspaceId }, appId);
      const deployed = deployedApp(parts, this.deps.profile);
      const id = await startLifecycleJob(
        this.deps.jobs,
        caller,
        {
          kind: 'upgrade',
          workspaceId,
          appId,
          options: { fromVersion: installed.version, toVersion: next.version, removeDropped: body.removeDropped ?? false },
          mode: installed.mode,
          targetOverrides: installed.target_overrides,
          steps: upgradeEntries(next, parts, this.deps.profile).map((e) => ({
            itemKey: e.key,
            itemType: e.itemType,
            displayName: e.displayName,
            live: e.part
              ? liveOf(e.part, this.deps.profile)
              : deployed && provisionedLive(e.itemType, e.next?.content, next, this.deps.profile),
            cosmosItemId: e.part?.itemId ?? null,
          })),
        },
        trx,
      );
      await trx
        .updateTable('installed_apps')
        .set({ status: 'upgrading', updated_at: new Date().toISOString(), updated_by: caller.userId })
        .where('tenant_id', '=', caller.tenantId)
        .where('workspace_id', '=', workspaceId)
        .where('app_id', '=', appId)
        .execute();
      return id;
    });
    this.deps.onAccepted();
    return { jobId };
  }
}
