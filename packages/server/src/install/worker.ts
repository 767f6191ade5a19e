import { randomUUID } from 'node:crypto';
import type { JobStore } from './job-store.js';
import type { JobKind } from '../lifecycle/types.js';
import type { JobRecord } from './job-rows.js';
import { LeaseLost } from './runner.js';
import { tenantContext } from '../tenancy/tenant-context.js';
import { detached, failSpan } from '../tracing/spans.js';
import { inJobSpan } from './job-trace.js';
import type { JobConcurrency } from './job-concurrency.js';
import type { Metrics } from '../metrics.js';

/** Where the worker reports claims, resumptions and failures (the service's pino logger fits). */
export interface WorkerLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Runs one claimed job of its kind under the worker's lease (throws LeaseLost once the lease was taken over). */
export interface JobRunner {
  run(job: JobRecord, owner: string): Promise<void>;
}

/**
 * Claims jobs of every kind with a lease, as many at once as its concurrency allows, heartbeats the leases of all it
 * runs in one statement, and resumes jobs whose worker died (their lease ran out).
 */
export class InstallWorker {
  readonly id = `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly active = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private beat?: NodeJS.Timeout;
  private stopped = false;
  private polling = false;

  constructor(
    private readonly jobs: JobStore,
    private readonly runners: Record<JobKind, JobRunner>,
    private readonly log: WorkerLog,
    private readonly options: { concurrency: JobConcurrency; pollMs: number; heartbeatMs: number },
  ) {}

  /** Reports in /metrics the jobs this process runs now, how many it may run now, and its ceiling. */
  registerGauges(metrics: Metrics): void {
    const { concurrency } = this.options;
    metrics.gauge('svc_worker_jobs', 'Jobs this process runs now (running), may run now (limit: adaptive) and at most (max)', () => [
      { labels: { state: 'running' }, value: this.active.size },
      { labels: { state: 'limit' }, value: concurrency.limit },
      { labels: { state: 'max' }, value: concurrency.max },
    ]);
  }

  start(): void {
    this.timer = setInterval(() => this.poke(), this.options.pollMs);
    this.timer.unref();
    this.beat = setInterval(() => void this.heartbeat(), this.options.heartbeatMs);
    this.beat.unref();
    this.options.concurrency.start();
    this.poke();
  }

  /** Looks for claimable work now (called after an install is accepted). */
  poke(): void {
    if (this.stopped || this.polling) return;
    this.polling = true;
    // Outside whatever request poked it: each job's work joins the trace that job carries, not the poking request's.
    void detached(() => this.fill()).finally(() => {
      this.polling = false;
    });
  }

  private async fill(): Promise<void> {
    const concurrency = this.options.concurrency;
    while (!this.stopped) {
      if (this.active.size >= concurrency.limit) return concurrency.reachedLimit();
      const job = await this.jobs.claim(this.id).catch((err) => {
        this.log.error({ err }, 'claiming an install job failed');
        return undefined;
      });
      if (!job) return;
      const fields = { jobId: job.id, kind: job.kind, attempts: job.attempts };
      const run = tenantContext
        .run(job.tenantId, () =>
          // The job's log lines are written in its span, so they carry its trace id.
          inJobSpan(job, async (span) => {
            this.log.info(fields, job.attempts > 1 ? 'resuming a job whose worker stopped' : 'running a job');
            try {
              await this.runners[job.kind].run(job, this.id);
              this.log.info(fields, 'job finished');
            } catch (err) {
              failSpan(span, err);
              if (err instanceof LeaseLost) return;
              this.log.error({ err, ...fields }, 'a job stopped on an unexpected error; it will be resumed');
              return this.jobs.release([job.id], this.id).catch(() => undefined); // the lease runs out on its own
            }
          }),
        )
        .finally(() => {
          this.active.delete(job.id);
          this.poke();
        });
      this.active.set(job.id, run);
    }
  }

  /** Extends every running job's lease at once; a job whose lease was taken over stops at its next write (LeaseLost). */
  private async heartbeat(): Promise<void> {
    const ids = [...this.active.keys()];
    const held = await this.jobs.heartbeat(ids, this.id).catch(() => undefined);
    if (!held) return; // the database did not answer: the next beat tries again, well within the lease
    // A job that ended meanwhile has left `active`; one still running without its lease was taken over.
    for (const id of ids) if (!held.has(id) && this.active.has(id)) this.log.warn({ jobId: id }, 'lease lost');
  }

  /** Stops claiming, and gives the leases of running jobs back so another process resumes them at once. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.beat);
    this.options.concurrency.stop();
    await Promise.race([Promise.allSettled(this.active.values()), new Promise((r) => setTimeout(r, graceMs))]);
    await this.jobs.release([...this.active.keys()], this.id).catch(() => undefined);
  }
}
