import { int, type Section } from './setting.js';

/** The install pipeline. */
export const INSTALL = {
  concurrency: int('PROVISION_CONCURRENCY', 6, 1, 64, 'items provisioned at once per install'),
  workerJobs: int(
    'SVC_WORKER_JOBS',
    64,
    1,
    1024,
    "the most jobs (installs, upgrades, uninstalls, drift checks) a process runs at once: from `SVC_WORKER_JOBS_MIN` up to this, it runs as many as its event-loop delay and its database pool's wait allow (`SVC_WORKER_LOOP_DELAY_MS`, `SVC_WORKER_DB_WAIT_MS`), reconsidered every half second. Before issue 24 a process ran exactly this many (default 4): a value set then still bounds the count, and `SVC_WORKER_JOBS_MIN` set to the same value fixes it there as before",
  ),
  workerJobsMin: int(
    'SVC_WORKER_JOBS_MIN',
    4,
    1,
    1024,
    'the fewest jobs a process runs at once while there is work, where the adaptive count starts (capped at `SVC_WORKER_JOBS`; equal to it, the count is fixed)',
  ),
  workerLoopDelayMs: int(
    'SVC_WORKER_LOOP_DELAY_MS',
    20,
    1,
    10_000,
    "the event-loop delay (p99 over half a second, beyond the monitor's 10 ms interval) over which a process runs fewer jobs at once, and under which it may run more",
  ),
  workerDbWaitMs: int(
    'SVC_WORKER_DB_WAIT_MS',
    10,
    1,
    10_000,
    'the wait for a connection of the database pool (p99 over half a second) over which a process runs fewer jobs at once, and under which it may run more',
  ),
  pollMs: int('SVC_WORKER_POLL_MS', 500, 10, 600_000, 'how often a process looks for install work'),
  leaseMs: int(
    'SVC_INSTALL_LEASE_MS',
    30_000,
    200,
    3_600_000,
    'how long a claimed install job stays with its process without a heartbeat (heartbeat every third of it); a job whose process died is resumed by another once this expires',
  ),
  driftInterval: int(
    'SVC_DRIFT_INTERVAL',
    0,
    0,
    31_536_000,
    'seconds between scheduled drift checks: every interval, each workspace with installed apps and no drift check running gets one (a drift job reading every live item from its backing service); `0` turns the schedule off',
  ),
} satisfies Section;
