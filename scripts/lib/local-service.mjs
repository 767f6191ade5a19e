// The real service (packages/server/src/main.ts) with its in-process sandbox, started as a child process on a free
// loopback port and a temporary data directory, for the launchers that test it from outside (clients, fuzzing).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const alnum = (n, alphabet) => Array.from(crypto.randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');

/** A fresh token in the service's format, for SVC_BOOTSTRAP_TOKEN. */
export const newToken = () =>
  `svc_pat_${alnum(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}_${alnum(48, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`;

/**
 * Starts the service in the sandbox cloud with `token` as its bootstrap admin token and `env` on top, waits for
 * /api/health (90 s at most), and answers its address, its output so far, and stop() (which removes the data directory).
 */
export async function startLocalService({ token, label, env: extra = {} }) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${label}-`));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_BOOTSTRAP_TOKEN: token,
    SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'warn',
    SVC_CLOUD: 'sandbox',
    ...extra,
  };
  // Its own sandbox and embedded store, whatever the caller's environment points at.
  for (const name of ['SVC_PUBLIC_URL', 'DATABASE_URL', 'SVC_SANDBOX_ADMIN_URL']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => {
    log += d;
  });
  child.stderr.on('data', (d) => {
    log += d;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the service did not answer /api/health within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => {
        child.once('exit', r);
        setTimeout(r, 5000);
      });
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl, stop, log: () => log };
}
