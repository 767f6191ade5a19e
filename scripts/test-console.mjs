// `node scripts/test-console.mjs`: the console's browser tests (playwright-core driving Debian's Chromium against the service and the sandbox).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  // Debian's package, never a downloaded browser build.
  if (process.getuid?.() !== 0) {
    console.error(`No Chromium at ${chromium}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
    process.exit(1);
  }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
const dir = 'packages/server/test/console';
const files = fs
  .readdirSync(path.join(root, dir))
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .map((f) => path.join(dir, f));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { SVC_LOG_LEVEL: 'silent', ...process.env },
});
process.exit(r.status ?? 1);
