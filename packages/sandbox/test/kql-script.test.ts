import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import type { Sandbox } from '../src/index.js';

const API = 'api-version=2024-04-13';

/** A database made by the service identity through the resource manager (synchronously); `callerRole=None` leaves it no role. */
async function database(sb: Sandbox, name: string, query = '') {
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  const created = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/${name}?${API}${query}`, {
    method: 'PUT',
    token: await sb.admin.token({ audience: 'arm' }),
    json: { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P365D' } },
  });
  assert.equal(created.status, 201, created.text);
}

async function mgmt(sb: Sandbox, db: string, csl: string) {
  return call(`${sb.urls.kql}/v1/rest/mgmt`, { token: await sb.admin.token({ audience: 'kql' }), json: { db, csl } });
}

/** A script's rows as {type, text, result, reason}. */
const rowsOf = (r: { body: any }) =>
  (r.body.Tables[0].Rows as string[][]).map(([, type, text, result, reason]) => ({ type, text, result, reason }));

const tables = async (sb: Sandbox, db: string) =>
  Object.fromEntries(((await mgmt(sb, db, '.show tables details')).body.Tables[0].Rows as unknown[][]).map((r) => [r[0], r[5]]));

test('.execute database script: tables, a function and inline ingests in one request, a row per command, run in order', async (t) => {
  const sb = await sandbox(t);
  await database(sb, 'Ops');
  const script = [
    '.execute database script <|',
    '// the tables first',
    '.create table Readings (Device:string, Temp:real)',
    '.create table Alerts (Device:string)',
    '',
    '.create-or-alter function with (docstring="hot devices") Hot(limit:real) {',
    '  Readings | where Temp > limit',
    '}',
    '.ingest inline into table Readings <|',
    'd1,20.5',
    'd2,31',
    '.show tables',
  ].join('\n');
  const r = await mgmt(sb, 'Ops', script);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    rowsOf(r).map((x) => [x.type, x.result]),
    [
      ['TableCreate', 'Completed'],
      ['TableCreate', 'Completed'],
      ['FunctionCreateOrAlter', 'Completed'],
      ['DataIngestPull', 'Completed'],
      ['Show', 'Skipped'],
    ],
  );
  assert.equal(
    rowsOf(r)[2]!.text,
    '.create-or-alter function with (docstring="hot devices") Hot(limit:real) {\n  Readings | where Temp > limit\n}',
  );
  assert.deepEqual(
    r.body.Tables[0].Columns.map((c: any) => `${c.ColumnName}:${c.ColumnType}`),
    ['OperationId:guid', 'CommandType:string', 'CommandText:string', 'Result:string', 'Reason:string'],
  );
  assert.deepEqual(await tables(sb, 'Ops'), { Readings: 2, Alerts: 0 });
  const hot = await call(`${sb.urls.kql}/v2/rest/query`, {
    token: await sb.admin.token({ audience: 'kql' }),
    json: { db: 'Ops', csl: 'Hot(25) | count' },
  });
  assert.equal(hot.body.find((f: any) => f.TableKind === 'PrimaryResult').Rows[0][0], 1);
});

test('a failed command: by default the script stops there (200, the engine’s reason, the rest Skipped and not run); ContinueOnErrors runs the rest; ThrowOnErrors fails the request', async (t) => {
  const sb = await sandbox(t);
  await database(sb, 'Ops');
  const body = ['.create table A (x:string)', '.ingest inline into table Missing <|', 'v', '.create table B (x:string)'].join('\n');

  const stopped = await mgmt(sb, 'Ops', `.execute database script <|\n${body}`);
  assert.equal(stopped.status, 200, stopped.text);
  assert.deepEqual(
    rowsOf(stopped).map((x) => x.result),
    ['Completed', 'Failed', 'Skipped'],
  );
  assert.equal(rowsOf(stopped)[1]!.reason, "Entity ID 'Missing' of kind 'Table' was not found.");
  assert.deepEqual(Object.keys(await tables(sb, 'Ops')), ['A'], 'the command after the failure did not run');

  const continued = await mgmt(sb, 'Ops', `.execute database script with (ContinueOnErrors=true) <|\n${body}`);
  assert.deepEqual(
    rowsOf(continued).map((x) => x.result),
    ['Completed', 'Failed', 'Completed'],
  );
  assert.deepEqual(Object.keys(await tables(sb, 'Ops')).sort(), ['A', 'B']);

  const thrown = await mgmt(sb, 'Ops', `.execute database script with (ThrowOnErrors=true) <|\n${body.replace(/ B /, ' C ')}`);
  assert.equal(thrown.status, 400, thrown.text);
  assert.equal(thrown.body.error['@message'], "Entity ID 'Missing' of kind 'Table' was not found.");
  assert.deepEqual(Object.keys(await tables(sb, 'Ops')).sort(), ['A', 'B'], 'the script is not transactional, and stopped at the error');

  const both = await mgmt(sb, 'Ops', `.execute database script with (ContinueOnErrors=true, ThrowOnErrors=true) <|\n${body}`);
  assert.equal(both.status, 400);
  assert.match(both.body.error['@message'], /only one of them/);
  const unknown = await mgmt(sb, 'Ops', `.execute database script with (Transactional=true) <|\n${body}`);
  assert.equal(unknown.status, 400);
});

test('a database script refuses what it may not hold (another script, cluster and database commands, a query) before running any of it, and needs Database Admin', async (t) => {
  const sb = await sandbox(t);
  await database(sb, 'Ops');
  for (const bad of [
    '.execute database script <| .create table Y (x:string)',
    '.create database Other persist (@"https://x", @"https://y")',
    '.alter cluster policy caching hot = 1d',
    '.drop database Ops',
  ]) {
    const r = await mgmt(sb, 'Ops', `.execute database script <|\n.create table X (x:string)\n${bad}`);
    assert.equal(r.status, 400, `${bad}: ${r.text}`);
    assert.match(r.body.error['@message'], /cannot be part of a database script/);
  }
  const query = await mgmt(sb, 'Ops', '.execute database script <|\nReadings | count\n.create table X (x:string)');
  assert.equal(query.status, 400);
  assert.match(query.body.error['@message'], /management commands only/);
  assert.deepEqual(await tables(sb, 'Ops'), {}, 'nothing of a refused script ran');

  // A Database User may create tables one by one but not run a script.
  await database(sb, 'Shared', '&callerRole=None');
  await sb.admin.grant({ service: 'kql', role: 'User', database: 'Shared' });
  await sb.admin.revoke({ service: 'kql', role: 'AllDatabasesAdmin' });
  assert.equal((await mgmt(sb, 'Shared', '.create table T (x:string)')).status, 200);
  const user = await mgmt(sb, 'Shared', '.execute database script <|\n.create table U (x:string)');
  assert.equal(user.status, 403, user.text);
  assert.match(user.body.error['@message'], /not authorized to perform admin actions on database 'Shared'/);
});
