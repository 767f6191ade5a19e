import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { build, type TestTenant } from './helpers.js';
import { type Event, eventsOf, recorded, send } from './audit-helpers.js';
import { buildWithSandbox, workspace } from './install-helpers.js';
import { AUDITED_OPERATIONS } from '../src/audit/audited-operations.js';

// Request ids unique to this run: on PostgreSQL the store (and its append-only trail) is shared across runs.
const RUN = randomUUID();

// The audit trail through the real app: each audited operation records one event, whatever its outcome.

test('workspace create and delete, item delete, install accepted, token create and revoke: one event each, who, what, target, outcome', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const before = Date.now();
  const created = await recorded(h, a, 'POST', '/api/workspaces', a.auth, { name: 'Audited' });
  assert.equal(created.r.statusCode, 201);
  const ws = created.r.json().workspace.id as string;
  const e = created.e;
  assert.equal(e.kind, 'workspace.created');
  assert.equal(e.outcome, 'succeeded');
  assert.equal(e.status, 201);
  assert.equal(e.tenantId, a.tenantId);
  assert.deepEqual(e.actor, { userId: a.userId, userName: 'Test Admin', tokenId: e.actor.tokenId, method: 'token' });
  assert.ok(e.actor.tokenId);
  assert.deepEqual(e.target, { type: 'workspace', id: ws, name: 'Audited' });
  assert.equal(e.workspaceId, ws);
  assert.ok(Date.parse(e.at) >= before - 1000 && Date.parse(e.at) <= Date.now() + 1000, e.at);

  const item = (await send(h, 'POST', `/api/workspaces/${ws}/items`, a.auth, { itemType: 'notebook', displayName: 'nb' })).json().item.id;
  const del = await recorded(h, a, 'DELETE', `/api/workspaces/${ws}/items/${item}`, a.auth);
  assert.equal(del.r.statusCode, 200);
  assert.deepEqual([del.e.kind, del.e.outcome, del.e.status, del.e.workspaceId], ['item.deleted', 'succeeded', 200, ws]);
  assert.deepEqual(del.e.target, { type: 'item', id: item });

  const appId = (await send(h, 'GET', '/api/apps', a.auth)).json().apps[0].id as string;
  const inst = await recorded(h, a, 'POST', `/api/apps/${appId}/install`, a.auth, { workspaceId: ws, deploy: false });
  assert.equal(inst.r.statusCode, 202, inst.r.body);
  assert.deepEqual([inst.e.kind, inst.e.outcome, inst.e.status, inst.e.workspaceId], ['app.installed', 'accepted', 202, ws]);
  assert.deepEqual(inst.e.target, { type: 'app', id: appId });
  assert.equal(inst.e.detail?.jobId, inst.r.json().jobId);
  while ((await send(h, 'GET', `/api/apps/install-jobs/${inst.r.json().jobId}`, a.auth)).json().job.status === 'running')
    await new Promise((r) => setTimeout(r, 100));

  // A token: its name, scopes and expiry, never its secret, anywhere in the stored row.
  const tok = await recorded(h, a, 'POST', '/api/tokens', a.auth, { name: 'ci deploy', scopes: ['read', 'write'] });
  assert.equal(tok.r.statusCode, 201);
  const { secret, token } = tok.r.json();
  assert.deepEqual([tok.e.kind, tok.e.outcome], ['token.created', 'succeeded']);
  assert.deepEqual(tok.e.target, { type: 'token', id: token.id, name: 'ci deploy' });
  assert.deepEqual(tok.e.detail, { scopes: ['read', 'write'], expiresAt: token.expiresAt });
  const row = await h.store.db.selectFrom('audit_events').selectAll().where('id', '=', tok.e.id).executeTakeFirstOrThrow();
  const stored = JSON.stringify(row);
  assert.ok(!stored.includes(secret) && !stored.includes(secret.split('_').at(-1)), 'the secret is not in the row');
  assert.ok(!stored.includes(a.token.split('_').at(-1)!), 'nor the caller’s');
  const rev = await recorded(h, a, 'DELETE', `/api/tokens/${token.id}`, a.auth);
  assert.deepEqual([rev.e.kind, rev.e.outcome, rev.e.target.id], ['token.revoked', 'succeeded', token.id]);

  // Refusals are recorded too: a missing scope (403), another tenant's workspace (404). A call with no credentials at
  // all has no actor or tenant and is not recorded (sign-in attempts are: audit-sign-in.test.ts), so an anonymous
  // caller cannot fill the trail.
  const reader = await a.token2(['read']);
  const no = await recorded(h, a, 'DELETE', `/api/workspaces/${ws}`, reader.auth);
  assert.deepEqual([no.r.statusCode, no.e.kind, no.e.outcome, no.e.status], [403, 'workspace.deleted', 'refused', 403]);
  assert.equal(no.e.detail?.reason, 'missing_scope');
  assert.equal(no.e.actor.tokenId, reader.id);
  const b = await h.tenant();
  const foreign = await recorded(h, b, 'DELETE', `/api/workspaces/${ws}`, b.auth);
  assert.deepEqual(
    [foreign.r.statusCode, foreign.e.outcome, foreign.e.tenantId, foreign.e.actor.userId],
    [404, 'refused', b.tenantId, b.userId],
  );
  assert.equal((await eventsOf(h, a, foreign.e.requestId)).length, 0, 'the refusal is in the caller’s tenant, not the workspace’s');
  const anonymous = await send(h, 'DELETE', `/api/workspaces/${ws}`, { 'x-request-id': `rq-anonymous-delete-${RUN}` });
  assert.equal(anonymous.statusCode, 401);
  const anon = await h.store.db.selectFrom('audit_events').selectAll().where('request_id', '=', `rq-anonymous-delete-${RUN}`).execute();
  assert.equal(anon.length, 0);

  const gone = await recorded(h, a, 'DELETE', `/api/workspaces/${ws}?force=true`, a.auth);
  assert.ok([200, 202].includes(gone.r.statusCode), gone.r.body);
  assert.equal(gone.e.kind, 'workspace.deleted');
  assert.equal(gone.e.outcome, gone.r.statusCode === 202 ? 'accepted' : 'succeeded');

  // Reads are not audited.
  const read = await send(h, 'GET', '/api/workspaces', { ...a.auth, 'x-request-id': 'rq-a-read' });
  assert.equal(read.statusCode, 200);
  assert.equal((await eventsOf(h, a, 'rq-a-read')).length, 0);
});

test('identity operations are identity.<operationId>, the token an inspection reads never recorded', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const jwt = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ aud: 'https://api.example', oid: `marker-${randomUUID()}` })}.c2lnbmF0dXJl`;
  const inspect = await recorded(h, a, 'POST', '/api/admin/identity/inspect-token', a.auth, { token: jwt });
  assert.equal(inspect.r.statusCode, 200, inspect.r.body);
  assert.deepEqual([inspect.e.kind, inspect.e.outcome, inspect.e.target.type], ['identity.inspectIdentityToken', 'succeeded', 'identity']);
  const row = await h.store.db.selectFrom('audit_events').selectAll().where('id', '=', inspect.e.id).executeTakeFirstOrThrow();
  assert.ok(!JSON.stringify(row).includes(jwt.split('.')[1]!), 'the inspected token is not in the row');
  const gone = await recorded(h, a, 'DELETE', '/api/admin/identity/credentials/no-such-credential', a.auth);
  assert.deepEqual(
    [gone.r.statusCode, gone.e.kind, gone.e.outcome, gone.e.target.id],
    [404, 'identity.deleteCredential', 'refused', 'no-such-credential'],
  );
});

test('a report publish is recorded with its name, never its definition', async (t) => {
  const { h, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant);
  const list = (await send(h, 'GET', `/api/items/paginated-report?workspaceId=${ws}`, tenant.auth)).json().reports;
  const source = list.find((r: { name: string }) => r.name === 'Sales by Region');
  const { definition } = (
    await send(h, 'GET', `/api/items/paginated-report/${source.id}/definition?workspaceId=${ws}`, tenant.auth)
  ).json();
  const pub = await recorded(h, tenant, 'POST', `/api/items/paginated-report?workspaceId=${ws}`, tenant.auth, {
    name: 'Audited copy',
    definition,
  });
  assert.equal(pub.r.statusCode, 201, pub.r.body);
  assert.deepEqual([pub.e.kind, pub.e.outcome, pub.e.workspaceId], ['report.published', 'succeeded', ws]);
  assert.deepEqual(pub.e.target, { type: 'paginated-report', id: pub.r.json().report.id, name: 'Audited copy' });
  const row = await h.store.db.selectFrom('audit_events').selectAll().where('id', '=', pub.e.id).executeTakeFirstOrThrow();
  assert.ok(!JSON.stringify(row).includes('<Report'), 'the RDL is not copied');
  const del = await recorded(h, tenant, 'DELETE', `/api/items/paginated-report/${pub.e.target.id}?workspaceId=${ws}`, tenant.auth);
  assert.deepEqual([del.e.kind, del.e.outcome], ['report.deleted', 'succeeded']);
});

test('filters, paging newest first, tenant isolation, the admin scope, bad filters 400 naming the field', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const b = await h.tenant();
  const list = async (query: string, who: TestTenant | { auth: Record<string, string> } = a) =>
    send(h, 'GET', `/api/audit-events${query}`, who.auth);
  const ws1 = await workspace(h, a, 'one');
  const ws2 = await workspace(h, a, 'two');
  const other = await a.token2(['read', 'write', 'tokens']);
  await send(h, 'PATCH', `/api/workspaces/${ws1}`, other.auth, { name: 'one, renamed' });
  await send(h, 'POST', '/api/tokens', other.auth, { name: 'x', scopes: ['read'] });
  const bWs = await workspace(h, b, 'b-ws');

  const all = (await list('')).json().auditEvents as Event[];
  assert.deepEqual(
    all.map((e) => e.kind),
    ['token.created', 'workspace.updated', 'workspace.created', 'workspace.created'],
    'newest first',
  );
  assert.ok(
    all.every((e) => e.tenantId === a.tenantId),
    'another tenant’s events are invisible',
  );
  assert.deepEqual(
    ((await list(`?workspaceId=${ws1}`)).json().auditEvents as Event[]).map((e) => e.kind),
    ['workspace.updated', 'workspace.created'],
  );
  assert.deepEqual(((await list('?kind=workspace.*')).json().auditEvents as Event[]).length, 3);
  assert.deepEqual(((await list('?kind=token.created')).json().auditEvents as Event[]).length, 1);
  assert.deepEqual(((await list(`?actor=${a.userId}`)).json().auditEvents as Event[]).length, 4);
  assert.deepEqual(((await list(`?actor=${b.userId}`)).json().auditEvents as Event[]).length, 0);
  const future = new Date(Date.now() + 60_000).toISOString();
  assert.equal((await list(`?since=${encodeURIComponent(future)}`)).json().auditEvents.length, 0);
  assert.equal(
    (await list(`?until=${encodeURIComponent(future)}&since=${encodeURIComponent(all.at(-1)!.at)}`)).json().auditEvents.length,
    4,
  );
  assert.equal((await list(`?until=${encodeURIComponent(all[1]!.at)}`)).json().auditEvents[0].id, all[1]!.id);

  const pages: Event[] = [];
  let cursor: string | undefined;
  do {
    const r = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(r.statusCode, 200, r.body);
    pages.push(...r.json().auditEvents);
    cursor = r.json().nextCursor;
  } while (cursor);
  assert.deepEqual(
    pages.map((e) => e.id),
    all.map((e) => e.id),
    'paging one at a time yields the same events in the same order',
  );

  // Another tenant's workspace, or one never had, is 404 as everywhere (a deleted one is known by its events: clients tests).
  await send(h, 'DELETE', `/api/workspaces/${bWs}`, a.auth); // refused 404, recorded in A's trail naming B's workspace
  for (const id of [bWs, 'never-there']) {
    const r = await list(`?workspaceId=${id}`);
    assert.equal(r.statusCode, 404, r.body);
    assert.equal(r.json().error.code, 'not_found');
  }
  const forbidden = await list('', other);
  assert.equal(forbidden.statusCode, 403);
  assert.equal(forbidden.json().error.code, 'missing_scope');
  for (const [query, field] of [
    ['?since=yesterday', 'since'],
    ['?until=2026-13-01T00:00:00Z', 'until'],
    ['?kind=a%25b', 'kind'],
    ['?workspaceId=..%2F', 'workspaceId'],
    ['?limit=0', 'limit'],
    ['?cursor=bm9wZQ', 'cursor'],
    ['?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'since'],
    ['?colour=red', 'colour'],
  ]) {
    const r = await list(query!);
    assert.equal(r.statusCode, 400, `${query}: ${r.body}`);
    assert.equal(r.json().error.field, field, `${query}: ${r.body}`);
  }
});

test('the trail is append-only: the store refuses UPDATE, DELETE and TRUNCATE of audit_events', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  await workspace(h, a);
  const [row] = await h.store.db.selectFrom('audit_events').select('id').where('tenant_id', '=', a.tenantId).execute();
  assert.ok(row);
  await assert.rejects(h.store.db.updateTable('audit_events').set({ outcome: 'failed' }).where('id', '=', row.id).execute(), /append-only/);
  await assert.rejects(h.store.db.deleteFrom('audit_events').where('id', '=', row.id).execute(), /append-only/);
  await assert.rejects(sql`TRUNCATE audit_events`.execute(h.store.db), /append-only/);
  const still = await h.store.db.selectFrom('audit_events').select('outcome').where('id', '=', row.id).executeTakeFirstOrThrow();
  assert.equal(still.outcome, 'succeeded');
});

test('a failed audit write is logged and counted, and the operation still answers its success', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  // A real refusal by the store: a constraint that no workspace.created row of this tenant satisfies (NOT VALID spares
  // existing rows). It is dropped at once: on PostgreSQL the store is shared by the suite's other files.
  const name = `test_refuses_${a.tenantId.replace(/[^a-z0-9]/gi, '_')}`;
  await sql
    .raw(`ALTER TABLE audit_events ADD CONSTRAINT ${name} CHECK (kind <> 'workspace.created' OR tenant_id <> '${a.tenantId}') NOT VALID`)
    .execute(h.store.db);
  let r: Awaited<ReturnType<typeof send>>;
  try {
    r = await send(h, 'POST', '/api/workspaces', { ...a.auth, 'x-request-id': 'rq-unrecorded' }, { name: 'still made' });
  } finally {
    await sql.raw(`ALTER TABLE audit_events DROP CONSTRAINT IF EXISTS ${name}`).execute(h.store.db);
  }
  assert.equal(r.statusCode, 201, r.body);
  assert.equal((await send(h, 'GET', `/api/workspaces/${r.json().workspace.id}`, a.auth)).statusCode, 200);
  assert.match(h.services.metrics.render(), /svc_audit_write_failures_total\{operation="createWorkspace"\} 1/);
  assert.equal((await eventsOf(h, a, 'rq-unrecorded')).length, 0);
});

test('every operation the audit table names exists in the OpenAPI document (needs the roles branch merged)', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const ids = new Set<string>();
  for (const methods of Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>))
    for (const op of Object.values(methods)) if (op.operationId) ids.add(op.operationId);
  const missing = Object.keys(AUDITED_OPERATIONS).filter((id) => !ids.has(id));
  assert.deepEqual(missing, [], `audited operations the document does not have: ${missing.join(', ')}`);
  assert.ok(ids.has('listAuditEvents'));
});

test('a refused sign-in whose message quotes a U+0000 the caller sent is still recorded, without it', async (t) => {
  const h = await build(t);
  const requestId = `rq-nul-${randomUUID()}`; // the trail outlives a test on a shared PostgreSQL store
  const r = await h.app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    payload: '\u0000',
  });
  assert.equal(r.statusCode, 400, r.body);
  const rows = await h.store.db.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).execute();
  assert.equal(rows.length, 1, 'the failed sign-in is recorded');
  assert.equal(rows[0]!.kind, 'session.sign-in-failed');
  assert.ok(!JSON.stringify(rows[0]).includes('\\u0000'), 'no U+0000 is stored');
});
