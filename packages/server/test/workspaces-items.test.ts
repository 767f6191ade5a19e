import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';
import { randomUUID } from 'node:crypto';
import { OPERATOR } from './install-helpers.js';

test('validation errors name the field and change nothing', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const cases: Array<[string, string, unknown, string]> = [
    ['POST', '/api/workspaces', { name: '' }, 'name'],
    ['POST', '/api/workspaces', { name: 'x'.repeat(201) }, 'name'],
    ['POST', '/api/workspaces', {}, 'name'],
    ['POST', '/api/workspaces', { name: 'ok', color: 'red' }, 'color'],
    ['POST', '/api/workspaces', { name: 42 }, 'name'],
  ];
  for (const [method, url, payload, field] of cases) {
    const r = await h.app.inject({ method: method as 'POST', url, headers: a.auth, payload: payload as object });
    assert.equal(r.statusCode, 400, JSON.stringify(payload));
    assert.equal(r.json().ok, false);
    assert.equal(r.json().error.field, field, r.body);
    assert.ok(r.json().error.message.includes(field), r.body);
  }
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'W' } })).json().workspace;
  const itemCases: Array<[unknown, string, number]> = [
    [{ itemType: 'spreadsheet', displayName: 'S' }, 'itemType', 400],
    [{ itemType: 'notebook', displayName: '   ' }, 'displayName', 400],
    [{ itemType: 'notebook', displayName: 'n'.repeat(257) }, 'displayName', 400],
    [{ itemType: 'notebook' }, 'displayName', 400],
  ];
  for (const [payload, field, status] of itemCases) {
    const r = await h.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/items`, headers: a.auth, payload: payload as object });
    assert.equal(r.statusCode, status, r.body);
    assert.equal(r.json().error.field, field, r.body);
  }
  const first = await h.app.inject({
    method: 'POST',
    url: `/api/workspaces/${ws.id}/items`,
    headers: a.auth,
    payload: { itemType: 'notebook', displayName: 'Daily Load' },
  });
  assert.equal(first.statusCode, 201);
  const dup = await h.app.inject({
    method: 'POST',
    url: `/api/workspaces/${ws.id}/items`,
    headers: a.auth,
    payload: { itemType: 'notebook', displayName: 'daily load' },
  });
  assert.equal(dup.statusCode, 409);
  assert.equal(dup.json().error.field, 'displayName');
  const otherType = await h.app.inject({
    method: 'POST',
    url: `/api/workspaces/${ws.id}/items`,
    headers: a.auth,
    payload: { itemType: 'lakehouse', displayName: 'Daily Load' },
  });
  assert.equal(otherType.statusCode, 201, 'the same name is fine for another type');
  const items = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/items`, headers: a.auth })).json().items;
  assert.equal(items.length, 2);
  const badLimit = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/items?limit=0`, headers: a.auth });
  assert.equal(badLimit.statusCode, 400);
  assert.equal(badLimit.json().error.field, 'limit');
  const badCursor = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/items?cursor=zzz`, headers: a.auth });
  assert.equal(badCursor.statusCode, 400);
  assert.equal(badCursor.json().error.field, 'cursor');
});

test('item types list the live and stored types', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const r = await h.app.inject({ method: 'GET', url: '/api/item-types', headers: a.auth });
  const types = r.json().itemTypes as Array<{ id: string; provisionedLive: boolean }>;
  const live = [
    'notebook',
    'lakehouse',
    'warehouse',
    'kql-database',
    'kql-queryset',
    'eventhouse',
    'search-index',
    'semantic-model',
    'activator',
    'data-pipeline',
    'eventstream',
  ];
  for (const id of live) assert.equal(types.find((x) => x.id === id)?.provisionedLive, true, id);
  for (const id of ['dashboard', 'scorecard', 'data-product', 'prompt-flow', 'dataflow-spec'])
    assert.equal(types.find((x) => x.id === id)?.provisionedLive, false, id);
});

test('lists page with a cursor and a limit', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'W' } })).json().workspace;
  for (let i = 0; i < 7; i++) {
    await h.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws.id}/items`,
      headers: a.auth,
      payload: { itemType: 'notebook', displayName: `N${i}` },
    });
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await h.app.inject({
      method: 'GET',
      url: `/api/workspaces/${ws.id}/items?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      headers: a.auth,
    });
    assert.equal(r.statusCode, 200);
    seen.push(...r.json().items.map((x: { displayName: string }) => x.displayName));
    cursor = r.json().nextCursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 3);
  assert.deepEqual(seen, ['N0', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6']);
});

test('content keeps an ETag: a stale If-Match answers 412 and nothing is overwritten', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'W' } })).json().workspace;
  const item = (
    await h.app.inject({
      method: 'POST',
      url: `/api/workspaces/${ws.id}/items`,
      headers: a.auth,
      payload: { itemType: 'notebook', displayName: 'N', content: { cells: [] } },
    })
  ).json().item;
  const url = `/api/workspaces/${ws.id}/items/${item.id}/content`;
  const read = await h.app.inject({ method: 'GET', url, headers: a.auth });
  const etag = read.headers.etag as string;
  assert.equal(read.json().etag, etag);
  assert.deepEqual(read.json().content, { cells: [] });

  const first = await h.app.inject({
    method: 'PUT',
    url,
    headers: { ...a.auth, 'if-match': etag },
    payload: { content: { cells: ['editor one'] } },
  });
  assert.equal(first.statusCode, 200);
  assert.notEqual(first.headers.etag, etag);
  const second = await h.app.inject({
    method: 'PUT',
    url,
    headers: { ...a.auth, 'if-match': etag },
    payload: { content: { cells: ['editor two'] } },
  });
  assert.equal(second.statusCode, 412);
  assert.equal(second.json().error.code, 'etag_mismatch');
  const missing = await h.app.inject({ method: 'PUT', url, headers: a.auth, payload: { content: { cells: ['editor three'] } } });
  assert.equal(missing.statusCode, 428);
  const now = await h.app.inject({ method: 'GET', url, headers: a.auth });
  assert.deepEqual(now.json().content, { cells: ['editor one'] });
  const item2 = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/items/${item.id}`, headers: a.auth })).json().item;
  assert.equal(item2.contentSource, 'user');
});

test('workspaces: rename, bind to a platform workspace (admin), delete with items', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'W' } })).json().workspace;
  const renamed = await h.app.inject({ method: 'PATCH', url: `/api/workspaces/${ws.id}`, headers: a.auth, payload: { name: 'Finance' } });
  assert.equal(renamed.json().workspace.name, 'Finance');
  // Binding takes a platform workspace the operator assigned to the tenant; any other is not found.
  const pws = randomUUID();
  const unassigned = await h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${ws.id}`,
    headers: a.auth,
    payload: { platformWorkspaceId: pws },
  });
  assert.equal(unassigned.statusCode, 404, unassigned.body);
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, a.tenantId, pws);
  const bound = await h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${ws.id}`,
    headers: a.auth,
    payload: { platformWorkspaceId: pws },
  });
  assert.equal(bound.json().workspace.platformWorkspaceId, pws);
  const empty = await h.app.inject({ method: 'PATCH', url: `/api/workspaces/${ws.id}`, headers: a.auth, payload: {} });
  assert.equal(empty.statusCode, 400);
  await h.app.inject({
    method: 'POST',
    url: `/api/workspaces/${ws.id}/items`,
    headers: a.auth,
    payload: { itemType: 'notebook', displayName: 'N' },
  });
  const del = await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}`, headers: a.auth });
  assert.equal(del.statusCode, 200);
  assert.equal((await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}`, headers: a.auth })).statusCode, 404);
  const left = await h.store.db.selectFrom('items').select('id').where('workspace_id', '=', ws.id).execute();
  assert.equal(left.length, 0);
});

test('errors: unknown routes answer JSON 404, oversized bodies 413, malformed JSON 400', async (t) => {
  const h = await build(t, { SVC_BODY_LIMIT_BYTES: '2048' });
  const a = await h.tenant();
  const nf = await h.app.inject({ method: 'GET', url: '/api/nothing-here', headers: a.auth });
  assert.equal(nf.statusCode, 404);
  assert.equal(nf.json().error.code, 'route_not_found');
  const big = await h.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'x', description: 'y'.repeat(5000) }),
  });
  assert.equal(big.statusCode, 413);
  assert.equal(big.json().error.code, 'body_too_large');
  const bad = await h.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: '{"name": ',
  });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().ok, false);
  const type = await h.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: { ...a.auth, 'content-type': 'text/plain' },
    payload: 'name=x',
  });
  assert.equal(type.statusCode, 415);
  assert.equal(type.json().ok, false);
});

test('data survives a restart of the service (PGlite data directory, or the PostgreSQL server)', async (t) => {
  const first = await build({ after: () => Promise.resolve() });
  const a = await first.tenant();
  const ws = (await first.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'Durable' } })).json()
    .workspace;
  await first.app.close();
  await first.store.close();
  const second = await build(t, { SVC_DATA_DIR: first.dataDir });
  const r = await second.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}`, headers: a.auth });
  assert.equal(r.statusCode, 200);
  assert.equal(r.json().workspace.name, 'Durable');
});
