// SVC_CATALOG_DIR: the service serves the catalog of the folder it names (the shipped one when unset), and a missing
// folder or a broken app in it stops the start with an error naming the setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildApp } from '../src/app.js';
import { configuredCatalog } from '../src/catalog/configured-catalog.js';
import { DEFAULT_CATALOG_DIR } from '../src/catalog/load-catalog.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { openStore } from '../src/store/db.js';
import { CATALOG_V2_DIR } from './catalog-v2-fixture.js';
import { build } from './helpers.js';

const APP = 'app-lakehouse-inspector';
const namesSetting = (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_CATALOG_DIR';

/** A temporary catalog holding the fixture app with `file` edited, removed when the test ends. */
function brokenCatalog(t: { after(fn: () => void): void }, file: string, edit: (json: any) => unknown): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-catalog-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  cpSync(join(CATALOG_V2_DIR, APP), join(root, APP), { recursive: true });
  const path = join(root, APP, file);
  writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')))));
  return root;
}

test('SVC_CATALOG_DIR: unset is the shipped catalog; a folder is resolved; a missing folder or a file is refused', (t) => {
  assert.equal(loadConfig({}).catalog.dir, undefined);
  assert.equal(loadConfig({ SVC_CATALOG_DIR: relative(process.cwd(), CATALOG_V2_DIR) }).catalog.dir, CATALOG_V2_DIR);
  const root = mkdtempSync(join(tmpdir(), 'svc-catalog-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'app.json'), '{}');
  for (const bad of [join(root, 'no-such-folder'), join(root, 'app.json')]) {
    assert.throws(
      () => loadConfig({ SVC_CATALOG_DIR: bad }),
      (e: unknown) => namesSetting(e) && (e as Error).message === `SVC_CATALOG_DIR: must be an existing directory, got "${bad}"`,
      bad,
    );
  }
  assert.equal(configuredCatalog(undefined).apps.length, configuredCatalog(DEFAULT_CATALOG_DIR).apps.length);
  assert.ok(configuredCatalog(undefined).apps.length >= 10, 'unset: every shipped app');
});

test('a broken app in the configured folder is a ConfigError naming the setting, the folder, the app and the item', (t) => {
  const dir = brokenCatalog(t, 'items/freshness-notebook.json', (nb) => ({ ...nb, lakehouse: 'no-such-lakehouse' }));
  assert.throws(
    () => configuredCatalog(dir),
    (e: unknown) => {
      assert.ok(namesSetting(e), String(e));
      const text = (e as Error).message;
      assert.ok(text.startsWith(`SVC_CATALOG_DIR: folder ${dir}: catalog app '${APP}', item 'freshness-notebook': `), text);
      assert.match(text, /no-such-lakehouse/);
      return true;
    },
  );
  const empty = mkdtempSync(join(tmpdir(), 'svc-catalog-'));
  t.after(() => rmSync(empty, { recursive: true, force: true }));
  assert.throws(
    () => configuredCatalog(empty),
    (e: unknown) => namesSetting(e) && /holds no apps/.test((e as Error).message),
  );
});

test('the start fails on a broken configured catalog, naming the setting', async (t) => {
  const dir = brokenCatalog(t, 'app.json', (m) => ({ ...m, version: 'next' }));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ SVC_LOG_LEVEL: 'silent', ...process.env, SVC_DATA_DIR: dataDir, SVC_CATALOG_DIR: dir });
  const store = await openStore(config.store);
  try {
    await assert.rejects(buildApp({ config, store, logger: false, worker: false }), (e: unknown) => {
      assert.ok(namesSetting(e), String(e));
      assert.match((e as Error).message, /app\.json\/version/);
      return true;
    });
  } finally {
    await store.close();
  }
});

test('the service serves the configured catalog: the fixture app at version 1.1.0, and nothing else', async (t) => {
  const h = await build(t, { SVC_CATALOG_DIR: CATALOG_V2_DIR });
  const { auth } = await h.tenant(['read']);
  const list = await h.app.inject({ method: 'GET', url: '/api/apps', headers: auth });
  assert.equal(list.statusCode, 200, list.body);
  assert.deepEqual(
    list.json().apps.map((a: { id: string; version: string }) => [a.id, a.version]),
    [[APP, '1.1.0']],
  );
  const one = await h.app.inject({ method: 'GET', url: `/api/apps/${APP}`, headers: auth });
  assert.equal(one.statusCode, 200, one.body);
  const itemKeys = one.json().app.items.map((i: { key: string }) => i.key);
  assert.ok(itemKeys.includes('freshness-notebook') && !itemKeys.includes('growth-report'), itemKeys.join(','));
  const shippedOnly = await h.app.inject({ method: 'GET', url: '/api/apps/app-rag-builder', headers: auth });
  assert.equal(shippedOnly.statusCode, 404, 'a shipped app outside the configured folder is not served');
});
