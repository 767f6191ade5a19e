import type { JobRecord, LifecycleStepRow } from '../install/job-rows.js';
import type { JobStore } from '../install/job-store.js';
import { LeaseLost } from '../install/runner.js';
import { failedStep } from '../install/step-failure.js';
import { inStepSpan } from '../install/job-trace.js';
import type { JobStatus } from '../install/types.js';
import type { Db } from '../store/db.js';
import { type LifecycleKind, type LifecycleStepResult, WORK_PHASE } from './types.js';

/** What one kind of lifecycle job does with its steps; the runner gives it leases, resume, progress and events. */
export interface KindHandler<S = unknown> {
  /** `ordered`: one step at a time in index order (dependencies, or their reverse, were ordered at accept); `parallel`: up to `concurrency`. */
  order: 'ordered' | 'parallel';
  /** What every step of the job reads once per run (the stored app, its target). */
  prepare(job: JobRecord): Promise<S>;
  /** Runs one step; what it throws becomes a failed or remediation step. */
  runStep(job: JobRecord, scope: S, step: LifecycleStepRow): Promise<LifecycleStepResult>;
  /** What the job records with its end, in the transaction of its final write. */
  finish(trx: Db, job: JobRecord, steps: LifecycleStepRow[], status: JobStatus): Promise<void>;
}

/** The job's status from its steps: done when none failed, waits on a gate or conflicts; failed when nothing succeeded. */
export function lifecycleStatusOf(results: LifecycleStepResult[]): JobStatus {
  const bad = (r: LifecycleStepResult) => r.status === 'failed' || r.status === 'remediation' || r.status === 'conflict';
  if (!results.some(bad)) return 'done';
  return results.every(bad) ? 'failed' : 'partial';
}

/** Progress of a lifecycle job: 5 % once claimed, to 95 % as steps finish, 100 % when done. */
const percentOf = (done: number, total: number) => (total === 0 ? 95 : 5 + Math.floor((90 * done) / total));

/**
 * Runs upgrade, uninstall, apply and drift jobs through the install's job mechanism: claimed with a lease by the one
 * worker, each step's result stored (fenced) as it completes, so a job resumed after its worker died runs only the steps
 * without a result; the job's end and what it records are written in one transaction.
 */
export class LifecycleRunner {
  constructor(private readonly deps: { jobs: JobStore; handlers: Record<LifecycleKind, KindHandler<any>>; concurrency: number }) {}

  async run(job: JobRecord, owner: string): Promise<void> {
    const kind = job.kind as LifecycleKind;
    const handler = this.deps.handlers[kind];
    const fence = { owner };
    const write = async (...args: Parameters<JobStore['update']> extends [string, unknown, ...infer R] ? R : never) => {
      if (!(await this.deps.jobs.update(job.id, fence, ...args))) throw new LeaseLost(`lease of ${job.id} lost`);
    };
    const steps = await this.deps.jobs.lifecycleSteps(job.id);
    const phase = WORK_PHASE[kind];
    let done = steps.filter((s) => s.result).length;
    await write(
      { phase, percentComplete: percentOf(done, steps.length) },
      { kind: 'phase', data: { phase, percentComplete: percentOf(done, steps.length) } },
    );
    const scope = await handler.prepare(job);
    const runOne = async (step: LifecycleStepRow) => {
      const log: string[] = [];
      let result: LifecycleStepResult;
      try {
        result = await inStepSpan(step, () => handler.runStep(job, scope, step));
      } catch (err) {
        if (err instanceof LeaseLost) throw err;
        const failed = failedStep(err, step.itemType, log, phase);
        result = { ...failed, status: failed.status === 'remediation' ? 'remediation' : 'failed' };
      }
      step.result = result;
      done++;
      await write(
        { percentComplete: percentOf(done, steps.length) },
        {
          kind: 'step',
          data: { stepIndex: step.stepIndex, itemType: step.itemType, displayName: step.displayName, status: result.status },
        },
        { stepIndex: step.stepIndex, result },
      );
    };
    const pending = steps.filter((s) => !s.result);
    if (handler.order === 'ordered') for (const step of pending) await runOne(step);
    else {
      const queue = [...pending];
      const lanes = Array.from({ length: Math.min(this.deps.concurrency, queue.length) }, async () => {
        for (let step = queue.shift(); step; step = queue.shift()) await runOne(step);
      });
      await Promise.all(lanes);
    }

    await write({ phase: 'finalizing', percentComplete: 95 }, { kind: 'phase', data: { phase: 'finalizing', percentComplete: 95 } });
    const status = lifecycleStatusOf(steps.map((s) => s.result!));
    const finished = await this.deps.jobs.finishWith(
      job.id,
      fence,
      { status, phase: 'done', percentComplete: 100, finished: true },
      { kind: 'done', data: { status, percentComplete: 100, summary: summaryOf(steps) } },
      (trx) => handler.finish(trx, job, steps, status),
    );
    if (!finished) throw new LeaseLost(`lease of ${job.id} lost`);
  }
}

/** Counts of the finished steps by status. */
export function summaryOf(steps: Pick<LifecycleStepRow, 'result'>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of steps) if (s.result) counts[s.result.status] = (counts[s.result.status] ?? 0) + 1;
  return counts;
}
