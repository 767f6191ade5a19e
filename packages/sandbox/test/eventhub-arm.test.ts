// The resource manager's Microsoft.EventHub (namespace, event hubs, consumer groups) and the KQL cluster's Event Hub
// data connections: what the real providers answer and refuse, and requests that conform to the published descriptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox, sleep } from './helpers.js';
import { validate } from '../src/conformance/validate.js';
import type { Sandbox } from '../src/index.js';

const EH = 'api-version=2024-01-01';
const KUSTO = 'api-version=2024-04-13';
const hubUrl = (sb: Sandbox, hub: string, extra = '') => `${sb.urls.arm}${sb.ids.eventHubNamespaceId}/eventhubs/${hub}${extra}?${EH}`;
const groupUrl = (sb: Sandbox, hub: string, cg: string) => hubUrl(sb, hub, `/consumergroups/${cg}`);
const dcUrl = (sb: Sandbox, db: string, dc: string) =>
  `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/${db}/dataConnections/${dc}?${KUSTO}`;

test('event hubs: the seeded namespace, create (200), read, list, update, consumer groups, delete (200, then 204)', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'arm' });
  const ns = await call(`${sb.urls.arm}${sb.ids.eventHubNamespaceId}?${EH}`, { token });
  assert.equal(ns.status, 200);
  assert.equal(ns.body.name, sb.ids.eventHubNamespace);
  assert.equal(ns.body.sku.tier, 'Standard');
  assert.equal(sb.env.SVC_EVENTHUB_NAMESPACE, sb.ids.eventHubNamespaceId);

  const created = await call(hubUrl(sb, 'w1_telemetry'), {
    method: 'PUT',
    token,
    json: { properties: { partitionCount: 2, messageRetentionInDays: 3 } },
  });
  assert.equal(created.status, 200, 'Event Hubs answers a create with 200');
  assert.equal(created.body.id, `${sb.ids.eventHubNamespaceId}/eventhubs/w1_telemetry`);
  assert.deepEqual(created.body.properties.partitionIds, ['0', '1']);
  assert.equal(created.body.properties.status, 'Active');
  const read = await call(hubUrl(sb, 'W1_TELEMETRY'), { token });
  assert.equal(read.body.name, 'w1_telemetry', 'names compare without case');
  const updated = await call(hubUrl(sb, 'w1_telemetry'), {
    method: 'PUT',
    token,
    json: { properties: { partitionCount: 2, messageRetentionInDays: 7 } },
  });
  assert.equal(updated.status, 200);
  assert.equal(updated.body.properties.messageRetentionInDays, 7);
  const repartition = await call(hubUrl(sb, 'w1_telemetry'), { method: 'PUT', token, json: { properties: { partitionCount: 4 } } });
  assert.equal(repartition.status, 400);
  assert.match(repartition.body.error.message, /cannot be changed from 2 to 4/);

  const groups = await call(hubUrl(sb, 'w1_telemetry', '/consumergroups'), { token });
  assert.deepEqual(
    groups.body.value.map((g: any) => g.name),
    ['$Default'],
    'every event hub has $Default',
  );
  const cg = await call(groupUrl(sb, 'w1_telemetry', 'kql-ingestion'), { method: 'PUT', token, json: { properties: {} } });
  assert.equal(cg.status, 200);
  assert.equal(cg.body.type, 'Microsoft.EventHub/namespaces/eventhubs/consumergroups');
  assert.equal((await call(groupUrl(sb, 'w1_telemetry', 'kql-ingestion'), { token })).status, 200);
  assert.equal((await call(groupUrl(sb, 'w1_telemetry', 'nope'), { token })).body.error.code, 'NotFound');
  const noDefault = await call(groupUrl(sb, 'w1_telemetry', '$Default'), { method: 'DELETE', token });
  assert.equal(noDefault.status, 400);
  assert.equal((await call(groupUrl(sb, 'w1_telemetry', 'kql-ingestion'), { method: 'DELETE', token })).status, 200);
  assert.equal((await call(groupUrl(sb, 'w1_telemetry', 'kql-ingestion'), { method: 'DELETE', token })).status, 204);

  await call(hubUrl(sb, 'w1_other'), { method: 'PUT', token, json: { properties: { partitionCount: 1 } } });
  const first = await call(`${sb.urls.arm}${sb.ids.eventHubNamespaceId}/eventhubs?${EH}&$top=1`, { token });
  assert.equal(first.body.value.length, 1);
  assert.ok(first.body.nextLink, 'a partial page links the next one');
  const second = await call(first.body.nextLink, { token });
  assert.equal(second.body.value.length, 1);
  assert.equal(second.body.nextLink, undefined);

  assert.equal((await call(hubUrl(sb, 'w1_other'), { method: 'DELETE', token })).status, 200);
  assert.equal((await call(hubUrl(sb, 'w1_other'), { method: 'DELETE', token })).status, 204, 'already gone');
  const gone = await call(hubUrl(sb, 'w1_other'), { token });
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NotFound');
  assert.match(gone.body.error.message, /could not be found\. To know more visit https:\/\/aka\.ms\/sbResourceMgrExceptions\. TrackingId:/);
  const state = await sb.admin.state();
  assert.deepEqual(
    state.arm.eventHubs.map((h) => [h.name, h.consumerGroups]),
    [['w1_telemetry', ['$Default']]],
  );

  // The requests that succeeded are what the published description allows.
  for (const r of await sb.admin.requests({ service: 'arm' })) {
    if (r.status >= 400) continue;
    const v = validate(r);
    assert.equal(v.kind, 'described', `${r.method} ${r.path}: ${v.problems.join('; ')}`);
    assert.deepEqual(v.problems, [], `${r.method} ${r.path}`);
  }
});

test('event hubs refuse: api-version, names, partition count and retention out of range, another namespace, no role (403)', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'arm' });
  const body = { properties: { partitionCount: 2 } };
  const put = (url: string, json: unknown = body) => call(url, { method: 'PUT', token, json });
  const noVersion = await put(hubUrl(sb, 'hub').replace(`?${EH}`, ''));
  assert.equal(noVersion.body.error.code, 'MissingApiVersionParameter');
  const kustoVersion = await put(hubUrl(sb, 'hub').replace(EH, KUSTO));
  assert.equal(kustoVersion.status, 400);
  assert.equal(kustoVersion.body.error.code, 'NoRegisteredProviderFound');
  for (const bad of ['has space', '-leading', 'trailing_', 'x'.repeat(257), 'a/b'.replace('/', '%2F')]) {
    const r = await put(hubUrl(sb, bad.includes(' ') ? encodeURIComponent(bad) : bad));
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.code, 'BadRequest', bad);
  }
  assert.equal((await put(hubUrl(sb, 'x'.repeat(256)))).status, 200, '256 characters are allowed');
  for (const props of [{ partitionCount: 0 }, { partitionCount: 33 }, { messageRetentionInDays: 8 }, { partitionCount: 'two' }]) {
    const r = await put(hubUrl(sb, 'ranges'), { properties: props });
    assert.equal(r.status, 400, JSON.stringify(props));
    assert.match(r.body.error.message, /is invalid/);
  }
  assert.equal((await put(hubUrl(sb, 'ranges'), 'not an object')).status, 400);
  await put(hubUrl(sb, 'ok'));
  const longGroup = await put(groupUrl(sb, 'ok', 'g'.repeat(51)), { properties: {} });
  assert.equal(longGroup.status, 400);
  assert.match(longGroup.body.error.message, /1 to 50 characters/);
  assert.equal((await put(groupUrl(sb, 'ok', 'g'.repeat(50)), { properties: {} })).status, 200);
  assert.equal((await put(groupUrl(sb, 'missing-hub', 'g'), { properties: {} })).status, 404);
  const otherUrl = hubUrl(sb, 'ok').replace(`/namespaces/${sb.ids.eventHubNamespace}/`, '/namespaces/other-namespace/');
  assert.equal((await call(otherUrl, { token })).status, 403, 'authorization comes first: no role on another namespace');
  const owner = await sb.admin.token({ principal: sb.ids.users[0]!.upn, audience: 'arm' });
  const otherNs = await call(otherUrl, { token: owner });
  assert.equal(otherNs.status, 404, 'the subscription Owner learns it does not exist');
  assert.equal(otherNs.body.error.code, 'ResourceNotFound');

  await sb.admin.revoke({ service: 'eventHubs', role: 'Contributor' });
  const denied = await put(hubUrl(sb, 'after-revoke'));
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'AuthorizationFailed');
  assert.match(
    denied.body.error.message,
    /does not have authorization to perform action 'Microsoft\.EventHub\/namespaces\/eventhubs\/write'/,
  );
  assert.equal((await call(hubUrl(sb, 'ok'), { token })).status, 403, 'reads too: no role at all');
  await sb.admin.grant({ service: 'eventHubs', role: 'Reader' });
  assert.equal((await call(hubUrl(sb, 'ok'), { token })).status, 200, 'a Reader reads');
  assert.equal((await put(hubUrl(sb, 'after-revoke'))).status, 403, 'a Reader does not write');
});

test('data connections: validated against the event hub, consumer group, table and format; long-running PUT and DELETE', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'arm' });
  await sb.admin.setSwitch('arm.lroMs', 300);
  const db = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Plant?${KUSTO}`, {
    method: 'PUT',
    token,
    json: { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P365D' } },
  });
  assert.equal(db.status, 201);
  await sleep(400);
  const kql = await sb.admin.token({ audience: 'kql' });
  const made = await call(`${sb.urls.kql}/v1/rest/mgmt`, {
    token: kql,
    json: { db: 'Plant', csl: '.create table Readings (Device:string, Temp:real)' },
  });
  assert.equal(made.status, 200);
  await call(hubUrl(sb, 'readings'), { method: 'PUT', token, json: { properties: { partitionCount: 2 } } });
  await call(groupUrl(sb, 'readings', 'kql'), { method: 'PUT', token, json: { properties: {} } });
  const hubId = `${sb.ids.eventHubNamespaceId}/eventhubs/readings`;
  const good = {
    kind: 'EventHub',
    location: 'eastus',
    properties: { eventHubResourceId: hubId, consumerGroup: 'kql', tableName: 'Readings', dataFormat: 'JSON' },
  };
  const with_ = (props: Record<string, unknown>) => ({ ...good, properties: { ...good.properties, ...props } });
  const refusals: Array<[unknown, RegExp]> = [
    [with_({ eventHubResourceId: `${sb.ids.eventHubNamespaceId}/eventhubs/nope` }), /Event hub resource .* does not exist/],
    [with_({ consumerGroup: 'nope' }), /Consumer group 'nope' does not exist/],
    [with_({ tableName: 'Nope' }), /Table 'Nope' could not be found in database 'Plant'/],
    [with_({ dataFormat: 'XML' }), /dataFormat/],
    [with_({ mappingRuleName: 'm1' }), /Mapping 'm1' could not be found/],
    [{ ...good, kind: undefined }, /'kind' is required/],
    [{ kind: 'EventHub', properties: { consumerGroup: 'kql' } }, /'eventHubResourceId' is required/],
    [{ ...good, location: 'westeurope' }, /location/],
  ];
  for (const [json, message] of refusals) {
    const r = await call(dcUrl(sb, 'Plant', 'readings-in'), { method: 'PUT', token, json });
    assert.equal(r.status, 400, JSON.stringify(json));
    assert.match(r.body.error.message, message);
  }
  assert.equal((await call(dcUrl(sb, 'NoDb', 'readings-in'), { method: 'PUT', token, json: good })).status, 404);

  const created = await call(dcUrl(sb, 'Plant', 'readings-in'), { method: 'PUT', token, json: good });
  assert.equal(created.status, 201);
  assert.equal(created.body.properties.provisioningState, 'Creating');
  const op = created.headers.get('azure-asyncoperation')!;
  assert.match(op, /\/operationResults\//);
  let status = (await call(op, { token })).body;
  for (let i = 0; i < 50 && status.status === 'Running'; i++) {
    await sleep(50);
    status = (await call(op, { token })).body;
  }
  assert.equal(status.status, 'Succeeded');
  assert.equal(status.properties.operationKind, 'DataConnectionCreate');
  const read = await call(dcUrl(sb, 'Plant', 'readings-in'), { token });
  assert.equal(read.body.kind, 'EventHub');
  assert.equal(read.body.properties.provisioningState, 'Succeeded');
  assert.equal(read.body.properties.tableName, 'Readings');
  const again = await call(dcUrl(sb, 'Plant', 'readings-in'), { method: 'PUT', token, json: good });
  assert.equal(again.status, 200, 'an update answers 200');
  const moved = await call(dcUrl(sb, 'Plant', 'readings-in'), { method: 'PUT', token, json: with_({ consumerGroup: '$Default' }) });
  assert.equal(moved.status, 400, 'the event hub and consumer group of a connection stay');
  const list = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Plant/dataConnections?${KUSTO}`, { token });
  assert.deepEqual(
    list.body.value.map((d: any) => d.name),
    [`${sb.ids.kqlClusterName}/Plant/readings-in`],
  );

  await sb.admin.revoke({ service: 'eventHubs', role: 'Contributor' });
  const linked = await call(dcUrl(sb, 'Plant', 'second'), { method: 'PUT', token, json: good });
  assert.equal(linked.status, 403);
  assert.equal(linked.body.error.code, 'LinkedAuthorizationFailed');
  await sb.admin.grant({ service: 'eventHubs', role: 'Contributor' });
  await sb.admin.revoke({ service: 'arm', role: 'Contributor' });
  const denied = await call(dcUrl(sb, 'Plant', 'second'), { method: 'PUT', token, json: good });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'AuthorizationFailed');
  await sb.admin.grant({ service: 'arm', role: 'Contributor' });

  const removed = await call(dcUrl(sb, 'Plant', 'readings-in'), { method: 'DELETE', token });
  assert.equal(removed.status, 202);
  await sleep(400);
  assert.equal((await call(dcUrl(sb, 'Plant', 'readings-in'), { token })).status, 404);
  assert.equal((await call(dcUrl(sb, 'Plant', 'readings-in'), { method: 'DELETE', token })).status, 204, 'already gone');
  assert.deepEqual((await sb.admin.state()).arm.dataConnections, []);
  for (const r of await sb.admin.requests({ service: 'arm' })) {
    if (r.status >= 400 || !/dataConnections/.test(r.path)) continue;
    const v = validate(r);
    assert.ok(v.kind === 'described' && !v.problems.length, `${r.method} ${r.path}: ${v.kind} ${v.problems.join('; ')}`);
  }

  // A database's data connections go with it.
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  assert.equal((await call(dcUrl(sb, 'Plant', 'again'), { method: 'PUT', token, json: good })).status, 201);
  assert.equal((await sb.admin.state()).arm.dataConnections.length, 1);
  const dropped = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Plant?${KUSTO}`, { method: 'DELETE', token });
  assert.equal(dropped.status, 200);
  assert.deepEqual((await sb.admin.state()).arm.dataConnections, []);
  assert.equal((await call(dcUrl(sb, 'Plant', 'again'), { token })).status, 404);
});
