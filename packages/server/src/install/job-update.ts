import { sql } from 'kysely';
import { pauseForRequests } from '../background.js';
import type { Semaphore } from '../semaphore.js';
import type { Db } from '../store/db.js';
import type { LifecyclePhase, LifecycleStepResult } from '../lifecycle/types.js';
import type { InstalledItem, JobEventKind, JobStatus, Phase, ProvisionReport, StepResult } from './types.js';

/** What a worker's write changes on the job row. */
export interface JobChange {
  status?: JobStatus;
  phase?: Phase | LifecyclePhase;
  percentComplete?: number;
  createdItems?: number;
  installed?: InstalledItem[];
  target?: Record<string, string>;
  provision?: ProvisionReport;
  finished?: boolean;
}

/** The event a write appends to the job's log. */
export interface JobEvent {
  kind: JobEventKind;
  data: Record<string, unknown>;
}

/** What a write changes on one step. */
export interface StepChange {
  stepIndex: number;
  cosmosItemId?: string;
  result?: StepResult | LifecycleStepResult;
}

/**
 * Applies a change to the job, its step and appends its event, fenced by the worker's lease, in one statement: one
 * round trip to the database per write. Concurrent writes to one job queue on its row lock, and each event takes
 * the next number from the job row it updated. Returns false when the lease no longer holds.
 */
export async function updateJob(
  db: Db,
  writes: Semaphore,
  jobId: string,
  fence: { owner: string },
  change: JobChange,
  event?: JobEvent,
  step?: StepChange,
): Promise<boolean> {
  const statement = jobStatement(db, jobId, fence, change, event, step);
  // Background work: it waits its turn of the event loop (background.ts).
  await pauseForRequests();
  const written = await writes.run(async () => !!(await statement.selectFrom('job').select('id').executeTakeFirst()));
  await pauseForRequests();
  return written;
}

/**
 * The job's final write and what is recorded with it (its installed app), in one transaction: both or neither. False
 * when the lease no longer holds, and then nothing is written. The write slot is taken before the transaction opens,
 * so a transaction never waits on a slot while it holds a connection.
 */
export async function finishJob(
  db: Db,
  writes: Semaphore,
  jobId: string,
  fence: { owner: string },
  change: JobChange,
  event: JobEvent,
  alongside: (trx: Db) => Promise<void>,
): Promise<boolean> {
  await pauseForRequests();
  const written = await writes.run(() =>
    db.transaction().execute(async (trx) => {
      const job = await jobStatement(trx, jobId, fence, change, event).selectFrom('job').select('id').executeTakeFirst();
      if (job) await alongside(trx);
      return !!job;
    }),
  );
  await pauseForRequests();
  return written;
}

/** The one statement of a fenced job write: the job row, its step and its event. */
function jobStatement(db: Db, jobId: string, fence: { owner: string }, change: JobChange, event?: JobEvent, step?: StepChange) {
  const now = new Date().toISOString();
  let statement = db.with('job', (db) => {
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
  return statement;
}
