// The cached item listing never serves what a committed write changed: in the writing process at once,
// and in every other process sharing the store as soon as the store's change feed announces the commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type TestApp, type TestTenant } from './helpers.js';

const names = async (h: TestApp, tenant: TestTenant, ws: string) => {
  const r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items`, headers: tenant.auth });
  assert.equal(r.statusCode, 200, r.body);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  return (r.json().items as Array<{ displayName: string }>).map((i) => i.displayName).sort();
};

async function setup(h: TestApp) {
  const tenant = await h.tenant();
  const ws = (
    await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: tenant.auth, payload: { name: `rc-${Date.now()}` } })
  ).json().workspace.id;
  const create = (displayName: string) =>
    h.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws}/items`,
      headers: tenant.auth,
      payload: { itemType: 'notebook', displayName },
    });
  return { tenant, ws, create };
}

test('the writing process sees its own writes at once: create, rename, delete, workspace delete', async (t) => {
  const h = await build(t);
  const { tenant, ws, create } = await setup(h);
  assert.deepEqual(await names(h, tenant, ws), []);
  assert.deepEqual(await names(h, tenant, ws), []); // now cached
  const a = (await create('Alpha')).json().item;
  assert.deepEqual(await names(h, tenant, ws), ['Alpha']);
  await h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${ws}/items/${a.id}`,
    headers: tenant.auth,
    payload: { displayName: 'Beta' },
  });
  assert.deepEqual(await names(h, tenant, ws), ['Beta']);
  // A write that does not go through the item routes (the store directly, as the install runner does).
  await h.store.db.updateTable('items').set({ display_name: 'Gamma' }).where('id', '=', a.id).execute();
  assert.deepEqual(await names(h, tenant, ws), ['Gamma']);
  await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws}/items/${a.id}`, headers: tenant.auth });
  assert.deepEqual(await names(h, tenant, ws), []);
  const del = await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws}`, headers: tenant.auth });
  assert.ok(del.statusCode < 300, del.body);
  const gone = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items`, headers: tenant.auth });
  assert.equal(gone.statusCode, 404, 'a deleted workspace is not served from the cache');
});

test('a cached listing is the caller’s tenant’s only: another tenant asking for the same workspace gets 404', async (t) => {
  const h = await build(t);
  const { tenant, ws, create } = await setup(h);
  await create('Mine');
  assert.deepEqual(await names(h, tenant, ws), ['Mine']);
  const other = await h.tenant();
  const r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items`, headers: other.auth });
  assert.equal(r.statusCode, 404, r.body);
});

test('a commit in another process drops this process’s cached listing through the change feed', async (t) => {
  const h = await build(t);
  const { tenant, ws } = await setup(h);
  assert.deepEqual(await names(h, tenant, ws), []);
  const feed: string[] = [];
  await h.store.listen('svc_table_changed', (table) => feed.push(table));
  const before = h.store.versions.version('items');
  if (h.store.kind === 'postgres') {
    // A second process: its own store and app on the same database; this process's cache learns only from NOTIFY.
    const other = await build(t, { SVC_DATA_DIR: h.dataDir });
    const r = await other.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws}/items`,
      headers: tenant.auth,
      payload: { itemType: 'notebook', displayName: 'Remote' },
    });
    assert.equal(r.statusCode, 201, r.body);
  } else {
    // PGlite has one process: the trigger's notification is what another process would hear.
    await h.store.db
      .insertInto('items')
      .values({
        id: `it-${Date.now()}`,
        tenant_id: tenant.tenantId,
        workspace_id: ws,
        item_type: 'notebook',
        display_name: 'Remote',
        description: '',
        app_id: null,
        content: '{}',
        content_source: 'user',
        etag: 'e1',
        provisioning: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .execute();
  }
  // The notification and the version bump it causes arrive a little after the commit (later on a loaded machine).
  const heard = () => feed.includes('items') && h.store.versions.version('items') > before;
  for (let i = 0; i < 250 && !heard(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(feed.includes('items'), 'the trigger announces the commit on svc_table_changed');
  assert.ok(h.store.versions.version('items') > before);
  assert.deepEqual(await names(h, tenant, ws), ['Remote']);
});

test('a write inside a common table expression is seen on its connection before it commits', async (t) => {
  const h = await build(t);
  const { tenant, ws, create } = await setup(h);
  const a = (await create('Alpha')).json().item;
  assert.deepEqual(await names(h, tenant, ws), ['Alpha']);
  const before = h.store.versions.version('items');
  await h.store.db.transaction().execute(async (trx) => {
    await trx
      .with('gone', (db) => db.deleteFrom('items').where('id', '=', a.id).returning('id'))
      .selectFrom('gone')
      .select('id')
      .execute();
    assert.equal(h.store.versions.settled('items'), false, 'the uncommitted delete keeps the table unsettled');
  });
  assert.ok(h.store.versions.version('items') > before, 'its commit moves the version here, not only the notification');
  assert.deepEqual(await names(h, tenant, ws), []);
});
