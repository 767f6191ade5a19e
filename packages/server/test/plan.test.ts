// The install's dry run through the real service against the sandbox: before an install every live item is `create` and
// the backing services received reads only (each one a read its item declares); after the install, `no-change`; after a
// change made outside the service, `update` with a diff; without a platform workspace, `blocked` with the gate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { callMatches, type CallService, type PlannedCall } from '../src/item-types/calls.js';
import { liveItemType } from '../src/item-types/index.js';
import { buildWithSandbox, install, workspace, type Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';

const catalog = loadCatalog();
type Request = { seq: number; service: string; method: string; path: string; text?: string };
type PlanItem = {
  key: string;
  itemType: string;
  displayName: string;
  action: string;
  diff?: string;
  gate?: { reason: string };
  resourceId?: string;
};

async function plan(h: TestApp, tenant: TestTenant, appId: string, body: Record<string, unknown>) {
  const r = await h.app.inject({ method: 'POST', url: `/api/apps/${appId}/plan`, headers: tenant.auth, payload: body });
  assert.equal(r.statusCode, 200, r.body);
  return r.json().plan as { appId: string; version: string; items: PlanItem[] };
}

/** The sandbox's services as the read calls name them, each with the path its address starts with. */
function services(sb: Sandbox): Record<string, { service: CallService; base: string }> {
  const base = (url: string | undefined) => (url && /^[a-z]+:\/\//.test(url) ? new URL(url).pathname.replace(/\/$/, '') : '');
  return {
    dataPlatform: { service: 'data-platform', base: base(sb.env.SVC_DATA_PLATFORM_API_URL) },
    oneLake: { service: 'onelake', base: base(sb.env.SVC_ONELAKE_URL) },
    arm: { service: 'arm', base: base(sb.env.SVC_ARM_URL) },
    kql: { service: 'kql', base: base(sb.env.SVC_KQL_CLUSTER_URI) },
    search: { service: 'search', base: base(sb.env.SVC_SEARCH_SERVICE) },
    sql: { service: 'sql', base: '' },
    reporting: { service: 'reporting', base: base(sb.env.SVC_BI_API_URL) },
    synapse: { service: 'synapse', base: base(sb.env.SVC_SYNAPSE_DEV_URL) },
  };
}

/** Whether a request changes nothing: a GET, a sign-in, or a POST the real API defines as a read. */
function isRead(r: Request): boolean {
  if (r.method === 'GET' || r.method === 'LOGIN') return true;
  // The driver's sign-in sets its session options (SET …) in a batch of their own; every other batch is a SELECT.
  if (r.service === 'sql')
    return r.method === 'BATCH' && (/^\s*SELECT\b/i.test(r.text ?? '') || /^(\s*set [a-z_ ]+[^\n;]*\s*)+$/i.test(r.text ?? ''));
  if (r.service === 'kql') return r.method === 'POST' && /\/v1\/rest\/mgmt$/.test(r.path) && /^\s*\.show\b/.test(r.text ?? '');
  return r.service === 'dataPlatform' && r.method === 'POST' && /\/items\/[^/]+\/getDefinition(\?.*)?$/.test(r.path);
}

/** The requests the backing services answered since `since`, identity tokens aside. */
async function requestsSince(sb: Sandbox, since: number): Promise<Request[]> {
  return ((await sb.admin.requests({ since })) as Request[]).filter((r) => r.service !== 'identity');
}

/** Plans `appId` into a new workspace before any install: every live item is create, and only declared reads were made. */
async function planFresh(h: TestApp, sb: Sandbox, tenant: TestTenant, appId: string, workspaceId: string) {
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const fresh = await plan(h, tenant, appId, { workspaceId });
  const app = catalog.get(appId)!;
  assert.equal(fresh.version, app.version);
  for (const item of fresh.items) {
    const live = liveItemType(app.items.find((i) => i.key === item.key)!.itemType);
    assert.equal(item.action, live ? 'create' : 'stored', `${appId} ${item.key}: ${JSON.stringify(item)}`);
  }
  const byService = services(sb);
  const reads = app.items.flatMap((i) => liveItemType(i.itemType)?.readCalls(i.content) ?? []) as PlannedCall[];
  for (const r of await requestsSince(sb, since)) {
    assert.ok(isRead(r), `${appId}: the plan made ${r.service} ${r.method} ${r.path} ${r.text ?? ''}, which is not a read`);
    const s = byService[r.service]!;
    const request = { method: r.method, path: r.path.slice(s.base.length) };
    assert.ok(
      reads.some((c) => c.service === s.service && callMatches(c, request)),
      `${appId}: the plan made ${r.service} ${r.method} ${r.path}, which no item's readCalls names`,
    );
  }
}

const APPS = catalog.apps.map((a) => a.id);

test('plan before an install: create for every live item, reads only; after it: no-change', { timeout: 600_000 }, async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  for (const appId of APPS) {
    const workspaceId = await workspace(h, tenant, `plan-${appId}`);
    await planFresh(h, sandbox, tenant, appId, workspaceId);
    const job = await install(h, tenant, appId, { workspaceId });
    assert.equal(job.status, 'done', `${appId}: ${JSON.stringify(job.provision)}`);
    const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
    const again = await plan(h, tenant, appId, { workspaceId });
    for (const item of again.items.filter((i) => i.action !== 'stored'))
      assert.equal(item.action, 'no-change', `${appId} ${item.key}: ${item.diff ?? JSON.stringify(item)}`);
    for (const r of await requestsSince(sandbox, since)) assert.ok(isRead(r), `${appId}: ${r.service} ${r.method} ${r.path} is not a read`);
  }
});

/** A backing call made by another client of the sandbox (its own HTTP API, a token of its own), not by the service. */
async function asAnotherClient(sb: Sandbox, audience: string, method: string, url: string, body: unknown) {
  const token = await sb.admin.token({ audience });
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${await res.clone().text()}`);
  for (let location = res.headers.get('location'); res.status === 202 && location; ) {
    const op = await fetch(location, { headers: { authorization: `Bearer ${token}` } });
    const state = (await op.json()).status;
    if (state === 'Succeeded') break;
    assert.notEqual(state, 'Failed', `${url}: the operation failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('plan after changes made outside the service: update with a unified diff of the changed part', { timeout: 300_000 }, async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const appId = 'app-fedramp-tracker';
  const workspaceId = await workspace(h, tenant, 'plan-drifted');
  const job = await install(h, tenant, appId, { workspaceId });
  assert.equal(job.status, 'done', JSON.stringify(job.provision));
  const step = (type: string) => job.provision.steps.find((s: any) => s.itemType === type).result;
  const ws = step('notebook').secondaryIds.platformWorkspaceId;

  // Another client rewrites the notebook's source and adds a field to the search index.
  const source = '# Fabric notebook source\n\n# CELL ********************\n\nprint("edited by another client")\n';
  const definition = {
    parts: [{ path: 'notebook-content.py', payload: Buffer.from(source).toString('base64'), payloadType: 'InlineBase64' }],
  };
  const api = sandbox.env.SVC_DATA_PLATFORM_API_URL;
  await asAnotherClient(sandbox, 'dataPlatform', 'POST', `${api}/workspaces/${ws}/items/${step('notebook').resourceId}/updateDefinition`, {
    definition,
  });
  const index = (catalog.get(appId)!.items.find((i) => i.itemType === 'search-index')!.content as any).index;
  const search = `${sandbox.env.SVC_SEARCH_SERVICE}/indexes/${index.name}?api-version=2024-07-01`;
  await asAnotherClient(sandbox, 'search', 'PUT', search, {
    ...index,
    fields: [...index.fields, { name: 'addedOutside', type: 'Edm.String' }],
  });

  const after = await plan(h, tenant, appId, { workspaceId });
  const byType = (type: string) => after.items.find((i) => i.itemType === type)!;
  const nb = byType('notebook');
  assert.equal(nb.action, 'update', JSON.stringify(nb));
  assert.equal(nb.resourceId, step('notebook').resourceId);
  assert.match(nb.diff!, /^--- live\/notebook-content\.py\n\+\+\+ install\/notebook-content\.py\n@@ /);
  assert.match(nb.diff!, /^-print\("edited by another client"\)$/m, 'the live line the install would replace');
  assert.match(nb.diff!, /^\+# CELL \*+$/m, 'the lines the install would send');
  const si = byType('search-index');
  assert.equal(si.action, 'update', JSON.stringify(si));
  assert.match(si.diff!, /^--- live\/field addedOutside\n\+\+\+ \/dev\/null\n@@ -1,\d+ \+0,0 @@\n-\{/);
  for (const item of after.items.filter((i) => !['notebook', 'search-index', 'scorecard'].includes(i.itemType)))
    assert.equal(item.action, 'no-change', `${item.key}: ${item.diff ?? JSON.stringify(item)}`);
});

test('plan without a platform workspace: blocked with the install gate; the install body is validated as install validates it', async (t) => {
  const { h } = await buildWithSandbox(t);
  const bare = await h.tenant();
  const workspaceId = await workspace(h, bare, 'plan-unbound');
  const blocked = await plan(h, bare, 'app-lakehouse-inspector', { workspaceId });
  for (const item of blocked.items) {
    if (item.action === 'stored') continue;
    assert.equal(item.action, 'blocked', JSON.stringify(item));
    assert.equal(item.gate?.reason, 'no bound platform workspace');
  }
  const stored = await plan(h, bare, 'app-lakehouse-inspector', { workspaceId, deploy: false });
  assert.ok(
    stored.items.every((i) => i.action === 'stored'),
    'deploy false: stored only, no backing call',
  );

  const post = (appId: string, payload: unknown, who = bare) =>
    h.app.inject({ method: 'POST', url: `/api/apps/${appId}/plan`, headers: who.auth, payload: payload as object });
  let r = await post('app-nope', { workspaceId });
  assert.equal(r.statusCode, 404, r.body);
  r = await post('app-lakehouse-inspector', {});
  assert.equal(r.statusCode, 400, r.body);
  assert.match(r.json().error.message, /workspaceId/);
  r = await post('app-lakehouse-inspector', { workspaceId, targetOverrides: { kqlDatabase: 'x' } });
  assert.equal(r.statusCode, 400, r.body);
  assert.match(r.json().error.message, /targetOverrides/);
  const other = await h.tenant();
  r = await post('app-lakehouse-inspector', { workspaceId }, other);
  assert.equal(r.statusCode, 404, 'another tenant’s workspace is unknown');
  const reader = await bare.token2(['read']);
  r = await h.app.inject({ method: 'POST', url: '/api/apps/app-lakehouse-inspector/plan', headers: reader.auth, payload: { workspaceId } });
  assert.equal(r.statusCode, 403, r.body);
});

test('plan when the service identity lost its grant: blocked with the data platform gate, nothing changed', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const workspaceId = await workspace(h, tenant, 'plan-revoked');
  await sandbox.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const blocked = await plan(h, tenant, 'app-lakehouse-inspector', { workspaceId });
  for (const item of blocked.items.filter((i) => i.action !== 'stored')) {
    assert.equal(item.action, 'blocked', JSON.stringify(item));
    assert.equal(item.gate?.reason, 'data platform 401/403');
  }
  for (const r of await requestsSince(sandbox, since)) assert.ok(isRead(r), `${r.service} ${r.method} ${r.path} is not a read`);
});

test('plan of a mirrored database whose connection is missing: blocked with the connection gate, the others still planned', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  assert.equal(await sandbox.admin.removeConnection('sql-hr-prod'), true);
  const workspaceId = await workspace(h, tenant, 'plan-mirror');
  const result = await plan(h, tenant, 'app-mirror-onboard', { workspaceId });
  const hr = result.items.find((i) => i.displayName === 'HrMirror')!;
  assert.equal(hr.action, 'blocked', JSON.stringify(hr));
  assert.equal(hr.gate?.reason, "the data platform has no connection 'sql-hr-prod'");
  const others = result.items.filter((i) => i.itemType === 'mirrored-database' && i !== hr);
  assert.ok(others.length && others.every((i) => i.action === 'create'), JSON.stringify(others));
});
