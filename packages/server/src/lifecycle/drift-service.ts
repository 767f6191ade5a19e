import type { CloudProfile } from '../cloud/profiles.js';
import type { Caller } from '../auth/caller.js';
import { ConflictError, type RemediationGate, ServiceError } from '../errors.js';
import type { JobStore } from '../install/job-store.js';
import type { Db } from '../store/db.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { driftSteps } from './drift-kind.js';
import type { JobService } from './job-service.js';
import { startLifecycleJob } from './start-job.js';
import type { Job } from './types.js';

/** A drift step's verdict: null while the job has not read the item yet. */
export type DriftStatus = 'in-sync' | 'drifted' | 'missing' | 'remediation' | 'failed';

/** One live item in the workspace's last drift check. */
export interface DriftItem {
  itemId: string;
  key: string;
  appId: string | null;
  itemType: string;
  displayName: string;
  status: DriftStatus | null;
  diff?: string;
  resourceId?: string;
  error?: string;
  code?: string;
  message?: string;
  gate?: RemediationGate;
}

/** The workspace's last drift job and its verdict per item. */
export interface DriftReport {
  job: Job;
  items: DriftItem[];
}

/** Who a drift job runs as: a caller of the API, or the schedule acting as an installed app's creator. */
type Starter = Pick<Caller, 'tenantId' | 'userId'>;

/** Starts drift checks of a workspace (DESIGN.md "Installed apps and their lifecycle") and answers the last one's result. */
export class DriftService {
  constructor(
    private readonly deps: {
      db: Db;
      profile: CloudProfile;
      jobs: JobStore;
      jobService: JobService;
      workspaces: WorkspaceService;
      onAccepted: () => void;
    },
  ) {}

  /** Writes a drift job of the workspace (404 for another tenant's); 409 nothing_to_check when it has no live item. */
  async start(caller: Caller, workspaceId: string): Promise<{ jobId: string }> {
    await this.deps.workspaces.get(caller, workspaceId);
    const jobId = await this.startAs(caller, workspaceId);
    if (!jobId)
      throw new ConflictError(
        `workspace ${workspaceId} has no live item to check: no item of a live type has been provisioned to a backing service (install an app, or apply an item, first)`,
        'nothing_to_check',
      );
    return { jobId };
  }

  /** Writes a drift job of the workspace's live items as `starter` (no access check: the schedule's path); undefined when there are none. */
  async startAs(starter: Starter, workspaceId: string): Promise<string | undefined> {
    const steps = await driftSteps(this.deps.db, this.deps.profile, starter.tenantId, workspaceId);
    if (!steps.length) return undefined;
    // The job records who started it (createdBy); a scheduled check has no request, so no scopes are needed.
    const as: Caller = { tenantId: starter.tenantId, userId: starter.userId, userName: starter.userId, method: 'token', scopes: [] };
    const jobId = await startLifecycleJob(this.deps.jobs, as, { kind: 'drift', workspaceId, appId: null, options: {}, steps });
    this.deps.onAccepted();
    return jobId;
  }

  /** The last drift job of the workspace with its verdict per item; 404 when none has run (or another tenant's workspace). */
  async last(caller: Caller, workspaceId: string): Promise<DriftReport> {
    await this.deps.workspaces.get(caller, workspaceId);
    const row = await this.deps.db
      .selectFrom('install_jobs')
      .select('id')
      .where('tenant_id', '=', caller.tenantId)
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'drift')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!row) throw new ServiceError(404, 'not_found', `no drift check has run in workspace ${workspaceId}`);
    const job = await this.deps.jobService.get(caller, row.id);
    const ids = job.steps.flatMap((s) => (s.itemId ? [s.itemId] : []));
    const members = ids.length
      ? await this.deps.db
          .selectFrom('installed_app_items')
          .select(['app_id', 'item_id'])
          .where('workspace_id', '=', workspaceId)
          .where('item_id', 'in', ids)
          .execute()
      : [];
    const appOf = new Map(members.map((m) => [m.item_id, m.app_id]));
    const items = job.steps.map((s): DriftItem => {
      const r = s.result;
      return {
        itemId: s.itemId ?? '',
        key: s.key,
        appId: (s.itemId && appOf.get(s.itemId)) ?? null,
        itemType: s.itemType,
        displayName: s.displayName,
        status: (r?.status as DriftStatus | undefined) ?? null,
        ...(r?.diff !== undefined ? { diff: r.diff } : {}),
        ...(r?.resourceId !== undefined ? { resourceId: r.resourceId } : {}),
        ...(r?.error !== undefined ? { error: r.error } : {}),
        ...(r?.code !== undefined ? { code: r.code } : {}),
        ...(r?.message !== undefined ? { message: r.message } : {}),
        ...(r?.gate !== undefined ? { gate: r.gate } : {}),
      };
    });
    return { job, items };
  }
}
