// bench/scale: N concurrent installs (400) on PostgreSQL served by one, then two service processes, with the
// sandbox's latency set so backing calls dominate, in today's configuration before issue 24 (a fixed 4 jobs per process)
// and with the adaptive job count (SVC_WORKER_JOBS_MIN up to SVC_WORKER_JOBS, steered by the event-loop delay and the
// database pool's wait), each on a fresh database and a fresh sandbox. Prints jobs per minute, the ratios adaptive/fixed
// (goal >= 4) and two/one (goal >= 1.8), poll p99 (goal < 50 ms) and each process's resident memory (goal: flat).
// Settings (environment): DATABASE_URL (required), SCALE_INSTALLS (400), SCALE_LATENCY_MS per backing call (300),
// SCALE_POLL_MS between two polls of one job (2000), SCALE_TRACE (1: each process's job count and signals each second), SCALE_PROCESSES (1,2), SCALE_MODES (fixed,adaptive), SCALE_RUN
// (built: the service `npm start` runs, built first when stale; tsx: TypeScript through tsx), and any
// SVC_* passed to the processes (the adaptive mode's; the fixed mode keeps SVC_WORKER_JOBS=4).
import os from 'node:os';
import { mb } from '../lib/cluster.js';
import { measure, type Result, type Workload } from './measure.js';

const work: Workload = {
  installs: Number(process.env.SCALE_INSTALLS ?? 400),
  latencyMs: Number(process.env.SCALE_LATENCY_MS ?? 300),
  pollMs: Number(process.env.SCALE_POLL_MS ?? 2000),
  run: process.env.SCALE_RUN === 'tsx' ? 'tsx' : 'built',
};
const PROCESSES = (process.env.SCALE_PROCESSES ?? '1,2').split(',').map(Number);
const passThrough = Object.fromEntries(
  Object.entries(process.env)
    .filter(([k]) => k.startsWith('SVC_'))
    .map(([k, v]) => [k, v!]),
);
/** Today's configuration before issue 24 (a fixed 4 jobs per process) and the adaptive one. */
const MODES: Record<string, { label: string; settings: Record<string, string> }> = {
  fixed: { label: 'fixed 4 jobs', settings: { ...passThrough, SVC_WORKER_JOBS: '4', SVC_WORKER_JOBS_MIN: '4' } },
  adaptive: { label: 'adaptive', settings: passThrough },
};
const modes = (process.env.SCALE_MODES ?? 'fixed,adaptive').split(',').filter((m) => m in MODES);

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function print(mode: string, r: Result) {
  console.log(
    `${MODES[mode]!.label}, ${r.processes} process(es): ${r.jobsPerMinute.toFixed(1)} jobs/min in ${r.seconds.toFixed(0)} s (${Object.entries(
      r.statuses,
    )
      .map(([s, n]) => `${s} ${n}`)
      .join(
        ', ',
      )}); poll p50 ${r.poll.p50.toFixed(1)} ms, p99 ${r.poll.p99.toFixed(1)} ms, max ${r.poll.max.toFixed(0)} ms over ${r.poll.count} polls ` +
      `(the pollers' own event-loop delay p99 ${r.pollerLoop.p99.toFixed(1)} ms, max ${r.pollerLoop.max.toFixed(0)} ms)`,
  );
  console.log(
    `    CPU seconds during the run: ${Object.entries(r.cpu)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')} (${(Object.values(r.cpu).reduce((a, b) => a + b, 0) / r.seconds).toFixed(2)} cores on average)`,
  );
  for (const p of r.perProcess) {
    const calls = Object.entries(p.backingCalls)
      .sort((a, b) => b[1] - a[1])
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    console.log(
      `    process ${p.name}: jobs at once mean ${p.running.mean.toFixed(1)}, max ${p.running.max} (allowed: mean ${p.limit.mean.toFixed(1)}, max ${p.limit.max}); ` +
        `${p.polls} polls, ${p.over50} over 50 ms by its own timing; event-loop delay p99 per second median ${p.loopP99.median.toFixed(1)} ms, worst ${p.loopP99.worst.toFixed(1)} ms, max ${p.loopMaxMs.toFixed(0)} ms; ` +
        `pool wait p99 worst second ${p.poolWaitP99Ms} ms`,
    );
    console.log(
      `      steps that waited for a shared resource's lock (another install of the same app making or checking it): ${p.lockWaits.steps}, ` +
        `${p.lockWaits.seconds.toFixed(0)} s in all (${(p.lockWaits.seconds / r.seconds).toFixed(1)} steps waiting at any moment on average); ` +
        `install steps done beside other installs of their resource (shared lock) ${p.installSteps.shared}, run again alone (exclusive) ${p.installSteps.exclusive}`,
    );
    console.log(
      `      backing calls: ${calls}; database statements ${p.statements} (${((p.statements * r.processes) / Math.max(1, r.statuses.done ?? 0)).toFixed(0)} an install, polls included)`,
    );
    console.log(
      `      RSS: start ${mb(p.rss.start)}, peak first half ${mb(p.rss.firstHalfPeak)}, peak second half ${mb(p.rss.secondHalfPeak)}, end ${mb(p.rss.end)}`,
    );
  }
}

async function main() {
  console.log(
    `bench/scale: ${work.installs} concurrent installs on PostgreSQL, ${work.latencyMs} ms per backing call, each job polled every ${work.pollMs} ms, the service run ${work.run === 'built' ? 'built (as npm start runs it)' : 'through tsx'}; load average ${load()}`,
  );
  const overrides = Object.entries(passThrough)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  if (overrides) console.log(`  settings: ${overrides}`);
  const results: Array<{ mode: string; r: Result }> = [];
  // Each process count in both modes one after the other, so each pair meets much the same load from the machine.
  for (const n of PROCESSES)
    for (const mode of modes) {
      console.log(`  ${MODES[mode]!.label}, ${n} process(es)… (load average ${load()})`);
      results.push({ mode, r: await measure(work, n, MODES[mode]!.settings) });
    }
  console.log('');
  for (const { mode, r } of results) print(mode, r);
  console.log('');
  const find = (mode: string, n: number) => results.find((x) => x.mode === mode && x.r.processes === n)?.r;
  for (const n of PROCESSES) {
    const fixed = find('fixed', n);
    const adaptive = find('adaptive', n);
    if (fixed && adaptive)
      console.log(
        `${n} process(es): adaptive/fixed ${(adaptive.jobsPerMinute / fixed.jobsPerMinute).toFixed(2)} (${adaptive.jobsPerMinute.toFixed(1)} / ${fixed.jobsPerMinute.toFixed(1)} jobs/min; goal >= 4)`,
      );
  }
  for (const mode of modes) {
    const one = find(mode, 1);
    const two = find(mode, 2);
    if (one && two) console.log(`${MODES[mode]!.label}: two/one ${(two.jobsPerMinute / one.jobsPerMinute).toFixed(2)} (goal >= 1.8)`);
  }
  console.log(
    `poll p99: ${results.map(({ mode, r }) => `${MODES[mode]!.label} ${r.processes}p ${r.poll.p99.toFixed(1)} ms`).join(', ')} (goal < 50 ms)`,
  );
  const growth = results.flatMap(({ mode, r }) =>
    r.perProcess.map(
      (p) =>
        `${MODES[mode]!.label} ${r.processes}p/${p.name} ${p.rss.firstHalfPeak ? `${(((p.rss.secondHalfPeak - p.rss.firstHalfPeak) / p.rss.firstHalfPeak) * 100).toFixed(0)}%` : 'n/a'}`,
    ),
  );
  console.log(`memory, second-half peak over first-half peak per process: ${growth.join(', ')} (goal: flat)`);
  console.log(`load average at the end: ${load()} (2 cores)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
