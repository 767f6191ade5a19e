import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import type { Catalog } from '../catalog/types.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { ConflictError, ForbiddenError, InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { PageRequest } from '../store/paging.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { expandSeedTokens } from '../catalog/seed-tokens.js';
import type { Backends } from '../provisioning/context.js';
import { isLive } from '../item-types/index.js';
import { installTarget } from '../provisioning/targets.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { hasScope } from '../auth/scopes.js';
import type { JobStore } from './job-store.js';
import { bindContent, recordItemState, reportOf, runProvisioner } from './runner.js';
import { jobStatusOf } from './report.js';
import type { InstallJob, Mode, TargetOverrides } from './types.js';

/** Whether an item of this type gets a provisioning step at install. */
export const provisionedAtInstall = isLive;

/** Starts installs, answers polls, and re-runs one step after an admin fixed its gate. */
export class InstallService {
  constructor(
    private readonly deps: { db: Db; jobs: JobStore; catalog: Catalog; workspaces: WorkspaceService; profile: CloudProfile; tenancy: TenancyService; backends: Backends; onAccepted: () => void },
  ) {}

  /** Validates caller, workspace, app and body; writes the job and its work in one transaction. */
  async start(caller: Caller, appId: string, body: { workspaceId: string; deploy?: boolean; mode?: Mode; targetOverrides?: TargetOverrides }) {
    const app = this.deps.catalog.get(appId);
    if (!app) throw new NotFoundError('App', appId);
    const mode = body.mode ?? 'shared';
    if (body.targetOverrides && mode !== 'dedicated') throw new InputError('body/targetOverrides is only accepted with mode "dedicated"', 'targetOverrides');
    if (mode === 'dedicated') {
      if (!hasScope(caller.scopes, 'admin')) throw new ForbiddenError("A dedicated install needs the 'admin' scope", 'missing_scope');
      if (!body.targetOverrides || !Object.keys(body.targetOverrides).length) {
        throw new InputError('body/targetOverrides is required with mode "dedicated": name the platform workspace and targets of the tenant to install into', 'targetOverrides');
      }
    }
    await this.deps.workspaces.get(caller, body.workspaceId);
    // Every platform workspace and address of a dedicated install is the tenant's, or the install is not accepted.
    if (body.targetOverrides) await this.deps.tenancy.checkOverrides(caller.tenantId, body.targetOverrides, true);
    const id = randomUUID();
    await this.deps.jobs.create(
      { id, tenantId: caller.tenantId, workspaceId: body.workspaceId, appId, createdBy: caller.userId, deploy: body.deploy ?? true, mode, targetOverrides: body.targetOverrides, totalItems: app.items.length },
      app.items.map((item, stepIndex) => ({ stepIndex, itemKey: item.key, itemType: item.itemType, displayName: item.displayName, live: provisionedAtInstall(item.itemType) })),
    );
    this.deps.onAccepted();
    return { jobId: id, totalItems: app.items.length };
  }

  async get(caller: Caller, jobId: string): Promise<InstallJob> {
    const job = await this.deps.jobs.get(caller.tenantId, jobId);
    if (!job) throw new NotFoundError('Install job', jobId);
    return job;
  }

  async list(caller: Caller, workspaceId: string | undefined, page: PageRequest) {
    if (workspaceId) await this.deps.workspaces.get(caller, workspaceId);
    return this.deps.jobs.list(caller.tenantId, workspaceId, page);
  }

  /** Re-runs one provisioning step and recomputes the report, without re-running the install. */
  async retryStep(caller: Caller, jobId: string, stepIndex: number): Promise<InstallJob> {
    const job = await this.get(caller, jobId);
    if (job.status === 'running') throw new ConflictError('The install is still running; retry a step once it has finished', 'job_running');
    const steps = await this.deps.jobs.steps(jobId);
    const step = steps.find((s) => s.stepIndex === stepIndex);
    if (!step) throw new NotFoundError('Step', String(stepIndex));
    if (!step.live) throw new InputError(`step ${stepIndex} (${step.itemType}) is stored only and has nothing to provision`, 'stepIndex');
    if (!job.deploy) throw new InputError('the install ran with deploy false; install again with deploy true to provision', 'stepIndex');
    const app = this.deps.catalog.get(job.appId);
    if (!app) throw new NotFoundError('App', job.appId);
    const ws = await this.deps.workspaces.get(caller, job.workspaceId);
    const record = await this.deps.db.selectFrom('install_jobs').select('target_overrides').where('id', '=', jobId).executeTakeFirstOrThrow();
    const target = await installTarget(this.deps.tenancy, this.deps.profile, { tenantId: caller.tenantId, mode: job.mode, binding: ws.platformWorkspaceId, overrides: record.target_overrides as TargetOverrides | null });
    const now = new Date();
    const content = new Map(app.items.map((i) => [i.key, expandSeedTokens(i.content, now)]));
    const results = new Map(steps.filter((s) => s.result).map((s) => [s.itemKey, s.result!]));
    const item = app.items[stepIndex]!;
    const result = await runProvisioner({
      app, item, content: bindContent(content.get(item.key), results, target, this.deps.profile), storedItemId: step.cosmosItemId ?? '', target, profile: this.deps.profile, backends: this.deps.backends,
      dependency: (k) => results.get(k), contentOf: (k) => content.get(k),
    });
    step.result = result;
    const report = reportOf(job.mode, job.provision?.target ?? {}, steps);
    const status = jobStatusOf(report.outcome, report.steps.map((s) => s.result));
    await this.deps.jobs.update(jobId, { tenantId: caller.tenantId }, { status, provision: report }, { kind: 'step-retried', data: { stepIndex, status: result.status, outcome: report.outcome } }, { stepIndex, result });
    if (step.cosmosItemId) await recordItemState(this.deps.db, step.cosmosItemId, result, caller.tenantId);
    return this.get(caller, jobId);
  }

  /** The job's events after a sequence number (server-sent events). */
  async events(caller: Caller, jobId: string, after: number) {
    await this.get(caller, jobId);
    return this.deps.jobs.events(jobId, after);
  }
}
