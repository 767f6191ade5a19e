// bench/start: the built service (plain node, what npm start and the deployment run) next to the same build with V8's
// default young generation and to the sources run through tsx, in one run: start-to-healthy time (spawn to the first 200
// of /api/health) and resident memory at that moment, the median of several starts of each, in turn. Both alone (the sandbox in this process, as a deployment has its
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
import { cpuOf, freshDatabase, mb, percentile } from '../lib/cluster.js';

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

/** The ways a start is measured: the build as shipped, the build with V8's default young generation, the sources through tsx. */
const WAYS = {
  built: { run: 'built', nodeArgs: [] },
  'built, V8 default young generation': { run: 'built', nodeArgs: ['--max-semi-space-size=16'] },
  tsx: { run: 'tsx', nodeArgs: [] },
} satisfies Record<string, { run: ServiceRun; nodeArgs: string[] }>;
type Way = keyof typeof WAYS;
/** Milliseconds to healthy, resident bytes and CPU seconds used by then (CPU says more than time on a loaded machine). */
type Sample = { ms: number; rss: number; cpu: number };

/** One start, measured at its first healthy answer. */
async function startOnce(way: Way, env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const since = performance.now();
  const svc = startService({ ...env, PORT: String(port) }, WAYS[way]);
  try {
    const ms = await healthyAfter(`http://127.0.0.1:${port}`, since, () => svc.child.exitCode !== null).catch((err: Error) => {
      throw new Error(`${way}: ${err.message}\n${svc.output()}`);
    });
    return { ms, rss: rssOf(svc.child.pid) ?? 0, cpu: cpuOf(svc.child.pid) };
  } finally {
    await stopService(svc);
  }
}

/** RUNS starts of each way, in turn, after one unmeasured start that creates the store (migrations); the medians. */
async function compare(label: string, env: Record<string, string>): Promise<{ label: string; median: Record<Way, Sample> }> {
  await startOnce('built', env);
  const ways = Object.keys(WAYS) as Way[];
  const samples = Object.fromEntries(ways.map((w) => [w, [] as Sample[]])) as Record<Way, Sample[]>;
  for (let i = 0; i < RUNS; i++) for (const way of ways) samples[way].push(await startOnce(way, env));
  const mid = (w: Way, key: keyof Sample) =>
    percentile(
      samples[w].map((s) => s[key]),
      50,
    );
  const median = Object.fromEntries(ways.map((w) => [w, { ms: mid(w, 'ms'), rss: mid(w, 'rss'), cpu: mid(w, 'cpu') }])) as Record<
    Way,
    Sample
  >;
  const cell = (x: Sample) => `${String(Math.round(x.ms)).padStart(5)} ms (CPU ${x.cpu.toFixed(2)} s) ${mb(x.rss).padStart(7)}`;
  const { built, tsx } = median;
  console.log(
    `${label.padEnd(32)} built ${cell(built)} | V8 default young generation ${cell(median['built, V8 default young generation'])}` +
      ` | tsx ${cell(tsx)} | built/tsx: time ${(built.ms / tsx.ms).toFixed(2)}, CPU ${(built.cpu / tsx.cpu).toFixed(2)}, memory ${(built.rss / tsx.rss).toFixed(2)}`,
  );
  return { label, median };
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
  `bench/start: median of ${RUNS} starts each, the ways in turn; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const rows: Array<Awaited<ReturnType<typeof compare>>> = [];
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
    rows.push(await compare(`${store.name}, sandbox elsewhere`, alone));
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
const alone = rows.find((r) => r.label === 'PostgreSQL, sandbox elsewhere');
if (alone) console.log(`built service alone on PostgreSQL: ${mb(alone.median.built.rss)} at healthy (goal <= ${GOAL_RSS_MB} MB)`);
const slowest = Math.max(...rows.map((r) => r.median.built.ms));
console.log(`built service: ${Math.round(slowest)} ms to healthy at the slowest (goal < ${GOAL_START_MS} ms)`);
if (process.env.BENCH_CLONE !== '0') {
  const seconds = await freshClone();
  console.log(`fresh clone to healthy: ${seconds.toFixed(1)} s (goal < ${GOAL_CLONE_S} s)`);
}
