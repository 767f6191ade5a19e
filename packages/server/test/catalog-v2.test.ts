// The version-2 fixture catalog the upgrade tests install over the shipped app: one shipped app at a newer version,
// with one live item changed, one live item added and one stored-only item removed (fixtures/catalog-v2/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import type { CuratedApp } from '../src/catalog/types.js';
import { jsonEqual, merge3 } from '../src/lifecycle/merge3.js';
import { CATALOG_V2_DIR } from './catalog-v2-fixture.js';

const v2 = loadCatalog(CATALOG_V2_DIR);
const shipped = loadCatalog();

/** -1, 0 or 1 as semantic version `a` is older than, the same as, or newer than `b`. */
function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (pa![i] !== pb![i]) return pa![i]! < pb![i]! ? -1 : 1;
  return 0;
}

const keys = (app: CuratedApp) => new Set(app.items.map((i) => i.key));
const edge = (e: { from: string; to: string; kind: string }) => `${e.from} -${e.kind}-> ${e.to}`;

test('the fixture holds one app, a newer version of a shipped app', () => {
  assert.deepEqual(
    v2.apps.map((a) => a.id),
    ['app-lakehouse-inspector'],
  );
  const next = v2.apps[0]!;
  const installed = shipped.get(next.id);
  assert.ok(installed, 'the shipped catalog has the app');
  assert.equal(installed.version, '1.0.0');
  assert.equal(next.version, '1.1.0');
  assert.equal(compareVersions(next.version, installed.version), 1, 'the fixture is newer');
  assert.equal(compareVersions('1.0.10', '1.0.9'), 1, 'versions compare by number, not text');
});

test('one live item changed, one live item added, one stored-only item removed; the rest as shipped', () => {
  const next = v2.get('app-lakehouse-inspector')!;
  const installed = shipped.get('app-lakehouse-inspector')!;
  const added = [...keys(next)].filter((k) => !keys(installed).has(k));
  const removed = [...keys(installed)].filter((k) => !keys(next).has(k));
  const changed = next.items
    .filter((i) => keys(installed).has(i.key))
    .filter((i) => !jsonEqual(i.content, installed.items.find((o) => o.key === i.key)!.content))
    .map((i) => i.key);
  assert.deepEqual(added, ['freshness-notebook']);
  assert.deepEqual(removed, ['growth-report']);
  assert.deepEqual(changed, ['profile-notebook']);

  const item = (app: CuratedApp, key: string) => app.items.find((i) => i.key === key)!;
  assert.equal(item(next, 'freshness-notebook').provisioning, 'live');
  assert.equal(item(next, 'freshness-notebook').itemType, 'notebook');
  assert.equal(item(installed, 'growth-report').provisioning, 'stored');
  assert.equal(item(next, 'profile-notebook').provisioning, 'live');
  for (const i of next.items.filter((x) => x.key !== 'freshness-notebook')) {
    const before = item(installed, i.key);
    assert.deepEqual([i.itemType, i.displayName, i.description], [before.itemType, before.displayName, before.description], i.key);
  }
});

test('the changed notebook only gains a cell, so an unedited item upgrades to it with no conflict', () => {
  const base = shipped.get('app-lakehouse-inspector')!.items.find((i) => i.key === 'profile-notebook')!.content as {
    cells: unknown[];
  };
  const theirs = v2.get('app-lakehouse-inspector')!.items.find((i) => i.key === 'profile-notebook')!.content as { cells: unknown[] };
  assert.equal(theirs.cells.length, base.cells.length + 1);
  assert.deepEqual(theirs.cells.slice(0, -1), base.cells, 'the shipped cells are unchanged');
  assert.deepEqual({ ...theirs, cells: base.cells }, base, 'nothing but the cells differs');
  assert.deepEqual(merge3(base, base, theirs), { merged: theirs, conflicts: [] });
  const edited = { ...base, cells: [...base.cells.slice(0, -1), { kind: 'code', source: 'display(1)' }] };
  assert.deepEqual(
    merge3(base, edited, theirs).conflicts.map((c) => c.path),
    ['/cells'],
    'a user edit of a cell conflicts with the added cell',
  );
});

test('edges follow the items: the removed item has none, the added one has its own', () => {
  const next = v2.get('app-lakehouse-inspector')!.edges.map(edge);
  const before = shipped.get('app-lakehouse-inspector')!.edges.map(edge);
  assert.deepEqual(
    next.filter((e) => !before.includes(e)),
    ['freshness-notebook -reads-from-> inspector-lakehouse'],
  );
  assert.deepEqual(
    before.filter((e) => !next.includes(e)),
    ['growth-report -visualizes-> inspector-lakehouse'],
  );
});
