// Each live type's `remove` (issue 19's uninstall and deleteLive): apps are installed through the real service against
// the sandbox, then every live item's resource is removed in reverse install order. After each removal the resource
// reads back as gone, the app's other resources are still there, and the requests made are the calls the type declares
// (each accepted by the sandbox's conformance checker); a second removal answers removed:false.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem, CuratedApp } from '../src/catalog/types.js';
import type { StepResult } from '../src/install/types.js';
import { ITEM_TYPE_IDS, liveItemType, plannerOf, provisionerOf, removerOf, type ItemTypeId } from '../src/item-types/index.js';
import { buildWithSandbox, install, workspace, type Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { appOf, contextOf, removeChecked, targetOf } from './remove-helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

/** Installs an app, then removes each live item (dependants first), checking what is gone and what stays. */
async function installAndRemove(h: TestApp, sandbox: Sandbox, tenant: TestTenant, appId: string, seen: Set<string>) {
  const job = await install(h, tenant, appId, { workspaceId: await workspace(h, tenant, `${appId}-remove`) });
  assert.equal(job.status, 'done', `${appId}: ${JSON.stringify(job.provision)}`);
  const app = appOf(appId);
  const target = await targetOf(h, tenant);
  const ws = job.provision.target.platformWorkspaceId as string;
  const results = new Map<string, StepResult>();
  const live = job.provision.steps
    .filter((s: any) => liveItemType(s.itemType))
    .map((s: any) => {
      const item = app.items.find((i) => i.itemType === s.itemType && i.displayName === s.displayName)!;
      results.set(item.key, s.result);
      return { item, resourceId: s.result.resourceId as string };
    });
  const ctxOf = (item: CatalogItem) => contextOf(h, app, item, target, results);
  for (const { item } of live)
    assert.ok(await plannerOf(item.itemType, PLATFORM_PROFILE)!.readLive(ctxOf(item)), `${appId} ${item.key}: live after install`);

  const remaining = [...live];
  while (remaining.length) {
    const { item, resourceId } = remaining.pop()!;
    const before = (await sandbox.admin.state()).dataPlatform;
    const log: string[] = [];
    const ctx = contextOf(h, app, item, target, results, log);
    assert.deepEqual(await removeChecked(sandbox, ctx, resourceId, ws), { removed: true }, `${appId} ${item.key}: ${log.join('; ')}`);
    assert.equal(
      await plannerOf(item.itemType, PLATFORM_PROFILE)!.readLive(ctxOf(item)),
      undefined,
      `${appId} ${item.key}: gone after remove`,
    );
    // Nothing else of the app was touched, and a data-platform removal took exactly its own item.
    for (const other of remaining)
      assert.ok(
        await plannerOf(other.item.itemType, PLATFORM_PROFILE)!.readLive(ctxOf(other.item)),
        `${appId}: ${other.item.key} kept when ${item.key} went`,
      );
    const after = (await sandbox.admin.state()).dataPlatform;
    const ids = (s: typeof before) => s.workspaces.flatMap((w: any) => w.items.map((i: any) => i.id as string));
    const gone = ids(before).filter((id) => !ids(after).includes(id));
    if (liveItemType(item.itemType as ItemTypeId)!.backing === 'data-platform')
      assert.deepEqual(gone, [resourceId], `${appId} ${item.key}`);
    else if (item.itemType !== 'kql-database' && item.itemType !== 'eventhouse') assert.deepEqual(gone, [], `${appId} ${item.key}`);
    // Removed again: already gone, no error.
    assert.deepEqual(await removeChecked(sandbox, ctx, resourceId, ws), { removed: false }, `${appId} ${item.key} again`);
    seen.add(item.itemType);
  }
  return { app, target, results };
}

test(
  'every live type removes its resource, leaves the rest, and answers removed:false once it is gone',
  { timeout: 600_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const seen = new Set<string>();
    for (const appId of [
      'app-casino-analytics',
      'app-iot-realtime',
      'app-healthcare-popmgt',
      'app-pipeline-designer',
      'app-mirror-onboard',
    ])
      await installAndRemove(h, sandbox, tenant, appId, seen);

    // No catalog app has a KQL queryset: one is provisioned over a KQL database of its own, removed, and the database stays.
    const base = appOf('app-finops-cost');
    const dbItem = base.items.find((i) => i.itemType === 'kql-database')!;
    const table = (dbItem.content as { tables: Array<{ name: string }> }).tables[0]!.name;
    const queryset: CatalogItem = {
      ...dbItem,
      key: 'saved-queries',
      itemType: 'kql-queryset',
      displayName: 'Saved queries',
      content: { database: dbItem.key, queries: [{ name: 'latest rows', text: `${table} | take 5` }] },
    };
    const app: CuratedApp = { ...base, items: [dbItem, queryset] };
    const target = await targetOf(h, tenant);
    const results = new Map<string, StepResult>();
    const db = await provisionerOf('kql-database', PLATFORM_PROFILE)!(contextOf(h, app, dbItem, target, results));
    results.set(dbItem.key, { ...db, steps: [] } as StepResult);
    const qs = await provisionerOf('kql-queryset', PLATFORM_PROFILE)!(contextOf(h, app, queryset, target, results));
    assert.ok(await plannerOf('kql-queryset', PLATFORM_PROFILE)!.readLive(contextOf(h, app, queryset, target, results)));
    const ctx = contextOf(h, app, queryset, target, results);
    const ws = target.platformWorkspaceId!;
    assert.deepEqual(await removeChecked(sandbox, ctx, qs.resourceId!, ws), { removed: true });
    assert.equal(await plannerOf('kql-queryset', PLATFORM_PROFILE)!.readLive(ctx), undefined, 'the saved queries are gone');
    assert.ok(
      await plannerOf('kql-database', PLATFORM_PROFILE)!.readLive(contextOf(h, app, dbItem, target, results)),
      'its database stays',
    );
    assert.deepEqual(await removeChecked(sandbox, ctx, qs.resourceId!, ws), { removed: false });
    seen.add('kql-queryset');
    // Its database removed: the queryset, whose database is gone, is already gone too.
    assert.deepEqual(
      await removerOf('kql-database', PLATFORM_PROFILE)!.remove(contextOf(h, app, dbItem, target, results), db.resourceId!),
      {
        removed: true,
      },
    );
    assert.deepEqual(await removeChecked(sandbox, ctx, qs.resourceId!, ws), { removed: false });

    for (const type of [
      'notebook',
      'lakehouse',
      'warehouse',
      'kql-database',
      'kql-queryset',
      'eventhouse',
      'search-index',
      'semantic-model',
      'activator',
      'data-pipeline',
      'eventstream',
      'report',
      'kql-dashboard',
      'mirrored-database',
    ])
      assert.ok(seen.has(type), `${type} was removed by this test`);
  },
);

test('the data stores an uninstall keeps unless told to purge data are the types that say they hold data', () => {
  const live = ITEM_TYPE_IDS.filter((id) => removerOf(id, PLATFORM_PROFILE));
  const holding = live.filter((id) => removerOf(id, PLATFORM_PROFILE)!.holdsData);
  assert.deepEqual(holding.sort(), ['eventhouse', 'kql-database', 'lakehouse', 'mirrored-database', 'search-index', 'warehouse']);
  assert.equal(live.length, 14);
  for (const id of ITEM_TYPE_IDS) if (!liveItemType(id)) assert.equal(removerOf(id, PLATFORM_PROFILE), undefined, `${id} is stored only`);
});
