// Real service processes (main.ts) run as children of a test or benchmark, against a sandbox the parent started.
import { spawn, type ChildProcess } from 'node:child_process';
import { build, isStale, SERVICE_ENTRY, SERVICE_NODE_OPTIONS } from '../../../scripts/lib/build.mjs';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loopback port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** A token in the bootstrap format (SVC_BOOTSTRAP_TOKEN): every process seeds the same admin token. */
/** An install job's events as its event stream (server-sent events) sends them: sequence, kind and data. */
export interface JobEvent {
  seq: number;
  kind: string;
  data: any;
}

/** Reads a job's whole event stream (it ends with the job) at `base` with the caller's headers; `any` kind: GET /api/jobs/{id}/events. */
export async function jobEvents(
  base: string,
  jobId: string,
  headers: Record<string, string>,
  kind: 'install' | 'any' = 'install',
): Promise<JobEvent[]> {
  const res = await fetch(kind === 'install' ? `${base}/api/apps/install-jobs/${jobId}/events` : `${base}/api/jobs/${jobId}/events`, {
    headers,
  });
  if (res.status !== 200) throw new Error(`events of job ${jobId}: ${res.status} ${await res.text()}`);
  return (await res.text())
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      return { seq: Number(field('id')), kind: field('event') ?? '', data: JSON.parse(field('data') ?? '{}') };
    });
}

export const bootstrapToken = () => `svc_pat_${randomBytes(6).toString('hex')}_${randomBytes(24).toString('hex')}`;

/** Calls a service's JSON API at `base` with a bearer token: answers the parsed body, throws naming the status and body otherwise. */
export function apiCaller(base: string, token: string): (method: string, url: string, body?: unknown) => Promise<any> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return async (method, url, body) => {
    const r = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await r.json()) as any;
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** The environment of a child service: only what it needs, plus the sandbox's variables (it then starts no sandbox of its own). */
export function serviceEnv(sandboxEnv: Record<string, string>, settings: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    ...sandboxEnv,
    HOST: '127.0.0.1',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...settings,
  };
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far (kept only when asked for). */
  output(): string;
  exited: Promise<number | null>;
}

/** How a service process runs: its TypeScript through tsx (tests, development), or the build with plain node as npm start runs it. */
export type ServiceRun = 'tsx' | 'built';

/** The node arguments of a service process run that way (`nodeArgs` go before the entry, after the service's own options). */
export function serviceArgs(run: ServiceRun, nodeArgs: string[] = []): string[] {
  return run === 'built'
    ? [...SERVICE_NODE_OPTIONS, ...nodeArgs, path.join(repoRoot, SERVICE_ENTRY)]
    : ['--import', 'tsx', ...nodeArgs, path.join(repoRoot, 'packages/server/src/main.ts')];
}

/** Builds the service and the sandbox if their sources changed since their last build (esbuild: a second or two). */
export async function ensureBuilt(): Promise<void> {
  const stale = (['sandbox', 'server'] as const).filter(isStale);
  if (stale.length) await build(stale);
}

/**
 * One service process (main.ts through tsx, or with `run: 'built'` its build: call ensureBuilt first); its output is kept
 * unless `keepOutput` is false (long benchmarks).
 */
export function startService(
  env: Record<string, string>,
  opts: { keepOutput?: boolean; run?: ServiceRun; nodeArgs?: string[] } = {},
): ServiceProcess {
  const child = spawn(process.execPath, serviceArgs(opts.run ?? 'tsx', opts.nodeArgs), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = opts.keepOutput ?? true;
  child.stdout!.on('data', (d) => {
    if (keep) out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

/** Waits until GET /api/health answers 200; throws with the process's output when it exits or takes over a minute. */
export async function waitHealthy(base: string, svc: Pick<ServiceProcess, 'output' | 'child'>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (svc.child.exitCode !== null) throw new Error(`the service exited early:\n${svc.output()}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the service did not start:\n${svc.output()}`);
    await sleep(100);
  }
}

/** Stops a process that is still running (SIGTERM, then SIGKILL after `graceMs`). */
export async function stopService(p: ServiceProcess, graceMs = 5000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await p.exited;
  clearTimeout(timer);
}

/** Resident set size of a process in bytes, read from /proc (Linux); undefined once it has exited. */
export function rssOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
