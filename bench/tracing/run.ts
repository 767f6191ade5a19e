// bench/tracing: what tracing costs an authenticated GET /api/workspaces/{id}/items (bench/api's target), side by side in
// one run: tracing off, off with a caller's traceparent passed on, and on (every request a span, exported over OTLP/HTTP
// to a receiver in this process); the CPU each mode adds to one request, in one process (per-request.ts); and what
// starting the tracing costs a process. Prints the ratios to "off".
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import autocannon from 'autocannon';
import { perRequestCost } from './per-request.js';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const here = path.dirname(new URL(import.meta.url).pathname);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function startTarget(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '../api/server.ts'), 'svc'], {
    env: { ...process.env, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`target exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as { url: string; token: string } };
}

const stop = (c: ChildProcess) =>
  new Promise((r) => {
    c.once('exit', r);
    c.kill('SIGTERM');
  });

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Requests per second and p99 (wall clock: what a client sees, and what the machine's other load disturbs most), and
 * the target's CPU milliseconds per request (what tracing adds to each request, much less disturbed by other load).
 */
async function load(url: string, headers: Record<string, string>, pid: number) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const cpu = cpuSeconds(pid) - cpu0;
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx and ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, cpuMs: (cpu * 1000) / r.requests.total };
}

/** Milliseconds and heap bytes that startTracing adds to a fresh process (median of 5), off and on. */
function startCost(on: boolean): { ms: number; heapKb: number } {
  const src = (f: string) => JSON.stringify(path.join(here, '../../packages/server/src', f));
  const script = `
    const { loadConfig } = await import(${src('config.ts')});
    const settings = loadConfig(${on ? "{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }" : '{}'}).tracing;
    const t0 = performance.now(); const h0 = process.memoryUsage().heapUsed;
    const { startTracing } = await import(${src('tracing/tracing.ts')});
    const t = await startTracing(settings);
    console.log(JSON.stringify({ ms: performance.now() - t0, heapKb: (process.memoryUsage().heapUsed - h0) / 1024 }));
    await t.stop();`;
  const runs = Array.from({ length: 5 }, () =>
    JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim()),
  );
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[2]!;
  return { ms: median(runs.map((r) => r.ms)), heapKb: median(runs.map((r) => r.heapKb)) };
}

// The collector: drains each export and answers 200, counting bytes only, so that it takes little of the CPU the
// load generator in this process needs (the tests parse what they receive: packages/server/test/otlp-receiver.ts).
let exportedBytes = 0;
let exports = 0;
const sink = http.createServer((req, res) => {
  req.on('data', (c: Buffer) => {
    exportedBytes += c.length;
  });
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const receiver = { url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}` };
console.log(
  `bench/tracing: ${CONNECTIONS} connections, ${DURATION} s per target, ${ROUNDS} rounds, PGlite, each target in its own process`,
);
const modes: Array<{ name: string; env: Record<string, string>; headers: Record<string, string> }> = [
  { name: 'off', env: {}, headers: {} },
  { name: 'off+traceparent', env: {}, headers: { traceparent: TRACEPARENT } },
  { name: 'on (OTLP)', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, headers: {} },
];
const results = new Map<string, Array<{ rps: number; p99: number; cpuMs: number }>>();
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts with another mode, so that no mode always follows the same one.
  for (const mode of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
    const target = await startTarget(mode.env);
    const r = await load(target.info.url, { authorization: `Bearer ${target.info.token}`, ...mode.headers }, target.child.pid!);
    await stop(target.child);
    results.set(mode.name, [...(results.get(mode.name) ?? []), r]);
  }
}
const mean = (xs: Array<{ rps: number; p99: number; cpuMs: number }>) => ({
  rps: xs.reduce((a, r) => a + r.rps, 0) / xs.length,
  p99: xs.reduce((a, r) => a + r.p99, 0) / xs.length,
  cpuMs: xs.reduce((a, r) => a + r.cpuMs, 0) / xs.length,
});
const off = mean(results.get('off')!);
for (const mode of modes) {
  const m = mean(results.get(mode.name)!);
  console.log(
    `${mode.name.padEnd(16)} ${m.rps.toFixed(0).padStart(6)} rps (ratio to off ${(m.rps / off.rps).toFixed(2)})  p99 ${m.p99.toFixed(1).padStart(6)} ms` +
      `  CPU ${(m.cpuMs * 1000).toFixed(0).padStart(5)} µs/request (ratio to off ${(m.cpuMs / off.cpuMs).toFixed(2)})`,
  );
}
console.log(`the collector received ${exports} exports (${(exportedBytes / 1024).toFixed(0)} KB) while "on" ran`);
const cost = await perRequestCost(receiver.url);
console.log(
  `per request, one process, GET /api/health by inject (median of 7 blocks of 2000): off ${cost.off.toFixed(0)} µs CPU,` +
    ` off+traceparent ${cost['off+traceparent'].toFixed(0)} µs (+${(cost['off+traceparent'] - cost.off).toFixed(0)}),` +
    ` on ${cost.on.toFixed(0)} µs (+${(cost.on - cost.off).toFixed(0)}, the span's export included)`,
);
sink.close();
const [startOff, startOn] = [startCost(false), startCost(true)];
console.log(
  `start: startTracing off ${startOff.ms.toFixed(1)} ms (+${startOff.heapKb.toFixed(0)} KB heap), on ${startOn.ms.toFixed(1)} ms (+${startOn.heapKb.toFixed(0)} KB heap) in a fresh process (median of 5: loading the API, the context manager and, when on, the SDK and its exporter)`,
);
