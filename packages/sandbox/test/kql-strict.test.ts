import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import type { Sandbox } from '../src/index.js';

const API = 'api-version=2024-04-13';
const dbUrl = (sb: Sandbox, db: string, extra = '') => `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/${db}?${API}${extra}`;
const body = { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P365D' } };

/** A database created through the resource manager (synchronously) by the given principal (the service identity by default). */
async function database(sb: Sandbox, name: string, opts: { principal?: string; query?: string } = {}) {
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  const created = await call(dbUrl(sb, name, opts.query), {
    method: 'PUT',
    token: await sb.admin.token({ audience: 'arm', principal: opts.principal }),
    json: body,
  });
  assert.equal(created.status, 201, created.text);
}

/** A management command as the service identity. */
async function mgmt(sb: Sandbox, db: string, csl: string) {
  return call(`${sb.urls.kql}/v1/rest/mgmt`, { token: await sb.admin.token({ audience: 'kql' }), json: { db, csl } });
}

test('a function body naming an unknown table or column is the semantic error Kusto gives; skipvalidation=true stores it anyway', async (t) => {
  const sb = await sandbox(t);
  await database(sb, 'Ops');
  assert.equal((await mgmt(sb, 'Ops', '.create table Readings (Device:string, Temp:real, At:datetime)')).status, 200);
  const missingTable = await mgmt(sb, 'Ops', '.create-or-alter function Hot(threshold:real) { Readngs | where Temp > threshold }');
  assert.equal(missingTable.status, 400, missingTable.text);
  assert.equal(missingTable.body.error['@type'], 'Kusto.Data.Exceptions.SemanticException');
  assert.equal(
    missingTable.body.error['@message'],
    "Semantic error: SEM0100: 'where' operator: Failed to resolve table or column expression named 'Readngs'",
  );
  const missingColumn = await mgmt(
    sb,
    'Ops',
    '.create function Hot(threshold:real) { Readings | where At > ago(1d) | summarize Hits = count() by Device | project Device, Temperature }',
  );
  assert.equal(missingColumn.status, 400, missingColumn.text);
  assert.equal(
    missingColumn.body.error['@message'],
    "Semantic error: SEM0100: 'project' operator: Failed to resolve column or scalar expression named 'Temperature'",
    'checked after a filter and a summarize too',
  );
  const shown = await mgmt(sb, 'Ops', '.show functions');
  assert.deepEqual(shown.body.Tables[0].Rows, [], 'a refused function is not stored');
  const skipped = await mgmt(sb, 'Ops', ".create-or-alter function with (skipvalidation='true') Later() { NotYet | take 5 }");
  assert.equal(skipped.status, 200, skipped.text);
  const ok = await mgmt(
    sb,
    'Ops',
    '.create-or-alter function Hot(threshold:real, n:int) { Readings | where Temp > threshold and At > ago(1d) | top n by Temp desc | project Device, Temp }',
  );
  assert.equal(ok.status, 200, ok.text);
  const alter = await mgmt(
    sb,
    'Ops',
    '.alter function Hot(threshold:real) { Hot(threshold, 3) | extend Hotter = Temp * 2 | project Device, Colder }',
  );
  assert.equal(alter.status, 400, alter.text);
  assert.match(alter.body.error['@message'], /'project' operator: Failed to resolve column or scalar expression named 'Colder'/);
  const names = (await mgmt(sb, 'Ops', '.show functions')).body.Tables[0].Rows.map((r: unknown[]) => r[0]);
  assert.deepEqual(names.sort(), ['Hot', 'Later']);
});

test('a query over an unknown table names the operator that reads it', async (t) => {
  const sb = await sandbox(t);
  await database(sb, 'Ops');
  const r = await call(`${sb.urls.kql}/v2/rest/query`, {
    token: await sb.admin.token({ audience: 'kql' }),
    json: { db: 'Ops', csl: 'Nope | count' },
  });
  assert.equal(r.status, 400);
  assert.equal(
    r.body.error['@message'],
    "Semantic error: SEM0100: 'count' operator: Failed to resolve table or column expression named 'Nope'",
  );
});

test('callerRole: the creator of a database is its Admin by default (no cluster role needed); callerRole=None and databases others created need AllDatabasesAdmin', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.revoke({ service: 'kql', role: 'AllDatabasesAdmin' });
  await database(sb, 'Mine');
  const principals = (await mgmt(sb, 'Mine', '.show database Mine principals')).body.Tables[0].Rows;
  assert.ok(
    principals.some(
      (r: string[]) => r[0] === 'Database Mine Admin' && r[4] === `aadapp=${sb.ids.serviceIdentity.appId};${sb.ids.tenantId}`,
    ),
    JSON.stringify(principals),
  );
  assert.equal((await mgmt(sb, 'Mine', '.create table T (a:string)')).status, 200, 'the creator writes without AllDatabasesAdmin');
  await database(sb, 'NoRole', { query: '&callerRole=None' });
  const none = await mgmt(sb, 'NoRole', '.create table T (a:string)');
  assert.equal(none.status, 403, none.text);
  assert.equal(none.body.error['@type'], 'Kusto.DataNode.Exceptions.UnauthorizedDatabaseAccessException');
  await database(sb, 'Theirs', { principal: sb.ids.users[0]!.objectId });
  const theirs = await mgmt(sb, 'Theirs', '.create table T (a:string)');
  assert.equal(theirs.status, 403, 'a database another principal created');
  const update = await call(dbUrl(sb, 'Theirs'), { method: 'PUT', token: await sb.admin.token({ audience: 'arm' }), json: body });
  assert.equal(update.status, 200);
  assert.equal((await mgmt(sb, 'Theirs', '.create table T (a:string)')).status, 403, 'an update does not make the caller Admin');
  await sb.admin.grant({ service: 'kql', role: 'AllDatabasesAdmin' });
  assert.equal((await mgmt(sb, 'Theirs', '.create table T (a:string)')).status, 200);
  const bad = await call(dbUrl(sb, 'Other', '&callerRole=Owner'), {
    method: 'PUT',
    token: await sb.admin.token({ audience: 'arm' }),
    json: body,
  });
  assert.equal(bad.status, 400);
});
