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

/** What one write of a job does: its change, the events it appends and the steps it sets. */
export type JobWrite = [change: JobChange, event?: JobEvent | readonly JobEvent[], step?: StepChange | readonly StepChange[]];

/**
 * Applies a change to the job, its steps and appends its events, fenced by the worker's lease, in one statement: one
 * round trip to the database per write. Concurrent writes to one job queue on its row lock, and each event takes
 * the next number from the job row it updated. Returns false when the lease no longer holds.
 */
export async function updateJob(db: Db, writes: Semaphore, jobId: string, fence: { owner: string }, ...write: JobWrite): Promise<boolean> {
  const statement = jobStatement(db, jobId, fence, ...write);
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

const listOf = <T>(x: T | readonly T[] | undefined): readonly T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x as T]);

/** `CASE step_index WHEN i THEN v … ELSE column END` over the steps that carry a value for the column. */
function perStep(column: 'cosmos_item_id' | 'result', values: Array<[number, string]>) {
  const cases = values.map(([index, value]) =>
    column === 'result' ? sql`WHEN ${index} THEN ${value}::jsonb` : sql`WHEN ${index} THEN ${value}::text`,
  );
  return sql<string>`CASE step_index ${sql.join(cases, sql` `)} ELSE ${sql.ref(column)} END`;
}

/** The one statement of a fenced job write: the job row, its steps and its events (numbered in order). */
function jobStatement(db: Db, jobId: string, fence: { owner: string }, ...[change, event, step]: JobWrite) {
  const now = new Date().toISOString();
  const events = listOf(event);
  const steps = listOf(step);
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
        ...(events.length ? { event_seq: sql<number>`event_seq + ${events.length}` } : {}),
        updated_at: now,
      })
      .where('id', '=', jobId);
    return q.where('lease_owner', '=', fence.owner).where('status', '=', 'running').returning(['id', 'event_seq']);
  });
  if (steps.length) {
    const items = steps.flatMap((s): Array<[number, string]> => (s.cosmosItemId ? [[s.stepIndex, s.cosmosItemId]] : []));
    const results = steps.flatMap((s): Array<[number, string]> => (s.result ? [[s.stepIndex, JSON.stringify(s.result)]] : []));
    statement = statement.with('step', (db) =>
      db
        .updateTable('install_steps')
        .set({
          ...(items.length ? { cosmos_item_id: perStep('cosmos_item_id', items) } : {}),
          ...(results.length ? { result: perStep('result', results) } : {}),
          updated_at: now,
        })
        .where('job_id', '=', jobId)
        .where(
          'step_index',
          'in',
          steps.map((s) => s.stepIndex),
        )
        .where(({ exists, selectFrom }) => exists(selectFrom('job').select('id')))
        .returning('job_id'),
    ) as unknown as typeof statement;
  }
  if (events.length) {
    // The job row's event_seq moved by the number of events: they take the numbers up to it, in order.
    const rows = events.map((e, i) => sql`(${i + 1 - events.length}::int, ${e.kind}::text, ${JSON.stringify(e.data)}::jsonb)`);
    statement = statement.with('event', (db) =>
      db
        .insertInto('job_events')
        .columns(['job_id', 'seq', 'kind', 'data'])
        .expression(
          sql`SELECT ${jobId}::text, job.event_seq + v.offset_from_last, v.kind, v.data FROM job CROSS JOIN (VALUES ${sql.join(rows)}) AS v(offset_from_last, kind, data)`,
        )
        .returning('seq'),
    ) as unknown as typeof statement;
  }
  return statement;
}
