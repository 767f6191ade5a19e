// What the decoded definition parts must say for the real data platform to take them: a mirrored database names an
// existing connection by id (GET /v1/connections lists them); eventstream.json has the published topology's shape and
// its destinations name items by their GUIDs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, part, sandbox } from './helpers.js';

async function rig(t: Parameters<typeof sandbox>[0]) {
  const sb = await sandbox(t, {});
  const token = await sb.admin.token({ audience: 'https://api.fabric.microsoft.com' });
  const api = sb.env.SVC_DATA_PLATFORM_API_URL!;
  return {
    sb,
    api,
    dp: (path: string, opts: Parameters<typeof call>[1] = {}) =>
      call(`${api}/workspaces/${sb.ids.platformWorkspaceId}${path}`, { token, ...opts }),
    get: (path: string) => call(`${api}${path}`, { token }),
  };
}

const mirroring = (connection: string) => ({
  properties: {
    source: { type: 'AzureSqlDatabase', typeProperties: { connection, database: 'SalesDb' } },
    target: { type: 'MountedRelationalDatabase', typeProperties: { defaultSchema: 'dbo', format: 'Delta' } },
  },
});
const mirrorBody = (name: string, connection: string) => ({
  displayName: name,
  definition: { parts: [part('mirroring.json', JSON.stringify(mirroring(connection)))] },
});

test('connections: GET /v1/connections lists the seeded cloud connections (paged); GET by id; the admin API removes one', async (t) => {
  const { sb, get } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.pageSize', 2);
  const first = await get('/connections');
  assert.equal(first.status, 200);
  assert.equal(first.body.value.length, 2);
  const rest = await call(first.body.continuationUri, { token: await sb.admin.token({ audience: 'dataPlatform' }) });
  const names = [...first.body.value, ...rest.body.value].map((c: any) => c.displayName).sort();
  assert.deepEqual(names, sb.ids.connections.map((c) => c.displayName).sort());
  const sales = sb.ids.connections.find((c) => c.displayName === 'sql-sales-prod')!;
  const one = await get(`/connections/${sales.id}`);
  assert.equal(one.body.connectionDetails.path, `${sales.server};${sales.database}`);
  assert.equal(one.body.connectivityType, 'ShareableCloud');
  assert.equal(await sb.admin.removeConnection('SQL-SALES-PROD'), true);
  assert.equal((await get(`/connections/${sales.id}`)).status, 404);
  assert.equal(
    (await sb.admin.state()).dataPlatform.connections.some((c) => c.displayName === 'sql-sales-prod'),
    false,
  );
  assert.equal(await sb.admin.removeConnection('sql-sales-prod'), false, 'gone already');
});

test('mirroring.json: the source connection must be the id of an existing connection, else 400 InvalidInput naming the field', async (t) => {
  const { sb, dp } = await rig(t);
  const sales = sb.ids.connections.find((c) => c.displayName === 'sql-sales-prod')!;
  for (const [connection, says] of [
    ['${connection.id}', /is not a valid connection id/],
    ['sql-sales-prod', /is not a valid connection id/],
    ['6952a7b2-aea3-414f-9d85-6c0fe5d34539', /does not exist/],
  ] as const) {
    const res = await dp('/mirroredDatabases', { json: mirrorBody(`Mirror${Math.random().toString(36).slice(2, 7)}`, connection) });
    assert.equal(res.status, 400, connection);
    assert.equal(res.body.errorCode, 'InvalidInput');
    assert.match(res.body.moreDetails[0].message, /^mirroring\.json: properties\.source\.typeProperties\.connection: /);
    assert.match(res.body.moreDetails[0].message, says);
  }
  assert.equal((await dp('/items?type=MirroredDatabase')).body.value.length, 0, 'nothing created');
  const ok = await dp('/mirroredDatabases', { json: mirrorBody('SalesMirror', sales.id) });
  assert.equal(ok.status, 201, ok.text);
  // updateDefinition is held to the same rule.
  const bad = await dp(`/items/${ok.body.id}/updateDefinition`, { json: { definition: mirrorBody('x', '${connection.id}').definition } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errorCode, 'InvalidInput');
});

const topology = (destination: Record<string, unknown>) => ({
  sources: [{ id: '0b4f8e2a-3c1d-4e5f-8a9b-1c2d3e4f5a6b', name: 'gateway', type: 'CustomEndpoint', properties: {} }],
  destinations: [{ id: '1c5a9f3b-4d2e-4f6a-9bac-2d3e4f5a6b7c', name: 'kql', inputNodes: [{ name: 'main' }], ...destination }],
  streams: [
    { id: '2d6bae4c-5e3f-4a7b-8cbd-3e4f5a6b7c8d', name: 'main', type: 'DefaultStream', properties: {}, inputNodes: [{ name: 'gateway' }] },
  ],
  operators: [],
  compatibilityLevel: '1.0',
});
const eventstreamBody = (name: string, destination: Record<string, unknown>) => ({
  displayName: name,
  definition: { parts: [part('eventstream.json', JSON.stringify(topology(destination)))] },
});

test('eventstream.json: checked against the published topology; an Eventhouse destination names a KQL database item by GUID', async (t) => {
  const { sb, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  // A database on the sandbox's cluster is a KQL database of the platform workspace's eventhouse.
  const arm = await sb.admin.token({ audience: 'arm' });
  const put = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/PlantTelemetry?api-version=2024-04-13`, {
    method: 'PUT',
    token: arm,
    json: { kind: 'ReadWrite', location: 'eastus' },
  });
  assert.equal(put.status, 201, put.text);
  const kqlDb = (await dp('/items?type=KQLDatabase')).body.value.find((i: any) => i.displayName === 'PlantTelemetry');
  assert.ok(kqlDb, 'listed as a KQLDatabase item');
  const props = (itemId: string) => ({
    type: 'Eventhouse',
    properties: {
      dataIngestionMode: 'ProcessedIngestion',
      workspaceId: sb.ids.platformWorkspaceId,
      itemId,
      databaseName: 'PlantTelemetry',
      tableName: 'Telemetry',
      inputSerialization: { type: 'Json', properties: { encoding: 'UTF8' } },
    },
  });

  const armId = await dp('/eventstreams', { json: eventstreamBody('ArmId', props(put.body.id)) });
  assert.equal(armId.status, 400, 'a resource manager id where the schema wants the item GUID');
  assert.equal(armId.body.errorCode, 'InvalidInput');
  assert.ok(
    armId.body.moreDetails.some((d: any) => /destinations\[0\]\.properties\.itemId: .* is not a uuid/.test(d.message)),
    JSON.stringify(armId.body),
  );
  const missing = await dp('/eventstreams', { json: eventstreamBody('NoType', { properties: {} }) });
  assert.equal(missing.status, 400);
  assert.ok(
    missing.body.moreDetails.some((d: any) => /destinations\[0\]\.type: required/.test(d.message)),
    JSON.stringify(missing.body),
  );
  const unknownItem = await dp('/eventstreams', { json: eventstreamBody('Unknown', props('6952a7b2-aea3-414f-9d85-6c0fe5d34539')) });
  assert.equal(unknownItem.status, 400);
  assert.match(unknownItem.body.moreDetails[0].message, /is not a KQLDatabase or Eventhouse item/);
  assert.equal((await dp('/items?type=Eventstream')).body.value.length, 0, 'nothing created');

  const ok = await dp('/eventstreams', { json: eventstreamBody('Telemetry', props(kqlDb.id)) });
  assert.equal(ok.status, 201, ok.text);
  const bad = await dp(`/items/${ok.body.id}/updateDefinition`, {
    json: { definition: eventstreamBody('x', props(put.body.id)).definition },
  });
  assert.equal(bad.status, 400, 'updateDefinition is held to the same rules');
});
