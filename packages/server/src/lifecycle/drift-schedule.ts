import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../store/db.js';
import type { DriftService } from './drift-service.js';

/**
 * The drift schedule (SVC_DRIFT_INTERVAL): every interval, a drift job of each workspace with installed apps that has
 * no drift job running, started as the workspace's first installed app's creator in the workspace's tenant. With
 * several replicas each may start one in the same tick; a drift job only reads, so a second is harmless.
 */
export class DriftSchedule {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> | undefined;

  constructor(
    private readonly deps: { db: Db; drift: DriftService; log: FastifyBaseLogger },
    /** Seconds between checks; 0 turns the schedule off. */
    private readonly intervalSeconds: number,
  ) {}

  /** Starts the timer (unref'd: it never keeps the process alive); nothing when the schedule is off. */
  start(): void {
    if (this.intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = this.tick()
        .catch((err) => this.deps.log.error({ err }, 'drift schedule tick failed'))
        .finally(() => {
          this.ticking = undefined;
        });
    }, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and waits for a tick in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** One round: a drift job for every workspace with installed apps and no drift job running; answers the jobs started. */
  async tick(): Promise<string[]> {
    const workspaces = await this.deps.db
      .selectFrom('installed_apps')
      .select(['tenant_id', 'workspace_id', 'created_by'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('install_jobs')
              .select('install_jobs.id')
              .whereRef('install_jobs.workspace_id', '=', 'installed_apps.workspace_id')
              .whereRef('install_jobs.tenant_id', '=', 'installed_apps.tenant_id')
              .where('install_jobs.kind', '=', 'drift')
              .where('install_jobs.status', '=', 'running'),
          ),
        ),
      )
      .orderBy('workspace_id')
      .orderBy('created_at')
      .execute();
    const started: string[] = [];
    const seen = new Set<string>();
    for (const w of workspaces) {
      if (seen.has(w.workspace_id)) continue;
      seen.add(w.workspace_id);
      const jobId = await this.deps.drift.startAs({ tenantId: w.tenant_id, userId: w.created_by }, w.workspace_id);
      if (jobId) started.push(jobId);
    }
    if (started.length) this.deps.log.info({ jobs: started.length }, 'drift schedule started drift checks');
    return started;
  }
}
