// bench/api: requests per second and p99 of an authenticated GET /api/workspaces/{id}/items, side by side with a bare
// Fastify route answering the same bytes, each served by its own process, in one run; prints the ratios against the
// goals, with the store statements and the target's CPU time per request.
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { freshDatabase } from '../lib/cluster.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const GOALS = { cached: 0.6, uncached: 0.15, uncachedP99Ms: 5 };

interface Stats {
  statements: number;
  cpu: { user: number; system: number };
}
interface Target {
  child: ChildProcess;
  info: { url: string; token?: string; store?: string };
  stats(): Promise<Stats>;
}
interface Measured {
  rps: number;
  p99: number;
  statementsPerRequest?: number;
  cpuUsPerRequest: number;
}

async function startTarget(mode: 'svc' | 'bare', env: Record<string, string | undefined>): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts'), mode], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: Array<(line: string) => void> = [];
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${mode} target exited with ${code}`))));
  exited.catch(() => undefined);
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited]);
  const info = JSON.parse(await next()) as Target['info'];
  return {
    child,
    info,
    stats: async () => {
      const line = next();
      child.stdin!.write('stats\n');
      return JSON.parse(await line) as Stats;
    },
  };
}

const stop = (c: ChildProcess) =>
  new Promise((r) => {
    c.once('exit', r);
    c.kill('SIGTERM');
  });

async function load(target: Target): Promise<Measured> {
  const headers: Record<string, string> = target.info.token ? { authorization: `Bearer ${target.info.token}` } : {};
  await autocannon({ url: target.info.url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const before = await target.stats();
  const r = await autocannon({ url: target.info.url, connections: CONNECTIONS, duration: DURATION, headers });
  const after = await target.stats();
  if (r.non2xx || r.errors) throw new Error(`${target.info.url}: ${r.non2xx} non-2xx and ${r.errors} errors`);
  const served = r.requests.total || 1;
  const cpu = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    ...(target.info.token ? { statementsPerRequest: (after.statements - before.statements) / served } : {}),
    cpuUsPerRequest: cpu / served,
  };
}

async function measure(mode: 'svc' | 'bare', env: Record<string, string | undefined>, body?: (t: Target) => Promise<void>) {
  const target = await startTarget(mode, env);
  try {
    await body?.(target);
    return await load(target);
  } finally {
    await stop(target.child);
  }
}

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
const targets = process.env.BENCH_TARGETS?.split(','); // cached, uncached, cold (bare always runs)

console.log(`bench/api: ${CONNECTIONS} connections, ${DURATION} s per target, each target in its own process, ${os.cpus().length} cores`);
console.log('bare     = a Fastify route answering the very bytes of the service’s answer (run before and after the others; mean)');
console.log('cached   = the service as shipped (item-listing cache on, SVC_READ_CACHE_MS=5000)');
console.log('uncached = the listing cache off (SVC_READ_CACHE_MS=0): what a first read and a write-heavy workspace pay');
console.log('cold     = every cache off (SVC_AUTH_CACHE_SECONDS=0 too): token and role read from the store on each request');
const fmt = (m: Measured) =>
  `${m.rps.toFixed(0).padStart(7)} rps  p99 ${String(m.p99).padStart(3)} ms  ${m.cpuUsPerRequest.toFixed(0).padStart(4)} µs CPU/req` +
  (m.statementsPerRequest === undefined ? '' : `  ${m.statementsPerRequest.toFixed(2)} SQL/req`);
let missed = 0;
try {
  for (const store of stores.filter((s) => !only || only.includes(s.name))) {
    console.log(`\n${store.name} (load average before: ${loadAverage()})`);
    let body = '';
    const grab = async (t: Target) => {
      body = await (await fetch(t.info.url, { headers: { authorization: `Bearer ${t.info.token}` } })).text();
    };
    const svc = (name: string, env: Record<string, string>, body?: (t: Target) => Promise<void>) =>
      !targets || targets.includes(name) ? measure('svc', { ...store.env, ...env }, body) : undefined;
    const cached = await svc('cached', { SVC_READ_CACHE_MS: '5000' }, grab);
    if (!body) {
      // Without the cached target, a service started only for the bytes bare answers.
      const t = await startTarget('svc', store.env);
      await grab(t).finally(() => stop(t.child));
    }
    const bare1 = await measure('bare', { BENCH_BODY: body });
    const uncached = await svc('uncached', { SVC_READ_CACHE_MS: '0' });
    const cold = await svc('cold', { SVC_READ_CACHE_MS: '0', SVC_AUTH_CACHE_SECONDS: '0' });
    const bare2 = await measure('bare', { BENCH_BODY: body });
    const bareRps = (bare1.rps + bare2.rps) / 2;
    const ratio = (m: Measured) => m.rps / bareRps;
    const verdict = (ok: boolean) => {
      if (!ok) missed++;
      return ok ? 'met' : 'NOT met';
    };
    console.log(`  bare      ${fmt(bare1)}  (after: ${bare2.rps.toFixed(0)} rps, p99 ${bare2.p99} ms)`);
    if (cached)
      console.log(
        `  cached    ${fmt(cached)}  ratio ${ratio(cached).toFixed(2)}  goal >= ${GOALS.cached}: ${verdict(ratio(cached) >= GOALS.cached)}`,
      );
    if (uncached)
      console.log(
        `  uncached  ${fmt(uncached)}  ratio ${ratio(uncached).toFixed(2)}  goal >= ${GOALS.uncached} with p99 < ${GOALS.uncachedP99Ms} ms: ` +
          verdict(ratio(uncached) >= GOALS.uncached && uncached.p99 < GOALS.uncachedP99Ms),
      );
    if (cold) console.log(`  cold      ${fmt(cold)}  ratio ${ratio(cold).toFixed(2)}  (no goal)`);
    console.log(`  load average after: ${loadAverage()}`);
  }
} finally {
  await database?.drop();
}
console.log(missed ? `\n${missed} goal(s) not met in this run` : '\nevery goal met in this run');
