// Deleting one item with deleteLive (an uninstall job of that item: its live resource, a data store too, then the stored
// item), and deleting a workspace with installed apps: 409 naming them, or with force one uninstall job whose end deletes
// the workspace. Another tenant's ids answer 404 everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, install, workspace, type Sandbox } from './install-helpers.js';
import { appItem, call, followJob } from './lifecycle-helpers.js';
import { appOf } from './remove-helpers.js';
import { stillLive, storedItems } from './uninstall-helpers.js';

const APP = 'app-lakehouse-inspector';

/** The ids of every item the sandbox's data platform holds. */
const platformIds = async (sandbox: Sandbox) =>
  new Set((await sandbox.admin.state()).dataPlatform.workspaces.flatMap((w: any) => w.items.map((i: any) => i.id as string)));

test(
  'DELETE item with deleteLive deletes its live resource (a data store too) and the stored item; without it the live one stays',
  { timeout: 300_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const ws = await workspace(h, tenant);
    assert.equal((await install(h, tenant, APP, { workspaceId: ws })).status, 'done');
    const nb = await appItem(h, tenant, ws, APP, 'inventory-notebook');
    const lake = await appItem(h, tenant, ws, APP, 'sample-lakehouse');
    const other = await h.tenant();
    await call(h, other, 'DELETE', `/api/workspaces/${ws}/items/${nb.itemId}?deleteLive=true`, 404);
    const bad = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${nb.itemId}?deleteLive=yes`, 400);
    assert.match(JSON.stringify(bad.error), /deleteLive/);
    assert.ok((await platformIds(sandbox)).has(nb.resourceId), 'nothing changed by a refused request');

    const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${nb.itemId}?deleteLive=true`, 202);
    assert.deepEqual([started.job.kind, started.job.appId, started.job.options.itemId], ['uninstall', APP, nb.itemId]);
    const job = await followJob(h, tenant, started.job.id);
    assert.equal(job.status, 'done', JSON.stringify(job.steps));
    assert.deepEqual(
      job.steps.map((s: any) => [s.key, s.result.status, s.result.resourceId]),
      [['inventory-notebook', 'deleted', nb.resourceId]],
    );
    assert.ok(!(await platformIds(sandbox)).has(nb.resourceId), 'the live notebook is gone');
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${nb.itemId}`, 404);
    const app = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 200)).app;
    assert.ok(!app.items.some((i: any) => i.key === 'inventory-notebook'), 'the app no longer lists it');
    assert.equal(app.status, 'installed', 'the rest of the app stays installed');

    // A data store deleted on its own: the caller asked for it, so it goes.
    const lakeJob = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${lake.itemId}?deleteLive=true`, 202)).job.id,
    );
    assert.equal(lakeJob.steps[0].result.status, 'deleted', JSON.stringify(lakeJob.steps));
    assert.ok(!(await platformIds(sandbox)).has(lake.resourceId), 'the live lakehouse is gone');

    // Without deleteLive: the stored item goes, its live resource stays (today's delete).
    const kept = await appItem(h, tenant, ws, APP, 'history-notebook');
    const plain = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${kept.itemId}`, 200);
    assert.equal(plain.deleted, kept.itemId);
    assert.ok((await platformIds(sandbox)).has(kept.resourceId), 'the live notebook stays');

    // A stored-only item: nothing live; the stored item is deleted.
    const report = await appItem(h, tenant, ws, APP, 'health-report');
    const stored = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${report.itemId}?deleteLive=true`, 202)).job.id,
    );
    assert.equal(stored.steps[0].result.status, 'deleted');
    assert.match(stored.steps[0].result.message, /nothing live/);
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${report.itemId}`, 404);
  },
);

test(
  'DELETE workspace with installed apps: 409 naming them; force uninstalls them in one job and deletes the workspace',
  { timeout: 300_000 },
  async (t) => {
    const { h, tenant } = await buildWithSandbox(t);
    const ws = await workspace(h, tenant);
    const installed = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(installed.status, 'done');
    const other = await h.tenant();
    await call(h, other, 'DELETE', `/api/workspaces/${ws}?force=true`, 404);
    await call(h, other, 'DELETE', `/api/workspaces/${ws}/apps/${APP}`, 404);
    await call(h, other, 'POST', `/api/apps/${APP}/plan`, 404, { workspaceId: ws, operation: 'uninstall' });

    const refused = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}`, 409);
    assert.equal(refused.error.code, 'workspace_has_apps');
    assert.match(refused.error.message, new RegExp(APP));
    assert.equal((await storedItems(h, tenant, ws)).length, appOf(APP).items.length, 'nothing deleted by the refusal');

    const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}?force=true`, 202);
    assert.deepEqual(
      [started.job.kind, started.job.appId, started.job.options],
      ['uninstall', null, { deleteWorkspace: true, purgeData: false }],
    );
    const job = await followJob(h, tenant, started.job.id);
    assert.equal(job.status, 'done', JSON.stringify(job.steps));
    await call(h, tenant, 'GET', `/api/workspaces/${ws}`, 404);
    // The sandbox holds none of the app's non-data resources: only the two lakehouses were kept.
    assert.deepEqual(await stillLive(h, tenant, APP, installed), ['inspector-lakehouse', 'sample-lakehouse']);
    // The job stays readable after its workspace went.
    assert.equal((await call(h, tenant, 'GET', `/api/jobs/${job.id}`, 200)).job.status, 'done');
  },
);

test('a workspace without installed apps is deleted at once, force or not', async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const r = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}?force=true`, 200);
  assert.equal(r.deleted, ws);
  await call(h, tenant, 'GET', `/api/workspaces/${ws}`, 404);
});
