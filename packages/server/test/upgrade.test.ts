// Upgrade: an installed app moved to the catalog's current version (the version-2 fixture), a three-way merge per item:
// the new version's changes applied live, the user's edits kept, added items created once, dropped ones listed and
// removed only on request, a conflicting edit reported and never overwritten.
import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createSvcClient } from '../../client/src/index.js';
import { appItem, call, followJob } from './lifecycle-helpers.js';
import { APP, catalogVariant, editContent, installedThenV2, liveNamed, notebookSource, storedContent } from './upgrade-helpers.js';

const NEW_CELL = /null_pct >= 50/;
const stepOf = (job: any, key: string) => {
  const s = job.steps.find((x: any) => x.key === key);
  assert.ok(s, `no step ${key} in ${JSON.stringify(job.steps.map((x: any) => x.key))}`);
  return s;
};

test('upgrade merges the new version into an edited notebook, creates the added one, keeps the dropped one; then app_current', async (t) => {
  const { h, sandbox, tenant, ws } = await installedThenV2(t, async (h1, tenant1, ws1) => {
    await editContent(h1, tenant1, ws1, 'profile-notebook', (c) => {
      c.writes = [...c.writes, 'sample-lakehouse'];
    });
  });
  const base = `/api/workspaces/${ws}/apps/${APP}`;
  const before = (await call(h, tenant, 'GET', base, 200)).app;
  assert.deepEqual([before.version, before.catalogVersion, before.status], ['1.0.0', '1.1.0', 'installed']);
  const profile = before.items.find((i: any) => i.key === 'profile-notebook');
  const growth = before.items.find((i: any) => i.key === 'growth-report');

  // The plan: what the upgrade would do, read-only.
  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'upgrade' });
  assert.deepEqual([plan.fromVersion, plan.version], ['1.0.0', '1.1.0']);
  const actions = Object.fromEntries(plan.items.map((i: any) => [i.key, i.action]));
  assert.deepEqual(actions, {
    'sample-lakehouse': 'no-change',
    'inspector-lakehouse': 'no-change',
    'inventory-notebook': 'no-change',
    'history-notebook': 'no-change',
    'profile-notebook': 'update',
    'maintenance-notebook': 'no-change',
    'freshness-notebook': 'create',
    'health-report': 'no-change',
    'growth-report': 'keep',
  });
  const planned = plan.items.find((i: any) => i.key === 'profile-notebook');
  assert.match(planned.diff, NEW_CELL);
  assert.match(planned.diff, /live\/notebook-content\.py/, 'the live definition against what the upgrade sends');
  for (const r of await sandbox.admin.requests({ since }))
    if (r.service !== 'identity')
      assert.ok(
        r.method === 'GET' || (r.method === 'POST' && /\/getDefinition$/.test(r.path)),
        `the plan made ${r.service} ${r.method} ${r.path}, which is not a read`,
      );
  const removing = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, {
    workspaceId: ws,
    operation: 'upgrade',
    removeDropped: true,
  });
  assert.equal(removing.plan.items.find((i: any) => i.key === 'growth-report').action, 'remove');
  assert.equal(
    (await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 400, { workspaceId: ws, removeDropped: true })).error.field,
    'removeDropped',
  );
  assert.equal(
    (await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 400, { workspaceId: ws, operation: 'upgrade', mode: 'shared' })).error.field,
    'mode',
  );
  await call(h, await h.tenant(), 'POST', `/api/apps/${APP}/plan`, 404, { workspaceId: ws, operation: 'upgrade' });

  // Bad input and another tenant: nothing started.
  const bad = await call(h, tenant, 'POST', `${base}/upgrade`, 400, { removeDroped: true });
  assert.match(JSON.stringify(bad.error), /removeDroped|additional/);
  await call(h, await h.tenant(), 'POST', `${base}/upgrade`, 404, {});
  await call(h, tenant, 'POST', `/api/workspaces/${ws}/apps/app-not-installed/upgrade`, 404, {});

  const started = await call(h, tenant, 'POST', `${base}/upgrade`, 202, {});
  assert.deepEqual([started.job.kind, started.job.status, started.job.appId], ['upgrade', 'running', APP]);
  assert.deepEqual(started.job.options, { fromVersion: '1.0.0', toVersion: '1.1.0', removeDropped: false });
  assert.deepEqual(
    started.job.steps.slice(-1).map((s: any) => s.key),
    ['growth-report'],
    'the dropped item comes last',
  );
  const job = await followJob(h, tenant, started.job.id);
  assert.equal(job.status, 'done', JSON.stringify(job.steps.map((s: any) => [s.key, s.result])));
  assert.equal(stepOf(job, 'profile-notebook').result.status, 'updated');
  assert.match(stepOf(job, 'profile-notebook').result.diff, NEW_CELL);
  assert.equal(stepOf(job, 'freshness-notebook').result.status, 'created');
  assert.equal(stepOf(job, 'growth-report').result.status, 'dropped');
  assert.match(stepOf(job, 'growth-report').result.message, /kept/);
  for (const key of [
    'sample-lakehouse',
    'inspector-lakehouse',
    'inventory-notebook',
    'history-notebook',
    'maintenance-notebook',
    'health-report',
  ])
    assert.equal(stepOf(job, key).result.status, 'no-change', key);
  // Dependencies first: the added notebook after the lakehouse it reads.
  assert.ok(stepOf(job, 'inspector-lakehouse').stepIndex < stepOf(job, 'freshness-notebook').stepIndex);

  // The live notebook holds the new cell; the stored one holds it and the user's edit.
  assert.match(await notebookSource(h, sandbox, profile.resourceId), NEW_CELL);
  const stored = await storedContent(h, tenant, ws, profile.itemId);
  assert.deepEqual(stored.content.writes, ['inspector-lakehouse', 'sample-lakehouse'], 'the user’s edit is kept');
  assert.equal(stored.content.cells.length, 4);
  assert.match(stored.content.cells[3].source, NEW_CELL);
  const fresh = await liveNamed(sandbox, 'Check Table Freshness');
  assert.equal(fresh.length, 1, 'the added notebook exists once');
  assert.equal(fresh[0].id, stepOf(job, 'freshness-notebook').result.resourceId);
  assert.equal((await liveNamed(sandbox, 'Profile Columns')).length, 1, 'the changed notebook was updated in place');

  const after = (await call(h, tenant, 'GET', base, 200)).app;
  assert.deepEqual([after.version, after.status, after.lastJobId], ['1.1.0', 'installed', job.id]);
  assert.ok(after.items.some((i: any) => i.key === 'freshness-notebook' && i.status === 'created'));
  assert.ok(
    after.items.some((i: any) => i.key === 'growth-report' && i.itemId === growth.itemId),
    'the dropped item is still stored',
  );
  await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${growth.itemId}`, 200);
  const thread = await h.store.db
    .selectFrom('thread_edges')
    .select(['from_item_id', 'to_item_id'])
    .where('workspace_id', '=', ws)
    .execute();
  const freshItem = after.items.find((i: any) => i.key === 'freshness-notebook');
  const lakehouse = after.items.find((i: any) => i.key === 'inspector-lakehouse');
  assert.ok(
    thread.some((e) => e.from_item_id === freshItem.itemId && e.to_item_id === lakehouse.itemId),
    'the new edge is recorded',
  );

  const again = await call(h, tenant, 'POST', `${base}/upgrade`, 409, {});
  assert.equal(again.error.code, 'app_current');
});

test('a conflicting edit of the changed cells: a conflict step with both versions, nothing written, the app stays 1.0.0 partial', async (t) => {
  let edited: any;
  const { h, tenant, ws } = await installedThenV2(t, async (h1, tenant1, ws1) => {
    edited = await editContent(h1, tenant1, ws1, 'profile-notebook', (c) => {
      c.cells[1].source = 'target_lakehouse = "SampleSales"\nsample_rows = 1_000';
    });
  });
  const base = `/api/workspaces/${ws}/apps/${APP}`;
  const profile = await appItem(h, tenant, ws, APP, 'profile-notebook');
  const before = await storedContent(h, tenant, ws, profile.itemId);
  const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'upgrade' });
  const planned = plan.items.find((i: any) => i.key === 'profile-notebook');
  assert.equal(planned.action, 'conflict');
  assert.equal(planned.conflicts[0].path, '/cells');
  // Through the TypeScript client, as a caller would.
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const client = createSvcClient({ baseUrl: `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`, token: tenant.token });
  const accepted = await client.apps.upgrade(ws, APP);
  assert.deepEqual([accepted.kind, accepted.options.removeDropped], ['upgrade', false]);
  assert.equal((await client.jobs.wait(accepted.id, { intervalMs: 200, timeoutMs: 120_000 })).status, 'partial');
  const job = await followJob(h, tenant, accepted.id);
  assert.equal(job.status, 'partial');
  const step = stepOf(job, 'profile-notebook').result;
  assert.equal(step.status, 'conflict');
  assert.equal(step.conflicts.length, 1);
  assert.equal(step.conflicts[0].path, '/cells');
  assert.deepEqual(step.conflicts[0].ours, edited.cells, 'the user’s version');
  assert.equal(step.conflicts[0].theirs.length, 4, 'the new version');
  assert.equal(step.conflicts[0].base.length, 3, 'the installed version');
  const after = await storedContent(h, tenant, ws, profile.itemId);
  assert.deepEqual([after.content, after.etag], [before.content, before.etag], 'the stored content is unchanged');
  assert.equal(stepOf(job, 'freshness-notebook').result.status, 'created');
  const app = (await call(h, tenant, 'GET', base, 200)).app;
  assert.deepEqual([app.version, app.status], ['1.0.0', 'partial']);
});

test('removeDropped removes the dropped item; a job of the app running answers job_running; a re-run creates nothing twice', async (t) => {
  const { h, sandbox, tenant, ws } = await installedThenV2(t);
  const base = `/api/workspaces/${ws}/apps/${APP}`;
  const growth = await appItem(h, tenant, ws, APP, 'growth-report');
  const appRows = await h.store.db.selectFrom('installed_app_items').selectAll().where('workspace_id', '=', ws).execute();
  await sandbox.admin.setLatency({ dataPlatform: 150 });
  const started = await call(h, tenant, 'POST', `${base}/upgrade`, 202, { removeDropped: true });
  assert.equal((await call(h, tenant, 'GET', base, 200)).app.status, 'upgrading');
  assert.equal((await call(h, tenant, 'POST', `${base}/upgrade`, 409)).error.code, 'job_running', 'a POST without a body too');
  const job = await followJob(h, tenant, started.job.id);
  await sandbox.admin.setLatency({ dataPlatform: 0 });
  assert.equal(job.status, 'done', JSON.stringify(job.steps.map((s: any) => [s.key, s.result])));
  assert.equal(stepOf(job, 'growth-report').result.status, 'deleted');
  await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${growth.itemId}`, 404);
  const app = (await call(h, tenant, 'GET', base, 200)).app;
  assert.ok(!app.items.some((i: any) => i.key === 'growth-report'));
  assert.equal(app.version, '1.1.0');

  // The process killed after the added notebook was created but before its step's result (and the job's end) were
  // stored: the steps from there on have no result and the app is as it was before the job ended. The resumed job
  // finds the notebook it created and creates nothing twice.
  const fresh = stepOf(job, 'freshness-notebook');
  await h.store.db.deleteFrom('installed_app_items').where('workspace_id', '=', ws).where('app_id', '=', APP).execute();
  const kept = await h.store.db.selectFrom('items').select('id').where('workspace_id', '=', ws).execute();
  const alive = new Set(kept.map((r) => r.id));
  await h.store.db
    .insertInto('installed_app_items')
    .values(appRows.filter((r) => alive.has(r.item_id)).map((r) => ({ ...r, base_content: JSON.stringify(r.base_content) })))
    .execute();
  await h.store.db
    .updateTable('installed_apps')
    .set({ version: '1.0.0', status: 'upgrading' })
    .where('workspace_id', '=', ws)
    .where('app_id', '=', APP)
    .execute();
  await h.store.db
    .updateTable('install_steps')
    .set({ result: null })
    .where('job_id', '=', job.id)
    .where('step_index', '>=', fresh.stepIndex)
    .execute();
  await h.store.db
    .updateTable('install_jobs')
    .set({ status: 'running', phase: 'upgrading', percent_complete: 5, finished_at: null, lease_owner: null, lease_expires_at: null })
    .where('id', '=', job.id)
    .execute();
  const rerun = await followJob(h, tenant, job.id);
  assert.equal(rerun.status, 'done', JSON.stringify(rerun.steps.map((s: any) => [s.key, s.result])));
  assert.equal(stepOf(rerun, 'freshness-notebook').result.status, 'created');
  assert.equal(stepOf(rerun, 'freshness-notebook').result.resourceId, fresh.result.resourceId);
  assert.equal(stepOf(rerun, 'growth-report').result.status, 'not-found');
  assert.equal((await call(h, tenant, 'GET', base, 200)).app.version, '1.1.0');
  for (const name of ['Check Table Freshness', 'Profile Columns', 'Scan Table Inventory'])
    assert.equal((await liveNamed(sandbox, name)).length, 1, `${name} exists once`);
  const stored = await call(h, tenant, 'GET', `/api/workspaces/${ws}/items?limit=100`, 200);
  const names = stored.items.map((i: any) => `${i.itemType}/${i.displayName}`);
  assert.equal(new Set(names).size, names.length, 'no stored item twice');
  assert.equal(names.filter((n: string) => n === 'notebook/Check Table Freshness').length, 1);
});

test('a dropped data store is kept even with removeDropped; an app the catalog no longer has answers 404', async (t) => {
  // Version 1.1.0 without the SampleSales lakehouse (and what named it), with 1.0.0's growth report (an app has 8 items).
  const shipped = path.resolve(import.meta.dirname, '../../../catalog/apps', APP);
  const v1 = JSON.parse(fs.readFileSync(path.join(shipped, 'app.json'), 'utf8'));
  const catalog = catalogVariant(t, (files) => {
    const app = files.get('app.json');
    app.items = [...app.items.filter((i: any) => i.key !== 'sample-lakehouse'), v1.items.find((i: any) => i.key === 'growth-report')];
    app.edges.push(v1.edges.find((e: any) => e.from === 'growth-report'));
    files.set('items/growth-report.json', JSON.parse(fs.readFileSync(path.join(shipped, 'items/growth-report.json'), 'utf8')));
    app.edges = app.edges.filter((e: any) => e.to !== 'sample-lakehouse' && e.from !== 'sample-lakehouse');
    files.delete('items/sample-lakehouse.json');
    for (const [name, json] of files)
      if (name.startsWith('items/') && Array.isArray(json.reads)) json.reads = json.reads.filter((k: string) => k !== 'sample-lakehouse');
  });
  const { h, sandbox, tenant, ws } = await installedThenV2(t, undefined, catalog);
  const sample = await appItem(h, tenant, ws, APP, 'sample-lakehouse');
  const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, {
    workspaceId: ws,
    operation: 'upgrade',
    removeDropped: true,
  });
  const planned = Object.fromEntries(plan.items.map((i: any) => [i.key, i]));
  assert.equal(planned['sample-lakehouse'].action, 'keep');
  assert.match(planned['sample-lakehouse'].message, /data/);
  assert.equal(planned['growth-report'].action, 'no-change');
  const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/apps/${APP}/upgrade`, 202, { removeDropped: true });
  const job = await followJob(h, tenant, started.job.id);
  assert.equal(job.status, 'done', JSON.stringify(job.steps.map((s: any) => [s.key, s.result])));
  assert.equal(stepOf(job, 'sample-lakehouse').result.status, 'kept');
  assert.equal(stepOf(job, 'growth-report').result.status, 'no-change');
  await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${sample.itemId}`, 200);
  assert.equal((await liveNamed(sandbox, 'SampleSales')).length, 1, 'the live lakehouse is kept');
  const app = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 200)).app;
  assert.ok(
    app.items.some((i: any) => i.key === 'sample-lakehouse'),
    'the kept data store stays in the app',
  );
});

test('an app the catalog no longer has: upgrade and its plan answer 404, nothing started', async (t) => {
  const { h, tenant, ws } = await installedThenV2(t, undefined, catalogVariant(t, undefined, ['app-data-steward']));
  const app = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 200)).app;
  assert.equal(app.catalogVersion, null);
  await call(h, tenant, 'POST', `/api/workspaces/${ws}/apps/${APP}/upgrade`, 404, {});
  await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 404, { workspaceId: ws, operation: 'upgrade' });
  assert.equal((await call(h, tenant, 'GET', `/api/workspaces/${ws}/jobs?kind=upgrade`, 200)).jobs.length, 0);
  assert.equal((await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 200)).app.status, 'installed');
});
