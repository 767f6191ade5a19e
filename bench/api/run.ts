// bench/api: requests per second and p99 of an authenticated GET /api/workspaces/{id}/items,
// side by side with a bare Fastify route, each served by its own process, in one run; prints the ratios.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import autocannon from 'autocannon';

const here = path.dirname(new URL(import.meta.url).pathname);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function startTarget(mode: string, env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts'), mode], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} target exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as { url: string; token?: string; store?: string } };
}

async function load(url: string, token?: string) {
  const warm = await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: token ? { authorization: `Bearer ${token}` } : {} });
  void warm;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx and ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

const stop = (c: ChildProcess) =>
  new Promise((r) => {
    c.once('exit', r);
    c.kill('SIGTERM');
  });

const stores: Array<{ name: string; env: Record<string, string | undefined> }> = [{ name: 'pglite', env: { DATABASE_URL: '' } }];
if (process.env.DATABASE_URL) stores.push({ name: 'postgres', env: { DATABASE_URL: process.env.DATABASE_URL } });
else console.log('DATABASE_URL is not set: measuring PGlite only (set it to measure PostgreSQL too)');

console.log(`bench/api: ${CONNECTIONS} connections, ${DURATION} s per target, each target in its own process`);
console.log(
  "bare = a Fastify route answering the very bytes of the service's answer; cached = the service as shipped; uncached = SVC_READ_CACHE_MS=0",
);
const rows: string[] = [];
const fmt = (r: { rps: number; p99: number }) => `${r.rps.toFixed(0).padStart(7)} rps p99 ${String(r.p99).padStart(4)} ms`;
for (const store of stores) {
  const results: Record<string, { rps: number; p99: number }> = {};
  let body = '';
  for (const [name, cacheMs] of [
    ['cached', '5000'],
    ['uncached', '0'],
  ] as const) {
    const svc = await startTarget('svc', { ...store.env, SVC_READ_CACHE_MS: cacheMs });
    body = await (await fetch(svc.info.url, { headers: { authorization: `Bearer ${svc.info.token}` } })).text();
    results[name] = await load(svc.info.url, svc.info.token);
    await stop(svc.child);
  }
  const bare = await startTarget('bare', { BENCH_BODY: body });
  results.bare = await load(bare.info.url);
  await stop(bare.child);
  rows.push(
    `${store.name.padEnd(9)} bare ${fmt(results.bare!)} | items ${fmt(results.cached!)} ratio ${(results.cached!.rps / results.bare!.rps).toFixed(2)}` +
      ` | uncached ${fmt(results.uncached!)} ratio ${(results.uncached!.rps / results.bare!.rps).toFixed(2)} (goal: items >= 0.50 of bare on postgres)`,
  );
  console.log(rows.at(-1));
}
