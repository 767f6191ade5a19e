// The item type registry: one descriptor per type, and what the catalog, the install runner and the plan derive from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { callMatches, planText, type PlannedCall } from '../src/item-types/calls.js';
import { edgeRules, ITEM_TYPE_IDS, ITEM_TYPES, itemTypeOf, provisionerOf, validationOrder } from '../src/item-types/index.js';
import { LakehouseContent } from '../src/item-types/lakehouse.js';
import type { ProvisionContext } from '../src/provisioning/context.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

const catalog = loadCatalog();
const sorted = (ids: readonly string[]) => [...ids].sort();

test('every type has one descriptor: a live one names its backing service and its calls for every catalog item, a stored one neither', () => {
  assert.equal(new Set(ITEM_TYPE_IDS).size, ITEM_TYPES.length);
  const live = ITEM_TYPES.filter((t) => t.provision).map((t) => t.id);
  assert.deepEqual(live, [
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
  ]);
  for (const app of catalog.apps) {
    for (const item of app.items) {
      const type = itemTypeOf(item.itemType);
      if (!type.provision) {
        assert.equal(type.backing, undefined, item.itemType);
        continue;
      }
      const calls = type.calls(item.content);
      assert.ok(calls.length > 0 && calls.some((c) => !c.when), `${app.id} ${item.key}: ${planText(calls)}`);
      assert.ok(
        calls.every((c) => c.times === undefined || (Number.isInteger(c.times) && c.times > 0)),
        `${app.id} ${item.key}: ${planText(calls)}`,
      );
    }
  }
});

test('the edge rules are the product of the edge ends each type declares', () => {
  const STORES = ['lakehouse', 'warehouse', 'kql-database', 'eventhouse', 'search-index', 'mirrored-database'];
  const rules = edgeRules();
  assert.deepEqual(sorted(rules.runs.from), ['data-pipeline']);
  assert.deepEqual(sorted(rules.runs.to), ['data-pipeline', 'notebook']);
  assert.deepEqual(sorted(rules.feeds.from), sorted(['notebook', 'data-pipeline', 'eventstream', 'dataflow-spec', ...STORES]));
  assert.deepEqual(sorted(rules.feeds.to), sorted(STORES));
  assert.deepEqual(
    sorted(rules['reads-from'].from),
    sorted([
      'semantic-model',
      'notebook',
      'kql-queryset',
      'warehouse',
      'data-pipeline',
      'search-index',
      'dataflow-spec',
      'prompt-flow',
      'data-agent',
      'data-product',
      'scorecard',
      'dashboard',
      'power-bi-report',
    ]),
  );
  assert.deepEqual(sorted(rules['reads-from'].to), sorted([...STORES, 'eventstream', 'semantic-model', 'kql-queryset']));
  assert.deepEqual(sorted(rules.visualizes.from), sorted(['report', 'power-bi-report', 'dashboard', 'kql-dashboard', 'scorecard']));
  assert.deepEqual(
    sorted(rules.visualizes.to),
    sorted(['semantic-model', 'kql-database', 'eventhouse', 'lakehouse', 'warehouse', 'kql-queryset', 'search-index']),
  );
  assert.deepEqual(sorted(rules['triggers-on'].from), ['activator']);
  assert.deepEqual(sorted(rules['triggers-on'].to), sorted(['kql-database', 'eventhouse', 'eventstream', 'lakehouse', 'search-index']));
});

test('the catalog validates each type after the types its checks read, and the stored-only types last', () => {
  const order = validationOrder().map((t) => t.id);
  assert.deepEqual(sorted(order), sorted(ITEM_TYPE_IDS));
  for (const t of ITEM_TYPES)
    for (const before of t.validatesAfter ?? []) assert.ok(order.indexOf(before) < order.indexOf(t.id), `${before} before ${t.id}`);
  const firstStored = order.findIndex((id) => !itemTypeOf(id).provision);
  assert.ok(
    order.slice(firstStored).every((id) => !itemTypeOf(id).provision),
    order.join(', '),
  );
  assert.ok(order.indexOf('semantic-model') < order.indexOf('report') && order.indexOf('lakehouse') < order.indexOf('warehouse'));
});

test('a request is a planned call when method and path shape agree, bound placeholders at their values, the query holding the planned parameters', () => {
  const list: PlannedCall = { service: 'data-platform', method: 'GET', path: '/workspaces/{ws}/items?type=Notebook' };
  assert.ok(callMatches(list, { method: 'GET', path: '/workspaces/w1/items?type=Notebook' }));
  assert.ok(
    callMatches(list, { method: 'GET', path: '/workspaces/w1/items?type=Notebook&continuationToken=abc' }),
    'other parameters may be added',
  );
  assert.ok(callMatches(list, { method: 'get', path: '/workspaces/w1/items?type=Notebook' }));
  assert.ok(!callMatches(list, { method: 'GET', path: '/workspaces/w1/items?type=Lakehouse' }));
  assert.ok(!callMatches(list, { method: 'GET', path: '/workspaces/w1/items' }));
  assert.ok(!callMatches(list, { method: 'POST', path: '/workspaces/w1/items?type=Notebook' }));
  assert.ok(!callMatches(list, { method: 'GET', path: '/workspaces/w1/x/items?type=Notebook' }), 'a placeholder is one segment');
  assert.ok(callMatches(list, { method: 'GET', path: '/workspaces/w1/items?type=Notebook' }, { ws: 'w1' }));
  assert.ok(!callMatches(list, { method: 'GET', path: '/workspaces/w2/items?type=Notebook' }, { ws: 'w1' }));

  const update: PlannedCall = { service: 'data-platform', method: 'POST', path: '/workspaces/{ws}/items/{id}/updateDefinition' };
  assert.ok(
    callMatches(update, { method: 'POST', path: '/workspaces/w1/items/i.1/updateDefinition' }, { ws: 'w1', id: 'i.1' }),
    'bound values are literal text',
  );
  assert.ok(!callMatches(update, { method: 'POST', path: '/workspaces/w1/items/ix1/updateDefinition' }, { ws: 'w1', id: 'i.1' }));

  const imp: PlannedCall = {
    service: 'reporting',
    method: 'POST',
    path: '/v1.0/myorg/groups/{ws}/imports?datasetDisplayName={name}.rdl&nameConflict=Abort',
  };
  assert.ok(
    callMatches(imp, { method: 'POST', path: '/v1.0/myorg/groups/g/imports?datasetDisplayName=Daily%20Floor.rdl&nameConflict=Abort' }),
    'query values compare decoded',
  );
  assert.ok(
    !callMatches(imp, { method: 'POST', path: '/v1.0/myorg/groups/g/imports?datasetDisplayName=Daily.rdl&nameConflict=Overwrite' }),
  );
  const filter: PlannedCall = {
    service: 'reporting',
    method: 'GET',
    path: "/v1.0/myorg/groups/{ws}/reports?$filter=reportType eq 'PaginatedReport'",
  };
  assert.ok(callMatches(filter, { method: 'GET', path: "/v1.0/myorg/groups/g/reports?$filter=reportType%20eq%20'PaginatedReport'" }));

  const folder: PlannedCall = { service: 'onelake', method: 'PUT', path: '/{ws}/{id}/Tables/{table}?resource=directory' };
  assert.ok(
    callMatches(folder, { method: 'PUT', path: '/w1/i1/Tables/floor%20sessions?resource=directory' }),
    'path segments compare decoded',
  );

  const batch: PlannedCall = { service: 'sql', method: 'BATCH', path: '/{database}/batch/{sql*}' };
  assert.ok(
    callMatches(batch, { method: 'BATCH', path: "/pool/batch/IF OBJECT_ID(N'[a].[b]', N'U') IS NULL\nCREATE TABLE a/b (x int) -- 50%?" }),
    'the rest placeholder takes the rest, as sent',
  );
  assert.ok(!callMatches(batch, { method: 'LOGIN', path: '/pool' }));
});

test('a provisioner reads another item’s content only through that item’s own schema', async () => {
  const app = catalog.get('app-iot-realtime')!;
  const dashboard = app.items.find((i) => i.itemType === 'kql-dashboard')!;
  const lake = catalog.apps.flatMap((a) => a.items).find((i) => i.itemType === 'lakehouse')!;
  const provision = provisionerOf('kql-dashboard', PLATFORM_PROFILE)!;
  const ctx = {
    app: { ...app, items: [...app.items, { ...lake, key: 'a-lakehouse' }] },
    item: dashboard,
    content: { ...(dashboard.content as object), database: 'a-lakehouse' },
    contentOf: () => lake.content,
    dependency: () => undefined,
    log: () => undefined,
  } as unknown as ProvisionContext;
  await assert.rejects(provision(ctx), /item 'a-lakehouse' is a lakehouse, whose content has another schema/);
  assert.equal(provisionerOf('dashboard', PLATFORM_PROFILE), undefined, 'a stored-only type has no provisioner');
  assert.equal(itemTypeOf('lakehouse').content, LakehouseContent);
});
