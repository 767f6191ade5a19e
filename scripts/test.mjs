// `npm test`: every test suite of the project, in order; exits non-zero when any fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const only = process.argv.slice(2);
const suites = [
  { name: 'sandbox', files: 'packages/sandbox/test' },
  { name: 'server', files: 'packages/server/test' },
];
// Suites driven by their own launcher (a running service, Chromium, pytest).
const launchers = [
  { name: 'console', script: 'scripts/test-console.mjs' },
  { name: 'clients', script: 'scripts/test-clients.mjs' },
];
let failed = 0;
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue;
  const dir = path.join(root, suite.files);
  if (!fs.existsSync(dir)) continue;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(suite.files, f));
  if (!files.length) continue;
  console.log(`\n=== ${suite.name} tests (${files.length} files)${process.env.DATABASE_URL ? ' on PostgreSQL' : ''} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { SVC_LOG_LEVEL: 'silent', ...process.env },
  });
  if (r.status !== 0) failed++;
}
for (const l of launchers) {
  if (only.length && !only.includes(l.name)) continue;
  if (process.env.DATABASE_URL) continue; // the PostgreSQL run repeats the service and sandbox suites only
  console.log(`\n=== ${l.name} tests ===`);
  const r = spawnSync(process.execPath, [l.script], { cwd: root, stdio: 'inherit', env: { SVC_LOG_LEVEL: 'silent', ...process.env } });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
