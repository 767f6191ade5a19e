import type { Caller } from '../auth/caller.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import type { JobRow, LifecycleStepRow } from '../install/job-rows.js';
import type { JobStore } from '../install/job-store.js';
import type { InstallService } from '../install/install-service.js';
import type { PageRequest } from '../store/paging.js';
import type { WorkspaceService } from '../workspaces/workspace-service.js';
import { summaryOf } from './lifecycle-runner.js';
import { type Job, JOB_KINDS, type JobKind, type LifecycleKind, type LifecycleStepResult, WORK_PHASE } from './types.js';

/** A job of any kind as polled at GET /api/jobs/{jobId}: its row and its steps (an install's results are StepResults). */
export function toLifecycleJob(r: JobRow, steps: LifecycleStepRow[]): Job {
  return {
    id: r.id,
    kind: r.kind,
    workspaceId: r.workspace_id,
    appId: r.app_id,
    status: r.status,
    phase: r.phase,
    percentComplete: r.percent_complete,
    options: r.options ?? {},
    summary: summaryOf(steps),
    steps: steps.map((s) => ({
      stepIndex: s.stepIndex,
      key: s.itemKey,
      itemType: s.itemType,
      displayName: s.displayName,
      itemId: s.cosmosItemId,
      live: s.live,
      result: s.result,
    })),
    createdAt: r.created_at.toISOString(),
    createdBy: r.created_by,
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  };
}

/** Jobs of every kind: poll, list, their events, and a step retry (DESIGN.md "Installed apps and their lifecycle"). */
export class JobService {
  constructor(private readonly deps: { jobs: JobStore; workspaces: WorkspaceService; installs: InstallService; onAccepted: () => void }) {}

  /** A job with its steps; `read` is its row when the request already read it (`req.job`). */
  async get(caller: Caller, jobId: string, read?: JobRow): Promise<Job> {
    const row = read ?? (await this.deps.jobs.row(caller.tenantId, jobId));
    if (!row) throw new NotFoundError('Job', jobId);
    return toLifecycleJob(row, await this.deps.jobs.lifecycleSteps(jobId));
  }

  /** A page of a workspace's jobs, oldest first, of the kinds asked (all by default). */
  async list(caller: Caller, workspaceId: string, kinds: readonly JobKind[] | undefined, page: PageRequest) {
    await this.deps.workspaces.get(caller, workspaceId);
    const { rows, nextCursor } = await this.deps.jobs.rows(caller.tenantId, workspaceId, page, kinds?.length ? kinds : JOB_KINDS);
    const jobs = await Promise.all(rows.map(async (r) => toLifecycleJob(r, await this.deps.jobs.lifecycleSteps(r.id))));
    return { jobs, nextCursor };
  }

  async events(caller: Caller, jobId: string, after: number) {
    if (!(await this.deps.jobs.row(caller.tenantId, jobId))) throw new NotFoundError('Job', jobId);
    return this.deps.jobs.events(jobId, after);
  }

  /**
   * Re-opens one finished step of a job (after its gate was fixed, or a failure passed) and hands the job back to the
   * worker: 202 with the job running again. An install's step is retried as the install's retry does.
   */
  async retryStep(caller: Caller, jobId: string, stepIndex: number): Promise<Job> {
    const row = await this.deps.jobs.row(caller.tenantId, jobId);
    if (!row) throw new NotFoundError('Job', jobId);
    if (row.kind === 'install') {
      await this.deps.installs.retryStep(caller, jobId, stepIndex);
      return this.get(caller, jobId);
    }
    const step = (await this.deps.jobs.lifecycleSteps(jobId)).find((s) => s.stepIndex === stepIndex);
    if (!step) throw new NotFoundError('Step', String(stepIndex));
    if (step.result && !retryable(step.result))
      throw new InputError(`step ${stepIndex} ended ${step.result.status}; only a failed or remediation step is retried`, 'stepIndex');
    await this.deps.workspaces.get(caller, row.workspace_id);
    const phase = WORK_PHASE[row.kind as LifecycleKind];
    const percent = (done: number, total: number) => (total === 0 ? 95 : 5 + Math.floor((90 * done) / total));
    if (!(await this.deps.jobs.reopen(caller.tenantId, jobId, step, { phase, percent }))) {
      throw new ConflictError('The job is running in a worker; retry a step once it has finished', 'job_running');
    }
    this.deps.onAccepted();
    return this.get(caller, jobId);
  }
}

const retryable = (r: LifecycleStepResult) => r.status === 'failed' || r.status === 'remediation';
