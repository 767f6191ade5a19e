import { int, type Section } from './setting.js';

/** The install pipeline. */
export const INSTALL = {
  concurrency: int('PROVISION_CONCURRENCY', 6, 1, 64, 'items provisioned at once per install'),
  workerJobs: int('SVC_WORKER_JOBS', 4, 1, 256, 'install jobs a process runs at once'),
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
