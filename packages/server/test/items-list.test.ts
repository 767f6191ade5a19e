// The item listing answers its items as the store writes their JSON: byte for byte what the route's response schema
// writes, for items of every shape (nulls, live records with portals, text that needs escaping) and with a next page,
// and each item what reading it alone answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorEnvelope } from '../src/http/schemas.js';
import { cachedSerializerFactory } from '../src/http/serializer-cache.js';
import { ItemListSchema, ItemSchema, listBody } from '../src/items/routes.js';
import type { ItemJsonPage } from '../src/items/item-service.js';
import { build } from './helpers.js';

// Every control character (each escaped one way or another), DEL, quotes, backslashes, non-ASCII and line separators.
const CONTROLS = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
const TEXTS = [
  'plain',
  'quote " and backslash \\ and \\u0041 and /',
  `lines\nand\ttabs\r\u0001 ${CONTROLS}\u007f`,
  'unicode é ✓ 😀 \u2028\u2029 \u00a0 \ufeff',
  '</script>',
];

const parsed = (page: ItemJsonPage) => ({ items: page.items.map((i) => JSON.parse(i)), nextCursor: page.nextCursor });

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
        payload: { itemType, displayName: `${itemType} ${i} ${text}`, description: text },
      });
      assert.equal(r.statusCode, 201, r.body);
      ids.push(r.json().item.id);
    }
  }
  // Live records as installs leave them: created with a portal, failed, drifted, changed since, missing, deleted, kept
  // stored, in remediation; numbers, nesting and text to escape in them; an app id.
  const live = [
    { status: 'created', resourceId: 'r-1', secondaryIds: { platformWorkspaceId: 'p-1' }, backend: 'data-platform', at: 'now' },
    { status: 'failed', error: 'the service said "no"\n\u0001', at: 'now', '10': 1, '2': 1.5e300, n: -0.25, big: 2 ** 70 },
    { status: 'created', resourceId: 'r-2', drift: { status: 'drifted', diff: '-a\n+b', jobId: 'j', at: 'now', etag: 'e' }, at: 'now' },
    { status: 'created', resourceId: 'r-3', etag: '"old"', at: 'now' },
    { status: 'created', resourceId: 'r-4', drift: { status: 'missing', at: 'now' }, at: 'now' },
    { status: 'created', resourceId: 'r-5', deleted: true, at: 'now' },
    { status: 'stored', at: 'now' },
    { status: 'remediation', resourceId: 'r-8', gate: { kind: 'x', nested: [1, [2, { z: null }]] }, at: 'now' },
  ];
  for (const [i, record] of live.entries()) {
    await h.store.db
      .updateTable('items')
      .set({ provisioning: JSON.stringify(record), app_id: i === 0 ? 'app-casino-analytics' : null })
      .where('id', '=', ids[i]!)
      .execute();
  }
  // A type this service does not know (one a newer process created, or one retired since), with and without a record.
  await h.store.db.updateTable('items').set({ item_type: 'retired-type' }).where('id', 'in', [ids[6]!, ids[9]!]).execute();

  const serialize = cachedSerializerFactory()({ Item: ItemSchema, ErrorEnvelope }, {})({ schema: ItemListSchema });
  const caller = { tenantId: a.tenantId, userId: a.userId, userName: 'Test Admin', method: 'token' as const, scopes: ['admin' as const] };
  let shapes = 0;
  for (const limit of [200, 4]) {
    const page = await h.services.items.listJson(caller, ws, { limit });
    assert.equal(listBody(page), serialize({ ok: true, ...parsed(page) }), `limit ${limit}`);
    if (limit === 4) assert.ok(page.nextCursor, 'a page with a next one');
    shapes += parsed(page).items.filter((i) => i.portal).length;
  }
  assert.ok(shapes > 0, 'an item with a portal was compared');

  // Each item as reading it alone answers it; timestamps as the Dates the rest of the service reads (microseconds cut).
  await h.store.db.updateTable('items').set({ updated_at: '2026-01-02T03:04:05.678999Z' }).where('id', '=', ids[3]!).execute();
  const all = parsed(await h.services.items.listJson(caller, ws, { limit: 200 })).items;
  assert.equal(all.length, ids.length);
  for (const item of all) assert.deepEqual(item, await h.services.items.get(caller, ws, item.id), item.displayName);
  assert.deepEqual(new Set(all.map((i) => i.liveState)).size, 7, 'every live state but one was listed');
  assert.equal(all.find((i) => i.id === ids[3])!.updatedAt, '2026-01-02T03:04:05.678Z');
  const paged: string[] = [];
  for (let cursor: string | undefined, n = 0; n === 0 || cursor; n++) {
    const page = parsed(await h.services.items.listJson(caller, ws, { limit: 4, ...(cursor ? { cursor } : {}) }));
    paged.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  }
  assert.deepEqual(
    paged,
    all.map((i) => i.id),
    'pages of four walk the same list',
  );
  const reports: string[] = [];
  for (let cursor: string | undefined, n = 0; n === 0 || cursor; n++) {
    const page = parsed(await h.services.items.listJson(caller, ws, { limit: 2, ...(cursor ? { cursor } : {}) }, { itemType: 'report' }));
    reports.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  }
  const expected = all.filter((i) => i.itemType === 'report').map((i) => i.id);
  assert.deepEqual(reports, expected, 'and so do pages of one type');
  assert.equal(reports.length, TEXTS.length);

  // What the route answers is that text; an empty workspace lists nothing, another tenant's workspace is not found.
  const r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items?limit=4`, headers: a.auth });
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.body, serialize({ ok: true, ...parsed(await h.services.items.listJson(caller, ws, { limit: 4 })) }));
  const empty = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: a.auth, payload: { name: 'empty' } })).json()
    .workspace.id;
  const none = await h.app.inject({ method: 'GET', url: `/api/workspaces/${empty}/items`, headers: a.auth });
  assert.equal(none.body, '{"ok":true,"items":[]}');
  const b = await h.tenant();
  const other = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items`, headers: b.auth });
  assert.equal(other.statusCode, 404, other.body);
});
