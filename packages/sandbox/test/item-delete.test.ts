// The deletes an uninstall sends (issue 19), served as the real services serve them: statuses and error bodies of the
// published descriptions, the state gone afterwards (GET 404, lists without it, a re-create works), and what depends
// on the deleted resource handled as the real service does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, DFS_VERSION, part, sandbox } from './helpers.js';
import { assertConforms } from './spec-shapes.js';

const PLATFORM = 'fabric/platform/swagger.json';
const KUSTO = 'kusto-arm/resource-manager/Microsoft.Kusto/stable/2024-04-13/kusto.json';
const ARM_DB =
  '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Kusto/clusters/{clusterName}/databases/{databaseName}';
const ARM_BODY = { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P365D', hotCachePeriod: 'P31D' } };
const SEARCH = 'api-version=2024-07-01';

test('data platform: DELETE of an item is 200, then 404 ItemNotFound; it leaves lists, its definition and its OneLake folders go', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  const token = await sb.admin.token({ audience: 'https://api.fabric.microsoft.com' });
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const nb = await call(`${ws}/notebooks`, {
    token,
    json: { displayName: 'Doomed', definition: { parts: [part('notebook-content.py', '# Fabric notebook source\n')] } },
  });
  assert.equal(nb.status, 201, nb.text);
  const kept = await call(`${ws}/notebooks`, { token, json: { displayName: 'Kept' } });
  assert.equal(kept.status, 201, kept.text);

  const deleted = await call(`${ws}/items/${nb.body.id}`, { method: 'DELETE', token });
  assert.equal(deleted.status, 200, deleted.text);
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items/{itemId}', 'DELETE', deleted);
  const again = await call(`${ws}/items/${nb.body.id}`, { method: 'DELETE', token });
  assert.equal(again.status, 404);
  assert.equal(again.body.errorCode, 'ItemNotFound');
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items/{itemId}', 'DELETE', again);
  assert.equal((await call(`${ws}/items/${nb.body.id}`, { token })).status, 404);
  assert.equal((await call(`${ws}/items/${nb.body.id}/getDefinition`, { method: 'POST', token })).status, 404, 'its definition is gone');
  const listed = (await call(`${ws}/items?type=Notebook`, { token })).body.value.map((i: { displayName: string }) => i.displayName);
  assert.deepEqual(listed, ['Kept'], 'the other item stays');
  const recreated = await call(`${ws}/notebooks`, { token, json: { displayName: 'Doomed' } });
  assert.equal(recreated.status, 201, 'the name is free again');
  assert.notEqual(recreated.body.id, nb.body.id);

  // A lakehouse's OneLake folders go with it (into the recycle bin with the item); another lakehouse keeps its own.
  const storage = await sb.admin.token({ audience: 'storage' });
  const fs = `${sb.env.SVC_ONELAKE_URL}/${sb.ids.platformWorkspaceId}`;
  const lakes = [];
  for (const name of ['GoneLake', 'KeptLake']) {
    const lh = (await call(`${ws}/lakehouses`, { token, json: { displayName: name } })).body;
    const made = await call(`${fs}/${lh.id}/Tables/orders?resource=directory`, { method: 'PUT', token: storage, headers: DFS_VERSION });
    assert.equal(made.status, 201, made.text);
    lakes.push(lh.id as string);
  }
  const [gone, stays] = lakes as [string, string];
  assert.equal((await call(`${ws}/lakehouses/${gone}`, { method: 'DELETE', token })).status, 200);
  const roots = (await sb.admin.state()).oneLake.paths.map((r) => r.root);
  assert.ok(!roots.some((r) => r.endsWith(gone)), `the deleted lakehouse's folders are gone: ${roots}`);
  assert.ok(roots.some((r) => r.endsWith(stays)));
  const read = await call(`${fs}/${gone}/Tables/orders`, { method: 'HEAD', token: storage, headers: DFS_VERSION });
  assert.equal(read.status, 404);
  assert.equal((await call(`${fs}/${stays}/Tables/orders`, { method: 'HEAD', token: storage, headers: DFS_VERSION })).status, 200);
});

test('resource manager: database DELETE is 200 (or 202 polled to its end), 204 when there is none; the KQL database goes', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'arm' });
  const url = (db: string) => `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/${db}?api-version=2024-04-13`;
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  for (const db of ['Gone', 'Kept']) assert.equal((await call(url(db), { method: 'PUT', token, json: ARM_BODY })).status, 201);
  const deleted = await call(url('Gone'), { method: 'DELETE', token });
  assert.equal(deleted.status, 200, deleted.text);
  assertConforms(KUSTO, ARM_DB, 'DELETE', deleted);
  const none = await call(url('Gone'), { method: 'DELETE', token });
  assert.equal(none.status, 204);
  assertConforms(KUSTO, ARM_DB, 'DELETE', none);
  assert.equal((await call(url('Gone'), { token })).status, 404);
  assert.equal((await call(url('Kept'), { token })).status, 200);
  const dbs = (await sb.admin.state()).kql.databases.map((d: { name: string }) => d.name);
  assert.ok(!dbs.includes('Gone') && dbs.includes('Kept'), `${dbs}`);

  await sb.admin.setSwitch('arm.asyncMode', 'always');
  await sb.admin.setSwitch('arm.lroMs', 50);
  const accepted = await call(url('Kept'), { method: 'DELETE', token });
  assert.equal(accepted.status, 202);
  assertConforms(KUSTO, ARM_DB, 'DELETE', accepted);
  const op = accepted.headers.get('azure-asyncoperation')!;
  for (let i = 0; i < 50 && (await call(op, { token })).body.status !== 'Succeeded'; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal((await call(url('Kept'), { token })).status, 404, 'gone once the operation succeeded');
  assert.equal((await call(url('Kept'), { method: 'PUT', token, json: ARM_BODY })).status, 202, 'a re-create is accepted as new');
});

test('KQL: .drop table of a missing table fails as Kusto does unless ifexists; .drop function likewise', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  const arm = await sb.admin.token({ audience: 'arm' });
  const db = `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Ops?api-version=2024-04-13`;
  assert.equal((await call(db, { method: 'PUT', token: arm, json: ARM_BODY })).status, 201);
  const token = await sb.admin.token({ audience: 'kql' });
  const mgmt = (csl: string) => call(`${sb.urls.kql}/v1/rest/mgmt`, { token, json: { db: 'Ops', csl } });
  assert.equal((await mgmt('.create table Readings (Device:string)')).status, 200);
  assert.equal((await mgmt('.create table Other (Device:string)')).status, 200);
  assert.equal((await mgmt('.drop table Readings')).status, 200);
  const missing = await mgmt('.drop table Readings');
  assert.equal(missing.status, 400, missing.text);
  assert.match(JSON.stringify(missing.body), /EntityNotFound|not found/i);
  assert.equal((await mgmt('.drop table Readings ifexists')).status, 200);
  const tables = (await mgmt('.show tables')).body.Tables[0].Rows.map((r: unknown[]) => r[0]);
  assert.deepEqual(tables, ['Other']);
  assert.equal((await mgmt('.drop function Nope')).status, 400);
  assert.equal((await mgmt('.drop function Nope ifexists')).status, 200);
});

test('search: DELETE of an index is 204 with its documents gone, then 404', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  const index = { name: 'faq', fields: [{ name: 'id', type: 'Edm.String', key: true }] };
  assert.equal((await call(`${sb.urls.search}/indexes/faq?${SEARCH}`, { method: 'PUT', token, json: index })).status, 201);
  const deleted = await call(`${sb.urls.search}/indexes/faq?${SEARCH}`, { method: 'DELETE', token });
  assert.equal(deleted.status, 204);
  const again = await call(`${sb.urls.search}/indexes/faq?${SEARCH}`, { method: 'DELETE', token });
  assert.equal(again.status, 404);
  assert.equal((await call(`${sb.urls.search}/indexes/faq?${SEARCH}`, { token })).status, 404);
  assert.equal((await call(`${sb.urls.search}/indexes/faq?${SEARCH}`, { method: 'PUT', token, json: index })).status, 201);
});
