import { sql } from 'kysely';
import type { Db } from '../store/db.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import type { StoreRow } from '../store/schema.js';
import type {
  InstallJob,
  InstalledItem,
  JobEventKind,
  JobStatus,
  Mode,
  Phase,
  ProvisionReport,
  StepResult,
  TargetOverrides,
} from './types.js';
import { Semaphore } from '../semaphore.js';
import { pauseForRequests } from '../background.js';
import { provisioningPercent } from './report.js';

/** How long a claimed job stays with its worker without a heartbeat (SVC_INSTALL_LEASE_MS). */
export const DEFAULT_LEASE_MS = 30_000;

type JobRow = StoreRow<'install_jobs'>;

/** A job row as the worker sees it. */
export interface JobRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  appId: string;
  createdBy: string;
  deploy: boolean;
  mode: Mode;
  targetOverrides: TargetOverrides | null;
  attempts: number;
}

export interface StepRow {
  stepIndex: number;
  itemKey: string;
  itemType: string;
  displayName: string;
  live: boolean;
  cosmosItemId: string | null;
  result: StepResult | null;
}

function toJob(r: JobRow): InstallJob {
  return {
    id: r.id,
    appId: r.app_id,
    workspaceId: r.workspace_id,
    status: r.status,
    phase: r.phase,
    percentComplete: r.percent_complete,
    totalItems: r.total_items,
    createdItems: r.created_items,
    installed: r.installed ?? [],
    ...(r.provision ? { provision: r.provision } : {}),
    deploy: r.deploy,
    mode: r.mode,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  };
}

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

  /** Writes the job, its steps and its first event in one transaction. */
  async create(
    job: {
      id: string;
      tenantId: string;
      workspaceId: string;
      appId: string;
      createdBy: string;
      deploy: boolean;
      mode: Mode;
      targetOverrides?: TargetOverrides;
      totalItems: number;
    },
    steps: Omit<StepRow, 'cosmosItemId' | 'result'>[],
  ) {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('install_jobs')
        .values({
          id: job.id,
          tenant_id: job.tenantId,
          workspace_id: job.workspaceId,
          app_id: job.appId,
          created_by: job.createdBy,
          status: 'running',
          phase: 'creating-items',
          total_items: job.totalItems,
          deploy: job.deploy,
          mode: job.mode,
          target_overrides: job.targetOverrides ? JSON.stringify(job.targetOverrides) : null,
          target: null,
          installed: '[]',
          provision: null,
          lease_owner: null,
          event_seq: 1,
        })
        .execute();
      if (steps.length) {
        await trx
          .insertInto('install_steps')
          .values(
            steps.map((s) => ({
              job_id: job.id,
              step_index: s.stepIndex,
              item_key: s.itemKey,
              item_type: s.itemType,
              display_name: s.displayName,
              live: s.live,
              cosmos_item_id: null,
              result: null,
            })),
          )
          .execute();
      }
      await trx
        .insertInto('job_events')
        .values({
          job_id: job.id,
          seq: 1,
          kind: 'phase',
          data: JSON.stringify({ phase: 'creating-items', percentComplete: 0, status: 'running' }),
        })
        .execute();
    });
  }

  async get(tenantId: string, jobId: string): Promise<InstallJob | undefined> {
    const row = await this.db
      .selectFrom('install_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    return row ? toJob(row) : undefined;
  }

  async list(tenantId: string, workspaceId: string | undefined, page: PageRequest) {
    let q = this.db
      .selectFrom('install_jobs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    if (workspaceId) q = q.where('workspace_id', '=', workspaceId);
    if (page.cursor) q = q.where(afterCursor(page.cursor));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    return { jobs: rows.map(toJob), nextCursor };
  }

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
  async claim(owner: string): Promise<JobRecord | undefined> {
    const result = await sql<JobRow>`
      UPDATE install_jobs SET lease_owner = ${owner}, lease_expires_at = now() + ${`${this.leaseMs} milliseconds`}::interval, attempts = attempts + 1
      WHERE id = (
        SELECT id FROM install_jobs
        WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < now())
        ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1
      )
      RETURNING *`.execute(this.db);
    const r = result.rows[0];
    if (!r) return undefined;
    return {
      id: r.id,
      tenantId: r.tenant_id,
      workspaceId: r.workspace_id,
      appId: r.app_id,
      createdBy: r.created_by,
      deploy: r.deploy,
      mode: r.mode,
      targetOverrides: r.target_overrides ?? null,
      attempts: r.attempts,
    };
  }

  /** Extends the lease; false when another worker holds it now (the caller must stop). */
  async heartbeat(jobId: string, owner: string): Promise<boolean> {
    const r =
      await sql`UPDATE install_jobs SET lease_expires_at = now() + ${`${this.leaseMs} milliseconds`}::interval WHERE id = ${jobId} AND lease_owner = ${owner} AND status = 'running'`.execute(
        this.db,
      );
    return Number(r.numAffectedRows ?? 0) === 1;
  }

  /** Gives the lease back (graceful shutdown) so another worker resumes at once. */
  async release(jobId: string, owner: string): Promise<void> {
    await this.db
      .updateTable('install_jobs')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async steps(jobId: string): Promise<StepRow[]> {
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

  /**
   * Re-opens one step for the worker (a step retry), in one transaction: clears its result and puts the job back to
   * `running` in the `provisioning` phase with no lease, so the next claim runs the steps without a result, and appends
   * a `step-retried` event. The job's report is dropped until the worker recomputes it (SPEC.md: absent while
   * provisioning runs), and its attempts count from zero again (a later attempt is a resumption). Accepted when the job has finished, or when it is running in the provisioning phase and no
   * worker holds a live lease on it (re-opened by another retry and not claimed yet, or its worker stopped): a worker
   * that already read the job's steps would not see the re-opened one. False when a worker holds it, or the tenant has
   * no such job.
   */
  async reopen(tenantId: string, jobId: string, step: Pick<StepRow, 'stepIndex' | 'itemType' | 'displayName'>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const job = await trx
        .selectFrom('install_jobs')
        .select(['status', 'phase', 'event_seq', sql<boolean>`lease_owner IS NULL OR lease_expires_at < now()`.as('unleased')])
        .where('id', '=', jobId)
        .where('tenant_id', '=', tenantId)
        .forUpdate()
        .executeTakeFirst();
      if (!job || (job.status === 'running' && !(job.phase === 'provisioning' && job.unleased))) return false;
      const now = new Date().toISOString();
      const steps = trx.updateTable('install_steps').where('job_id', '=', jobId);
      await steps.set({ result: null, updated_at: now }).where('step_index', '=', step.stepIndex).execute();
      const live = await trx
        .selectFrom('install_steps')
        .select(sql<boolean>`result IS NOT NULL`.as('done'))
        .where('job_id', '=', jobId)
        .where('live', '=', true)
        .execute();
      const percentComplete = provisioningPercent(live.filter((s) => s.done).length, live.length);
      const seq = job.event_seq + 1;
      await trx
        .updateTable('install_jobs')
        .set({
          status: 'running',
          phase: 'provisioning',
          percent_complete: percentComplete,
          provision: null,
          finished_at: null,
          lease_owner: null,
          lease_expires_at: null,
          attempts: 0,
          event_seq: seq,
          updated_at: now,
        })
        .where('id', '=', jobId)
        .execute();
      const { stepIndex, itemType, displayName } = step; // only these: the caller may pass the whole step row
      const data = { stepIndex, itemType, displayName, status: 'running', phase: 'provisioning', percentComplete };
      await trx
        .insertInto('job_events')
        .values({ job_id: jobId, seq, kind: 'step-retried', data: JSON.stringify(data) })
        .execute();
      return true;
    });
  }

  /**
   * Applies a change to the job, its step and appends its event, fenced by the worker's lease, in one statement: one
   * round trip to the database per write. Concurrent writes to one job queue on its row lock, and each event takes
   * the next number from the job row it updated. Returns false when the lease no longer holds.
   */
  async update(
    jobId: string,
    fence: { owner: string },
    change: {
      status?: JobStatus;
      phase?: Phase;
      percentComplete?: number;
      createdItems?: number;
      installed?: InstalledItem[];
      target?: Record<string, string>;
      provision?: ProvisionReport;
      finished?: boolean;
    },
    event?: { kind: JobEventKind; data: Record<string, unknown> },
    step?: { stepIndex: number; cosmosItemId?: string; result?: StepResult },
  ): Promise<boolean> {
    const now = new Date().toISOString();
    let statement = this.db.with('job', (db) => {
      const q = db
        .updateTable('install_jobs')
        .set({
          ...(change.status ? { status: change.status } : {}),
          ...(change.phase ? { phase: change.phase } : {}),
          ...(change.percentComplete !== undefined
            ? { percent_complete: sql<number>`GREATEST(percent_complete, ${change.percentComplete})` }
            : {}),
          ...(change.createdItems !== undefined ? { created_items: change.createdItems } : {}),
          ...(change.installed ? { installed: JSON.stringify(change.installed) } : {}),
          ...(change.target ? { target: JSON.stringify(change.target) } : {}),
          ...(change.provision ? { provision: JSON.stringify(change.provision) } : {}),
          ...(change.finished ? { finished_at: now, lease_owner: null, lease_expires_at: null } : {}),
          ...(event ? { event_seq: sql<number>`event_seq + 1` } : {}),
          updated_at: now,
        })
        .where('id', '=', jobId);
      return q.where('lease_owner', '=', fence.owner).where('status', '=', 'running').returning(['id', 'event_seq']);
    });
    if (step) {
      statement = statement.with('step', (db) =>
        db
          .updateTable('install_steps')
          .set({
            ...(step.cosmosItemId ? { cosmos_item_id: step.cosmosItemId } : {}),
            ...(step.result ? { result: JSON.stringify(step.result) } : {}),
            updated_at: now,
          })
          .where('job_id', '=', jobId)
          .where('step_index', '=', step.stepIndex)
          .where(({ exists, selectFrom }) => exists(selectFrom('job').select('id')))
          .returning('job_id'),
      ) as unknown as typeof statement;
    }
    if (event) {
      statement = statement.with('event', (db) =>
        db
          .insertInto('job_events')
          .columns(['job_id', 'seq', 'kind', 'data'])
          .expression(
            db
              .selectFrom('job')
              .select([
                sql<string>`${jobId}::text`.as('job_id'),
                'event_seq as seq',
                sql<string>`${event.kind}::text`.as('kind'),
                sql<string>`${JSON.stringify(event.data)}::jsonb`.as('data'),
              ]),
          )
          .returning('seq'),
      ) as unknown as typeof statement;
    }
    // Background work: it waits its turn of the event loop (background.ts).
    await pauseForRequests();
    const written = await this.writes.run(async () => !!(await statement.selectFrom('job').select('id').executeTakeFirst()));
    await pauseForRequests();
    return written;
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
