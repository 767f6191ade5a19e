// The built service (npm run build, what npm start and the deployment templates run): plain node starts it with its
// in-process sandbox, on a fresh store, without loading any TypeScript; the files it finds at run time are the ones the
// sources find; a build is redone only when a source is newer than it; and every launcher runs the same command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isStale, SERVICE_ENTRY, SERVICE_NODE_OPTIONS } from '../../../scripts/lib/build.mjs';
import { ensureBuilt, freePort, repoRoot, startService, stopService, waitHealthy } from './service-process.js';
import { CONSOLE_DIST } from '../src/web/console.js';
import { DEFAULT_CATALOG_DIR } from '../src/catalog/load-catalog.js';

const dist = (file: string) => path.join(repoRoot, 'packages/server/dist', file);
const sqlFiles = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.sql'));

test('a build is redone only when a source is newer than it, and keeps the migrations and the module layout', async () => {
  await ensureBuilt();
  assert.equal(isStale('server'), false);
  assert.equal(isStale('sandbox'), false);
  // An output older than its sources is stale (sources are never touched here: the output is dated back).
  const entry = path.join(repoRoot, SERVICE_ENTRY);
  const { atime, mtime } = fs.statSync(entry);
  fs.utimesSync(entry, atime, new Date(0));
  try {
    assert.equal(isStale('server'), true);
  } finally {
    fs.utimesSync(entry, atime, mtime);
  }
  await ensureBuilt();

  assert.deepEqual(sqlFiles(dist('store/migrations')), sqlFiles(path.join(repoRoot, 'packages/server/src/store/migrations')));
  // Paths resolved from import.meta.url land where the sources' do: every module keeps its place under dist/.
  const built = {
    console: ((await import(dist('web/console.js'))) as { CONSOLE_DIST: string }).CONSOLE_DIST,
    catalog: ((await import(dist('catalog/load-catalog.js'))) as { DEFAULT_CATALOG_DIR: string }).DEFAULT_CATALOG_DIR,
  };
  assert.deepEqual(built, { console: CONSOLE_DIST, catalog: DEFAULT_CATALOG_DIR });
});

test('plain node runs the built service and its built sandbox, and no TypeScript module is loaded', async (t) => {
  await ensureBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-built-'));
  const modulesOut = path.join(dataDir, 'modules.txt');
  const port = await freePort();
  // Its own sandbox (in process) and embedded store, as `npm start` from a fresh clone runs it.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_LOG_LEVEL: 'warn',
    MODULES_OUT: modulesOut,
  };
  const probe = path.join(repoRoot, 'packages/server/test/fixtures/loaded-modules.mjs');
  const svc = startService(env, { run: 'built', nodeArgs: ['--import', probe] });
  t.after(async () => {
    await stopService(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(base, svc, 120_000);

  const health = (await (await fetch(`${base}/api/health`)).json()) as { store: string; cloud: string; sandbox?: { admin: string } };
  assert.equal(health.store, 'pglite');
  assert.equal(health.cloud, 'sandbox');
  assert.match(health.sandbox?.admin ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
  assert.equal(doc.openapi, '3.1.0');
  assert.ok(doc.paths['/api/apps/{appId}/install'], 'the document has the install route');
  // The catalog is read from the repository and the seeded local admin token works (the migrations ran).
  const token = fs.readFileSync(path.join(dataDir, 'local-admin-token'), 'utf8').trim();
  const apps = await fetch(`${base}/api/apps`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(apps.status, 200);
  assert.ok(((await apps.json()) as { apps: unknown[] }).apps.length > 0, 'the catalog has apps');

  await stopService(svc);
  assert.equal(svc.child.exitCode, 0, svc.output());
  const modules = fs.readFileSync(modulesOut, 'utf8').split('\n').filter(Boolean);
  assert.ok(
    modules.some((m) => m.endsWith('/packages/server/dist/main.js')),
    'the built service ran',
  );
  assert.ok(
    modules.some((m) => m.endsWith('/packages/sandbox/dist/index.js')),
    'the built sandbox ran',
  );
  const typescript = modules.filter((m) => /\.[cm]?ts$|\/node_modules\/(tsx|typescript|esbuild)\//.test(m));
  assert.deepEqual(typescript, [], 'no TypeScript source, loader or compiler was loaded');
});

test('npm start and the deployment template run the built service with the same node options', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.start, ['node', ...SERVICE_NODE_OPTIONS, 'scripts/start.mjs'].join(' '));
  assert.equal(pkg.scripts.build, 'node scripts/build.mjs', 'App Service runs `npm run build` once at deployment');
  const command = ['node', ...SERVICE_NODE_OPTIONS, SERVICE_ENTRY].join(' ');
  for (const file of ['main.json', 'main.bicep']) {
    const text = fs.readFileSync(path.join(repoRoot, 'infra', file), 'utf8');
    assert.match(text, /appCommandLine["']?: ["']([^"']+)["']/);
    assert.equal(/appCommandLine["']?: ["']([^"']+)["']/.exec(text)![1], command, `${file} starts the built service`);
  }
});
