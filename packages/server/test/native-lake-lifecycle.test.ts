// The lake lakehouse's lifecycle: plan (create before, no-change after), drift (in-sync, then drifted when another client
// deletes a table folder), uninstall keeping it without purgeData and deleting its folder tree and database with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lakehouseLake } from '../src/item-types/lakehouse-lake.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import type { LakehouseContent } from '../src/item-types/lakehouse.js';
import { install, stepOf, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { contextOf, targetOf } from './remove-helpers.js';
import { APP, checkRequests, lakePaths, lakeService, serverlessDb } from './native-lake-helpers.js';

const app = loadCatalog().apps.find((a) => a.id === APP)!;
const content = app.items.find((i) => i.key === 'clinical-lakehouse')!.content as LakehouseContent;
const last = async (sb: { admin: { requests(): Promise<Array<{ seq: number }>> } }) => (await sb.admin.requests()).at(-1)?.seq ?? 0;

/** Whether a lake or serverless request changes nothing: a GET, a sign-in, a SELECT or the driver's SET options. */
const isRead = (r: { method: string; text?: string }) =>
  r.method === 'GET' || r.method === 'LOGIN' || (r.method === 'BATCH' && /^\s*(SELECT\b|set [a-z_])/i.test(r.text ?? ''));

test('plan, drift and uninstall of a lakehouse on the lake: reads only until the uninstall, which keeps its data', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  const ws = await workspace(h, tenant);
  let since = await last(sb);
  const planned = (await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws })).plan;
  assert.equal(planned.items.find((i: any) => i.key === 'clinical-lakehouse').action, 'create');
  const reads = await checkRequests(sb, since, lakehouseLake.readCalls(content));
  assert.ok(reads.every(isRead), 'a plan reads only');

  const job = await install(h, tenant, APP, { workspaceId: ws });
  const folder: string = stepOf(job, 'lakehouse').result.secondaryIds.lakeFolder;
  since = await last(sb);
  const again = (await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws })).plan;
  const item = again.items.find((i: any) => i.key === 'clinical-lakehouse');
  assert.equal(item.action, 'no-change', item.diff ?? JSON.stringify(item));
  // The warehouse reading it (external tables over the lake's folder) is in step with its content too.
  const wh = again.items.find((i: any) => i.key === 'popmgt-warehouse');
  assert.equal(wh.action, 'no-change', wh.diff ?? JSON.stringify(wh));

  // Drift: in-sync, with reads only; then another client deletes a table folder: drifted, the diff names it.
  const drift = async () => {
    const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
    await followJob(h, tenant, started.job.id);
    const items = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items as any[];
    return items.find((i) => i.key === 'clinical-lakehouse');
  };
  const clean = await drift();
  assert.equal(clean.status, 'in-sync', clean.diff ?? JSON.stringify(clean));
  assert.ok((await checkRequests(sb, since, lakehouseLake.readCalls(content))).every(isRead), 'drift reads only');
  const token = await sb.admin.token({ audience: 'storage' });
  const fs = `${sb.env.SVC_LAKE_DFS_URL}/${sb.env.SVC_LAKE_ACCOUNT}/${sb.env.SVC_LAKE_CONTAINER}`;
  const gone = await fetch(`${fs}/${folder}/Tables/conditions?recursive=true`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}`, 'x-ms-version': '2025-01-05' },
  });
  assert.equal(gone.status, 200);
  const drifted = await drift();
  assert.equal(drifted.status, 'drifted', JSON.stringify(drifted));
  assert.match(drifted.diff, /Tables\/conditions/);

  // Uninstall without purgeData: the lakehouse holds data and is kept, folder tree and database alike.
  const plan = (await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'uninstall' })).plan;
  assert.equal(plan.items.find((i: any) => i.key === 'clinical-lakehouse').action, 'keep');
  const kept = await followJob(
    h,
    tenant,
    (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=false`, 202)).job.id,
  );
  const step = kept.steps.find((s: any) => s.key === 'clinical-lakehouse');
  assert.equal(step.result.status, 'kept', JSON.stringify(step.result));
  assert.ok((await lakePaths(sb, folder)).includes('Tables/patients/part-00000.csv'));
  assert.ok(await serverlessDb(sb, folder));
});

test('uninstall with purgeData deletes the folder tree and the database; removing again answers removed:false', async (t) => {
  const { h, sandbox: sb, tenant } = await lakeService(t);
  const ws = await workspace(h, tenant);
  const job = await install(h, tenant, APP, { workspaceId: ws });
  const lake = stepOf(job, 'lakehouse').result;
  const folder: string = lake.secondaryIds.lakeFolder;
  const plan = (await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'uninstall', purgeData: true }))
    .plan;
  const planned = plan.items.find((i: any) => i.key === 'clinical-lakehouse');
  assert.deepEqual([planned.action, planned.dataLoss], ['delete', true]);
  const since = await last(sb);
  const purged = await followJob(
    h,
    tenant,
    (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=true`, 202)).job.id,
  );
  const step = purged.steps.find((s: any) => s.key === 'clinical-lakehouse');
  assert.equal(step.result.status, 'deleted', JSON.stringify(step.result));
  assert.deepEqual(await lakePaths(sb, folder), []);
  assert.equal(await serverlessDb(sb, folder), undefined);
  await checkRequests(sb, since, lakehouseLake.removeCalls(content));
  // The warehouse's external tables over the folder went with the warehouse (dependants first).
  assert.equal(purged.steps.find((s: any) => s.key === 'popmgt-warehouse').result.status, 'deleted');

  // Removed again (its folder and database already gone): removed:false, nothing deleted.
  const item = app.items.find((i) => i.key === 'clinical-lakehouse')!;
  const ctx = contextOf(h, app, item, await targetOf(h, tenant), new Map());
  assert.deepEqual(await lakehouseLake.remove(ctx as never, lake.resourceId), { removed: false });
});
