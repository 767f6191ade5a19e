// `npm run test:clients`: starts the service (with its in-process sandbox) on a free
// loopback port with a bootstrap admin token, then runs the Python client's pytest suite and the node:test suites of the
// TypeScript client against it. Prints each runner's summary; exits non-zero when anything fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newToken, startLocalService } from './lib/local-service.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const python = process.env.PYTHON ?? 'python3';
const only = process.argv.slice(2); // 'python', 'typescript'

const token = newToken();

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
const service = await startLocalService({ token, label: 'clients', env: { SVC_WORKER_POLL_MS: '100' } });
console.log(`service on ${service.baseUrl} (with the in-process sandbox)`);
const env = { ...process.env, SVC_BASE_URL: service.baseUrl, SVC_TOKEN: token };
try {
  if (!only.length || only.includes('python')) {
    if (!process.env.SVC_SKIP_PIP) {
      const pip = spawnSync(
        python,
        ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--root-user-action=ignore', './clients/python[test]'],
        { cwd: root, stdio: 'inherit' },
      );
      if (pip.status !== 0) results.push({ ok: false, lines: ['pip install ./clients/python failed'], label: 'python client install' });
    }
    results.push(
      run(
        'Python client (pytest)',
        python,
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'],
        { cwd: path.join(root, 'clients/python'), env },
        /^(=+ )?\d+ (passed|failed)|(passed|failed|error).* in [\d.]+s/,
      ),
    );
  }
  if (!only.length || only.includes('typescript')) {
    const files = fs
      .readdirSync(path.join(root, 'packages/server/test'))
      .filter((f) => /^clients.*\.test\.ts$/.test(f))
      .sort()
      .map((f) => `packages/server/test/${f}`);
    results.push(
      run(
        'TypeScript client and drift gates (node:test)',
        process.execPath,
        ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
        { cwd: root, env: { ...env, SVC_LOG_LEVEL: 'silent' } },
        /^[ℹ#] (tests|pass|fail|skipped) \d+/,
      ),
    );
  }
} finally {
  await service.stop();
}

console.log('\n=== client suites ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.label}: ${r.lines.map((l) => l.trim()).join('; ')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
