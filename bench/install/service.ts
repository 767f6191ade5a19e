// One bench/install run: a real service process (main.ts, of this checkout or of BENCH_BASE_DIR's) on a fresh store,
// pointed at a fresh sandbox in this process that adds a fixed latency to every backing call, installing every app
// one after the other, then (optionally) installing each again into the same workspace.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RequestLogEntry, SERVICE_NAMES, startSandbox } from '@svc/sandbox';
import type { CuratedApp } from '../../packages/server/src/catalog/types.js';
import { apiCaller, freePort, jobEvents, sleep } from '../../packages/server/test/service-process.js';
import { stateLines } from './calls.js';

/** The two clouds: with the data platform, and without it (its types on the Azure-native backends). */
export type Cloud = 'platform' | 'native';

export type Event = { seq: number; kind: string; data: Record<string, any>; at: number };

/** One app's install in a run (and its re-run, when asked for). */
export interface AppRun {
  appId: string;
  events: Event[];
  wallMs: number;
  provisioningMs: number;
  cpuMs: number;
  /** The sandbox's request log of the install. */
  log: RequestLogEntry[];
  /** The re-run's request log and each step's status. */
  again?: { log: RequestLogEntry[]; statuses: string[] };
}

export interface RunOptions {
  concurrency: number;
  cloud: Cloud;
  latencyMs: number;
  apps: CuratedApp[];
  /** The checkout whose service runs (this one, or BENCH_BASE_DIR). */
  dir: string;
  /** Install each app again into its workspace, and read the sandbox's state after the installs and after the re-runs. */
  again?: boolean;
  /** When the data platform answers creates and definition calls 202 (the sandbox's dataPlatform.asyncMode; default auto). */
  asyncMode?: 'auto' | 'never' | 'always';
}

export interface Run {
  apps: AppRun[];
  /** The sandbox's state after every first install, and after every re-run. */
  state?: { installed: string[]; again: string[] };
}

/** CPU time (user + system) a process has used, from /proc (Linux); 0 elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** Installs every app, one after the other, with one service process and a fresh sandbox. */
export async function runInstalls(o: RunOptions): Promise<Run> {
  const sandbox = await startSandbox({ dataPlatform: o.cloud === 'platform' });
  // Every service of the sandbox gets the same added latency.
  await sandbox.admin.setLatency(Object.fromEntries(SERVICE_NAMES.map((s) => [s, o.latencyMs])));
  if (o.asyncMode) await sandbox.admin.setSwitch('dataPlatform.asyncMode', o.asyncMode);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-install-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const token = `svc_pat_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(o.dir, 'packages/server/src/main.ts')], {
    cwd: o.dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...sandbox.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_LOG_LEVEL: 'warn',
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_TOKEN: token,
      PROVISION_CONCURRENCY: String(o.concurrency),
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    },
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = apiCaller(base, token);
  const lastSeq = async () => (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  /** Installs the app into the workspace; its job, events, the request log it made and its times. */
  const install = async (appId: string, ws: string) => {
    const mark = await lastSeq();
    const cpuBefore = cpuMsOf(child.pid!);
    const started = Date.now();
    const { jobId } = await api('POST', `/api/apps/${appId}/install`, { workspaceId: ws });
    let job: any;
    do {
      await sleep(200);
      job = (await api('GET', `/api/apps/install-jobs/${jobId}`)).job;
    } while (job.status === 'running');
    const wallMs = Date.now() - started;
    const cpuMs = cpuMsOf(child.pid!) - cpuBefore;
    const events: Event[] = (await jobEvents(base, jobId, headers)).map((e) => ({ ...e, at: Date.parse(e.data.at) }));
    const log = (await sandbox.admin.requests()).filter((r) => r.seq > mark);
    return { job, events, wallMs, cpuMs, log };
  };
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
    const results: AppRun[] = [];
    const workspaces: string[] = [];
    for (const app of o.apps) {
      const ws = (await api('POST', '/api/workspaces', { name: `bench-${app.id}-${randomBytes(3).toString('hex')}` })).workspace.id;
      workspaces.push(ws);
      const { job, events, wallMs, cpuMs, log } = await install(app.id, ws);
      const bad = job.provision.steps.filter(
        (s: any) =>
          !['created', 'remediation'].includes(s.result.status) || (s.result.status === 'remediation' && s.itemType !== 'warehouse'),
      );
      if (bad.length)
        throw new Error(
          `${app.id}: unexpected step results ${JSON.stringify(bad.map((s: any) => [s.displayName, s.result.status, s.result.error]))}`,
        );
      if (process.env.BENCH_TRACE) {
        const t0 = events[0]!.at;
        const lines = [
          ...log.map(
            (r) =>
              [Date.parse(r.startedAt) - t0, `  ${r.service} ${r.method} ${r.path.slice(0, 90)} ${r.status} ${r.durationMs} ms`] as const,
          ),
          ...events.map((e) => [e.at - t0, `* ${e.kind} ${JSON.stringify(e.data).slice(0, 100)}`] as const),
        ].sort((a, b) => a[0] - b[0]);
        console.log(`--- c=${o.concurrency} ${app.id}\n${lines.map(([t, l]) => `${String(t).padStart(6)} ${l}`).join('\n')}`);
      }
      const phase = (p: string) => events.find((e) => e.kind === 'phase' && e.data.phase === p)!.at;
      results.push({ appId: app.id, events, wallMs, provisioningMs: phase('finalizing') - phase('provisioning'), cpuMs, log });
    }
    if (!o.again) return { apps: results };
    const installed = await stateLines(sandbox);
    for (const [i, app] of o.apps.entries()) {
      const { job, log } = await install(app.id, workspaces[i]!);
      results[i]!.again = { log, statuses: job.provision.steps.map((s: any) => s.result.status) };
    }
    return { apps: results, state: { installed, again: await stateLines(sandbox) } };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await sandbox.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
