// `npm start`: installs what a fresh clone lacks, builds what is older than its sources (the service, the sandbox and the
// console; lib/build.mjs), then runs the built service in this very process (plain node, no TypeScript loader).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const stamp = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
if (!fs.existsSync(stamp) || fs.statSync(lock).mtimeMs > fs.statSync(stamp).mtimeMs) {
  console.log('Installing dependencies (npm ci)…');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const { build, isStale, SERVICE_ENTRY } = await import('./lib/build.mjs');
const stale = ['sandbox', 'server', 'console'].filter(isStale);
if (stale.length) {
  console.log(`Building ${stale.join(', ')}…`);
  try {
    await build(stale);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}

// A person at a terminal reads the log; anywhere else (a pipe, a file, a collector) it stays JSON lines.
if (process.stdout.isTTY && !process.env.SVC_LOG_FORMAT) process.env.SVC_LOG_FORMAT = 'pretty';
await import(pathToFileURL(path.join(root, SERVICE_ENTRY)).href);
