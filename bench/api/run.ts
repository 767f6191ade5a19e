// bench/api: requests per second and p99 of an authenticated GET /api/workspaces/{id}/items, side by side with a bare
// Fastify route answering the same bytes, each served by its own process, in one run; prints the ratios against the
// goals, with the store statements and the target's CPU time per request. The targets take turns in rounds (the first
// of each round rotating), so a machine whose load moves meanwhile weighs on every one alike; ratios are per round, and
// the median round's is printed.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { freshDatabase } from '../lib/cluster.js';
import { build, isStale, SERVICE_NODE_OPTIONS } from '../../scripts/lib/build.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const GOALS = { cached: 0.6, uncached: 0.15, uncachedP99Ms: 5 };

interface Stats {
  statements: number;
  cpu: { user: number; system: number };
}
interface Target {
  name: string;
  child: ChildProcess;
  info: { url: string; token?: string; store?: string };
  stats(): Promise<Stats>;
  rounds: Array<{ rps: number; p99: number; served: number; cpuUs: number; statements: number }>;
}

async function startTarget(
  name: string,
  mode: 'svc' | 'bare',
  env: Record<string, string | undefined>,
  codeRoot?: string,
): Promise<Target> {
  const child = spawn(process.execPath, [...SERVICE_NODE_OPTIONS, '--import', 'tsx', path.join(here, 'server.ts'), mode], {
    env: { ...process.env, ...env, ...(codeRoot ? { BENCH_CODE_ROOT: codeRoot } : {}) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: Array<(line: string) => void> = [];
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${name} target exited with ${code}`))));
  exited.catch(() => undefined);
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited]);
  const info = JSON.parse(await next()) as Target['info'];
  const stats = async () => {
    const line = next();
    child.stdin!.write('stats\n');
    return JSON.parse(await line) as Stats;
  };
  return { name, child, info, stats, rounds: [] };
}

const stop = (c: ChildProcess) =>
  new Promise((r) => {
    if (c.exitCode !== null) return r(undefined);
    c.once('exit', r);
    c.kill('SIGTERM');
  });

const headersOf = (t: Target): Record<string, string> => (t.info.token ? { authorization: `Bearer ${t.info.token}` } : {});

/** One turn of load on a target: its rps and p99, and its CPU time and store statements over the requests served. */
async function turn(target: Target, seconds: number): Promise<void> {
  const before = await target.stats();
  const r = await autocannon({ url: target.info.url, connections: CONNECTIONS, duration: seconds, headers: headersOf(target) });
  const after = await target.stats();
  if (r.non2xx || r.errors) throw new Error(`${target.name}: ${r.non2xx} non-2xx and ${r.errors} errors`);
  target.rounds.push({
    rps: r.requests.average,
    p99: r.latency.p99,
    served: r.requests.total,
    cpuUs: after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system,
    statements: after.statements - before.statements,
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// PostgreSQL runs on a fresh database next to DATABASE_URL's (dropped at the end): nothing another run left there, such
// as a job a worker would resume, writes to the tables the caches watch meanwhile.
const database = process.env.DATABASE_URL ? await freshDatabase('bench_api') : undefined;
const stores: Array<{ name: string; env: Record<string, string | undefined> }> = [{ name: 'pglite', env: { DATABASE_URL: '' } }];
if (database) stores.push({ name: 'postgres', env: { DATABASE_URL: database.url } });
else console.log('DATABASE_URL is not set: measuring PGlite only (set it to measure PostgreSQL too)');
const only = process.env.BENCH_STORES?.split(',');
const SERVICE_TARGETS: Array<[string, Record<string, string>]> = [
  ['cached', { SVC_READ_CACHE_MS: '5000' }],
  ['uncached', { SVC_READ_CACHE_MS: '0' }],
  ['cold', { SVC_READ_CACHE_MS: '0', SVC_AUTH_CACHE_SECONDS: '0' }],
];
const chosen = process.env.BENCH_TARGETS?.split(','); // some of cached, uncached, cold (bare always runs)
// Another checkout of the repository (such as `git worktree add /tmp/before main`): each chosen target is served by its
// code too, as `before-<target>`, side by side in the same rounds.
const BEFORE = process.env.BENCH_BEFORE;
// The service runs built, as `npm start` runs it (BENCH_RUN=tsx: its TypeScript through tsx); each checkout is built
// first when its sources changed since its last build.
const RUN = process.env.BENCH_RUN === 'tsx' ? 'tsx' : 'built';
if (RUN === 'built') {
  if (isStale('server')) await build(['server']);
  if (BEFORE) {
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', 'server'], { cwd: BEFORE, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`building the service in ${BEFORE} failed`);
  }
}

console.log(
  `bench/api: ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per target, taking turns; each target its own process; ${os.cpus().length} cores; the service ${RUN === 'built' ? 'built (as npm start runs it)' : 'through tsx'}`,
);
console.log('bare     = a Fastify route answering the very bytes of the service’s answer');
console.log('cached   = the service as shipped (item-listing cache on, SVC_READ_CACHE_MS=5000)');
console.log('uncached = the listing cache off (SVC_READ_CACHE_MS=0): what a first read and a write-heavy workspace pay');
console.log('cold     = every cache off (SVC_AUTH_CACHE_SECONDS=0 too): token and role read from the store on each request');
if (BEFORE) console.log(`before-*  = the same target served by the code in ${BEFORE}`);
console.log('rps and p99 are the median round’s; ratio = the median of the rounds’ target rps / bare rps');
let missed = 0;
try {
  for (const store of stores.filter((s) => !only || only.includes(s.name))) {
    console.log(`\n${store.name} (load average before: ${loadAverage()})`);
    const targets: Target[] = [];
    try {
      for (const [name, env] of SERVICE_TARGETS.filter(([n]) => !chosen || chosen.includes(n))) {
        targets.push(await startTarget(name, 'svc', { ...store.env, ...env }));
        if (BEFORE) targets.push(await startTarget(`before-${name}`, 'svc', { ...store.env, ...env }, path.resolve(BEFORE)));
      }
      const first = targets[0] ?? (await startTarget('body', 'svc', store.env));
      const body = await (await fetch(first.info.url, { headers: headersOf(first) })).text();
      if (!targets.includes(first)) await stop(first.child);
      const bare = await startTarget('bare', 'bare', { BENCH_BODY: body });
      targets.unshift(bare);
      for (const t of targets) await autocannon({ url: t.info.url, connections: CONNECTIONS, duration: 2, headers: headersOf(t) });
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < targets.length; i++) await turn(targets[(i + round) % targets.length]!, SECONDS);
      }
      const ratio = (t: Target) => median(t.rounds.map((r, i) => r.rps / bare.rounds[i]!.rps));
      const verdict = (ok: boolean) => {
        if (!ok) missed++;
        return ok ? 'met' : 'NOT met';
      };
      for (const t of targets) {
        const served = t.rounds.reduce((n, r) => n + r.served, 0) || 1;
        const rps = median(t.rounds.map((r) => r.rps));
        const p99 = median(t.rounds.map((r) => r.p99));
        const cpu = t.rounds.reduce((n, r) => n + r.cpuUs, 0) / served;
        const sql = t.info.token ? `  ${(t.rounds.reduce((n, r) => n + r.statements, 0) / served).toFixed(2)} SQL/req` : '';
        let goal = '';
        if (t.name === 'cached') goal = `goal >= ${GOALS.cached}: ${verdict(ratio(t) >= GOALS.cached)}`;
        if (t.name === 'uncached')
          goal = `goal >= ${GOALS.uncached} with p99 < ${GOALS.uncachedP99Ms} ms: ${verdict(ratio(t) >= GOALS.uncached && p99 < GOALS.uncachedP99Ms)}`;
        if (t.name === 'cold') goal = '(no goal)';
        console.log(
          `  ${t.name.padEnd(BEFORE ? 16 : 9)} ${rps.toFixed(0).padStart(7)} rps  p99 ${String(p99).padStart(3)} ms  ${cpu.toFixed(0).padStart(4)} µs CPU/req${sql}` +
            (t === bare
              ? `  (rounds: ${t.rounds.map((r) => r.rps.toFixed(0)).join(', ')} rps)`
              : `  ratio ${ratio(t).toFixed(2)}  ${goal}`),
        );
      }
    } finally {
      for (const t of targets) await stop(t.child);
    }
    console.log(`  load average after: ${loadAverage()}`);
  }
} finally {
  await database?.drop();
}
console.log(missed ? `\n${missed} goal(s) not met in this run` : '\nevery goal met in this run');
