import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, KustoConnectionStringBuilder } from 'azure-kusto-data';
import { call, sandbox, sleep } from './helpers.js';
import type { Sandbox } from '../src/index.js';

const API = 'api-version=2024-04-13';
const dbUrl = (sb: Sandbox, db: string, extra = '') => `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/${db}?${API}${extra}`;
const body = { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P365D', hotCachePeriod: 'P31D' } };

/** The Kusto client a real user would use, authenticating with the managed identity (App Service endpoint). */
function kusto(sb: Sandbox): Client {
  process.env.IDENTITY_ENDPOINT = sb.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sb.env.IDENTITY_HEADER;
  return new Client(KustoConnectionStringBuilder.withSystemManagedIdentity(sb.env.SVC_KQL_CLUSTER_URI!));
}

async function errorOf(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected a failure');
}

test('resource manager: database PUT answers 201 + Azure-AsyncOperation, polled to Succeeded; the database then exists in the KQL cluster', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('arm.lroMs', 3000); // long enough to be seen Running on a loaded machine
  const token = await sb.admin.token({ audience: 'https://management.azure.com/' });
  const created = await call(dbUrl(sb, 'Telemetry'), { method: 'PUT', token, json: body });
  assert.equal(created.status, 201);
  assert.equal(created.body.name, `${sb.ids.kqlClusterName}/Telemetry`);
  assert.equal(created.body.type, 'Microsoft.Kusto/Clusters/Databases');
  assert.equal(created.body.properties.provisioningState, 'Creating');
  const asyncUrl = created.headers.get('azure-asyncoperation')!;
  assert.match(asyncUrl, /\/providers\/Microsoft\.Kusto\/locations\/eastus\/operationResults\/[0-9a-f-]{36}\?api-version=2024-04-13$/);
  assert.ok(created.headers.get('retry-after'));
  const client = kusto(sb);
  const early = await errorOf(client.execute('Telemetry', '.show tables'));
  assert.equal(early.response.status, 400, 'not in the cluster before the operation completes');
  assert.equal(early.response.data.error.code, 'BadRequest_EntityNotFound');
  let op = await call(asyncUrl, { token });
  assert.equal(op.body.status, 'Running');
  for (let i = 0; i < 100 && op.body.status === 'Running'; i++) {
    await sleep(100);
    op = await call(asyncUrl, { token });
  }
  assert.equal(op.body.status, 'Succeeded');
  assert.equal((await call(dbUrl(sb, 'Telemetry'), { token })).body.properties.provisioningState, 'Succeeded');
  const again = await call(dbUrl(sb, 'Telemetry'), { method: 'PUT', token, json: body });
  assert.equal(again.status, 200, 'an update answers 200');
  const tables = await client.execute('Telemetry', '.show tables');
  assert.equal(tables.primaryResults[0]!._rows.length, 0);
  assert.equal((await call(dbUrl(sb, 'Missing'), { method: 'DELETE', token })).status, 204);
  await sb.admin.setSwitch('arm.asyncMode', 'always');
  const async202 = await call(dbUrl(sb, 'Staging'), { method: 'PUT', token, json: body });
  assert.equal(async202.status, 202);
  assert.ok(async202.headers.get('location') && async202.headers.get('azure-asyncoperation'));
});

test('resource manager errors: api-version, audience, Contributor on the cluster, validation, not found — all in the ARM error shape', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'arm' });
  const noVersion = await call(dbUrl(sb, 'Db').replace(`?${API}`, ''), { method: 'PUT', token, json: body });
  assert.equal(noVersion.status, 400);
  assert.equal(noVersion.body.error.code, 'MissingApiVersionParameter');
  const wrongAud = await call(dbUrl(sb, 'Db'), { method: 'PUT', token: await sb.admin.token({ audience: 'dataPlatform' }), json: body });
  assert.equal(wrongAud.status, 401);
  assert.equal(wrongAud.body.error.code, 'InvalidAuthenticationTokenAudience');
  assert.match(wrongAud.headers.get('www-authenticate')!, /^Bearer authorization_uri=/);
  const badPeriod = await call(dbUrl(sb, 'Db'), { method: 'PUT', token, json: { ...body, properties: { softDeletePeriod: '365 days' } } });
  assert.equal(badPeriod.status, 400);
  assert.match(badPeriod.body.error.message, /ISO 8601/);
  assert.equal((await call(dbUrl(sb, 'Db'), { method: 'PUT', token, json: { location: 'eastus' } })).status, 400, 'kind is required');
  assert.equal((await call(dbUrl(sb, 'Nope'), { token })).body.error.code, 'ResourceNotFound');
  await sb.admin.revoke({ service: 'arm', role: 'Contributor' });
  const denied = await call(dbUrl(sb, 'Db'), { method: 'PUT', token, json: body });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'AuthorizationFailed');
  assert.match(
    denied.body.error.message,
    new RegExp(
      `The client '${sb.ids.serviceIdentity.appId}' with object id '${sb.ids.serviceIdentity.objectId}' does not have authorization to perform action 'Microsoft.Kusto/clusters/databases/write'`,
    ),
  );
  assert.equal(denied.headers.get('x-ms-failure-cause'), 'gateway');
});

test('.create table twice (the second is success and no change), .ingest inline, counts, filters and take through azure-kusto-data', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  assert.equal(
    (await call(dbUrl(sb, 'Plant'), { method: 'PUT', token: await sb.admin.token({ audience: 'arm' }), json: body })).status,
    201,
  );
  const client = kusto(sb);
  const first = await client.execute(
    'Plant',
    '.create table Readings (Timestamp:datetime, Device:string, Temp:real, Ok:bool, Tags:dynamic)',
  );
  const schema = first.primaryResults[0]!.toJSON<any>().data[0];
  assert.equal(schema.TableName, 'Readings');
  const second = await client.execute('Plant', '.create table Readings (Other:string)');
  assert.deepEqual(second.primaryResults[0]!.toJSON<any>().data[0].Schema, schema.Schema, 'unchanged: the original schema');
  await client.execute(
    'Plant',
    '.ingest inline into table Readings <|\n2024-05-01T00:00:00Z,dev-1,71.5,true,"{""line"":""A""}"\n2024-05-01T00:01:00Z,dev-2,88,false,\n2024-05-01T00:02:00Z,dev-1,90.25,true,"[1,2]"',
  );
  const count = async (q: string) => (await client.execute('Plant', q)).primaryResults[0]!.toJSON<any>().data[0].Count;
  assert.equal(await count('Readings | count'), 3);
  assert.equal(await count("Readings | where Device == 'dev-1' | count"), 2);
  assert.equal(await count('Readings | where Temp > 80 and Ok == true | count'), 1);
  const taken = await client.execute('Plant', 'Readings | take 2');
  assert.equal(taken.primaryResults[0]!._rows.length, 2);
  const cols = taken.primaryResults[0]!.columns.map((c) => `${c.name}:${c.type}`);
  assert.deepEqual(cols, ['Timestamp:datetime', 'Device:string', 'Temp:real', 'Ok:bool', 'Tags:dynamic']);
  await client.execute(
    'Plant',
    ".create-or-alter function with (docstring='hot devices', folder='alerts') HotDevices(threshold:real) { Readings | where Temp > threshold | summarize Hits = count() by Device }",
  );
  const hot = await client.execute('Plant', 'HotDevices(85) | order by Device asc');
  assert.deepEqual(hot.primaryResults[0]!.toJSON<any>().data, [
    { Device: 'dev-1', Hits: 1 },
    { Device: 'dev-2', Hits: 1 },
  ]);
  const merged = await client.execute('Plant', '.create-merge table Readings (Site:string)');
  assert.match(merged.primaryResults[0]!.toJSON<any>().data[0].Schema, /"Site"/);
  const clash = await errorOf(client.execute('Plant', '.create-merge table Readings (Temp:string)'));
  assert.equal(clash.response.status, 400);
  const state = await sb.admin.state();
  const db = state.kql.databases.find((d) => d.name === 'Plant')!;
  assert.deepEqual(
    db.tables.map((x) => [x.name, x.rowCount]),
    [['Readings', 3]],
  );
  assert.deepEqual(
    db.functions.map((f) => f.name),
    ['HotDevices'],
  );
  const v1 = await call(`${sb.urls.kql}/v1/rest/query`, {
    token: await sb.admin.token({ audience: 'kql' }),
    json: { db: 'Plant', csl: 'Readings | count' },
  });
  assert.equal(v1.body.Tables.length, 4, 'V1 query: result, properties, status, table of contents');
  assert.equal(v1.body.Tables[3].Rows[0][1], 'QueryResult');
});

test('KQL errors in OneApiErrors shape: .create table needs AllDatabasesAdmin (403), a wrong audience 401, a semantic error 400, 429 → ThrottlingError', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  // callerRole=None: the service identity that creates the database is not made its Admin, so only its cluster role lets it write.
  await call(dbUrl(sb, 'Ops', '&callerRole=None'), { method: 'PUT', token: await sb.admin.token({ audience: 'arm' }), json: body });
  const client = kusto(sb);
  await client.execute('Ops', '.create table T (a:string)');
  await sb.admin.revoke({ service: 'kql', role: 'AllDatabasesAdmin' });
  const denied = await errorOf(client.execute('Ops', '.create table U (a:string)'));
  assert.equal(denied.response.status, 403);
  const e = denied.response.data.error;
  assert.equal(e.code, 'Forbidden');
  assert.equal(e['@type'], 'Kusto.DataNode.Exceptions.UnauthorizedDatabaseAccessException');
  assert.match(e['@message'], new RegExp(`Principal 'aadapp=${sb.ids.serviceIdentity.appId};${sb.ids.tenantId}' is not authorized`));
  assert.equal(e['@permanent'], true);
  assert.ok(denied.response.headers['x-ms-activity-id']);
  // The resource manager's principal assignment restores it (state shared between the two emulators).
  const armToken = await sb.admin.token({ audience: 'arm' });
  const pa = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/principalAssignments/svc-admin?${API}`, {
    method: 'PUT',
    token: armToken,
    json: {
      properties: { principalId: sb.ids.serviceIdentity.appId, principalType: 'App', role: 'AllDatabasesAdmin', tenantId: sb.ids.tenantId },
    },
  });
  assert.equal(pa.status, 201);
  assert.equal(pa.body.properties.provisioningState, 'Succeeded');
  assert.equal(pa.body.properties.aadObjectId, sb.ids.serviceIdentity.objectId);
  await client.execute('Ops', '.create table U (a:string)');
  const wrong = await call(`${sb.urls.kql}/v1/rest/mgmt`, {
    token: await sb.admin.token({ audience: 'search' }),
    json: { db: 'Ops', csl: '.show tables' },
  });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.error.code, 'Unauthorized');
  const semantic = await errorOf(client.execute('Ops', 'Nope | count'));
  assert.equal(semantic.response.status, 400);
  assert.match(semantic.response.data.error['@message'], /SEM0100/);
  await sb.admin.addFault({ service: 'kql', path: '/v2/rest/query', status: 429, retryAfter: 2, count: 1 });
  const throttled = await errorOf(client.execute('Ops', 'T | count'));
  assert.equal(throttled.name, 'ThrottlingError');
  assert.equal((await client.execute('Ops', 'T | count')).primaryResults[0]!.toJSON<any>().data[0].Count, 0);
});
