import { randomUUID } from 'node:crypto';
import type { JobStore } from './job-store.js';
import type { JobKind } from '../lifecycle/types.js';
import type { JobRecord } from './job-rows.js';
import { LeaseLost } from './runner.js';
import { tenantContext } from '../tenancy/tenant-context.js';
import { detached, failSpan } from '../tracing/spans.js';
import { inJobSpan } from './job-trace.js';

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

/** Claims jobs of every kind with a lease, heartbeats while running them, and resumes jobs whose worker died. */
export class InstallWorker {
  readonly id = `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly active = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private polling = false;

  constructor(
    private readonly jobs: JobStore,
    private readonly runners: Record<JobKind, JobRunner>,
    private readonly log: WorkerLog,
    private readonly options: { maxJobs: number; pollMs: number; heartbeatMs: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => this.poke(), this.options.pollMs);
    this.timer.unref();
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
    while (!this.stopped && this.active.size < this.options.maxJobs) {
      const job = await this.jobs.claim(this.id).catch((err) => {
        this.log.error({ err }, 'claiming an install job failed');
        return undefined;
      });
      if (!job) return;
      const beat = setInterval(() => {
        void this.jobs
          .heartbeat(job.id, this.id)
          .then((ok) => {
            if (!ok) this.log.warn({ jobId: job.id }, 'lease lost');
          })
          .catch(() => undefined);
      }, this.options.heartbeatMs);
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
              return this.jobs.release(job.id, this.id).catch(() => undefined); // the lease runs out on its own
            }
          }),
        )
        .finally(() => {
          clearInterval(beat);
          this.active.delete(job.id);
          this.poke();
        });
      this.active.set(job.id, run);
    }
  }

  /** Stops claiming, and gives the leases of running jobs back so another process resumes them at once. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.race([Promise.allSettled(this.active.values()), new Promise((r) => setTimeout(r, graceMs))]);
    for (const jobId of this.active.keys()) await this.jobs.release(jobId, this.id).catch(() => undefined);
  }
}
