// Each remediation gate raised through the sandbox (a revoked grant, a switch, a missing setting), shown with its reason,
// action and link, then cleared by fixing the cause and retrying the step: the step is created and the job's report,
// outcome and status are recomputed without re-running the install.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { dependenciesOf } from '../src/item-types/index.js';
import { build, type TestApp, type TestTenant } from './helpers.js';
import { defaultTenant, install, OPERATOR, retryStep, workspace, type Sandbox } from './install-helpers.js';
import { DEFAULT_TENANT, ensureTenant } from '../src/auth/token-service.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

const catalog = loadCatalog();

/** The reason and action of each gate (SPEC.md "Remediation gates") and where its link points. */
const GATES = {
  'no-platform-workspace': {
    reason: 'no bound platform workspace',
    action: /bind a capacity to the workspace in the admin area, or set SVC_DEFAULT_PLATFORM_WORKSPACE/,
    link: /\/admin-portal\/capacities$/,
  },
  'data-platform-auth': {
    reason: 'data platform 401/403',
    action: /grant the service identity Contributor on the workspace and enable the service-principal tenant setting/,
    link: /\/admin-portal\/tenantSettings$/,
  },
  'kql-not-configured': {
    reason: 'KQL cluster not configured',
    action:
      /^set SVC_KQL_CLUSTER_URI and SVC_KQL_CLUSTER_NAME; in a tenant other than the default one, the deployment operator assigns it \(POST \/api\/operator\/tenants\/\{tenantId\}\/targets, kind kql-cluster with its resourceId\)$/,
    link: /Microsoft\.Kusto%2Fclusters$/,
  },
  'kql-arm-auth': {
    reason: 'KQL 401/403 from resource manager',
    action: /^assign Contributor on the cluster to the identity$/,
    link: /Microsoft\.Kusto%2Fclusters$/,
  },
  'kql-create-table-auth': {
    reason: 'KQL 401/403 on .create table',
    action: /^create a cluster principal assignment with role AllDatabasesAdmin, principal type App/,
    link: /Microsoft\.Kusto%2Fclusters$/,
  },
  'search-auth': {
    reason: 'search service 401/403',
    action: /^assign Search Service Contributor on the search service/,
    link: /Microsoft\.Search%2FsearchServices$/,
  },
  'warehouse-not-configured': {
    reason: 'warehouse dedicated pool not configured',
    action: /^set SVC_WAREHOUSE_WORKSPACE and SVC_WAREHOUSE_DEDICATED_POOL; in a tenant other than the default one/,
    link: /Microsoft\.Synapse%2Fworkspaces$/,
  },
  'warehouse-tsql-auth': {
    reason: 'warehouse T-SQL not authorized',
    action: /FROM EXTERNAL PROVIDER[\s\S]*db_owner/,
    link: /Microsoft\.Synapse%2Fworkspaces$/,
  },
} as const;

interface Ctx {
  h: TestApp;
  tenant: TestTenant;
  sandbox: Sandbox;
  ws: string;
}

/** A fresh sandbox and an app on a store that a second build can reopen (a restart with new configuration). */
async function setup(t: TestContext, env: Record<string, string> = {}) {
  const sandbox = await startSandbox({});
  t.after(() => sandbox.stop());
  process.env.IDENTITY_ENDPOINT = sandbox.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sandbox.env.IDENTITY_HEADER;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-gates-'));
  // Reopened by several builds, each closed by its own hook: removed when the test process ends.
  process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const open = async (extra: Record<string, string>) => {
    const closers: Array<() => Promise<void>> = [];
    const h = await build(
      {
        after: (fn: () => Promise<void>) => {
          closers.push(fn);
        },
      },
      { ...sandbox.env, SVC_WORKER_POLL_MS: '100', SVC_DATA_DIR: dataDir, ...extra },
    );
    // As main does at every start: the SVC_* shared set is the default tenant's.
    await ensureTenant(h.store.db, DEFAULT_TENANT, 'Default tenant', { displayName: 'Administrator' });
    await h.services.tenancy.reserveDefaults();
    let closed = false;
    const close = async () => {
      if (!closed) {
        closed = true;
        for (const fn of closers) await fn();
      }
    };
    t.after(close);
    return { h, close };
  };
  // The gates of SVC_* settings are the default tenant's: its shared set is those settings (another tenant's is
  // what the operator assigned it; tenancy.test.ts covers that).
  const first = await open(env);
  const tenant = await defaultTenant(first.h, sandbox);
  const ws = await workspace(first.h, tenant);
  return { sandbox, tenant, ws, h: first.h, close: first.close, open };
}

function assertGate(step: any, name: keyof typeof GATES) {
  const g = GATES[name];
  assert.equal(step.result.status, 'remediation', `${step.displayName}: ${JSON.stringify(step.result)}`);
  assert.equal(step.result.gate.reason, g.reason);
  assert.match(step.result.gate.remediation, g.action);
  assert.match(step.result.gate.link, g.link);
  assert.match(step.result.gate.link, /^https?:\/\//);
}

const provisioned = (s: any) => s.result.status === 'created' || s.result.status === 'exists';

/** Retries every step that is not provisioned, dependencies first, following the job to the end and checking the report after each retry. */
async function retryAll(c: Pick<Ctx, 'h' | 'tenant'>, job: any) {
  const app = catalog.get(job.appId)!;
  const depth = (key: string, seen = new Set<string>()): number => {
    if (seen.has(key)) return 0;
    seen.add(key);
    const item = app.items.find((i) => i.key === key)!;
    return 1 + Math.max(0, ...dependenciesOf(item.itemType, item.content, PLATFORM_PROFILE).map((k) => depth(k, seen)));
  };
  const pending = job.provision.steps
    .filter((s: any) => !provisioned(s))
    .sort((a: any, b: any) => depth(app.items[a.stepIndex]!.key) - depth(app.items[b.stepIndex]!.key));
  const retried = async () =>
    (await c.h.services.installs.events({ tenantId: c.tenant.tenantId } as any, job.id, 0)).filter((e) => e.kind === 'step-retried').length;
  const retriedBefore = await retried();
  let current = job;
  for (const s of pending) {
    current = await retryStep(c.h, c.tenant, job.id, s.stepIndex);
    const after = current.provision.steps.find((x: any) => x.stepIndex === s.stepIndex);
    assert.equal(after.result.status, 'created', `retry of ${s.displayName}: ${JSON.stringify(after.result)}`);
    assert.ok(after.result.resourceId, 'the retried step names its live resource');
    assert.equal(current.provision.steps.length, job.provision.steps.length, 'the report keeps every step');
    // The outcome and status are recomputed from the steps as they are now.
    const all = current.provision.steps.every(provisioned);
    assert.equal(
      current.provision.outcome,
      all ? 'all-created' : current.provision.steps.every((x: any) => x.result.status === 'remediation') ? 'all-remediation' : 'partial',
    );
    assert.equal(current.status, all ? 'done' : 'partial');
  }
  // The poll answers the same recomputed job, and the event log records each retry.
  const polled = (await c.h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${job.id}`, headers: c.tenant.auth })).json().job;
  assert.deepEqual(polled.provision, current.provision);
  assert.equal((await retried()) - retriedBefore, pending.length);
  return current;
}

test('gate "no bound platform workspace": cleared by assigning the tenant a platform workspace and binding it, then the step retry creates', async (t) => {
  const c = await setup(t, { SVC_DEFAULT_PLATFORM_WORKSPACE: '' });
  const job = await install(c.h, c.tenant, 'app-lakehouse-inspector', { workspaceId: c.ws });
  for (const s of job.provision.steps) assertGate(s, 'no-platform-workspace');
  assert.equal(job.provision.outcome, 'all-remediation');
  assert.equal(job.status, 'failed');
  const before = (await c.sandbox.admin.requests({ service: 'dataPlatform' })).length;
  // Retrying before the cause is fixed changes nothing and sends nothing.
  const early = await retryStep(c.h, c.tenant, job.id, 0);
  assertGate(
    early.provision.steps.find((s: any) => s.stepIndex === 0),
    'no-platform-workspace',
  );
  assert.deepEqual([early.provision.outcome, early.status], ['all-remediation', 'failed']);
  assert.equal((await c.sandbox.admin.requests({ service: 'dataPlatform' })).length, before);

  // The remediation: the platform workspace is assigned to the tenant (the operator), then bound to the workspace.
  const refused = await c.h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${c.ws}`,
    headers: c.tenant.auth,
    payload: { platformWorkspaceId: c.sandbox.ids.platformWorkspaceId },
  });
  assert.equal(refused.statusCode, 404, 'not the tenant’s until assigned');
  await c.h.services.tenancy.assignPlatformWorkspace(OPERATOR, c.tenant.tenantId, c.sandbox.ids.platformWorkspaceId);
  const bind = await c.h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${c.ws}`,
    headers: c.tenant.auth,
    payload: { platformWorkspaceId: c.sandbox.ids.platformWorkspaceId },
  });
  assert.equal(bind.statusCode, 200, bind.body);
  const done = await retryAll(c, job);
  assert.equal(done.provision.outcome, 'all-created');
  assert.equal(done.status, 'done');
  const platformWs: any = (await c.sandbox.admin.state()).dataPlatform.workspaces.find(
    (w: any) => w.id === c.sandbox.ids.platformWorkspaceId,
  );
  for (const s of done.provision.steps)
    assert.ok(
      platformWs.items.some((i: any) => i.id === s.result.resourceId),
      `${s.displayName} is in the bound workspace`,
    );
});

test('gate "data platform 401/403": revoked workspace role, then the tenant setting off; cleared by both fixes', async (t) => {
  const c = await setup(t);
  await c.sandbox.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  const job = await install(c.h, c.tenant, 'app-lakehouse-inspector', { workspaceId: c.ws });
  for (const s of job.provision.steps) assertGate(s, 'data-platform-auth');
  assert.equal(job.provision.outcome, 'all-remediation');

  // Half the fix: a role back (Contributor is enough to provision) but service principals may not use the APIs → still the same gate.
  await c.sandbox.admin.grant({ service: 'dataPlatform', role: 'Contributor' });
  await c.sandbox.admin.setSwitch('dataPlatform.servicePrincipalsEnabled', false);
  const half = await retryStep(c.h, c.tenant, job.id, job.provision.steps[0].stepIndex);
  assertGate(half.provision.steps[0], 'data-platform-auth');
  assert.equal(half.provision.outcome, 'all-remediation');

  await c.sandbox.admin.setSwitch('dataPlatform.servicePrincipalsEnabled', true);
  const done = await retryAll(c, half);
  assert.equal(done.provision.outcome, 'all-created');
  assert.equal(done.status, 'done');
});

test('gate "KQL cluster not configured": cleared by restarting with the KQL settings on the same store, then the step retry', async (t) => {
  const c = await setup(t, { SVC_KQL_CLUSTER_URI: '', SVC_KQL_CLUSTER_NAME: '' });
  const job = await install(c.h, c.tenant, 'app-finops-cost', { workspaceId: c.ws });
  const kqlStep = job.provision.steps.find((s: any) => s.itemType === 'kql-database');
  assertGate(kqlStep, 'kql-not-configured');
  assert.equal(job.provision.outcome, 'partial');
  assert.equal((await c.sandbox.admin.requests({ service: 'arm' })).length, 0, 'nothing was sent to resource manager');

  // The settings are read at start: the admin sets them and restarts; the job and its report are in the store.
  await c.close();
  const restarted = await c.open({});
  const done = await retryAll({ h: restarted.h, tenant: c.tenant }, job);
  assert.equal(done.provision.outcome, 'all-created');
  assert.equal(done.status, 'done');
  const db = (await c.sandbox.admin.state()).kql.databases.find(
    (d: any) => d.name === (catalog.get('app-finops-cost')!.items.find((i) => i.itemType === 'kql-database')!.content as any).database,
  );
  assert.ok(db, 'the KQL database exists after the retry');
});

test('gate "KQL 401/403 from resource manager": revoked Contributor on the cluster, cleared by assigning it', async (t) => {
  const c = await setup(t);
  await c.sandbox.admin.revoke({ service: 'arm', role: 'Contributor' });
  const job = await install(c.h, c.tenant, 'app-finops-cost', { workspaceId: c.ws });
  assertGate(
    job.provision.steps.find((s: any) => s.itemType === 'kql-database'),
    'kql-arm-auth',
  );
  assert.equal(job.provision.outcome, 'partial');
  await c.sandbox.admin.grant({ service: 'arm', role: 'Contributor' });
  const done = await retryAll(c, job);
  assert.equal(done.provision.outcome, 'all-created');
});

test('gate "KQL 401/403 on .create table": a database another principal created, no AllDatabasesAdmin; cleared by the cluster principal assignment', async (t) => {
  const c = await setup(t);
  await c.sandbox.admin.revoke({ service: 'kql', role: 'AllDatabasesAdmin' });
  // The creator of a database is its Admin (callerRole defaults to Admin), so the gate needs a database someone else made:
  // the service's PUT is then an update, which does not make it Admin.
  const content = catalog.get('app-finops-cost')!.items.find((i) => i.itemType === 'kql-database')!.content as any;
  const owner = await c.sandbox.admin.token({ audience: 'arm', principal: c.sandbox.ids.users[0]!.objectId });
  const put = await fetch(
    `${c.sandbox.urls.arm}${c.sandbox.ids.kqlClusterResourceId}/databases/${content.database}?api-version=2024-04-13`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'ReadWrite', location: c.sandbox.ids.kqlLocation }),
    },
  );
  assert.equal(put.status, 201, await put.text());
  const job = await install(c.h, c.tenant, 'app-finops-cost', { workspaceId: c.ws });
  const step = job.provision.steps.find((s: any) => s.itemType === 'kql-database');
  assertGate(step, 'kql-create-table-auth');
  assert.equal(job.provision.outcome, 'partial');
  await c.sandbox.admin.grant({ service: 'kql', role: 'AllDatabasesAdmin' });
  const done = await retryAll(c, job);
  assert.equal(done.provision.outcome, 'all-created');
  const db: any = (await c.sandbox.admin.state()).kql.databases.find((d: any) => d.name === content.database);
  for (const table of content.tables)
    assert.ok(
      db.tables.some((x: any) => x.name === table.name),
      `${table.name} created by the retry`,
    );
});

test('gate "search service 401/403": revoked search roles, cleared by assigning them', async (t) => {
  const c = await setup(t);
  await c.sandbox.admin.revoke({ service: 'search', role: 'Search Service Contributor' });
  await c.sandbox.admin.revoke({ service: 'search', role: 'Search Index Data Contributor' });
  const job = await install(c.h, c.tenant, 'app-data-steward', { workspaceId: c.ws });
  const gated = job.provision.steps.filter((s: any) => s.itemType === 'search-index');
  assert.ok(gated.length > 0);
  for (const s of gated) assertGate(s, 'search-auth');
  assert.notEqual(job.provision.outcome, 'all-created');
  await c.sandbox.admin.grant({ service: 'search', role: 'Search Service Contributor' });
  await c.sandbox.admin.grant({ service: 'search', role: 'Search Index Data Contributor' });
  const done = await retryAll(c, job);
  assert.equal(done.provision.outcome, 'all-created');
  const indexes = (await c.sandbox.admin.state()).search.indexes;
  for (const item of catalog.get('app-data-steward')!.items.filter((i) => i.itemType === 'search-index')) {
    const c2 = item.content as { index: { name: string }; documents: unknown[] };
    const idx: any = indexes.find((x: any) => x.name === c2.index.name);
    assert.ok(idx, c2.index.name);
    assert.equal(idx.documentCount, c2.documents.length);
  }
});

test('gate "warehouse dedicated pool not configured": cleared by restarting with the warehouse settings on the same store, then the step retry', async (t) => {
  const c = await setup(t, { SVC_WAREHOUSE_WORKSPACE: '', SVC_WAREHOUSE_DEDICATED_POOL: '' });
  const job = await install(c.h, c.tenant, 'app-healthcare-popmgt', { workspaceId: c.ws });
  const step = job.provision.steps.find((s: any) => s.itemType === 'warehouse');
  assertGate(step, 'warehouse-not-configured');
  assert.equal(job.provision.outcome, 'partial');
  assert.equal((await c.sandbox.admin.requests()).filter((r: any) => r.service === 'sql').length, 0, 'nothing was sent to the warehouse');

  await c.close();
  const restarted = await c.open({});
  const done = await retryAll({ h: restarted.h, tenant: c.tenant }, job);
  assert.equal(done.provision.outcome, 'all-created');
  assert.equal(done.status, 'done');
  const wh = done.provision.steps.find((s: any) => s.itemType === 'warehouse');
  assert.equal(wh.result.secondaryIds.database, c.sandbox.ids.warehousePool);
});

test('gate "warehouse T-SQL not authorized": the identity is no database user; cleared by adding it to db_owner', async (t) => {
  const c = await setup(t);
  const pool = c.sandbox.ids.warehousePool;
  await c.sandbox.admin.revoke({ service: 'sql', role: 'user', database: pool });
  const job = await install(c.h, c.tenant, 'app-healthcare-popmgt', { workspaceId: c.ws });
  const step = job.provision.steps.find((s: any) => s.itemType === 'warehouse');
  assertGate(step, 'warehouse-tsql-auth');
  // The action is the exact T-SQL for this identity, as the admin runs it.
  assert.match(step.result.gate.remediation, /CREATE USER \[[^\]]+\] FROM EXTERNAL PROVIDER;/);
  assert.match(step.result.gate.remediation, /EXEC sp_addrolemember 'db_owner', '[^']+';/);
  assert.match(step.result.gate.link, /Microsoft\.Synapse%2Fworkspaces$/);
  assert.equal(job.provision.outcome, 'partial');

  await c.sandbox.admin.grant({ service: 'sql', role: 'db_owner', database: pool });
  const done = await retryAll(c, job);
  assert.equal(done.provision.outcome, 'all-created');
  assert.equal(done.status, 'done');
});
