import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { buildWithSandbox, install, stepOf, workspace } from './install-helpers.js';

const catalog = loadCatalog();

test('every app installs in shared mode: each live item is created in the sandbox, the rest stored', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  for (const app of catalog.apps) {
    const ws = await workspace(h, tenant, app.id);
    const job = await install(h, tenant, app.id, { workspaceId: ws });
    assert.equal(job.installed.length, app.items.length, app.id);
    assert.equal(job.createdItems, app.items.length);
    for (const step of job.provision.steps) {
      assert.equal(step.result.status, 'created', `${app.id} ${step.itemType} ${step.displayName}: ${JSON.stringify(step.result)}`);
      assert.ok(step.result.resourceId, 'resourceId');
    }
    assert.equal(job.provision.outcome, 'all-created', app.id);
    assert.equal(job.status, 'done', app.id);
    // The items were stored by one write of the job: an event each, in step order, numbered one after another.
    const created = await h.store.db
      .selectFrom('job_events')
      .select(['seq', 'data'])
      .where('job_id', '=', job.id)
      .where('kind', '=', 'item-created')
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      created.map((e) => (e.data as { stepIndex: number }).stepIndex),
      app.items.map((_, i) => i),
      app.id,
    );
    assert.deepEqual(
      created.map((e) => e.seq - created[0]!.seq),
      app.items.map((_, i) => i),
    );
    assert.deepEqual(
      created.map((e) => (e.data as { id: string }).id),
      job.installed.map((i: { id: string }) => i.id),
    );
  }
  // A poll of a job reads the store once: the access check's read of the job is the answer's (a lifecycle job's steps
  // are one more). The role and the token are this process's cached ones by now.
  const polled = (
    await h.store.db.selectFrom('install_jobs').select('id').where('tenant_id', '=', tenant.tenantId).executeTakeFirstOrThrow()
  ).id;
  for (const [url, reads] of [
    [`/api/apps/install-jobs/${polled}`, 1],
    [`/api/jobs/${polled}`, 2],
  ] as const) {
    // The fewest of a few polls: the idle worker's look for work may fall between two counts.
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = h.store.versions.statements;
      const r = await h.app.inject({ method: 'GET', url, headers: tenant.auth });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.json().job.id, polled);
      counts.push(h.store.versions.statements - before);
    }
    assert.equal(Math.min(...counts), reads, `${url}: statements ${counts}`);
  }
  // Every live platform item of every app is in the sandbox exactly once.
  const state = await sandbox.admin.state();
  const platformWs: any = state.dataPlatform.workspaces.find((w: any) => w.id === sandbox.env.SVC_DEFAULT_PLATFORM_WORKSPACE);
  const platformTypes: Record<string, string> = {
    notebook: 'Notebook',
    lakehouse: 'Lakehouse',
    'semantic-model': 'SemanticModel',
    activator: 'Reflex',
    'data-pipeline': 'DataPipeline',
    eventstream: 'Eventstream',
    'kql-dashboard': 'KQLDashboard',
    'mirrored-database': 'MirroredDatabase',
  };
  for (const app of catalog.apps) {
    for (const item of app.items.filter((i) => platformTypes[i.itemType])) {
      const matches = platformWs.items.filter(
        (x: any) => x.type === platformTypes[item.itemType] && x.displayName.toLowerCase() === item.displayName.toLowerCase(),
      );
      assert.equal(matches.length, 1, `${app.id}: ${item.itemType} ${item.displayName}`);
    }
  }
  for (const app of catalog.apps) {
    for (const item of app.items.filter((i) => i.itemType === 'kql-database' || i.itemType === 'eventhouse')) {
      const c = item.content as { database: string; tables: Array<{ name: string; seedRows?: unknown[] }> };
      const db: any = state.kql.databases.find((d: any) => d.name === c.database);
      assert.ok(db, `${app.id}: KQL database ${c.database}`);
      for (const table of c.tables) {
        const tb: any = db.tables.find((x: any) => x.name === table.name);
        assert.ok(tb, `${c.database}.${table.name}`);
        assert.equal(tb.rowCount, table.seedRows?.length ?? 0, `${c.database}.${table.name} rows`);
      }
    }
    // Warehouses: the sandbox TDS endpoint's pool holds each seeded table with its rows, and each dbt model as a view.
    for (const item of app.items.filter((i) => i.itemType === 'warehouse')) {
      const c = item.content as {
        seeds?: Array<{ table: string; rows: unknown[] }>;
        models?: Array<{ name: string }>;
        modelSchema?: string;
      };
      const pool = state.sql.databases.find((d) => d.name === sandbox.ids.warehousePool)!;
      for (const seed of c.seeds ?? []) {
        const tb = pool.tables.find((x) => `${x.schema}.${x.name}` === seed.table);
        assert.equal(tb?.rowCount, seed.rows.length, `${app.id}: ${seed.table} rows`);
      }
      for (const m of c.models ?? [])
        assert.ok(
          pool.views.some((v) => v.schema === (c.modelSchema ?? 'dbo') && v.name === m.name),
          `${app.id}: view ${m.name}`,
        );
    }
    for (const item of app.items.filter((i) => i.itemType === 'search-index')) {
      const c = item.content as { index: { name: string }; documents: unknown[] };
      const idx = state.search.indexes.find((x: any) => x.name === c.index.name);
      assert.ok(idx, `${app.id}: index ${c.index.name}`);
      assert.equal(idx.documentCount, c.documents.length);
    }
  }
});

test('deploy false: every step skipped and not one backing request', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const before = (await sandbox.admin.requests()).length;
  const ws = await workspace(h, tenant);
  const job = await install(h, tenant, 'app-casino-analytics', { workspaceId: ws, deploy: false });
  assert.equal(job.provision.outcome, 'skipped');
  assert.equal(job.status, 'done');
  assert.ok(job.provision.steps.length > 0);
  for (const s of job.provision.steps) assert.equal(s.result.status, 'skipped');
  assert.equal((await sandbox.admin.requests()).length, before, 'no request reached the sandbox');
  const items = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items`, headers: tenant.auth })).json().items;
  assert.equal(items.length, catalog.get('app-casino-analytics')!.items.length);
});

test('re-install updates in place: exists everywhere, no duplicates in the store or the sandbox, edited content kept', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const first = await install(h, tenant, 'app-iot-realtime', { workspaceId: ws });
  assert.equal(first.provision.outcome, 'all-created', JSON.stringify(first.provision.steps.map((s: any) => s.result)));
  const stateBefore = await sandbox.admin.state();
  // A user edits one stored item; the re-install must keep that content.
  const item = first.installed[0];
  const url = `/api/workspaces/${ws}/items/${item.id}/content`;
  const etag = (await h.app.inject({ method: 'GET', url, headers: tenant.auth })).headers.etag as string;
  await h.app.inject({ method: 'PUT', url, headers: { ...tenant.auth, 'if-match': etag }, payload: { content: { edited: true } } });

  const second = await install(h, tenant, 'app-iot-realtime', { workspaceId: ws });
  for (const s of second.provision.steps) assert.equal(s.result.status, 'exists', `${s.itemType}: ${JSON.stringify(s.result)}`);
  assert.equal(second.provision.outcome, 'all-created');
  assert.deepEqual(second.installed.map((i: any) => i.id).sort(), first.installed.map((i: any) => i.id).sort(), 'the same stored items');
  const items = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items?limit=200`, headers: tenant.auth })).json().items;
  assert.equal(items.length, first.installed.length);
  assert.deepEqual((await h.app.inject({ method: 'GET', url, headers: tenant.auth })).json().content, { edited: true });
  const stateAfter = await sandbox.admin.state();
  const count = (s: any) => s.dataPlatform.workspaces.reduce((n: number, w: any) => n + w.items.length, 0);
  assert.equal(count(stateAfter), count(stateBefore), 'no new platform items');
  const rows = (s: any) => s.kql.databases.flatMap((d: any) => d.tables.map((x: any) => `${d.name}.${x.name}=${x.rowCount}`)).sort();
  assert.deepEqual(rows(stateAfter), rows(stateBefore), 'no duplicated KQL rows');
  const edges = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/thread/edges`, headers: tenant.auth })).json().edges;
  assert.equal(edges.length, catalog.get('app-iot-realtime')!.edges.length, 'the thread recorded once');
});

test('a 503 once is retried after 1.5 s and the item is created; a persistent 503 fails with the service’s text', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  await sandbox.admin.addFault({ service: 'dataPlatform', method: 'POST', path: '/notebooks', status: 503, count: 1 });
  const job = await install(h, tenant, 'app-lakehouse-inspector', { workspaceId: ws });
  const nb = stepOf(job, 'notebook');
  assert.equal(nb.result.status, 'created', JSON.stringify(nb.result));
  const posts = (await sandbox.admin.requests()).filter((r: any) => r.method === 'POST' && /\/notebooks$/.test(r.path.split('?')[0]));
  const failedPost = posts.find((r: any) => r.status === 503);
  assert.ok(failedPost, 'the fault answered one POST with 503');
  const ms = (r: any) => (typeof r.startedAt === 'number' ? r.startedAt : Date.parse(r.startedAt));
  const retry = posts.find((r: any) => r.status !== 503 && ms(r) - ms(failedPost) >= 1400);
  assert.ok(retry, 'a retry about 1.5 s after the 503');
  assert.equal(posts.filter((r: any) => r.status === 503).length, 1);

  await sandbox.admin.clearFaults();
  const ws2 = await workspace(h, tenant);
  // The first install created the lakehouse in the shared platform workspace, so the re-install lists it: fail that list.
  await sandbox.admin.addFault({
    service: 'dataPlatform',
    method: 'GET',
    path: 'type=Lakehouse',
    status: 503,
    message: 'The service is temporarily unavailable: capacity paused',
  });
  const failed = await install(h, tenant, 'app-lakehouse-inspector', { workspaceId: ws2 });
  const lh = stepOf(failed, 'lakehouse');
  assert.equal(lh.result.status, 'failed');
  assert.match(lh.result.error, /capacity paused/);
  assert.equal(
    JSON.parse(lh.result.error).message,
    'The service is temporarily unavailable: capacity paused',
    'the body is passed on unmodified',
  );
  assert.equal(failed.status, 'partial');
});

test('a backing 403 becomes the data-platform gate, carrying the service’s body unmodified', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const body = {
    errorCode: 'InsufficientWorkspaceRole',
    message: 'The caller does not have sufficient permissions on workspace X (custom text 42)',
    requestId: '00000000-0000-0000-0000-000000000042',
  };
  await sandbox.admin.addFault({ service: 'dataPlatform', method: 'GET', path: '/items', status: 403, body: JSON.stringify(body) });
  const job = await install(h, tenant, 'app-lakehouse-inspector', { workspaceId: ws });
  for (const s of job.provision.steps) {
    assert.equal(s.result.status, 'remediation');
    assert.equal(s.result.gate.reason, 'data platform 401/403');
    assert.deepEqual(JSON.parse(s.result.error), body);
  }
  assert.equal(job.provision.outcome, 'all-remediation');
  assert.equal(job.status, 'failed');
});

test('a job is tenant-scoped: another tenant polling it gets 404, exactly as for an unknown id', async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  const other = await h.tenant();
  const ws = await workspace(h, tenant);
  const start = await h.app.inject({
    method: 'POST',
    url: '/api/apps/app-mirror-onboard/install',
    headers: tenant.auth,
    payload: { workspaceId: ws, deploy: false },
  });
  const { jobId } = start.json();
  const theirs = await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${jobId}`, headers: other.auth });
  const unknown = await h.app.inject({
    method: 'GET',
    url: '/api/apps/install-jobs/00000000-0000-0000-0000-000000000000',
    headers: other.auth,
  });
  assert.equal(theirs.statusCode, 404);
  assert.equal(unknown.statusCode, 404);
  assert.equal(theirs.json().error.code, unknown.json().error.code);
  const list = await h.app.inject({ method: 'GET', url: '/api/apps/install-jobs', headers: other.auth });
  assert.deepEqual(list.json().jobs, []);
  const into = await h.app.inject({
    method: 'POST',
    url: '/api/apps/app-mirror-onboard/install',
    headers: other.auth,
    payload: { workspaceId: ws },
  });
  assert.equal(into.statusCode, 404, 'installing into another tenant’s workspace');
});

test('install input is validated: unknown app 404, bad body 400 naming the field, overrides only when dedicated', async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const cases: Array<[string, unknown, number, string?]> = [
    ['app-nope', { workspaceId: ws }, 404],
    ['app-casino-analytics', {}, 400, 'workspaceId'],
    ['app-casino-analytics', { workspaceId: ws, deploy: 'yes' }, 400, 'deploy'],
    ['app-casino-analytics', { workspaceId: ws, mode: 'private' }, 400, 'mode'],
    ['app-casino-analytics', { workspaceId: ws, extra: 1 }, 400, 'extra'],
    ['app-casino-analytics', { workspaceId: ws, targetOverrides: { kqlDatabase: 'x' } }, 400, 'targetOverrides'],
    [
      'app-casino-analytics',
      { workspaceId: ws, mode: 'dedicated', targetOverrides: { kqlClusterUri: 'https://attacker.example.com' } },
      400,
      'targetOverrides.kqlClusterUri',
    ],
    ['app-casino-analytics', { workspaceId: ws, mode: 'dedicated', targetOverrides: { color: 'x' } }, 400, 'targetOverrides.color'],
  ];
  for (const [appId, payload, status, field] of cases) {
    const r = await h.app.inject({ method: 'POST', url: `/api/apps/${appId}/install`, headers: tenant.auth, payload: payload as object });
    assert.equal(r.statusCode, status, `${JSON.stringify(payload)} → ${r.body}`);
    if (field) assert.equal(r.json().error.field, field, r.body);
  }
  const jobs = (await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs?workspaceId=${ws}`, headers: tenant.auth })).json().jobs;
  assert.equal(jobs.length, 0, 'no refused install wrote a job');
  const reader = await tenant.token2(['read']);
  const noScope = await h.app.inject({
    method: 'POST',
    url: '/api/apps/app-casino-analytics/install',
    headers: reader.auth,
    payload: { workspaceId: ws },
  });
  assert.equal(noScope.statusCode, 403);
  assert.match(noScope.json().error.message, /'install'/);
});

test('concurrent writes to one job each append their events, numbered without gaps; a broken fence writes nothing', async (t) => {
  // The worker polls every ten minutes here: only this test claims the job it writes.
  const { h, tenant } = await buildWithSandbox(t, { SVC_WORKER_POLL_MS: '600000' });
  const ws = await workspace(h, tenant, 'events');
  const { JobStore } = await import('../src/install/job-store.js');
  const jobs = new JobStore(h.store.db);
  const id = `job-${Date.now()}`;
  await jobs.create(
    {
      id,
      tenantId: tenant.tenantId,
      workspaceId: ws,
      appId: catalog.apps[0]!.id,
      createdBy: tenant.userId,
      deploy: false,
      mode: 'shared',
      totalItems: 2,
    },
    [0, 1].map((i) => ({ stepIndex: i, itemKey: `k${i}`, itemType: 'notebook', displayName: `n${i}`, live: true })),
  );
  const claimed = await jobs.claim('owner-a');
  assert.equal(claimed?.id, id);
  const writes = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      jobs.update(
        id,
        { owner: 'owner-a' },
        { percentComplete: i },
        { kind: 'step', data: { n: i } },
        { stepIndex: i % 2, result: { status: 'created', steps: [`write ${i}`] } },
      ),
    ),
  );
  assert.deepEqual(writes, Array(20).fill(true));
  const events = await jobs.events(id, 0);
  assert.deepEqual(
    events.map((e) => e.seq),
    Array.from({ length: 21 }, (_, i) => i + 1),
    'the first event and one per write, in order',
  );
  assert.deepEqual(
    events
      .slice(1)
      .map((e) => e.data.n)
      .sort((a, b) => Number(a) - Number(b)),
    Array.from({ length: 20 }, (_, i) => i),
  );
  // A write without an event leaves the numbering alone; a write under another owner's fence changes nothing at all.
  assert.equal(await jobs.update(id, { owner: 'owner-a' }, { percentComplete: 50 }), true);
  // One write may carry several events and steps (an install's stored items): its events numbered in order after the
  // rest, each step its own value, and what the write does not name (the results) kept.
  assert.equal(
    await jobs.update(
      id,
      { owner: 'owner-a' },
      { createdItems: 2 },
      [
        { kind: 'item-created', data: { stepIndex: 0 } },
        { kind: 'item-created', data: { stepIndex: 1 } },
      ],
      [
        { stepIndex: 0, cosmosItemId: 'item-0' },
        { stepIndex: 1, cosmosItemId: 'item-1' },
      ],
    ),
    true,
  );
  assert.deepEqual(
    (await jobs.events(id, 21)).map((e) => [e.seq, e.kind, e.data.stepIndex]),
    [
      [22, 'item-created', 0],
      [23, 'item-created', 1],
    ],
  );
  assert.deepEqual(
    (await jobs.steps(id)).map((s) => [s.stepIndex, s.cosmosItemId, s.result?.status]),
    [
      [0, 'item-0', 'created'],
      [1, 'item-1', 'created'],
    ],
  );
  assert.equal(
    await jobs.update(
      id,
      { owner: 'owner-b' },
      { phase: 'done', status: 'failed' },
      { kind: 'done', data: {} },
      { stepIndex: 0, result: { status: 'failed', steps: [] } },
    ),
    false,
  );
  assert.equal((await jobs.events(id, 0)).length, 23);
  const job = await jobs.get(tenant.tenantId, id);
  assert.equal(job?.status, 'running');
  assert.equal(job?.percentComplete, 50);
  const steps = await jobs.steps(id);
  assert.ok(
    steps.every((s) => s.result?.status === 'created'),
    'the fenced-out write did not touch the steps',
  );
  // A step retry re-opens nothing while a worker holds the job, nor a job of another tenant.
  const step = { stepIndex: 0, itemType: 'notebook', displayName: 'n0' };
  assert.equal(await jobs.reopen(tenant.tenantId, id, step), false, 'owner-a holds the lease');
  assert.equal((await jobs.events(id, 0)).length, 23);
  // Finished, so no worker of another test on a shared PostgreSQL store picks the job up once its lease runs out.
  assert.equal(
    await jobs.update(id, { owner: 'owner-a' }, { status: 'done', phase: 'done', finished: true }, { kind: 'done', data: {} }),
    true,
  );
  assert.equal((await jobs.get(tenant.tenantId, id))?.status, 'done');
  // Finished, the job re-opens for its tenant only: the step's result is cleared and the event numbered after the rest.
  assert.equal(await jobs.reopen('another-tenant', id, step), false);
  assert.equal(await jobs.reopen(tenant.tenantId, id, step), true);
  assert.deepEqual(
    (await jobs.events(id, 23)).map((e) => [e.seq, e.kind]),
    [
      [24, 'done'],
      [25, 'step-retried'],
    ],
  );
  assert.deepEqual(
    (await jobs.steps(id)).map((s) => s.result?.status ?? null),
    [null, 'created'],
  );
  assert.equal(
    await jobs.update(id, { owner: 'owner-a' }, { status: 'done', phase: 'done', finished: true }),
    false,
    'the lease was given up by the re-open',
  );
  const row = await h.store.db
    .selectFrom('install_jobs')
    .select(['status', 'phase', 'lease_owner', 'provision', 'finished_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    row,
    { status: 'running', phase: 'provisioning', lease_owner: null, provision: null, finished_at: null },
    're-opened, the job waits for a claim',
  );
  await h.store.db.updateTable('install_jobs').set({ status: 'done', phase: 'done' }).where('id', '=', id).execute(); // no worker of another test takes it
});
