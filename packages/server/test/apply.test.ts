// Apply: saving a live item's content marks it changed since provisioned; POST …/apply runs a job that pushes the stored
// content to the backing service through the type's update call and records the new live state. A new item created
// with deploy true is provisioned by the same job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, install, workspace } from './install-helpers.js';
import { appItem, call, followJob } from './lifecycle-helpers.js';

const APP = 'app-lakehouse-inspector';

test('an edited notebook is changed since provisioned; apply updates its definition, then a second apply sends nothing', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  assert.equal((await install(h, tenant, APP, { workspaceId: ws })).status, 'done');
  const nb = await appItem(h, tenant, ws, APP, 'inventory-notebook');
  const item = async () => (await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${nb.itemId}`, 200)).item;
  assert.equal((await item()).liveState, 'created');

  const read = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items/${nb.itemId}/content`, headers: tenant.auth });
  const content = read.json().content;
  content.cells.push({ kind: 'code', source: 'print("applied by the lifecycle test")' });
  await call(h, tenant, 'PUT', `/api/workspaces/${ws}/items/${nb.itemId}/content`, 200, { content }, { 'if-match': read.headers.etag });
  assert.equal((await item()).liveState, 'changed', 'saving the content marks the item changed since provisioned');

  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${nb.itemId}/apply`, 202);
  assert.deepEqual([started.job.kind, started.job.status, started.job.appId], ['apply', 'running', APP]);
  const job = await followJob(h, tenant, started.job.id);
  assert.equal(job.status, 'done', JSON.stringify(job.steps));
  const [step] = job.steps;
  assert.equal(step.result.status, 'updated');
  assert.equal(step.result.resourceId, nb.resourceId, 'the same live notebook, updated in place');
  assert.match(step.result.diff, /applied by the lifecycle test/);
  const calls = (await sandbox.admin.requests({ since })).filter((r) => r.service === 'dataPlatform');
  assert.ok(
    calls.some((r) => r.method === 'POST' && /\/updateDefinition/.test(r.path)),
    'the update definition call went to the data platform',
  );
  assert.ok(!calls.some((r) => r.method === 'POST' && /\/notebooks$|\/items$/.test(r.path)), 'nothing was created');
  assert.equal((await item()).liveState, 'created', 'the live notebook holds the stored content again');

  const again = await followJob(h, tenant, (await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${nb.itemId}/apply`, 202)).job.id);
  assert.equal(again.steps[0].result.status, 'no-change', 'the live definition now holds the cell');

  // The install-jobs path keeps serving installs only; the generic path serves every kind.
  await call(h, tenant, 'GET', `/api/apps/install-jobs/${job.id}`, 404);
  const listed = await call(h, tenant, 'GET', `/api/workspaces/${ws}/jobs?kind=apply`, 200);
  assert.deepEqual(
    listed.jobs.map((j: any) => j.id),
    [job.id, again.id],
  );
});

test('apply refuses a stored-only item and another tenant’s item; create with deploy provisions a new notebook', async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const stored = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items`, 201, {
    itemType: 'dashboard',
    displayName: 'Tiles',
    content: {},
  });
  const refused = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${stored.item.id}/apply`, 400);
  assert.equal(refused.error.code, 'item_stored_only');
  assert.equal(stored.item.liveState, 'stored-only');

  const other = await h.tenant();
  await call(h, other, 'POST', `/api/workspaces/${ws}/items/${stored.item.id}/apply`, 404);

  // deploy true with content the type refuses: 400 naming the field, nothing stored.
  const bad = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items`, 400, {
    itemType: 'notebook',
    displayName: 'Broken',
    content: { language: 'python', cells: 'not a list' },
    deploy: true,
  });
  assert.match(bad.error.field ?? bad.error.message, /content/);
  const listed = await call(h, tenant, 'GET', `/api/workspaces/${ws}/items`, 200);
  assert.deepEqual(
    listed.items.map((i: any) => i.displayName),
    ['Tiles'],
  );

  const created = await call(h, tenant, 'POST', `/api/workspaces/${ws}/items`, 201, {
    itemType: 'notebook',
    displayName: 'Scratch',
    content: { language: 'python', cells: [{ kind: 'code', source: 'print(1)' }] },
    deploy: true,
  });
  assert.equal(created.item.liveState, 'not-provisioned');
  assert.equal(created.item.provisioning.status, 'pending');
  const job = await followJob(h, tenant, created.item.provisioning.jobId);
  assert.equal(job.status, 'done', JSON.stringify(job.steps));
  assert.equal(job.steps[0].result.status, 'created');
  const item = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${created.item.id}`, 200)).item;
  assert.equal(item.liveState, 'created');
  const live = (await sandbox.admin.state()).dataPlatform.workspaces
    .flatMap((w: any) => w.items)
    .filter((i: any) => i.displayName === 'Scratch');
  assert.equal(live.length, 1, 'one live notebook named Scratch');
  assert.equal(live[0].id, job.steps[0].result.resourceId);
});
