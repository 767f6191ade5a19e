// bench/throttle: 20 concurrent installs of the catalog's apps through one real service process (main.ts) against the
// sandbox with the data platform's per-identity throttle on, once with the throttle limiter (SVC_BACKING_THROTTLE_LIMITER
// adaptive) and once without it (off), each on a fresh sandbox and store. Prints per run the share of data platform calls
// answered 429 (goal <= 5 %), installs per minute (those that ended all-created, over the wall time of the 20), the
// quota's ideal (quota per minute / data platform calls per install, counting the calls the throttle let through),
// their ratio (goal >= 0.8) and the installs' outcomes (goal: all 20 all-created with the limiter). The throttle is a
// sliding window per identity, by default the real service's 200 calls a minute.
// Settings (environment): THROTTLE_CALLS per window (200), THROTTLE_WINDOW_MS (60000), THROTTLE_INSTALLS (20),
// THROTTLE_LATENCY_MS added to every sandbox call (50), THROTTLE_MODES (adaptive,off), and any SVC_* for the process.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { loadCatalog } from '../../packages/server/src/catalog/load-catalog.js';
import {
  apiCaller,
  bootstrapToken,
  freePort,
  serviceEnv,
  sleep,
  startService,
  stopService,
  waitHealthy,
} from '../../packages/server/test/service-process.js';

const CALLS = Number(process.env.THROTTLE_CALLS ?? 200);
const WINDOW_MS = Number(process.env.THROTTLE_WINDOW_MS ?? 60_000);
const INSTALLS = Number(process.env.THROTTLE_INSTALLS ?? 20);
const LATENCY_MS = Number(process.env.THROTTLE_LATENCY_MS ?? 50);
const MODES = (process.env.THROTTLE_MODES ?? 'adaptive,off').split(',') as Array<'adaptive' | 'off'>;
const SHARE_GOAL = 0.05;
const RATIO_GOAL = 0.8;
const SERVICES = ['identity', 'dataPlatform', 'arm', 'kql', 'search', 'oneLake', 'reporting', 'sql', 'synapse', 'lake', 'sqlServerless'];
const passThrough = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('SVC_')) as Array<[string, string]>);

interface Run {
  mode: string;
  seconds: number;
  calls: number;
  throttled: number;
  outcomes: Record<string, number>;
  failedSteps: string[];
}

/** One service process with the limiter `mode`, a fresh sandbox throttling the data platform, INSTALLS installs at once. */
async function run(mode: 'adaptive' | 'off'): Promise<Run> {
  const sandbox = await startSandbox({});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-throttle-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const token = bootstrapToken();
  const svc = startService(
    serviceEnv(sandbox.env, {
      PORT: String(port),
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_TOKEN: token,
      SVC_LOG_LEVEL: 'warn',
      SVC_WORKER_JOBS: String(INSTALLS),
      SVC_WORKER_POLL_MS: '200',
      SVC_RATE_LIMIT_PER_MINUTE: '1000000',
      ...passThrough,
      SVC_BACKING_THROTTLE_LIMITER: mode,
    }),
    { keepOutput: false },
  );
  const api = apiCaller(base, token);
  try {
    await waitHealthy(base, svc, 240_000);
    await sandbox.admin.setLatency(Object.fromEntries(SERVICES.map((s) => [s, LATENCY_MS])));
    const apps = loadCatalog().apps;
    const workspaces: string[] = [];
    for (let i = 0; i < INSTALLS; i++) workspaces.push((await api('POST', '/api/workspaces', { name: `throttle-${i}` })).workspace.id);
    await sandbox.admin.setSwitch('dataPlatform.throttleWindowMs', WINDOW_MS);
    await sandbox.admin.setSwitch('dataPlatform.throttlePerMinute', CALLS);
    await sandbox.admin.clearRequests();

    const started = Date.now();
    const jobs = await Promise.all(
      workspaces.map(async (workspaceId, i) => {
        const app = apps[i % apps.length]!;
        const { jobId } = await api('POST', `/api/apps/${app.id}/install`, { workspaceId });
        for (;;) {
          await sleep(1000);
          const { job } = await api('GET', `/api/apps/install-jobs/${jobId}`);
          if (job.status !== 'running') return { app: app.id, job, finished: Date.now() };
        }
      }),
    );
    const seconds = (Math.max(...jobs.map((j) => j.finished)) - started) / 1000;
    const log = await sandbox.admin.requests({ service: 'dataPlatform' });
    const outcomes: Record<string, number> = {};
    const failedSteps: string[] = [];
    for (const { app, job } of jobs) {
      outcomes[job.provision.outcome] = (outcomes[job.provision.outcome] ?? 0) + 1;
      for (const s of job.provision.steps.filter((x: any) => !['created', 'exists'].includes(x.result.status)))
        failedSteps.push(`${app} ${s.displayName}: ${s.result.status} ${String(s.result.error ?? '').slice(0, 120)}`);
    }
    if (process.env.BENCH_VERBOSE) {
      const at = (r: { startedAt: string }) => ((Date.parse(r.startedAt) - started) / 1000).toFixed(1);
      console.log(
        `  ${mode}: 429s at ${log
          .filter((r) => r.status === 429)
          .map(at)
          .join(' ')} s`,
      );
    }
    return { mode, seconds, calls: log.length, throttled: log.filter((r) => r.status === 429).length, outcomes, failedSteps };
  } finally {
    await stopService(svc);
    await sandbox.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const perMinute = (CALLS * 60_000) / WINDOW_MS;
console.log(
  `bench/throttle: ${INSTALLS} installs at once, data platform throttle ${CALLS} calls per ${WINDOW_MS / 1000} s window per identity (${perMinute.toFixed(0)} a minute), ${LATENCY_MS} ms added to every sandbox call; one service process and a fresh sandbox per run`,
);
const results: Run[] = [];
for (const mode of MODES) {
  const r = await run(mode);
  results.push(r);
  if (process.env.BENCH_VERBOSE) for (const f of r.failedSteps) console.log(`  ${mode}: ${f}`);
}

console.log(
  `\n${'limiter'.padEnd(9)} ${'calls'.padStart(6)} ${'429'.padStart(5)} ${'429 share'.padStart(9)} ${'calls/install'.padStart(13)} ${'wall'.padStart(8)} ${'installs/min'.padStart(12)} ${'ideal/min'.padStart(9)} ${'ratio'.padStart(6)}  outcomes`,
);
let met = true;
for (const r of results) {
  const counted = r.calls - r.throttled;
  const perInstall = counted / INSTALLS;
  const rate = (r.outcomes['all-created'] ?? 0) / (r.seconds / 60);
  const ideal = perMinute / perInstall;
  const share = r.throttled / r.calls;
  console.log(
    `${r.mode.padEnd(9)} ${String(r.calls).padStart(6)} ${String(r.throttled).padStart(5)} ${`${(100 * share).toFixed(1)} %`.padStart(9)} ${perInstall.toFixed(1).padStart(13)} ${`${r.seconds.toFixed(1)} s`.padStart(8)} ${rate.toFixed(2).padStart(12)} ${ideal.toFixed(2).padStart(9)} ${(rate / ideal).toFixed(2).padStart(6)}  ${Object.entries(
      r.outcomes,
    )
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
  );
  if (r.mode === 'adaptive') {
    const allCreated = r.outcomes['all-created'] === INSTALLS;
    console.log(
      `adaptive: 429 share ${(100 * share).toFixed(1)} % (goal <= ${100 * SHARE_GOAL} %): ${share <= SHARE_GOAL ? 'met' : 'NOT met'}; installs per minute / ideal ${(rate / ideal).toFixed(2)} (goal >= ${RATIO_GOAL}): ${rate / ideal >= RATIO_GOAL ? 'met' : 'NOT met'}; all ${INSTALLS} all-created: ${allCreated ? 'yes' : 'NO'}`,
    );
    met &&= share <= SHARE_GOAL && rate / ideal >= RATIO_GOAL && allCreated;
  }
}
process.exitCode = met ? 0 : 1;
