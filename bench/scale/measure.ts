// One configuration of bench/scale: N installs at once on a fresh database and a fresh sandbox (with the backing
// latency set), served by `processes` service processes with the given SVC_* settings, every job polled until it ends.
import { rssOf, sleep, type ServiceRun } from '../../packages/server/test/service-process.js';
import { loadCatalog } from '../../packages/server/src/catalog/load-catalog.js';
import { eventLoopDelay } from '../../packages/server/src/event-loop.js';
import { Cluster, cpuOf, freshDatabase, percentile, postgresCpu, sandboxProcess, scrape } from '../lib/cluster.js';

export interface Workload {
  installs: number;
  latencyMs: number;
  pollMs: number;
  /** How the service processes run: tsx, or the built service `npm start` runs. */
  run: ServiceRun;
}

/** What one process did over the run, from its own /metrics read every second. */
export interface ProcessFigures {
  name: string;
  polls: number;
  /** Polls its own timing put over 50 ms. */
  over50: number;
  /** The event-loop delay's p99 of each second: its median and worst, and the largest single delay (ms). */
  loopP99: { median: number; worst: number };
  loopMaxMs: number;
  /** The worst second's p99 wait for a database connection (ms, as its histogram bucket's bound). */
  poolWaitP99Ms: number;
  /** Jobs it may run at once (the adaptive count) and jobs it ran, each second: mean and largest. */
  limit: { mean: number; max: number };
  running: { mean: number; max: number };
  /** Steps that waited for a live resource's lock another install held, and the seconds all its steps waited so. */
  lockWaits: { steps: number; seconds: number };
  /** Install steps that finished beside other installs of their resource (its lock's shared mode), and those run again alone. */
  installSteps: { shared: number; exclusive: number };
  /** Backing calls by service. */
  backingCalls: Record<string, number>;
  /** Statements its database connections sent over the run. */
  statements: number;
  rss: { start: number; firstHalfPeak: number; secondHalfPeak: number; end: number };
}

export interface Result {
  processes: number;
  seconds: number;
  jobsPerMinute: number;
  statuses: Record<string, number>;
  poll: { count: number; p50: number; p99: number; max: number };
  /** This process's own event-loop delay over the run (the pollers' share of what they measure), in ms. */
  pollerLoop: { p99: number; max: number };
  perProcess: ProcessFigures[];
  /** CPU seconds used during the run by each service process, the sandbox's process, PostgreSQL and this one (the pollers). */
  cpu: Record<string, number>;
}

const POLL_ROUTE = 'method="GET",route="/api/apps/install-jobs/:jobId"';

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Runs the workload on `processes` processes with `settings`, on a database and sandbox of its own. */
export async function measure(work: Workload, processes: number, settings: Record<string, string>): Promise<Result> {
  const db = await freshDatabase('svc_scale');
  try {
    const sb = await sandboxProcess();
    try {
      const cluster = await Cluster.create(sb, db.url, processes, { SVC_WORKER_POLL_MS: '200', ...settings }, work.run);
      try {
        return await run(cluster, sb, work);
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

async function run(cluster: Cluster, sb: { admin: string; pid: number }, work: Workload): Promise<Result> {
  const services = ['dataPlatform', 'arm', 'kql', 'search', 'oneLake', 'reporting', 'sql'] as const;
  const latency = await fetch(`${sb.admin}/latency`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Object.fromEntries(services.map((s) => [s, work.latencyMs]))),
  });
  if (!latency.ok) throw new Error(`sandbox latency: ${latency.status} ${await latency.text()}`);
  const apps = loadCatalog().apps;
  const workspaces: string[] = [];
  for (let i = 0; i < work.installs; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, work.installs - i) }, (_, j) =>
        cluster.call('POST', '/api/workspaces', { name: `scale-${i + j}` }),
      ),
    );
    for (const r of batch) {
      if (r.status !== 201) throw new Error(`workspace: ${r.status} ${JSON.stringify(r.body)}`);
      workspaces.push(r.body.workspace.id);
    }
  }

  // Every second: each process's resident memory and its /metrics (the adaptive count, the event loop, the pool).
  const rss = new Map<string, Array<{ at: number; rss: number }>>(cluster.slots.map((s) => [s.name, []]));
  const seconds = new Map<string, Array<Map<string, number>>>(cluster.slots.map((s) => [s.name, []]));
  const sampleRss = () => {
    for (const s of cluster.slots) {
      const value = rssOf(s.proc?.child.pid);
      if (value) rss.get(s.name)!.push({ at: Date.now(), rss: value });
    }
  };
  const first = await Promise.all(cluster.slots.map((s) => scrape(s.base, cluster.metricsToken))); // also starts fresh windows
  sampleRss();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(1000);
      sampleRss();
      const scrapes = await Promise.all(cluster.slots.map((s) => scrape(s.base, cluster.metricsToken).catch(() => undefined)));
      for (const [i, s] of cluster.slots.entries()) if (scrapes[i]) seconds.get(s.name)!.push(scrapes[i]);
    }
  })();

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
      await sleep(Math.random() * work.pollMs);
      for (;;) {
        const r = await cluster.call('GET', `/api/apps/install-jobs/${jobId}`);
        if (r.status !== 200) throw new Error(`poll: ${r.status} ${JSON.stringify(r.body)}`);
        pollMs.push(r.ms);
        if (r.body.job.status !== 'running') return r.body.job;
        await sleep(work.pollMs);
      }
    }),
  );
  sampling = false;
  await sampler;
  sampleRss();
  const cpu: Record<string, number> = Object.fromEntries(cluster.slots.map((s) => [s.name, cpuOf(s.proc?.child.pid) - cpuBefore[s.name]!]));
  const used = process.cpuUsage(benchCpu);
  cpu.sandbox = cpuOf(sb.pid) - sandboxCpu;
  cpu.postgres = postgresCpu() - pgCpu;
  cpu.pollers = (used.user + used.system) / 1e6;
  pollerLoop.stop();

  // Throughput from the jobs' own finish times, so the poll interval does not blur it.
  const lastFinish = Math.max(...finals.map((j) => Date.parse(j.finishedAt)));
  const statuses: Record<string, number> = {};
  for (const j of finals) statuses[j.status] = (statuses[j.status] ?? 0) + 1;
  // What made a job other than done: the first few steps that did not end provisioned, with their text.
  const PROVISIONED = new Set(['created', 'exists', 'updated', 'skipped', 'stored']);
  const notDone = finals.flatMap((j) => (j.provision?.steps ?? []).filter((s: any) => s.result && !PROVISIONED.has(s.result.status)));
  for (const s of notDone.slice(0, 3))
    console.log(`  not provisioned: ${s.itemType} ${s.displayName ?? ''}: ${JSON.stringify(s.result).slice(0, 400)}`);
  const mid = started + (lastFinish - started) / 2;
  const perProcess = cluster.slots.map((s, i): ProcessFigures => {
    const series = seconds.get(s.name)!;
    const last = series.at(-1) ?? first[i]!;
    const delta = (name: string) => (last.get(name) ?? 0) - (first[i]!.get(name) ?? 0);
    const each = (name: string, scale = 1) => series.map((m) => (m.get(name) ?? 0) * scale);
    if (process.env.SCALE_TRACE)
      console.log(
        `    ${s.name} each second (jobs allowed/running, loop p99 ms, pool wait p99 ms): ${series
          .map(
            (m) =>
              `${m.get('svc_worker_jobs{state="limit"}')}/${m.get('svc_worker_jobs{state="running"}')} ${((m.get('svc_event_loop_delay_seconds{quantile="0.99"}') ?? 0) * 1000).toFixed(0)} ${((m.get('svc_db_pool_wait_seconds{quantile="0.99"}') ?? 0) * 1000).toFixed(0)}`,
          )
          .join(' | ')}`,
      );
    const loopP99 = each('svc_event_loop_delay_seconds{quantile="0.99"}', 1000).sort((a, b) => a - b);
    const limit = each('svc_worker_jobs{state="limit"}');
    const running = each('svc_worker_jobs{state="running"}');
    const backingCalls: Record<string, number> = {};
    for (const key of last.keys()) {
      const m = /^svc_backing_calls_total\{service="(\w+)",status="\d+"\}$/.exec(key);
      if (m) backingCalls[m[1]!] = (backingCalls[m[1]!] ?? 0) + delta(key);
    }
    const polls = delta(`svc_http_request_duration_seconds_count{${POLL_ROUTE}}`);
    const xs = rss.get(s.name)!;
    const peak = (list: typeof xs) => Math.max(0, ...list.map((x) => x.rss));
    return {
      name: s.name,
      polls,
      over50: polls - delta(`svc_http_request_duration_seconds_bucket{${POLL_ROUTE},le="0.05"}`),
      loopP99: { median: percentile(loopP99, 50), worst: loopP99.at(-1) ?? 0 },
      loopMaxMs: Math.max(0, ...each('svc_event_loop_delay_seconds{quantile="1"}', 1000)),
      poolWaitP99Ms: Math.max(0, ...each('svc_db_pool_wait_seconds{quantile="0.99"}', 1000)),
      limit: { mean: mean(limit), max: Math.max(0, ...limit) },
      running: { mean: mean(running), max: Math.max(0, ...running) },
      lockWaits: { steps: delta('svc_live_lock_waits'), seconds: delta('svc_live_lock_wait_seconds') },
      installSteps: {
        shared: delta('svc_live_lock_install_steps{lock="shared"}'),
        exclusive: delta('svc_live_lock_install_steps{lock="exclusive"}'),
      },
      backingCalls,
      statements: delta('svc_db_statements'),
      rss: {
        start: xs[0]?.rss ?? 0,
        firstHalfPeak: peak(xs.filter((x) => x.at <= mid)),
        secondHalfPeak: peak(xs.filter((x) => x.at > mid)),
        end: xs.at(-1)?.rss ?? 0,
      },
    };
  });
  const runSeconds = (lastFinish - started) / 1000;
  console.log(
    `  ${cluster.slots.length} process(es): ${work.installs} installs accepted in ${((accepted - started) / 1000).toFixed(1)} s, all finished after ${runSeconds.toFixed(1)} s`,
  );
  return {
    processes: cluster.slots.length,
    seconds: runSeconds,
    jobsPerMinute: work.installs / (runSeconds / 60),
    statuses,
    poll: { count: pollMs.length, p50: percentile(pollMs, 50), p99: percentile(pollMs, 99), max: Math.max(...pollMs) },
    pollerLoop: pollerLoop.read(),
    perProcess,
    cpu,
  };
}
