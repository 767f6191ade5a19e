import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { build } from './helpers.js';
import { migratedDataDir } from './store-template.js';
import { openStore } from '../src/store/db.js';

test('a workspace name another workspace of the tenant holds (ignoring case and spaces) is refused on create and rename, naming the field', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const b = await h.tenant();
  const post = (auth: { authorization: string }, name: string) =>
    h.app.inject({ method: 'POST', url: '/api/workspaces', headers: auth, payload: { name } });
  const list = async () =>
    (await h.app.inject({ method: 'GET', url: '/api/workspaces', headers: a.auth })).json().workspaces.map((w: { name: string }) => w.name);

  const sales = await post(a.auth, 'Sales');
  assert.equal(sales.statusCode, 201, sales.body);
  for (const name of ['Sales', 'SALES', '  sales  ']) {
    const dup = await post(a.auth, name);
    assert.equal(dup.statusCode, 409, `${name}: ${dup.body}`);
    assert.equal(dup.json().error.code, 'duplicate_workspace');
    assert.equal(dup.json().error.field, 'name');
    assert.match(dup.json().error.message, /already exists/);
  }
  assert.deepEqual(await list(), ['Sales'], 'a refused create stores nothing');
  assert.equal((await post(b.auth, 'Sales')).statusCode, 201, 'another tenant may hold the name');

  const hr = (await post(a.auth, 'HR')).json().workspace;
  const rename = await h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${hr.id}`,
    headers: a.auth,
    payload: { name: ' sAles', description: 'x' },
  });
  assert.equal(rename.statusCode, 409, rename.body);
  assert.equal(rename.json().error.code, 'duplicate_workspace');
  assert.equal(rename.json().error.field, 'name');
  const after = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${hr.id}`, headers: a.auth })).json().workspace;
  assert.equal(after.name, 'HR', 'a refused rename changes nothing');
  assert.equal(after.description, '');

  const own = await h.app.inject({ method: 'PATCH', url: `/api/workspaces/${hr.id}`, headers: a.auth, payload: { name: 'hr' } });
  assert.equal(own.statusCode, 200, 'a workspace may change the case of its own name');
  assert.equal(own.json().workspace.name, 'hr');
  const deleted = await h.app.inject({ method: 'DELETE', url: `/api/workspaces/${sales.json().workspace.id}`, headers: a.auth });
  assert.equal(deleted.statusCode, 200);
  assert.equal((await post(a.auth, 'sales')).statusCode, 201, 'a deleted workspace frees its name');
});

test('the migration renames existing duplicates deterministically before it builds the unique index', async (t) => {
  // An embedded store migrated to the previous step: the new migration's index dropped and its record removed.
  const dataDir = await migratedDataDir();
  const before = await openStore({ dataDir, pool: 1 });
  let closed = false;
  t.after(async () => {
    if (!closed) await before.close();
  });
  const db = before.db;
  await sql`DROP INDEX workspaces_tenant_name`.execute(db);
  await sql`DELETE FROM schema_migrations WHERE name = '013_workspace_names.sql'`.execute(db);
  const tenant = `t-${randomUUID()}`;
  const other = `t-${randomUUID()}`;
  for (const id of [tenant, other]) await sql`INSERT INTO tenants (id, name) VALUES (${id}, 'T')`.execute(db);
  const rows: Array<[string, string, string, string]> = [
    [tenant, 'w1', 'Sales', '2026-01-01T00:00:00Z'],
    [tenant, 'w2', 'sales', '2026-01-02T00:00:00Z'],
    [tenant, 'w3', 'SALES', '2026-01-03T00:00:00Z'],
    [tenant, 'w4', 'sales (2)', '2026-01-04T00:00:00Z'],
    [tenant, 'w5', 'HR', '2026-01-05T00:00:00Z'],
    [other, 'w6', 'Sales', '2026-01-01T00:00:00Z'],
  ];
  for (const [tenantId, id, name, created] of rows)
    await sql`INSERT INTO workspaces (id, tenant_id, name, created_at) VALUES (${`${id}-${tenant}`}, ${tenantId}, ${name}, ${created})`.execute(
      db,
    );
  await before.close();
  closed = true;

  const after = await openStore({ dataDir, pool: 1 });
  t.after(async () => {
    await after.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const names = await sql<{
    id: string;
    name: string;
  }>`SELECT id, name FROM workspaces WHERE tenant_id IN (${tenant}, ${other}) ORDER BY id`.execute(after.db);
  assert.deepEqual(
    names.rows.map((r) => [r.id.slice(0, 2), r.name]),
    [
      ['w1', 'Sales'],
      ['w2', 'sales (3)'], // "sales (2)" is another workspace's name already
      ['w3', 'SALES (4)'],
      ['w4', 'sales (2)'],
      ['w5', 'HR'],
      ['w6', 'Sales'],
    ],
  );
  await assert.rejects(
    sql`INSERT INTO workspaces (id, tenant_id, name) VALUES (${randomUUID()}, ${tenant}, 'hr')`.execute(after.db),
    /workspaces_tenant_name|duplicate|unique/i,
  );
});
