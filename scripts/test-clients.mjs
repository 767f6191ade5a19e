// `npm run test:clients`: starts the service (with its in-process sandbox when packages/sandbox provides one) on a free
// loopback port with a bootstrap admin token, then runs the Python client's pytest suite and the node:test suites of the
// TypeScript client against it. Prints each runner's summary; exits non-zero when anything fails.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const python = process.env.PYTHON ?? 'python3';
const only = process.argv.slice(2); // 'python', 'typescript'

const freePort = () => new Promise((resolve, reject) => {
  const srv = net.createServer();
  srv.once('error', reject);
  srv.listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => resolve(port));
  });
});

const alnum = (n, alphabet) => Array.from(crypto.randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
const token = `svc_pat_${alnum(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}_${alnum(48, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`;

async function startService() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-clients-'));
  const sandbox = fs.existsSync(path.join(root, 'packages/sandbox/src/index.ts'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_BOOTSTRAP_TOKEN: token,
    SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'warn',
    SVC_CLOUD: 'sandbox',
    SVC_WORKER_POLL_MS: '100',
  };
  delete env.SVC_PUBLIC_URL;
  delete env.DATABASE_URL;
  // Without the sandbox package the service runs with no backing services: installs are then made with deploy false
  // only (the tests read SVC_TEST_LIVE), and no address outside this machine is ever called.
  if (!sandbox) {
    env.SVC_SANDBOX_ADMIN_URL = 'http://127.0.0.1:9/';
    for (const name of ['SVC_AUTH_URL', 'SVC_DATA_PLATFORM_API_URL', 'SVC_BI_API_URL', 'SVC_BI_APP_URL', 'SVC_ARM_URL', 'SVC_ONELAKE_URL']) env[name] = 'http://127.0.0.1:9';
    env.IDENTITY_ENDPOINT = 'http://127.0.0.1:9/token';
    env.IDENTITY_HEADER = 'none';
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${log}`);
    try {
      const r = await fetch(`${baseUrl}/api/health`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the service did not answer /api/health within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => { child.once('exit', r); setTimeout(r, 5000); });
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl, sandbox, stop, log: () => log };
}

/** Runs a command, echoing its output, and returns its status and the runner's summary lines. */
function run(label, cmd, args, opts, summary) {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { ...opts, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  const lines = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.split('\n').filter((l) => summary.test(l));
  return { ok: r.status === 0, lines, label };
}

const results = [];
const service = await startService();
console.log(`service on ${service.baseUrl} (${service.sandbox ? 'with the in-process sandbox' : 'no sandbox package yet: installs use deploy false'})`);
const env = { ...process.env, SVC_BASE_URL: service.baseUrl, SVC_TOKEN: token, SVC_TEST_LIVE: service.sandbox ? '1' : '0' };
try {
  if (!only.length || only.includes('python')) {
    if (!process.env.SVC_SKIP_PIP) {
      const pip = spawnSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--root-user-action=ignore', './clients/python[test]'], { cwd: root, stdio: 'inherit' });
      if (pip.status !== 0) results.push({ ok: false, lines: ['pip install ./clients/python failed'], label: 'python client install' });
    }
    results.push(run('Python client (pytest)', python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: path.join(root, 'clients/python'), env },
      /^(=+ )?\d+ (passed|failed)|(passed|failed|error).* in [\d.]+s/));
  }
  if (!only.length || only.includes('typescript')) {
    const files = fs.readdirSync(path.join(root, 'packages/server/test')).filter((f) => /^clients.*\.test\.ts$/.test(f)).sort().map((f) => `packages/server/test/${f}`);
    results.push(run('TypeScript client and drift gates (node:test)', process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], { cwd: root, env: { ...env, SVC_LOG_LEVEL: 'silent' } },
      /^[ℹ#] (tests|pass|fail|skipped) \d+/));
  }
} finally {
  await service.stop();
}

console.log('\n=== client suites ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.label}: ${r.lines.map((l) => l.trim()).join('; ')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
