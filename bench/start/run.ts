// bench/start: the built service (plain node, what npm start and the deployment run) next to the same sources run through
// tsx, in one run: start-to-healthy time (spawn to the first 200 of /api/health) and resident memory at that moment,
// the median of several starts of each, alternating. Both alone (the sandbox in this process, as a deployment has its
// backing services elsewhere) and with the sandbox in process (npm start's default), on PGlite and, with DATABASE_URL,
// on PostgreSQL. Then once: a fresh clone to healthy (git clone, npm ci from the local cache, npm start's build, healthy).
// Settings: BENCH_RUNS (5 starts of each), BENCH_CLONE=0 (skip the fresh clone), DATABASE_URL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import {
  bootstrapToken,
  ensureBuilt,
  freePort,
  repoRoot,
  rssOf,
  serviceEnv,
  sleep,
  startService,
  stopService,
  type ServiceRun,
} from '../../packages/server/test/service-process.js';
import { freshDatabase, mb, percentile } from '../lib/cluster.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_RSS_MB = 120;
const GOAL_START_MS = 1000;
const GOAL_CLONE_S = 120;

/** Polls /api/health every 10 ms until it answers 200; the time from `since`. */
async function healthyAfter(base: string, since: number, exited: () => boolean): Promise<number> {
  for (;;) {
    if (exited()) throw new Error('the service exited before it was healthy');
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return performance.now() - since;
    if (performance.now() - since > 180_000) throw new Error('the service was not healthy within 3 minutes');
    await sleep(10);
  }
}

/** One start: milliseconds to healthy and resident bytes then. */
async function startOnce(run: ServiceRun, env: Record<string, string>): Promise<{ ms: number; rss: number }> {
  const port = await freePort();
  const since = performance.now();
  const svc = startService({ ...env, PORT: String(port) }, { run });
  try {
    const ms = await healthyAfter(`http://127.0.0.1:${port}`, since, () => svc.child.exitCode !== null).catch((err: Error) => {
      throw new Error(`${run}: ${err.message}\n${svc.output()}`);
    });
    return { ms, rss: rssOf(svc.child.pid) ?? 0 };
  } finally {
    await stopService(svc);
  }
}

interface Row {
  label: string;
  built: { ms: number; rss: number };
  tsx: { ms: number; rss: number };
}

/** RUNS starts of each way, alternating, after one unmeasured start that creates the store (migrations). */
async function compare(label: string, env: Record<string, string>): Promise<Row> {
  await startOnce('built', env);
  const samples: Record<ServiceRun, Array<{ ms: number; rss: number }>> = { built: [], tsx: [] };
  for (let i = 0; i < RUNS; i++) for (const run of ['built', 'tsx'] as const) samples[run].push(await startOnce(run, env));
  const median = (run: ServiceRun) => ({
    ms: percentile(
      samples[run].map((s) => s.ms),
      50,
    ),
    rss: percentile(
      samples[run].map((s) => s.rss),
      50,
    ),
  });
  const row = { label, built: median('built'), tsx: median('tsx') };
  console.log(
    `${label.padEnd(34)} built ${String(Math.round(row.built.ms)).padStart(5)} ms ${mb(row.built.rss).padStart(7)}` +
      ` | tsx ${String(Math.round(row.tsx.ms)).padStart(5)} ms ${mb(row.tsx.rss).padStart(7)}` +
      ` | built/tsx time ${(row.built.ms / row.tsx.ms).toFixed(2)} memory ${(row.built.rss / row.tsx.rss).toFixed(2)}`,
  );
  return row;
}

/** git clone of this repository's HEAD, npm ci preferring the local cache, npm start (its build), healthy: seconds. */
async function freshClone(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-clone-'));
  const since = performance.now();
  try {
    const clone = spawnSync('git', ['clone', '--quiet', repoRoot, dir], { stdio: 'inherit' });
    if (clone.status !== 0) throw new Error('git clone failed');
    const ci = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
    if (ci.status !== 0) throw new Error('npm ci failed');
    const port = await freePort();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SVC_LOG_LEVEL: 'warn', DATABASE_URL: '', SVC_SANDBOX_ADMIN_URL: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true, // its own process group: npm, the shell and the service stop together
    });
    try {
      await healthyAfter(`http://127.0.0.1:${port}`, since, () => child.exitCode !== null);
      return (performance.now() - since) / 1000;
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await ensureBuilt();
console.log(
  `bench/start: median of ${RUNS} starts each, built and tsx alternating; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const rows: Row[] = [];
const sandbox = await startSandbox({});
const stores: Array<{ name: string; databaseUrl?: string; drop?: () => Promise<void> }> = [{ name: 'PGlite' }];
if (process.env.DATABASE_URL) {
  const db = await freshDatabase('svc_bench_start');
  stores.push({ name: 'PostgreSQL', databaseUrl: db.url, drop: db.drop });
} else console.log('DATABASE_URL is not set: PGlite only');
try {
  for (const store of stores) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-start-'));
    // DATABASE_URL empty: PGlite, whatever this process's environment says.
    const settings = { SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'warn', DATABASE_URL: store.databaseUrl ?? '' };
    const alone = serviceEnv(sandbox.env, { ...settings, SVC_BOOTSTRAP_TOKEN: bootstrapToken() });
    rows.push(await compare(`${store.name}, service alone`, alone));
    // No sandbox variables: the service starts its own sandbox in process, as npm start does.
    const withSandbox = { PATH: process.env.PATH ?? '', HOME: dataDir, HOST: '127.0.0.1', ...settings };
    rows.push(await compare(`${store.name}, sandbox in process`, withSandbox));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await store.drop?.();
  }
} finally {
  await sandbox.stop();
}

// The memory goal is the service's own: PostgreSQL (PGlite is a database in the process) and the sandbox elsewhere.
const alone = rows.find((r) => r.label === 'PostgreSQL, service alone');
if (alone) console.log(`built service alone on PostgreSQL: ${mb(alone.built.rss)} at healthy (goal <= ${GOAL_RSS_MB} MB)`);
const slowest = Math.max(...rows.map((r) => r.built.ms));
console.log(`built service: ${Math.round(slowest)} ms to healthy at the slowest (goal < ${GOAL_START_MS} ms)`);
if (process.env.BENCH_CLONE !== '0') {
  const seconds = await freshClone();
  console.log(`fresh clone to healthy: ${seconds.toFixed(1)} s (goal < ${GOAL_CLONE_S} s)`);
}
