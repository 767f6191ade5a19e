// bench/install: the wall time of installing every curated app against the sandbox with a fixed latency on every
// backing call, at PROVISION_CONCURRENCY 6 and 1, side by side with the ideal for concurrency 6: the critical path of
// the app's dependency graph (registry's dependenciesOf) over each item's own time, measured from the sandbox's request
// log of the concurrency-1 run (where items run one at a time), and never less than the summed item time over 6 slots.
// Each run is a real service process (main.ts) on a fresh store, pointed at a fresh sandbox in this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { loadCatalog } from '../../packages/server/src/catalog/load-catalog.js';
import { expandSeedTokens } from '../../packages/server/src/catalog/seed-tokens.js';
import { provisionedAtInstall } from '../../packages/server/src/install/install-service.js';
import { dependenciesOf, provisionedLive } from '../../packages/server/src/item-types/index.js';
import { apiCaller, jobEvents } from '../../packages/server/test/service-process.js';
import { type CloudProfile, selectCloud } from '../../packages/server/src/cloud/profiles.js';
import { PLATFORM_PROFILE } from '../../packages/server/test/platform-profile.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const GOAL = 1.15;
const only = process.env.BENCH_APPS ? process.env.BENCH_APPS.split(',') : undefined;
const catalog = loadCatalog();
const apps = catalog.apps.filter((a) => !only || only.includes(a.id));

/** The two clouds: with the data platform, and without it (its types on the Azure-native backends). */
type Cloud = 'platform' | 'native';
const CLOUDS = (process.env.BENCH_PROFILES ?? 'platform,native').split(',').filter(Boolean) as Cloud[];
const PROFILES: Record<Cloud, CloudProfile> = { platform: PLATFORM_PROFILE, native: selectCloud({ name: 'sandbox', overrides: {} }) };
/** Every HTTP service of the sandbox: each gets the same added latency. */
const SANDBOX_SERVICES = [
  'identity',
  'dataPlatform',
  'arm',
  'kql',
  'search',
  'oneLake',
  'reporting',
  'sql',
  'synapse',
  'lake',
  'sqlServerless',
] as const;

type Event = { seq: number; kind: string; data: Record<string, any>; at: number };
type RunResult = {
  appId: string;
  events: Event[];
  wallMs: number;
  provisioningMs: number;
  cpuMs: number;
  requests: Array<{ start: number; end: number }>;
};

/** CPU time (user + system) a process has used, from /proc (Linux); 0 elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Installs every app, one after the other, with one service process at the given concurrency and a fresh sandbox. */
async function runAll(concurrency: number, cloud: Cloud): Promise<RunResult[]> {
  const sandbox = await startSandbox({ dataPlatform: cloud === 'platform' });
  await sandbox.admin.setLatency(Object.fromEntries(SANDBOX_SERVICES.map((s) => [s, LATENCY_MS])));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-install-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const token = `svc_pat_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...sandbox.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_LOG_LEVEL: 'warn',
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_TOKEN: token,
      PROVISION_CONCURRENCY: String(concurrency),
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    },
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = apiCaller(base, token);
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 3000 || child.exitCode !== null) throw new Error(`the service did not start (exit code ${child.exitCode})`);
      await sleep(100);
    }
    const results: RunResult[] = [];
    for (const app of apps) {
      const ws = (await api('POST', '/api/workspaces', { name: `bench-${app.id}-${randomBytes(3).toString('hex')}` })).workspace.id;
      const mark = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
      const cpuBefore = cpuMsOf(child.pid!);
      const started = Date.now();
      const { jobId } = await api('POST', `/api/apps/${app.id}/install`, { workspaceId: ws });
      let job: any;
      do {
        await sleep(200);
        job = (await api('GET', `/api/apps/install-jobs/${jobId}`)).job;
      } while (job.status === 'running');
      const wallMs = Date.now() - started;
      const cpuMs = cpuMsOf(child.pid!) - cpuBefore;
      const events: Event[] = (await jobEvents(base, jobId, headers)).map((e) => ({ ...e, at: Date.parse(e.data.at) }));
      const bad = job.provision.steps.filter(
        (s: any) =>
          !['created', 'remediation'].includes(s.result.status) || (s.result.status === 'remediation' && s.itemType !== 'warehouse'),
      );
      if (bad.length)
        throw new Error(
          `${app.id}: unexpected step results ${JSON.stringify(bad.map((s: any) => [s.displayName, s.result.status, s.result.error]))}`,
        );
      const log = (await sandbox.admin.requests()).filter((r: any) => r.seq > mark);
      if (process.env.BENCH_TRACE) {
        const t0 = events[0]!.at;
        const lines = [
          ...log.map(
            (r: any) =>
              [Date.parse(r.startedAt) - t0, `  ${r.service} ${r.method} ${r.path.slice(0, 90)} ${r.status} ${r.durationMs} ms`] as const,
          ),
          ...events.map((e) => [e.at - t0, `* ${e.kind} ${JSON.stringify(e.data).slice(0, 100)}`] as const),
        ].sort((a, b) => a[0] - b[0]);
        console.log(`--- c=${concurrency} ${app.id}\n${lines.map(([t, l]) => `${String(t).padStart(6)} ${l}`).join('\n')}`);
      }
      const requests = log
        .filter((r: any) => r.service !== 'identity')
        .map((r: any) => ({ start: Date.parse(r.startedAt), end: Date.parse(r.startedAt) + r.durationMs }));
      const phase = (p: string) => events.find((e) => e.kind === 'phase' && e.data.phase === p)!.at;
      results.push({ appId: app.id, events, wallMs, provisioningMs: phase('finalizing') - phase('provisioning'), cpuMs, requests });
    }
    return results;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await sandbox.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Each live item's own time in the concurrency-1 run: the span of the sandbox requests made between the step before
 * it and its own step event (items run one at a time there, so every request in that window is the item's).
 */
function itemTimes(run: RunResult): Map<number, number> {
  const times = new Map<number, number>();
  let from = run.events.find((e) => e.kind === 'phase' && e.data.phase === 'provisioning')!.at;
  for (const e of run.events.filter((x) => x.kind === 'step')) {
    const inWindow = run.requests.filter((r) => r.start >= from - 5 && r.start <= e.at);
    times.set(e.data.stepIndex, inWindow.length ? Math.max(...inWindow.map((r) => r.end)) - Math.min(...inWindow.map((r) => r.start)) : 0);
    from = e.at;
  }
  return times;
}

/** The ideal provisioning time at `slots` items at once: max(critical path, total item time / slots). */
function ideal(appId: string, times: Map<number, number>, slots: number, profile: CloudProfile): { criticalPath: number; idealMs: number } {
  const app = catalog.get(appId)!;
  const now = new Date();
  const liveKeys = new Set(app.items.filter((i) => provisionedLive(i.itemType, i.content, app, profile)).map((i) => i.key));
  const indexOf = new Map(app.items.map((i, n) => [i.key, n]));
  const memo = new Map<string, number>();
  const finish = (key: string, seen: Set<string>): number => {
    if (memo.has(key)) return memo.get(key)!;
    if (seen.has(key)) return 0; // a reference cycle: the runner starts such items in order
    seen.add(key);
    const item = app.items[indexOf.get(key)!]!;
    const deps = dependenciesOf(item.itemType, expandSeedTokens(item.content, now), profile).filter((k) => liveKeys.has(k));
    const t = Math.max(0, ...deps.map((k) => finish(k, seen))) + (times.get(indexOf.get(key)!) ?? 0);
    memo.set(key, t);
    return t;
  };
  const criticalPath = Math.max(0, ...[...liveKeys].map((k) => finish(k, new Set())));
  const total = [...times.values()].reduce((a, b) => a + b, 0);
  return { criticalPath, idealMs: Math.max(criticalPath, total / slots) };
}

const store = process.env.DATABASE_URL ? 'postgres' : 'pglite';
console.log(
  `bench/install: ${apps.length} apps, ${LATENCY_MS} ms added to every sandbox call, store ${store}, one service process per concurrency`,
);
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);

/** One cloud's runs at concurrency 1 and 6, printed app by app; answers concurrency 6 over the ideal. */
async function benchCloud(cloud: Cloud): Promise<number> {
  const profile = PROFILES[cloud];
  const serial = await runAll(1, cloud);
  const parallel = await runAll(6, cloud);
  let sumIdeal = 0;
  let sum6 = 0;
  let sum1 = 0;
  console.log(`\n${cloud === 'platform' ? 'cloud with the data platform' : 'cloud without the data platform (Azure-native backends)'}:`);
  console.log(
    `${'app'.padEnd(24)} ${'items'.padStart(5)} | provisioning: ${'c=1'.padStart(8)} ${'c=6'.padStart(8)} ${'ideal6'.padStart(8)} ${'c6/ideal'.padStart(8)} ${'c1/c6'.padStart(6)} | wall c=1, c=6 | service CPU c=1, c=6`,
  );
  for (const [i, app] of apps.entries()) {
    const one = serial[i]!;
    const six = parallel[i]!;
    const { idealMs } = ideal(app.id, itemTimes(one), 6, profile);
    sumIdeal += idealMs;
    sum6 += six.provisioningMs;
    sum1 += one.provisioningMs;
    const live = app.items.filter((x) => provisionedLive(x.itemType, x.content, app, profile)).length;
    console.log(
      `${app.id.padEnd(24)} ${String(live).padStart(5)} | ${' '.repeat(14)}${fmt(one.provisioningMs)} ${fmt(six.provisioningMs)} ${fmt(idealMs)} ${(six.provisioningMs / idealMs).toFixed(2).padStart(8)} ${(one.provisioningMs / six.provisioningMs).toFixed(2).padStart(6)} | ${fmt(one.wallMs)}, ${fmt(six.wallMs)} | ${fmt(one.cpuMs)}, ${fmt(six.cpuMs)}`,
    );
  }
  const ratio = sum6 / sumIdeal;
  console.log(
    `${'all apps'.padEnd(24)} ${' '.repeat(5)} | ${' '.repeat(14)}${fmt(sum1)} ${fmt(sum6)} ${fmt(sumIdeal)} ${ratio.toFixed(2).padStart(8)} ${(sum1 / sum6).toFixed(2).padStart(6)} |`,
  );
  console.log(`${cloud}: concurrency 6 / ideal = ${ratio.toFixed(3)} (goal <= ${GOAL}): ${ratio <= GOAL ? 'met' : 'NOT met'}`);
  return ratio;
}

const ratios: number[] = [];
for (const cloud of CLOUDS) ratios.push(await benchCloud(cloud));
process.exitCode = ratios.every((r) => r <= GOAL) ? 0 : 1;
