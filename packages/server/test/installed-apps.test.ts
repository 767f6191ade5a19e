// An install records its app in the workspace, in the transaction of the job's final state: one row per app per
// workspace, its items with their stored and live ids, and a status from the job's outcome. A re-run and a step retry
// update that row; deleting an item takes it out of the app; deleting the workspace removes its apps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { appStatusOf } from '../src/install/app-record.js';
import { recordInstalledApp } from '../src/installed-apps/app-records.js';
import { provisionedAtInstall } from '../src/install/install-service.js';
import { followJob } from './lifecycle-helpers.js';
import { buildWithSandbox, install, retryStep, stepOf, workspace } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

const APP = 'app-lakehouse-inspector';
const catalog = loadCatalog();

const get = async (h: TestApp, tenant: TestTenant, url: string, status = 200) => {
  const r = await h.app.inject({ method: 'GET', url, headers: tenant.auth });
  assert.equal(r.statusCode, status, r.body);
  return r.json();
};

const rowsOf = async (h: TestApp, workspaceId: string) => ({
  apps: (await h.store.db.selectFrom('installed_apps').selectAll().where('workspace_id', '=', workspaceId).execute()).length,
  items: (await h.store.db.selectFrom('installed_app_items').selectAll().where('workspace_id', '=', workspaceId).execute()).length,
});

test('the app status follows the job outcome', () => {
  assert.equal(appStatusOf('all-created', 'done'), 'installed');
  assert.equal(appStatusOf('skipped', 'done'), 'installed');
  assert.equal(appStatusOf('partial', 'partial'), 'partial');
  assert.equal(appStatusOf('all-remediation', 'failed'), 'partial');
  assert.equal(appStatusOf('partial', 'failed'), 'failed');
});

test('an install records the app with its items; a re-run updates the one row; item and workspace deletes follow', async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const app = catalog.get(APP)!;
  const job = await install(h, tenant, APP, { workspaceId: ws });
  assert.equal(job.status, 'done');

  const { apps, nextCursor } = await get(h, tenant, `/api/workspaces/${ws}/apps`);
  assert.equal(nextCursor, undefined);
  assert.equal(apps.length, 1);
  const rec = apps[0];
  assert.deepEqual(
    [rec.appId, rec.displayName, rec.version, rec.catalogVersion, rec.mode, rec.status, rec.lastJobId],
    [APP, app.displayName, app.version, app.version, 'shared', 'installed', job.id],
  );
  assert.deepEqual(rec.target, job.provision.target);
  assert.equal(rec.installedBy, tenant.userId);
  assert.deepEqual(
    rec.items.map((i: any) => i.key),
    app.items.map((i) => i.key),
    'every item, in the catalog’s order',
  );
  for (const [n, item] of rec.items.entries()) {
    const stored = job.installed[n];
    assert.deepEqual([item.itemId, item.itemType, item.displayName], [stored.id, stored.itemType, stored.displayName]);
    if (provisionedAtInstall(item.itemType, PLATFORM_PROFILE)) {
      const step = job.provision.steps.find((s: any) => s.cosmosItemId === item.itemId);
      assert.deepEqual([item.status, item.resourceId], [step.result.status, step.result.resourceId]);
      assert.ok(item.resourceId, `${item.key} has its live id`);
    } else assert.deepEqual([item.status, item.resourceId], ['stored', null]);
  }
  assert.deepEqual((await get(h, tenant, `/api/workspaces/${ws}/apps/${APP}`)).app, rec);

  // The spec's idempotent re-run: the same row, now naming the second job, with the same stored items.
  const again = await install(h, tenant, APP, { workspaceId: ws });
  const after = (await get(h, tenant, `/api/workspaces/${ws}/apps/${APP}`)).app;
  assert.equal(after.lastJobId, again.id);
  assert.equal(after.installedAt, rec.installedAt);
  assert.ok(after.updatedAt > rec.updatedAt, 'updated');
  assert.deepEqual(
    after.items.map((i: any) => i.itemId),
    rec.items.map((i: any) => i.itemId),
  );
  assert.deepEqual(await rowsOf(h, ws), { apps: 1, items: app.items.length });

  // Unknown app, unknown workspace, another tenant's workspace: 404, nothing shown.
  const notInstalled = await get(h, tenant, `/api/workspaces/${ws}/apps/app-finops-cost`, 404);
  assert.equal(notInstalled.error.code, 'not_found');
  assert.match(notInstalled.error.message, /app-finops-cost/);
  await get(h, tenant, `/api/workspaces/no-such-workspace/apps`, 404);
  const other = await h.tenant();
  await get(h, other, `/api/workspaces/${ws}/apps`, 404);
  await get(h, other, `/api/workspaces/${ws}/apps/${APP}`, 404);

  // Deleting an item of the app: the app no longer lists it and shows the change.
  const notebook = after.items.find((i: any) => i.itemType === 'notebook');
  const del = await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws}/items/${notebook.itemId}`, headers: tenant.auth });
  assert.equal(del.statusCode, 200, del.body);
  const without = (await get(h, tenant, `/api/workspaces/${ws}/apps/${APP}`)).app;
  assert.deepEqual(
    without.items.map((i: any) => i.key),
    after.items.filter((i: any) => i.key !== notebook.key).map((i: any) => i.key),
  );
  assert.ok(without.updatedAt > after.updatedAt, 'the app shows the change');

  // Deleting the workspace is refused while it has installed apps (409 naming them); force uninstalls them, then deletes it.
  const refused = await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws}`, headers: tenant.auth });
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(refused.json().error.code, 'workspace_has_apps');
  assert.match(refused.json().error.message, new RegExp(APP));
  const gone = await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws}?force=true`, headers: tenant.auth });
  assert.equal(gone.statusCode, 202, gone.body);
  assert.equal((await followJob(h, tenant, gone.json().job.id)).status, 'done');
  assert.deepEqual(await rowsOf(h, ws), { apps: 0, items: 0 });
  // A job that ends after its workspace was deleted records nothing, and its final write still commits.
  const late = { tenantId: tenant.tenantId, workspaceId: ws, appId: APP, version: app.version, mode: 'shared' as const };
  const items = [{ key: notebook.key, itemType: 'notebook', itemId: notebook.itemId, resourceId: null, status: 'created' as const }];
  await h.store.db
    .transaction()
    .execute((trx) => recordInstalledApp(trx, { ...late, target: {}, status: 'installed', jobId: again.id, by: tenant.userId, items }));
  assert.deepEqual(await rowsOf(h, ws), { apps: 0, items: 0 });
});

test('a failed step leaves the app partial; the retry that completes the job makes it installed', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  await sandbox.admin.addFault({ service: 'dataPlatform', method: 'POST', path: '/notebooks', status: 400, count: 1 });
  const job = await install(h, tenant, APP, { workspaceId: ws });
  assert.equal(job.status, 'partial');
  const failed = job.provision.steps.find((s: any) => s.result.status === 'failed');
  assert.equal(failed.itemType, 'notebook');
  const partial = (await get(h, tenant, `/api/workspaces/${ws}/apps/${APP}`)).app;
  assert.equal(partial.status, 'partial');
  const item = partial.items.find((i: any) => i.itemId === failed.cosmosItemId);
  assert.deepEqual([item.status, item.resourceId], ['failed', null]);

  const retried = await retryStep(h, tenant, job.id, failed.stepIndex);
  assert.equal(retried.status, 'done');
  const installed = (await get(h, tenant, `/api/workspaces/${ws}/apps/${APP}`)).app;
  assert.deepEqual([installed.status, installed.lastJobId], ['installed', job.id]);
  const now = installed.items.find((i: any) => i.itemId === failed.cosmosItemId);
  assert.deepEqual([now.status, now.resourceId], ['created', stepOf(retried, 'notebook', failed.displayName).result.resourceId]);
  assert.deepEqual(await rowsOf(h, ws), { apps: 1, items: catalog.get(APP)!.items.length });
});

test('every step waiting on a gate leaves the app partial; stored-only installs are installed; the list pages', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  await sandbox.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  const gated = await install(h, tenant, APP, { workspaceId: ws });
  assert.deepEqual([gated.provision.outcome, gated.status], ['all-remediation', 'failed']);
  const app = (await get(h, tenant, `/api/workspaces/${ws}/apps/${APP}`)).app;
  assert.equal(app.status, 'partial');
  for (const i of app.items) assert.equal(i.status, provisionedAtInstall(i.itemType, PLATFORM_PROFILE) ? 'remediation' : 'stored', i.key);

  const second = 'app-finops-cost';
  const stored = await install(h, tenant, second, { workspaceId: ws, deploy: false });
  assert.equal(stored.status, 'done');
  const first = await get(h, tenant, `/api/workspaces/${ws}/apps?limit=1`);
  assert.deepEqual(
    first.apps.map((a: any) => a.appId),
    [APP],
  );
  assert.ok(first.nextCursor, 'a second page');
  const next = await get(h, tenant, `/api/workspaces/${ws}/apps?limit=1&cursor=${first.nextCursor}`);
  assert.deepEqual(
    next.apps.map((a: any) => a.appId),
    [second],
  );
  assert.equal(next.nextCursor, undefined);
  assert.equal(next.apps[0].status, 'installed');
  for (const i of next.apps[0].items)
    assert.equal(i.status, provisionedAtInstall(i.itemType, PLATFORM_PROFILE) ? 'skipped' : 'stored', i.key);
  const bad = await get(h, tenant, `/api/workspaces/${ws}/apps?cursor=nonsense`, 400);
  assert.equal(bad.error.field, 'cursor');
});
