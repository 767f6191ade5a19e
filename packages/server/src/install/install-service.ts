import type { CloudProfile } from '../cloud/profiles.js';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import type { Catalog, CuratedApp } from '../catalog/types.js';
import { ConflictError, ForbiddenError, InputError, NotFoundError } from '../errors.js';
import type { PageRequest } from '../store/paging.js';
import type { Workspace, WorkspaceService } from '../workspaces/workspace-service.js';
import { isLive, provisionedLive } from '../item-types/index.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { hasScope } from '../auth/scopes.js';
import type { JobStore } from './job-store.js';
import type { JobRow } from './job-rows.js';
import type { InstallJob, Mode, TargetOverrides } from './types.js';

/** The body of an install (and of its plan). */
export interface InstallBody {
  workspaceId: string;
  deploy?: boolean;
  mode?: Mode;
  targetOverrides?: TargetOverrides;
}

/** Whether an item of this type gets a provisioning step at install. */
/** Whether items of this type get a provisioning step at install in this cloud (by type: see provisionedLive for an item). */
export const provisionedAtInstall = isLive;

/** Starts installs, answers polls, and re-opens a step for the worker after an admin fixed its gate. */
export class InstallService {
  constructor(
    private readonly deps: {
      jobs: JobStore;
      catalog: Catalog;
      workspaces: WorkspaceService;
      tenancy: TenancyService;
      profile: CloudProfile;
      onAccepted: () => void;
    },
  ) {}

  /**
   * Validates caller, workspace, app and body as an install accepts them (the plan asks the same): 404 for an unknown
   * app or another tenant's workspace or target, 400 naming the field, 403 without the scope a dedicated install needs.
   */
  async accept(caller: Caller, appId: string, body: InstallBody): Promise<{ app: CuratedApp; mode: Mode; workspace: Workspace }> {
    const app = this.deps.catalog.get(appId);
    if (!app) throw new NotFoundError('App', appId);
    const mode = body.mode ?? 'shared';
    if (body.targetOverrides && mode !== 'dedicated')
      throw new InputError('body/targetOverrides is only accepted with mode "dedicated"', 'targetOverrides');
    if (mode === 'dedicated') {
      if (!hasScope(caller.scopes, 'admin')) throw new ForbiddenError("A dedicated install needs the 'admin' scope", 'missing_scope');
      if (!body.targetOverrides || !Object.keys(body.targetOverrides).length) {
        throw new InputError(
          'body/targetOverrides is required with mode "dedicated": name the platform workspace and targets of the tenant to install into',
          'targetOverrides',
        );
      }
    }
    const workspace = await this.deps.workspaces.get(caller, body.workspaceId);
    // Every platform workspace and address of a dedicated install is the tenant's, or the install is not accepted.
    if (body.targetOverrides) await this.deps.tenancy.checkOverrides(caller.tenantId, body.targetOverrides, true);
    return { app, mode, workspace };
  }

  /** Validates caller, workspace, app and body (accept); writes the job and its work in one transaction. */
  async start(caller: Caller, appId: string, body: InstallBody) {
    const { app, mode } = await this.accept(caller, appId, body);
    const id = randomUUID();
    await this.deps.jobs.create(
      {
        id,
        tenantId: caller.tenantId,
        workspaceId: body.workspaceId,
        appId,
        createdBy: caller.userId,
        deploy: body.deploy ?? true,
        mode,
        targetOverrides: body.targetOverrides,
        totalItems: app.items.length,
      },
      app.items.map((item, stepIndex) => ({
        stepIndex,
        itemKey: item.key,
        itemType: item.itemType,
        displayName: item.displayName,
        live: provisionedLive(item.itemType, item.content, app, this.deps.profile),
      })),
    );
    this.deps.onAccepted();
    return { jobId: id, totalItems: app.items.length };
  }

  async get(caller: Caller, jobId: string, read?: JobRow): Promise<InstallJob> {
    const job = await this.deps.jobs.get(caller.tenantId, jobId, read);
    if (!job) throw new NotFoundError('Install job', jobId);
    return job;
  }

  async list(caller: Caller, workspaceId: string | undefined, page: PageRequest) {
    if (workspaceId) await this.deps.workspaces.get(caller, workspaceId);
    // Without a workspace, the jobs of every workspace the caller may see.
    return this.deps.jobs.list(caller.tenantId, workspaceId, page, this.deps.workspaces.visible(caller, 'workspace_id'));
  }

  /**
   * Re-opens one provisioning step (after an admin fixed its gate) and hands the job back to the worker, which runs the
   * step under the job's lease like any other and recomputes the report from the stored steps (DESIGN.md "Install
   * pipeline"). Answers the job, running again; the caller follows it as it follows an install. Several steps may be
   * re-opened one after another until a worker claims the job; once one holds it, 409 job_running.
   */
  async retryStep(caller: Caller, jobId: string, stepIndex: number): Promise<InstallJob> {
    const job = await this.get(caller, jobId);
    const step = (await this.deps.jobs.steps(jobId)).find((s) => s.stepIndex === stepIndex);
    if (!step) throw new NotFoundError('Step', String(stepIndex));
    if (!step.live) throw new InputError(`step ${stepIndex} (${step.itemType}) is stored only and has nothing to provision`, 'stepIndex');
    if (!job.deploy) throw new InputError('the install ran with deploy false; install again with deploy true to provision', 'stepIndex');
    if (!this.deps.catalog.get(job.appId)) throw new NotFoundError('App', job.appId);
    // A job whose workspace was deleted has nowhere to provision into: the workspace is 404, as for any caller.
    await this.deps.workspaces.get(caller, job.workspaceId);
    if (!(await this.deps.jobs.reopen(caller.tenantId, jobId, step))) {
      throw new ConflictError('The install is running in a worker; retry a step once it has finished', 'job_running');
    }
    this.deps.onAccepted();
    return this.get(caller, jobId);
  }

  /** The job's events after a sequence number (server-sent events). */
  async events(caller: Caller, jobId: string, after: number) {
    await this.get(caller, jobId);
    return this.deps.jobs.events(jobId, after);
  }
}
