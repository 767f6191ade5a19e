// Uninstall (issue 19): DELETE …/apps/{appId} runs a job that deletes the app's live resources dependants first, keeps
// its data stores unless purgeData (detached from the app, still stored), then its stored items, edges and the installed
// app. Every check reads the sandbox's state back through each type's read-only calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, install, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { edges, liveItemsOf, stillLive, storedItems } from './uninstall-helpers.js';

const APP = 'app-casino-analytics';
const DATA = ['floor-kql', 'floor-lakehouse'];

test(
  'uninstall keeps the data stores (detached, still stored), deletes the rest dependants first; purgeData deletes everything',
  { timeout: 600_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const ws = await workspace(h, tenant);
    const installed = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(installed.status, 'done', JSON.stringify(installed.provision));
    const live = liveItemsOf(APP, installed)
      .items.map((i) => i.key)
      .sort();
    assert.deepEqual(await stillLive(h, tenant, APP, installed), live);
    assert.ok((await edges(h, tenant, ws)).length > 0, 'the install drew edges');

    // The plan: dependants first; data stores kept without purgeData, deleted with dataLoss under it; nothing called.
    const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
    const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'uninstall' });
    const action = Object.fromEntries(plan.items.map((i: any) => [i.key, i.action]));
    for (const k of DATA) assert.equal(action[k], 'keep', k);
    assert.ok(plan.items.every((i: any) => DATA.includes(i.key) || i.action === 'delete'));
    const at = (items: any[], key: string) => items.findIndex((i) => i.key === key);
    assert.ok(
      at(plan.items, 'floor-report') < at(plan.items, 'floor-model') && at(plan.items, 'floor-model') < at(plan.items, 'floor-lakehouse'),
    );
    assert.ok(plan.items.find((i: any) => i.key === 'floor-report').calls.length > 0, 'a live item lists its delete calls');
    const purge = (
      await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'uninstall', purgeData: true })
    ).plan;
    for (const k of DATA)
      assert.deepEqual(
        [purge.items.find((i: any) => i.key === k).action, purge.items.find((i: any) => i.key === k).dataLoss],
        ['delete', true],
        k,
      );
    assert.deepEqual(await sandbox.admin.requests({ since }), [], 'a plan of an uninstall calls nothing');

    // A delay on the data platform's deletes holds the job mid-way: the app reads uninstalling meanwhile.
    const delay = await sandbox.admin.addFault({ service: 'dataPlatform', method: 'DELETE', delayMs: 800, count: 1 });
    const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=false`, 202);
    assert.deepEqual([started.job.kind, started.job.appId, started.job.options.purgeData], ['uninstall', APP, false]);
    assert.equal((await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 200)).app.status, 'uninstalling');
    await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}`, 409).then((b) => assert.equal(b.error.code, 'job_running'));
    const job = await followJob(h, tenant, started.job.id);
    await sandbox.admin.removeFault(delay.id);
    assert.equal(job.status, 'done', JSON.stringify(job.steps));
    const keys = job.steps.map((s: any) => s.key);
    assert.ok(
      keys.indexOf('floor-report') < keys.indexOf('floor-model') && keys.indexOf('floor-model') < keys.indexOf('floor-lakehouse'),
      keys.join(),
    );
    for (const s of job.steps)
      assert.equal(s.result.status, DATA.includes(s.key) ? 'kept' : 'deleted', `${s.key}: ${JSON.stringify(s.result)}`);
    assert.match(job.steps.find((s: any) => s.key === 'floor-lakehouse').result.message, /holds data; pass purgeData/);

    // The sandbox holds the data stores and nothing else of the app; the kept ones are stored, detached; the app is gone.
    assert.deepEqual(await stillLive(h, tenant, APP, installed), DATA);
    const left = await storedItems(h, tenant, ws);
    assert.deepEqual(left.map((i) => [i.itemType, i.appId, i.liveState]).sort(), [
      ['kql-database', null, 'created'],
      ['lakehouse', null, 'created'],
    ]);
    const leftIds = new Set(left.map((i) => i.id));
    assert.ok(
      (await edges(h, tenant, ws)).every((e) => leftIds.has(e.fromItemId) && leftIds.has(e.toItemId)),
      'no edge of a deleted item',
    );
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 404);
    await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}`, 404);

    // Installed again (into a new workspace; the kept lakehouse and database are the same live ones) and uninstalled with
    // purgeData: nothing of the app is left in the sandbox.
    const ws2 = await workspace(h, tenant);
    const again = await install(h, tenant, APP, { workspaceId: ws2 });
    assert.equal(again.status, 'done', JSON.stringify(again.provision));
    const purged = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'DELETE', `/api/workspaces/${ws2}/apps/${APP}?purgeData=true`, 202)).job.id,
    );
    assert.equal(purged.status, 'done', JSON.stringify(purged.steps));
    assert.ok(
      purged.steps.every((s: any) => s.result.status === 'deleted'),
      JSON.stringify(purged.summary),
    );
    assert.deepEqual(await stillLive(h, tenant, APP, again), []);
    assert.deepEqual(await stillLive(h, tenant, APP, installed), []);
    assert.deepEqual(await storedItems(h, tenant, ws2), []);
    assert.deepEqual(await edges(h, tenant, ws2), []);
  },
);

test(
  'a 403 on a delete: remediation step, app failed with what remains; retried after the fix, the uninstall completes',
  { timeout: 300_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const appId = 'app-lakehouse-inspector';
    const ws = await workspace(h, tenant);
    const installed = await install(h, tenant, appId, { workspaceId: ws });
    assert.equal(installed.status, 'done');
    const fault = await sandbox.admin.addFault({ service: 'dataPlatform', method: 'DELETE', path: '/items/', status: 403, count: 1 });
    const job = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${appId}?purgeData=true`, 202)).job.id,
    );
    await sandbox.admin.removeFault(fault.id);
    assert.equal(job.status, 'partial', JSON.stringify(job.summary));
    const blocked = job.steps.filter((s: any) => s.result.status === 'remediation');
    assert.equal(blocked.length, 1, JSON.stringify(job.summary));
    assert.ok(blocked[0].result.gate?.remediation, 'the step names its gate');
    assert.ok(blocked[0].result.error, 'the backing text travels with it');
    const app = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${appId}`, 200)).app;
    assert.equal(app.status, 'failed');
    assert.deepEqual(
      app.items.map((i: any) => i.key),
      [blocked[0].key],
      'only the item not deleted remains in the app',
    );
    assert.deepEqual(await stillLive(h, tenant, appId, installed), [blocked[0].key]);

    await call(h, tenant, 'POST', `/api/jobs/${job.id}/steps/${blocked[0].stepIndex}/retry`, 202);
    const retried = await followJob(h, tenant, job.id);
    assert.equal(retried.status, 'done', JSON.stringify(retried.steps));
    assert.equal(retried.steps[blocked[0].stepIndex].result.status, 'deleted');
    assert.deepEqual(await stillLive(h, tenant, appId, installed), []);
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${appId}`, 404);
    assert.deepEqual(await storedItems(h, tenant, ws), []);
  },
);
