// The item listing writes its answer with JSON.stringify: byte for byte what the route's response schema writes, for
// items of every shape (nulls, live records with portals, text that needs escaping) and with a next page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorEnvelope } from '../src/http/schemas.js';
import { cachedSerializerFactory } from '../src/http/serializer-cache.js';
import { ItemListSchema, ItemSchema, listBody } from '../src/items/routes.js';
import { build } from './helpers.js';

const TEXTS = ['plain', 'quote " and backslash \\', 'lines\nand\ttabs\r\u0001', 'unicode é ✓ 😀 \u2028\u2029', '</script>'];

test('the listing answers the bytes its response schema writes, for items of every shape', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'shapes' } })).json().workspace
    .id;
  const ids: string[] = [];
  for (const [i, text] of TEXTS.entries()) {
    for (const itemType of ['notebook', 'lakehouse', 'report']) {
      const r = await h.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws}/items`,
        headers: a.auth,
        payload: { itemType, displayName: `${itemType} ${i}`, description: text },
      });
      assert.equal(r.statusCode, 201, r.body);
      ids.push(r.json().item.id);
    }
  }
  // Live records as installs leave them: created with a portal, failed, drifted; and an app id.
  const live = [
    { status: 'created', resourceId: 'r-1', secondaryIds: { platformWorkspaceId: 'p-1' }, backend: 'data-platform', at: 'now' },
    { status: 'failed', error: 'the service said "no"', at: 'now' },
    { status: 'created', resourceId: 'r-2', drift: { status: 'drifted', diff: '-a\n+b', jobId: 'j', at: 'now', etag: 'e' }, at: 'now' },
  ];
  for (const [i, record] of live.entries()) {
    await h.store.db
      .updateTable('items')
      .set({ provisioning: JSON.stringify(record), app_id: i === 0 ? 'app-casino-analytics' : null })
      .where('id', '=', ids[i]!)
      .execute();
  }

  const serialize = cachedSerializerFactory()({ Item: ItemSchema, ErrorEnvelope }, {})({ schema: ItemListSchema });
  const caller = { tenantId: a.tenantId, userId: a.userId, userName: 'Test Admin', method: 'token' as const, scopes: ['admin' as const] };
  let shapes = 0;
  for (const limit of [200, 4]) {
    const list = await h.services.items.list(caller, ws, { limit });
    assert.equal(listBody(list), serialize({ ok: true, ...list }), `limit ${limit}`);
    if (limit === 4) assert.ok(list.nextCursor, 'a page with a next one');
    shapes += list.items.filter((i) => i.portal).length;
  }
  assert.ok(shapes > 0, 'an item with a portal was compared');

  // Timestamps the store writes as text read as the Dates the rest of the service reads (microseconds cut).
  await h.store.db.updateTable('items').set({ updated_at: '2026-01-02T03:04:05.678999Z' }).where('id', '=', ids[3]!).execute();
  const all = await h.services.items.list(caller, ws, { limit: 200 });
  assert.equal(all.items.length, ids.length);
  for (const item of all.items) {
    const one = await h.services.items.get(caller, ws, item.id);
    assert.deepEqual([item.createdAt, item.updatedAt], [one.createdAt, one.updatedAt], item.displayName);
  }
  assert.equal(all.items.find((i) => i.id === ids[3])!.updatedAt, '2026-01-02T03:04:05.678Z');
  const paged: string[] = [];
  for (let cursor: string | undefined, n = 0; n === 0 || cursor; n++) {
    const page = await h.services.items.list(caller, ws, { limit: 4, ...(cursor ? { cursor } : {}) });
    paged.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  }
  assert.deepEqual(
    paged,
    all.items.map((i) => i.id),
    'pages of four walk the same list',
  );
  const reports: string[] = [];
  for (let cursor: string | undefined, n = 0; n === 0 || cursor; n++) {
    const page = await h.services.items.list(caller, ws, { limit: 2, ...(cursor ? { cursor } : {}) }, { itemType: 'report' });
    reports.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  }
  const expected = all.items.filter((i) => i.itemType === 'report').map((i) => i.id);
  assert.deepEqual(reports, expected, 'and so do pages of one type');
  assert.equal(reports.length, TEXTS.length);

  // What the route answers is that text.
  const r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items?limit=4`, headers: a.auth });
  assert.equal(r.statusCode, 200, r.body);
  const list = await h.services.items.list(caller, ws, { limit: 4 });
  assert.equal(r.body, serialize({ ok: true, ...list }));
});
