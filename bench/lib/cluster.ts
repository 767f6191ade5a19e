// Service processes sharing one fresh PostgreSQL database, a sandbox in this process, and an API client that goes
// to whichever process is alive: what bench/chaos and bench/scale have in common.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startSandbox } from '@svc/sandbox';
import { spawn } from 'node:child_process';
import {
  bootstrapToken,
  ensureBuilt,
  freePort,
  repoRoot,
  serviceEnv,
  sleep,
  startService,
  stopService,
  waitHealthy,
  type ServiceProcess,
  type ServiceRun,
} from '../../packages/server/test/service-process.js';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** A fresh database next to the one DATABASE_URL names (dropped by the returned function). */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is required (the processes share PostgreSQL), e.g. postgres://svc:svc@127.0.0.1:5432/svc');
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

/** One slot of the cluster: a port and the process currently serving it (replaced on restart). */
export interface Slot {
  name: string;
  port: number;
  base: string;
  proc?: ServiceProcess;
  healthy: boolean;
  starts: number;
}

/** Service processes on one database and one sandbox; `settings` are extra SVC_* variables for every process. */
export class Cluster {
  readonly token = bootstrapToken();
  /** Every process's SVC_METRICS_TOKEN: what `scrape` sends for /metrics. */
  readonly metricsToken = randomBytes(32).toString('hex');
  readonly slots: Slot[] = [];
  private dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));

  constructor(
    readonly sandbox: { env: Record<string, string> },
    readonly databaseUrl: string,
    readonly settings: Record<string, string>,
    /** How the processes run: TypeScript through tsx, or the built JavaScript `npm start` runs (built first if stale). */
    readonly run: ServiceRun = 'tsx',
  ) {}

  static async create(
    sandbox: { env: Record<string, string> },
    databaseUrl: string,
    processes: number,
    settings: Record<string, string>,
    run: ServiceRun = 'tsx',
  ): Promise<Cluster> {
    if (run === 'built') await ensureBuilt();
    const c = new Cluster(sandbox, databaseUrl, settings, run);
    for (let i = 0; i < processes; i++) {
      const port = await freePort();
      c.slots.push({ name: String.fromCharCode(65 + i), port, base: `http://127.0.0.1:${port}`, healthy: false, starts: 0 });
    }
    // Both at once: migrations and the bootstrap token are raced on purpose.
    await Promise.all(c.slots.map((s) => c.start(s)));
    return c;
  }

  async start(slot: Slot): Promise<void> {
    const env = serviceEnv(this.sandbox.env, {
      PORT: String(slot.port),
      DATABASE_URL: this.databaseUrl,
      SVC_DATA_DIR: path.join(this.dataDir, slot.name),
      SVC_BOOTSTRAP_TOKEN: this.token,
      SVC_LOG_LEVEL: 'warn',
      SVC_RATE_LIMIT_PER_MINUTE: '10000000',
      ...this.settings,
      SVC_METRICS_TOKEN: this.metricsToken,
    });
    slot.proc = startService(env, { keepOutput: false, run: this.run });
    slot.starts++;
    await waitHealthy(slot.base, slot.proc, 240_000); // a loaded machine starts slowly
    slot.healthy = true;
  }

  /** SIGKILL: no graceful shutdown, leases are not given back. */
  async kill(slot: Slot): Promise<void> {
    slot.healthy = false;
    const p = slot.proc!;
    p.child.kill('SIGKILL');
    await p.exited;
  }

  alive(): Slot[] {
    return this.slots.filter((s) => s.healthy);
  }

  async stop(): Promise<void> {
    await Promise.all(this.slots.map((s) => (s.proc ? stopService(s.proc) : undefined)));
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Stderr of every process so far (errors only: the processes log at warn). */
  errors(): string {
    return this.slots.map((s) => (s.proc ? `--- ${s.name}\n${s.proc.output()}` : '')).join('\n');
  }

  /**
   * One API call to a live process; a connection that fails (the process was killed) is tried again on another
   * live process until `deadlineMs`. Answers the status, body and which process answered.
   */
  async call(
    method: string,
    url: string,
    body?: unknown,
    deadlineMs = 60_000,
  ): Promise<{ status: number; body: any; slot: string; ms: number; failovers: number }> {
    const until = Date.now() + deadlineMs;
    let failovers = 0;
    for (let i = 0; ; i++) {
      const alive = this.alive();
      const slot = alive.length ? alive[Math.floor(Math.random() * alive.length)]! : undefined;
      if (slot) {
        const t0 = performance.now();
        try {
          const r = await fetch(`${slot.base}${url}`, {
            method,
            headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await r.text();
          return { status: r.status, body: text ? JSON.parse(text) : undefined, slot: slot.name, ms: performance.now() - t0, failovers };
        } catch {
          failovers++;
        }
      }
      if (Date.now() > until) throw new Error(`${method} ${url}: no live process answered within ${deadlineMs} ms`);
      await sleep(Math.min(50 * (i + 1), 500));
    }
  }
}

/** The sandbox in a process of its own (npm run sandbox), so its work does not slow what this process measures. */
export async function sandboxProcess(): Promise<{ env: Record<string, string>; admin: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'packages/sandbox/src/cli.ts'), '--json'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const info = await new Promise<{ env: Record<string, string>; urls: Record<string, string> }>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      try {
        resolve(JSON.parse(out));
      } catch {
        /* not whole yet */
      }
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  return {
    env: info.env,
    admin: `${info.urls.admin}/_sandbox`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `fn` with an in-process sandbox (options: `dataPlatform: false` for a cloud without it), stopped after. */
export async function withSandbox<T>(fn: (sb: Sandbox) => Promise<T>, options: { dataPlatform?: boolean } = {}): Promise<T> {
  const sb = await startSandbox(options);
  try {
    return await fn(sb);
  } finally {
    await sb.stop();
  }
}

/** One scrape of a process's /metrics with its SVC_METRICS_TOKEN: each sample line's value by its series (name and labels, as printed). */
export async function scrape(base: string, metricsToken: string): Promise<Map<string, number>> {
  const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await r.text();
  if (!r.ok) throw new Error(`GET ${base}/metrics answered ${r.status}: ${text.slice(0, 200)}`);
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(\S+(?:\{.*\})?) (\S+)$/.exec(line);
    if (m && !line.startsWith('#')) samples.set(m[1]!, Number(m[2]));
  }
  return samples;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); 0 when it is gone. */
export function cpuOf(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by every PostgreSQL server process on this machine (the shared database's share of the work). */
export function postgresCpu(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuOf(Number(pid));
    } catch {
      /* gone */
    }
  }
  return total;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;
