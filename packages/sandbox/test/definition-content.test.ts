// What the decoded definition parts must say for the real data platform to take them: a mirrored database names an
// existing connection by id (GET /v1/connections lists them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, part, sandbox } from './helpers.js';

async function rig(t: Parameters<typeof sandbox>[0]) {
  const sb = await sandbox(t, {});
  const token = await sb.admin.token({ audience: 'https://api.fabric.microsoft.com' });
  const api = sb.env.SVC_DATA_PLATFORM_API_URL!;
  return { sb, api, dp: (path: string, opts: Parameters<typeof call>[1] = {}) => call(`${api}/workspaces/${sb.ids.platformWorkspaceId}${path}`, { token, ...opts }), get: (path: string) => call(`${api}${path}`, { token }) };
}

const mirroring = (connection: string) => ({
  properties: {
    source: { type: 'AzureSqlDatabase', typeProperties: { connection, database: 'SalesDb' } },
    target: { type: 'MountedRelationalDatabase', typeProperties: { defaultSchema: 'dbo', format: 'Delta' } },
  },
});
const mirrorBody = (name: string, connection: string) => ({ displayName: name, definition: { parts: [part('mirroring.json', JSON.stringify(mirroring(connection)))] } });

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
  assert.equal((await sb.admin.state()).dataPlatform.connections.some((c) => c.displayName === 'sql-sales-prod'), false);
  assert.equal(await sb.admin.removeConnection('sql-sales-prod'), false, 'gone already');
});

test('mirroring.json: the source connection must be the id of an existing connection, else 400 InvalidInput naming the field', async (t) => {
  const { sb, dp } = await rig(t);
  const sales = sb.ids.connections.find((c) => c.displayName === 'sql-sales-prod')!;
  for (const [connection, says] of [['${connection.id}', /is not a valid connection id/], ['sql-sales-prod', /is not a valid connection id/], ['6952a7b2-aea3-414f-9d85-6c0fe5d34539', /does not exist/]] as const) {
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
