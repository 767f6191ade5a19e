import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../store/db.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { JobKind, JobOptions } from '../lifecycle/types.js';
import type { InstallJob, Mode, TargetOverrides } from './types.js';
import { Semaphore } from '../semaphore.js';
import { claimJob, heartbeatJobs, releaseJobs } from './job-lease.js';
import { type JobRecord, type JobRow, type LifecycleStepRow, type StepRow, toJob } from './job-rows.js';
import { type JobChange, type JobEvent, type JobWrite, finishJob, updateJob } from './job-update.js';
import { recordInstalledApp } from '../installed-apps/app-records.js';
import type { InstalledAppRecord } from '../installed-apps/types.js';
import { reopenStep } from './step-reopen.js';
import { activeTraceparent } from '../tracing/spans.js';

/** How long a claimed job stays with its worker without a heartbeat (SVC_INSTALL_LEASE_MS). */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * Persistence of install jobs, their steps and their event log. Every write by a worker is fenced by its lease.
 * At most `writeSlots` of its writes run at once in a process: the install worker's many concurrent
 * steps queue here rather than in the connection pool, so API requests (a poll of a job) always find a connection.
 */
export class JobStore {
  private readonly writes: Semaphore;

  constructor(
    private readonly db: Db,
    readonly leaseMs = DEFAULT_LEASE_MS,
    writeSlots = Infinity,
  ) {
    this.writes = new Semaphore(writeSlots);
  }

  /**
   * Writes the job, its steps and its first event in one statement (inside `trx` when the caller holds a transaction):
   * the steps' and the event's references to the job are checked at the statement's end, when the job row is there.
   */
  async create(
    job: {
      id: string;
      kind?: JobKind;
      options?: JobOptions;
      phase?: JobRow['phase'];
      tenantId: string;
      workspaceId: string;
      appId: string | null;
      createdBy: string;
      deploy: boolean;
      mode: Mode;
      targetOverrides?: TargetOverrides;
      totalItems: number;
    },
    steps: (Omit<StepRow, 'cosmosItemId' | 'result'> & { cosmosItemId?: string | null })[],
    within?: Db,
  ) {
    const phase = job.phase ?? 'creating-items';
    let statement = (within ?? this.db).with('job', (db) =>
      db
        .insertInto('install_jobs')
        .values({
          id: job.id,
          kind: job.kind ?? 'install',
          options: JSON.stringify(job.options ?? {}),
          tenant_id: job.tenantId,
          workspace_id: job.workspaceId,
          app_id: job.appId,
          created_by: job.createdBy,
          status: 'running',
          phase,
          total_items: job.totalItems,
          deploy: job.deploy,
          mode: job.mode,
          target_overrides: job.targetOverrides ? JSON.stringify(job.targetOverrides) : null,
          target: null,
          installed: '[]',
          provision: null,
          lease_owner: null,
          event_seq: 1,
          trace_parent: activeTraceparent() ?? null,
        })
        .returning('id'),
    );
    if (steps.length) {
      statement = statement.with('steps', (db) =>
        db
          .insertInto('install_steps')
          .values(
            steps.map((s) => ({
              job_id: job.id,
              step_index: s.stepIndex,
              item_key: s.itemKey,
              item_type: s.itemType,
              display_name: s.displayName,
              live: s.live,
              cosmos_item_id: s.cosmosItemId ?? null,
              result: null,
            })),
          )
          .returning('job_id'),
      ) as unknown as typeof statement;
    }
    await statement
      .insertInto('job_events')
      .values({
        job_id: job.id,
        seq: 1,
        kind: 'phase',
        data: JSON.stringify({ phase, percentComplete: 0, status: 'running', kind: job.kind ?? 'install' }),
      })
      .execute();
  }

  /**
   * One of the tenant's install jobs (a job of another kind is not an install job: undefined); `read` is its row when
   * the request already read it (the access check of a job route: `req.job`).
   */
  async get(tenantId: string, jobId: string, read?: JobRow): Promise<InstallJob | undefined> {
    const row = read ?? (await this.row(tenantId, jobId));
    return row?.kind === 'install' ? toJob(row) : undefined;
  }

  /** One of the tenant's jobs of any kind, as stored. */
  row(tenantId: string, jobId: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('install_jobs').selectAll().where('id', '=', jobId).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  /** A page of the tenant's jobs of one kind (install unless named), oldest first, of one workspace or all. */
  async list(tenantId: string, workspaceId: string | undefined, page: PageRequest, visible?: Expression<SqlBool>) {
    const { rows, nextCursor } = await this.rows(tenantId, workspaceId, page, ['install'], visible);
    return { jobs: rows.map(toJob), nextCursor };
  }

  /** A page of the tenant's job rows of the given kinds, oldest first, of one workspace or all. */
  async rows(
    tenantId: string,
    workspaceId: string | undefined,
    page: PageRequest,
    kinds: readonly JobKind[],
    visible?: Expression<SqlBool>,
  ) {
    let q = this.db
      .selectFrom('install_jobs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('kind', 'in', kinds)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    if (workspaceId) q = q.where('workspace_id', '=', workspaceId);
    if (visible) q = q.where(visible);
    if (page.cursor) q = q.where(afterCursor(page.cursor));
    return toPage(await q.execute(), page.limit);
  }

  /** Whether an install is running in the workspace. */
  async hasRunning(tenantId: string, workspaceId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('install_jobs')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return !!row;
  }

  /** Claims the oldest running job whose lease is free or expired (SKIP LOCKED: replicas never take the same one). */
  claim(owner: string): Promise<JobRecord | undefined> {
    return claimJob(this.db, this.leaseMs, owner);
  }

  /** Extends the leases of the owner's jobs in one statement; answers those it still holds (the others' workers must stop). */
  heartbeat(jobIds: readonly string[], owner: string): Promise<Set<string>> {
    return heartbeatJobs(this.db, this.leaseMs, jobIds, owner);
  }

  /** Gives the leases back (graceful shutdown, or a job stopped on an error) so another worker resumes at once. */
  release(jobIds: readonly string[], owner: string): Promise<void> {
    return releaseJobs(this.db, jobIds, owner);
  }

  /** The job's steps, in order. */
  async steps(jobId: string): Promise<StepRow[]> {
    return (await this.anySteps(jobId)) as StepRow[];
  }

  /** A lifecycle job's steps, in order. */
  async lifecycleSteps(jobId: string): Promise<LifecycleStepRow[]> {
    return (await this.anySteps(jobId)) as LifecycleStepRow[];
  }

  private async anySteps(jobId: string) {
    const rows = await this.db.selectFrom('install_steps').selectAll().where('job_id', '=', jobId).orderBy('step_index').execute();
    return rows.map((r) => ({
      stepIndex: r.step_index,
      itemKey: r.item_key,
      itemType: r.item_type,
      displayName: r.display_name,
      live: r.live,
      cosmosItemId: r.cosmos_item_id,
      result: r.result,
    }));
  }

  /** Re-opens one step for the worker (a step retry); false when a worker holds the job or the tenant has no such job. */
  reopen(
    tenantId: string,
    jobId: string,
    step: Pick<StepRow, 'stepIndex' | 'itemType' | 'displayName'>,
    work?: Parameters<typeof reopenStep>[4],
  ): Promise<boolean> {
    return reopenStep(this.db, tenantId, jobId, step, work);
  }

  /** Applies a change to the job, its steps and appends its events, fenced by the worker's lease; false when the lease no longer holds. */
  update(jobId: string, fence: { owner: string }, ...write: JobWrite): Promise<boolean> {
    return updateJob(this.db, this.writes, jobId, fence, ...write);
  }

  /**
   * The job's final write, fenced like update, with its installed app recorded in the same transaction; false when
   * the lease no longer holds (nothing written).
   */
  finish(jobId: string, fence: { owner: string }, change: JobChange, event: JobEvent, app: InstalledAppRecord): Promise<boolean> {
    return finishJob(this.db, this.writes, jobId, fence, change, event, (trx) => recordInstalledApp(trx, app));
  }

  /** A lifecycle job's final write, fenced like update, with what it records (`alongside`) in the same transaction. */
  finishWith(jobId: string, fence: { owner: string }, change: JobChange, event: JobEvent, alongside: (trx: Db) => Promise<void>) {
    return finishJob(this.db, this.writes, jobId, fence, change, event, alongside);
  }

  /** Events after a sequence number (server-sent events replay from Last-Event-ID). */
  async events(jobId: string, after: number) {
    const rows = await this.db
      .selectFrom('job_events')
      .select(['seq', 'kind', 'data', 'created_at'])
      .where('job_id', '=', jobId)
      .where('seq', '>', after)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ seq: r.seq, kind: r.kind, data: r.data, at: r.created_at.toISOString() }));
  }
}
