// What tracing adds to one request, measured in one process so that the machine's other load touches every mode alike:
// blocks of GET /api/health through app.inject (the lightest request: the tracing hooks' share is at its largest),
// tracing off, off with a caller's traceparent, and on, alternating, with the CPU time each block used.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../packages/server/src/config.js';
import { openStore } from '../../packages/server/src/store/db.js';
import { buildApp } from '../../packages/server/src/app.js';
import { startTracing, type Tracing } from '../../packages/server/src/tracing/tracing.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** CPU microseconds per request of each mode: `blocks` rounds of `perBlock` requests per mode, in turn. */
export async function perRequestCost(collectorUrl: string, blocks = 8, perBlock = 2000) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-tracing-'));
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent', SVC_RATE_LIMIT_PER_MINUTE: '10000000' });
  const store = await openStore(config.store);
  const { app } = await buildApp({ config, store, logger: false, worker: false });
  await app.ready();
  const on = { ...config.tracing, otlpEndpoint: collectorUrl };
  let tracing: Tracing | undefined;
  const modes = {
    off: { headers: {}, tracing: false },
    'off+traceparent': { headers: { traceparent: TRACEPARENT }, tracing: false },
    on: { headers: {}, tracing: true },
  } as const;
  const cpu: Record<keyof typeof modes, number[]> = { off: [], 'off+traceparent': [], on: [] };
  for (let block = 0; block < blocks; block++) {
    for (const [name, mode] of Object.entries(modes) as Array<[keyof typeof modes, (typeof modes)[keyof typeof modes]]>) {
      if (mode.tracing && !tracing) tracing = await startTracing(on);
      if (!mode.tracing && tracing) {
        await tracing.stop();
        tracing = undefined;
      }
      const start = process.cpuUsage();
      for (let i = 0; i < perBlock; i++) {
        const r = await app.inject({ method: 'GET', url: '/api/health', headers: mode.headers });
        if (r.statusCode !== 200) throw new Error(`health answered ${r.statusCode}`);
      }
      const used = process.cpuUsage(start);
      if (block > 0) cpu[name].push((used.user + used.system) / perBlock); // the first round warms up
    }
  }
  await tracing?.stop();
  await app.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return Object.fromEntries(Object.entries(cpu).map(([k, xs]) => [k, median(xs)])) as Record<keyof typeof modes, number>;
}
