// bench/scale: N concurrent installs (200) on PostgreSQL served by one, then two service processes, with the
// sandbox's latency set so backing calls dominate. Prints jobs per minute for each and their ratio (goal >= 1.7),
// the p99 of job polling during the run (goal < 50 ms) and each process's resident memory over the run (goal: flat).
// Each configuration gets a fresh database and a fresh sandbox, so both do the same work.
// Settings (environment): DATABASE_URL (required), SCALE_INSTALLS (200), SCALE_LATENCY_MS per backing call (300),
// SCALE_POLL_MS between two polls of one job (2000), SCALE_PROCESSES (1,2), and any SVC_* passed to the processes.
import { sleep, rssOf } from '../../packages/server/test/service-process.js';
import { loadCatalog } from '../../packages/server/src/catalog/load-catalog.js';
import { eventLoopDelay } from '../../packages/server/src/http/metrics.js';
import { Cluster, cpuOf, freshDatabase, mb, percentile, postgresCpu, sandboxProcess, scrape } from '../lib/cluster.js';

const INSTALLS = Number(process.env.SCALE_INSTALLS ?? 200);
const LATENCY_MS = Number(process.env.SCALE_LATENCY_MS ?? 300);
const POLL_MS = Number(process.env.SCALE_POLL_MS ?? 2000);
const CONFIGS = (process.env.SCALE_PROCESSES ?? '1,2').split(',').map(Number);
const passThrough = Object.fromEntries(
  Object.entries(process.env)
    .filter(([k]) => k.startsWith('SVC_'))
    .map(([k, v]) => [k, v!]),
);

interface Result {
  processes: number;
  seconds: number;
  jobsPerMinute: number;
  statuses: Record<string, number>;
  poll: { count: number; p50: number; p99: number; max: number };
  /** This process's own event-loop delay over the run (the pollers' share of what they measure), in ms. */
  pollerLoop: { p99: number; max: number };
  memory: Array<{ name: string; start: number; firstHalfPeak: number; secondHalfPeak: number; end: number }>;
  /** Per process: polls it answered, how many its own timing put over 50 ms, and its event loop's delay over the run. */
  server: Array<{ name: string; polls: number; over50: number; loopP99Ms: number; loopMaxMs: number }>;
  /** CPU seconds used during the run by each service process, the sandbox's process, PostgreSQL and this one (the pollers). */
  cpu: Record<string, number>;
}

const POLL_ROUTE = 'method="GET",route="/api/apps/install-jobs/:jobId"';

/** The share of a process's polls its own timing put over 50 ms, from two scrapes of its request histogram. */
function serverPollsOver50(before: Map<string, number>, after: Map<string, number>): { count: number; over: number } {
  const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
  const count = delta(`svc_http_request_duration_seconds_count{${POLL_ROUTE}}`);
  return { count, over: count - delta(`svc_http_request_duration_seconds_bucket{${POLL_ROUTE},le="0.05"}`) };
}

async function measure(processes: number): Promise<Result> {
  const db = await freshDatabase('svc_scale');
  try {
    const sb = await sandboxProcess();
    try {
      const cluster = await Cluster.create(sb, db.url, processes, { SVC_WORKER_POLL_MS: '200', ...passThrough });
      try {
        const services = ['dataPlatform', 'arm', 'kql', 'search', 'oneLake', 'reporting', 'sql'] as const;
        const latency = await fetch(`${sb.admin}/latency`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(Object.fromEntries(services.map((s) => [s, LATENCY_MS]))),
        });
        if (!latency.ok) throw new Error(`sandbox latency: ${latency.status} ${await latency.text()}`);
        const apps = loadCatalog().apps;
        const workspaces: string[] = [];
        for (let i = 0; i < INSTALLS; i += 20) {
          const batch = await Promise.all(
            Array.from({ length: Math.min(20, INSTALLS - i) }, (_, j) =>
              cluster.call('POST', '/api/workspaces', { name: `scale-${i + j}` }),
            ),
          );
          for (const r of batch) {
            if (r.status !== 201) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`);
            workspaces.push(r.body.workspace.id);
          }
        }

        // Resident memory of each process, sampled every 500 ms from the start of the installs to the end.
        const samples = new Map<string, Array<{ at: number; rss: number }>>(cluster.slots.map((s) => [s.name, []]));
        const sample = () => {
          for (const s of cluster.slots) {
            const rss = rssOf(s.proc?.child.pid);
            if (rss) samples.get(s.name)!.push({ at: Date.now(), rss });
          }
        };
        sample();
        const sampler = setInterval(sample, 500);

        const scrapesBefore = await Promise.all(cluster.slots.map((s) => scrape(s.base, cluster.metricsToken))); // also starts a fresh event-loop window
        const cpuBefore = Object.fromEntries(cluster.slots.map((s) => [s.name, cpuOf(s.proc?.child.pid)]));
        const sandboxCpu = cpuOf(sb.pid);
        const pgCpu = postgresCpu();
        const benchCpu = process.cpuUsage();
        const pollerLoop = eventLoopDelay();
        const started = Date.now();
        const jobs = await Promise.all(
          workspaces.map(async (workspaceId, i) => {
            const r = await cluster.call('POST', `/api/apps/${apps[i % apps.length]!.id}/install`, { workspaceId });
            if (r.status !== 202) throw new Error(`install: ${r.status} ${JSON.stringify(r.body)}`);
            return r.body.jobId as string;
          }),
        );
        const accepted = Date.now();
        const pollMs: number[] = [];
        const finals = await Promise.all(
          jobs.map(async (jobId) => {
            await sleep(Math.random() * POLL_MS);
            for (;;) {
              const r = await cluster.call('GET', `/api/apps/install-jobs/${jobId}`);
              if (r.status !== 200) throw new Error(`poll: ${r.status} ${JSON.stringify(r.body)}`);
              pollMs.push(r.ms);
              if (r.body.job.status !== 'running') return r.body.job;
              await sleep(POLL_MS);
            }
          }),
        );
        clearInterval(sampler);
        sample();
        const cpu: Record<string, number> = Object.fromEntries(
          cluster.slots.map((s) => [s.name, cpuOf(s.proc?.child.pid) - cpuBefore[s.name]!]),
        );
        const used = process.cpuUsage(benchCpu);
        cpu.sandbox = cpuOf(sb.pid) - sandboxCpu;
        cpu.postgres = postgresCpu() - pgCpu;
        const scrapesAfter = await Promise.all(cluster.slots.map((s) => scrape(s.base, cluster.metricsToken)));
        const server = cluster.slots.map((s, i) => {
          const { count, over } = serverPollsOver50(scrapesBefore[i]!, scrapesAfter[i]!);
          const loop = (q: string) => (scrapesAfter[i]!.get(`svc_event_loop_delay_seconds{quantile="${q}"}`) ?? 0) * 1000;
          return { name: s.name, polls: count, over50: over, loopP99Ms: loop('0.99'), loopMaxMs: loop('1') };
        });
        cpu.pollers = (used.user + used.system) / 1e6;
        pollerLoop.stop();
        // Throughput from the jobs' own finish times, so the poll interval does not blur it.
        const lastFinish = Math.max(...finals.map((j) => Date.parse(j.finishedAt)));
        const seconds = (lastFinish - started) / 1000;
        const statuses: Record<string, number> = {};
        for (const j of finals) statuses[j.status] = (statuses[j.status] ?? 0) + 1;
        const mid = started + (lastFinish - started) / 2;
        const memory = cluster.slots.map((s) => {
          const xs = samples.get(s.name)!;
          const peak = (list: typeof xs) => Math.max(0, ...list.map((x) => x.rss));
          return {
            name: s.name,
            start: xs[0]?.rss ?? 0,
            firstHalfPeak: peak(xs.filter((x) => x.at <= mid)),
            secondHalfPeak: peak(xs.filter((x) => x.at > mid)),
            end: xs.at(-1)?.rss ?? 0,
          };
        });
        console.log(
          `  ${processes} process(es): ${INSTALLS} installs accepted in ${((accepted - started) / 1000).toFixed(1)} s, all finished after ${seconds.toFixed(1)} s`,
        );
        return {
          processes,
          seconds,
          jobsPerMinute: INSTALLS / (seconds / 60),
          statuses,
          poll: { count: pollMs.length, p50: percentile(pollMs, 50), p99: percentile(pollMs, 99), max: Math.max(...pollMs) },
          pollerLoop: pollerLoop.read(),
          memory,
          server,
          cpu,
        };
      } finally {
        await cluster.stop();
      }
    } finally {
      await sb.stop();
    }
  } finally {
    await db.drop();
  }
}

async function main() {
  console.log(
    `bench/scale: ${INSTALLS} concurrent installs on PostgreSQL, ${LATENCY_MS} ms per backing call, each job polled every ${POLL_MS} ms`,
  );
  const overrides = Object.entries(passThrough)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  if (overrides) console.log(`  settings: ${overrides}`);
  const results: Result[] = [];
  for (const n of CONFIGS) results.push(await measure(n));
  console.log('');
  for (const r of results) {
    console.log(
      `${r.processes} process(es): ${r.jobsPerMinute.toFixed(1)} jobs/min (${Object.entries(r.statuses)
        .map(([s, n]) => `${s} ${n}`)
        .join(', ')}); ` +
        `poll p50 ${r.poll.p50.toFixed(1)} ms, p99 ${r.poll.p99.toFixed(1)} ms, max ${r.poll.max.toFixed(0)} ms over ${r.poll.count} polls ` +
        `(the pollers' own event-loop delay p99 ${r.pollerLoop.p99.toFixed(1)} ms, max ${r.pollerLoop.max.toFixed(0)} ms)`,
    );
    console.log(
      `    CPU seconds during the run: ${Object.entries(r.cpu)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')} (${(Object.values(r.cpu).reduce((a, b) => a + b, 0) / r.seconds).toFixed(2)} cores on average)`,
    );
    for (const s of r.server) {
      console.log(
        `    process ${s.name}: ${s.polls} polls, ${s.over50} over 50 ms by its own timing; event-loop delay p99 ${s.loopP99Ms.toFixed(1)} ms, max ${s.loopMaxMs.toFixed(0)} ms`,
      );
    }
    for (const m of r.memory)
      console.log(
        `    process ${m.name} RSS: start ${mb(m.start)}, peak first half ${mb(m.firstHalfPeak)}, peak second half ${mb(m.secondHalfPeak)}, end ${mb(m.end)}`,
      );
  }
  const one = results.find((r) => r.processes === 1);
  const two = results.find((r) => r.processes === 2);
  if (one && two) console.log(`ratio two/one: ${(two.jobsPerMinute / one.jobsPerMinute).toFixed(2)} (goal >= 1.7)`);
  const worst = Math.max(...results.map((r) => r.poll.p99));
  console.log(`poll p99: ${worst.toFixed(1)} ms (goal < 50 ms)`);
  const growth = results.flatMap((r) =>
    r.memory.map(
      (m) =>
        `${r.processes}/${m.name} ${m.firstHalfPeak ? `${(((m.secondHalfPeak - m.firstHalfPeak) / m.firstHalfPeak) * 100).toFixed(0)}%` : 'n/a'}`,
    ),
  );
  console.log(`memory, second-half peak over first-half peak per process: ${growth.join(', ')} (goal: flat)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
