import { sql } from 'kysely';
import type { Db } from '../store/db.js';
import type { StepRow } from './job-rows.js';
import type { LifecyclePhase } from '../lifecycle/types.js';
import { provisioningPercent } from './report.js';
import { activeTraceparent } from '../tracing/spans.js';

/**
 * Re-opens one step for the worker (a step retry), in one transaction: clears its result and puts the job back to
 * `running` in the `provisioning` phase with no lease, so the next claim runs the steps without a result, and appends
 * a `step-retried` event. The job's report is dropped until the worker recomputes it (SPEC.md: absent while
 * provisioning runs), and its attempts count from zero again (a later attempt is a resumption). Accepted when the job has finished, or when it is running in the provisioning phase and no
 * worker holds a live lease on it (re-opened by another retry and not claimed yet, or its worker stopped): a worker
 * that already read the job's steps would not see the re-opened one. False when a worker holds it, or the tenant has
 * no such job.
 */
export async function reopenStep(
  db: Db,
  tenantId: string,
  jobId: string,
  step: Pick<StepRow, 'stepIndex' | 'itemType' | 'displayName'>,
  work: { phase: 'provisioning' | LifecyclePhase; percent(done: number, total: number): number } = {
    phase: 'provisioning',
    percent: provisioningPercent,
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const job = await trx
      .selectFrom('install_jobs')
      .select(['status', 'phase', 'event_seq', sql<boolean>`lease_owner IS NULL OR lease_expires_at < now()`.as('unleased')])
      .where('id', '=', jobId)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!job || (job.status === 'running' && !(job.phase === work.phase && job.unleased))) return false;
    const now = new Date().toISOString();
    const steps = trx.updateTable('install_steps').where('job_id', '=', jobId);
    await steps.set({ result: null, updated_at: now }).where('step_index', '=', step.stepIndex).execute();
    // An install counts its live steps; a lifecycle job all of its steps.
    const counted = trx.selectFrom('install_steps').select(sql<boolean>`result IS NOT NULL`.as('done')).where('job_id', '=', jobId);
    const live = await (work.phase === 'provisioning' ? counted.where('live', '=', true) : counted).execute();
    const percentComplete = work.percent(live.filter((s) => s.done).length, live.length);
    const seq = job.event_seq + 1;
    await trx
      .updateTable('install_jobs')
      .set({
        status: 'running',
        phase: work.phase,
        percent_complete: percentComplete,
        provision: null,
        finished_at: null,
        lease_owner: null,
        lease_expires_at: null,
        attempts: 0,
        event_seq: seq,
        // The re-run is the retry request's work: its trace continues from there.
        trace_parent: activeTraceparent() ?? null,
        updated_at: now,
      })
      .where('id', '=', jobId)
      .execute();
    const { stepIndex, itemType, displayName } = step; // only these: the caller may pass the whole step row
    const data = { stepIndex, itemType, displayName, status: 'running', phase: work.phase, percentComplete };
    await trx
      .insertInto('job_events')
      .values({ job_id: jobId, seq, kind: 'step-retried', data: JSON.stringify(data) })
      .execute();
    return true;
  });
}
