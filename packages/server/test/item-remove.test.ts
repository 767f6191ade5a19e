// Each live type's `remove` (issue 19's uninstall and deleteLive): apps are installed through the real service against
// the sandbox, then every live item's resource is removed in reverse install order. After each removal the resource
// reads back as gone, the app's other resources are still there, and the requests made are the calls the type declares;
// a second removal answers removed:false. A 403 on a delete raises the type's gate; a 500 passes the backing text on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackingError } from '../src/backends/http-pipeline.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { expandSeedTokens } from '../src/catalog/seed-tokens.js';
import type { CatalogItem, CuratedApp } from '../src/catalog/types.js';
import { GateError } from '../src/errors.js';
import { callMatches, type CallService } from '../src/item-types/calls.js';
import { liveItemType, plannerOf, provisionerOf, removerOf, type ItemTypeId } from '../src/item-types/index.js';
import type { ProvisionContext } from '../src/provisioning/context.js';
import { gate } from '../src/provisioning/gates.js';
import { installTarget, type ResolvedTarget } from '../src/provisioning/targets.js';
import type { StepResult } from '../src/install/types.js';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { buildWithSandbox, install, workspace, type Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';

const catalog = loadCatalog();
const appOf = (id: string) => catalog.apps.find((a) => a.id === id)!;

/** The sandbox's services as the calls name them, each with the path its address starts with (as plan-calls.test.ts). */
function services(sandbox: Sandbox): Record<string, { service: CallService; base: string }> {
  const base = (url: string | undefined) => (url && /^[a-z]+:\/\//.test(url) ? new URL(url).pathname.replace(/\/$/, '') : '');
  return {
    dataPlatform: { service: 'data-platform', base: base(sandbox.env.SVC_DATA_PLATFORM_API_URL) },
    oneLake: { service: 'onelake', base: base(sandbox.env.SVC_ONELAKE_URL) },
    arm: { service: 'arm', base: base(sandbox.env.SVC_ARM_URL) },
    kql: { service: 'kql', base: base(sandbox.env.SVC_KQL_CLUSTER_URI) },
    search: { service: 'search', base: base(sandbox.env.SVC_SEARCH_SERVICE) },
    sql: { service: 'sql', base: '' },
    reporting: { service: 'reporting', base: base(sandbox.env.SVC_BI_API_URL) },
  };
}

/** A lifecycle context for one item, built the way the plan service builds one. */
function contextOf(
  h: TestApp,
  app: CuratedApp,
  item: CatalogItem,
  target: ResolvedTarget,
  results: Map<string, StepResult>,
  log: string[] = [],
): ProvisionContext {
  const now = new Date();
  const content = new Map(app.items.map((i) => [i.key, expandSeedTokens(i.content, now)]));
  return {
    app,
    item,
    content: content.get(item.key),
    storedItemId: '',
    target,
    profile: h.services.profile,
    backends: h.services.backends,
    log: (line) => log.push(line),
    dependency: (k) => results.get(k),
    contentOf: (k) => content.get(k),
  };
}

async function targetOf(h: TestApp, tenant: TestTenant) {
  return installTarget(h.services.tenancy, h.services.profile, { tenantId: tenant.tenantId, mode: 'shared', binding: null }, true);
}

/** Calls `remove` and checks the requests it made against the calls its type declares. */
async function removeChecked(sandbox: Sandbox, ctx: ProvisionContext, resourceId: string, ws: string) {
  const type = ctx.item.itemType;
  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const outcome = await removerOf(type)!.remove(ctx, resourceId);
  const declared = removerOf(type)!.calls(ctx.content);
  const byService = services(sandbox);
  for (const r of await sandbox.admin.requests({ since })) {
    if (r.service === 'identity') continue;
    const s = byService[r.service]!;
    const req = { method: r.method, path: r.path.slice(s.base.length) };
    // The sandbox's conformance checker matches the request against the published description (or its reference rule).
    const verdict = validate(r);
    assert.ok(
      ['described', 'reference'].includes(verdict.kind) && !verdict.problems.length,
      `${type}: ${r.method} ${r.path} ${r.text ?? ''}: ${verdict.kind} ${verdict.problems.join('; ')}`,
    );
    assert.ok(
      declared.some((c) => c.service === s.service && callMatches(c, req, { ws, id: resourceId })),
      `${type}: ${r.service} ${r.method} ${r.path} is not a call its removeCalls declare`,
    );
  }
  return outcome;
}

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
  for (const { item } of live) assert.ok(await plannerOf(item.itemType)!.readLive(ctxOf(item)), `${appId} ${item.key}: live after install`);

  const remaining = [...live];
  while (remaining.length) {
    const { item, resourceId } = remaining.pop()!;
    const before = (await sandbox.admin.state()).dataPlatform;
    const log: string[] = [];
    const ctx = contextOf(h, app, item, target, results, log);
    assert.deepEqual(await removeChecked(sandbox, ctx, resourceId, ws), { removed: true }, `${appId} ${item.key}: ${log.join('; ')}`);
    assert.equal(await plannerOf(item.itemType)!.readLive(ctxOf(item)), undefined, `${appId} ${item.key}: gone after remove`);
    // Nothing else of the app was touched, and a data-platform removal took exactly its own item.
    for (const other of remaining)
      assert.ok(
        await plannerOf(other.item.itemType)!.readLive(ctxOf(other.item)),
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
    const db = await provisionerOf('kql-database')!(contextOf(h, app, dbItem, target, results));
    results.set(dbItem.key, { ...db, steps: [] } as StepResult);
    const qs = await provisionerOf('kql-queryset')!(contextOf(h, app, queryset, target, results));
    assert.ok(await plannerOf('kql-queryset')!.readLive(contextOf(h, app, queryset, target, results)));
    const ctx = contextOf(h, app, queryset, target, results);
    const ws = target.platformWorkspaceId!;
    assert.deepEqual(await removeChecked(sandbox, ctx, qs.resourceId!, ws), { removed: true });
    assert.equal(await plannerOf('kql-queryset')!.readLive(ctx), undefined, 'the saved queries are gone');
    assert.ok(await plannerOf('kql-database')!.readLive(contextOf(h, app, dbItem, target, results)), 'its database stays');
    assert.deepEqual(await removeChecked(sandbox, ctx, qs.resourceId!, ws), { removed: false });
    seen.add('kql-queryset');
    // Its database removed: the queryset, whose database is gone, is already gone too.
    assert.deepEqual(await removerOf('kql-database')!.remove(contextOf(h, app, dbItem, target, results), db.resourceId!), {
      removed: true,
    });
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

test('a refused delete: 403 raises the type’s gate, 500 passes the backing service’s text on unmodified', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const job = await install(h, tenant, 'app-data-steward', { workspaceId: await workspace(h, tenant) });
  assert.equal(job.status, 'done', JSON.stringify(job.provision));
  const app = appOf('app-data-steward');
  const target = await targetOf(h, tenant);
  const results = new Map<string, StepResult>();
  const stepOf = (type: string) => job.provision.steps.find((s: any) => s.itemType === type);
  const ctxOf = (type: string) =>
    contextOf(h, app, app.items.find((i) => i.itemType === type && i.displayName === stepOf(type).displayName)!, target, results);

  await sandbox.admin.addFault({
    service: 'dataPlatform',
    method: 'DELETE',
    path: '/items/',
    status: 403,
    errorCode: 'InsufficientPrivileges',
  });
  const activator = stepOf('activator').result.resourceId;
  await assert.rejects(removerOf('activator')!.remove(ctxOf('activator'), activator), (err: unknown) => {
    assert.ok(err instanceof GateError, String(err));
    assert.equal(err.gate.reason, gate('data-platform-auth', h.services.profile).reason);
    return true;
  });
  await sandbox.admin.clearFaults();
  assert.ok(await plannerOf('activator')!.readLive(ctxOf('activator')), 'a refused delete changed nothing');

  const body = '{"error":{"code":"","message":"The index is busy: delete refused by the test."}}';
  await sandbox.admin.addFault({ service: 'search', method: 'DELETE', path: '/indexes', status: 500, body });
  const index = stepOf('search-index').result.resourceId;
  await assert.rejects(removerOf('search-index')!.remove(ctxOf('search-index'), index), (err: unknown) => {
    assert.ok(err instanceof BackingError && !(err instanceof GateError), String(err));
    assert.equal(err.status, 500);
    assert.equal(err.body, body, 'the backing text, unmodified');
    return true;
  });
  await sandbox.admin.clearFaults();
  assert.ok(await plannerOf('search-index')!.readLive(ctxOf('search-index')), 'the index is still there');
  assert.deepEqual(await removerOf('search-index')!.remove(ctxOf('search-index'), index), { removed: true });
  assert.deepEqual(await removerOf('activator')!.remove(ctxOf('activator'), activator), { removed: true });
});
