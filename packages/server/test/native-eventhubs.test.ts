// Eventstreams in a cloud without the data platform (issue 20): an event hub in the deployment's Event Hubs namespace,
// named under the tenant's platform workspace, with a consumer group and a Kusto data connection into the KQL table
// the eventstream targets; held against the sandbox's state, its request log and the published descriptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { eventstreamEventHubs } from '../src/item-types/eventstream-event-hubs.js';
import { startSandbox } from '@svc/sandbox';
import { installTarget } from '../src/provisioning/targets.js';
import { OPERATOR, buildWithSandbox, giveSandbox, install, workspace } from './install-helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import {
  ALERTS_HUB,
  ALERTS_NAME,
  APP,
  ENDPOINTS,
  HUBS,
  READINGS,
  checkRequests,
  installed,
  prefixOf,
  setup,
  stepOf,
} from './native-eventhubs-fixture.js';

test('an eventstream without the data platform: event hub, consumer group and data connection; a re-run is exists, nothing duplicated', async (t) => {
  const { h, sb, tenant } = await setup(t);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const { job } = await installed(h, tenant);
  const platformWs = job.provision.target.platformWorkspaceId as string;
  const prefix = prefixOf(platformWs);
  const readings = stepOf(job, 'Plant Readings Stream');
  assert.equal(readings.result.status, 'created', JSON.stringify(readings.result));
  assert.equal(readings.result.backend, 'event-hubs');
  const hub = `${prefix}Plant-Readings-Stream`;
  assert.equal(readings.result.resourceId, `${sb.ids.eventHubNamespaceId}/eventhubs/${hub}`);
  assert.deepEqual(readings.result.secondaryIds, {
    eventHubNamespace: sb.ids.eventHubNamespaceId,
    eventHub: hub,
    consumerGroup: `${prefix}kql`,
    dataConnection: hub,
    clusterUri: sb.env.SVC_KQL_CLUSTER_URI,
    database: 'PlantReadings',
    table: 'Readings',
  });
  assert.ok(
    readings.result.steps.some((l: string) => /retention 30 days: 7 days/.test(l)),
    readings.result.steps.join('\n'),
  );
  const partner = stepOf(job, 'Partner Feed');
  assert.equal(partner.result.status, 'created');
  assert.equal(partner.result.backend, 'event-hubs');
  assert.ok(
    partner.result.steps.some((l: string) => /custom endpoint 'partner-feed'/.test(l)),
    partner.result.steps.join('\n'),
  );

  // Names outside the providers' rules: other characters become '-', a name too long keeps a hash of the whole.
  const alertsConnection = stepOf(job, ALERTS_NAME).result.secondaryIds.dataConnection as string;
  assert.match(alertsConnection, new RegExp(`^${prefix}Ops-Alerts-Stream-[0-9a-f]{8}$`));
  assert.equal(alertsConnection.length, 40);
  assert.equal(stepOf(job, 'Audit Feed (EU, West)').result.secondaryIds.eventHub, `${prefix}Audit-Feed-EU-West`);
  const state = (await sb.admin.state()).arm;
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((x, y) => x.name.localeCompare(y.name));
  assert.deepEqual(
    byName(state.eventHubs).map((e) => [e.name, e.messageRetentionInDays, e.consumerGroups]),
    byName(HUBS.map((n) => ({ name: `${prefix}${n}` }))).map(({ name }) =>
      name === hub
        ? [name, 7, ['$Default', `${prefix}kql`]]
        : name.endsWith(ALERTS_HUB)
          ? [name, 1, ['$Default', `${prefix}kql`]]
          : [name, 1, ['$Default']],
    ),
  );
  assert.deepEqual(
    byName(state.dataConnections).map((d) => [d.database, d.name, d.consumerGroup, d.tableName, d.dataFormat]),
    [
      ['PlantOps', alertsConnection, `${prefix}kql`, 'Alerts', 'JSON'],
      ['PlantReadings', hub, `${prefix}kql`, 'Readings', 'JSON'],
    ],
  );
  assert.ok(state.dataConnections.some((d) => d.eventHubResourceId === readings.result.resourceId));
  const made = await checkRequests(sb, since, eventstreamEventHubs.calls);
  assert.ok(
    made.some((r) => r.method === 'PUT' && /dataConnections/.test(r.path)),
    'the data connection was put',
  );

  // Installed again (another workspace of the tenant, the same platform workspace): exists, and nothing new.
  const again = await installed(h, tenant);
  for (const name of ['Plant Readings Stream', ALERTS_NAME, ...ENDPOINTS]) {
    assert.equal(stepOf(again.job, name).result.status, 'exists', JSON.stringify(stepOf(again.job, name).result));
    assert.equal(stepOf(again.job, name).result.backend, 'event-hubs');
  }
  const after = (await sb.admin.state()).arm;
  assert.equal(after.eventHubs.length, HUBS.length, 'no duplicate event hubs');
  assert.equal(after.dataConnections.length, 2, 'no duplicate data connections');
});

test('plan, drift and uninstall: reads only, another client’s change is drift, uninstall deletes the connection and the hubs', async (t) => {
  const { h, sb, tenant } = await setup(t);
  const planOf = async (key: string) => {
    const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
    const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: await workspace(h, tenant) });
    for (const r of await sb.admin.requests({ since }))
      if (r.service === 'arm') assert.equal(r.method, 'GET', `a plan reads: ${r.method} ${r.path}`);
    return plan.items.find((i: any) => i.key === key);
  };
  const fresh = await planOf('readings-stream');
  assert.equal(fresh.action, 'create', JSON.stringify(fresh));
  assert.equal(fresh.backend, 'event-hubs');
  assert.ok(
    fresh.calls.some((c: any) => c.method === 'PUT' && /dataConnections/.test(c.path)),
    JSON.stringify(fresh.calls),
  );
  const { ws, job } = await installed(h, tenant);
  const hubId = stepOf(job, 'Plant Readings Stream').result.resourceId as string;
  const hub = hubId.split('/').at(-1)!;
  const same = await planOf('readings-stream');
  assert.equal(same.action, 'no-change', JSON.stringify(same));
  assert.equal(same.resourceId, hubId);

  let since = 0;
  const drift = async () => {
    const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
    await followJob(h, tenant, started.job.id);
    return (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items as any[];
  };
  since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const clean = await drift();
  for (const key of ['readings-stream', 'alerts-stream', 'partner-feed'])
    assert.equal(clean.find((i) => i.key === key)?.status, 'in-sync', JSON.stringify(clean.find((i) => i.key === key)));
  await checkRequests(sb, since, eventstreamEventHubs.readCalls);

  // Another client shortens the hub's retention and deletes the data connection: drifted, and the diff says how.
  const token = await sb.admin.token({ audience: 'arm' });
  const asAnother = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${await res.text()}`);
  };
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  await asAnother('PUT', `${sb.urls.arm}${hubId}?api-version=2024-01-01`, { properties: { partitionCount: 2, messageRetentionInDays: 1 } });
  const dcPath = `${sb.ids.kqlClusterResourceId}/databases/PlantReadings/dataConnections/${hub}`;
  await asAnother('DELETE', `${sb.urls.arm}${dcPath}?api-version=2024-04-13`);
  const drifted = (await drift()).find((i) => i.key === 'readings-stream');
  assert.equal(drifted.status, 'drifted', JSON.stringify(drifted));
  assert.match(drifted.diff, /messageRetentionInDays/);
  assert.match(drifted.diff, /dataConnection\.json/);

  // Apply puts the stored content back: the retention, and the data connection once more (one, not two).
  const item = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 200)).app.items.find(
    (i: any) => i.key === 'readings-stream',
  );
  const applied = await followJob(
    h,
    tenant,
    (await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${item.itemId}/apply`, 202)).job.id,
  );
  assert.equal(applied.status, 'done', JSON.stringify(applied.steps));
  const repaired = (await sb.admin.state()).arm;
  assert.equal(repaired.eventHubs.find((e) => e.name === hub)?.messageRetentionInDays, 7);
  assert.equal(repaired.dataConnections.filter((d) => d.name === hub).length, 1);
  assert.equal((await drift()).find((i) => i.key === 'readings-stream')?.status, 'in-sync');

  since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const started = await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}?purgeData=false`, 202);
  const done = await followJob(h, tenant, started.job.id);
  assert.equal(done.status, 'done', JSON.stringify(done.steps));
  const state = (await sb.admin.state()).arm;
  assert.deepEqual(state.eventHubs, [], 'both event hubs deleted');
  assert.deepEqual(state.dataConnections, [], 'the data connection deleted');
  assert.ok(
    (await sb.admin.state()).kql.databases.some((d) => d.name === 'PlantReadings'),
    'the KQL database (data) is kept',
  );
  const removals = await checkRequests(sb, since, eventstreamEventHubs.removeCalls);
  assert.ok(
    removals.some((r) => r.method === 'DELETE' && r.path.includes(`/eventhubs/${hub}?`)),
    'the hub was deleted by name',
  );
});

test('gates: no namespace setting, a 403 from Event Hubs, a 403 on the data connection', async (t) => {
  await t.test('SVC_EVENTHUB_NAMESPACE unset: eventhub-not-configured', async (t) => {
    const { h, tenant } = await setup(t, { SVC_EVENTHUB_NAMESPACE: '' });
    const ws = await workspace(h, tenant);
    const job = await install(h, tenant, APP, { workspaceId: ws });
    const step = stepOf(job, 'Plant Readings Stream');
    assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
    assert.equal(step.result.gate.reason, 'Event Hubs namespace not configured');
    assert.match(step.result.gate.remediation, /SVC_EVENTHUB_NAMESPACE/);
  });
  await t.test('the identity without a role on the namespace: eventhub-auth, the provider’s text passed on', async (t) => {
    const { h, sb, tenant } = await setup(t);
    await sb.admin.revoke({ service: 'eventHubs', role: 'Contributor' });
    const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
    for (const name of ['Plant Readings Stream', 'Partner Feed']) {
      const step = stepOf(job, name);
      assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
      assert.equal(step.result.gate.reason, 'Event Hubs 401/403 from resource manager');
      assert.match(step.result.gate.remediation, /Azure Event Hubs Data Owner or Contributor on the Event Hubs namespace/);
      assert.match(step.result.error, /AuthorizationFailed/);
    }
    assert.deepEqual((await sb.admin.state()).arm.eventHubs, []);
  });
  await t.test('a 403 on the data connection: kql-arm-auth', async (t) => {
    const { h, sb, tenant } = await setup(t);
    await sb.admin.addFault({ service: 'arm', method: 'PUT', path: 'dataConnections', status: 403, errorCode: 'AuthorizationFailed' });
    const job = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
    const step = stepOf(job, 'Plant Readings Stream');
    assert.equal(step.result.status, 'remediation', JSON.stringify(step.result));
    assert.equal(step.result.gate.reason, 'KQL 401/403 from resource manager');
    assert.equal(stepOf(job, 'Partner Feed').result.status, 'created', 'a custom endpoint needs no data connection');
  });
});

test('two tenants: each its own event hubs and data connection under its prefix; one uninstall leaves the other’s', async (t) => {
  const { h, sb, tenant: a } = await setup(t);
  const first = await installed(h, a);
  const b = await h.tenant();
  const otherWs = randomUUID();
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, b.tenantId, otherWs);
  await giveSandbox(h, b.tenantId, sb, { platformWorkspace: false });
  const second = await installed(h, b);
  assert.equal(second.job.provision.target.platformWorkspaceId, otherWs);
  assert.equal(stepOf(second.job, 'Plant Readings Stream').result.status, 'created', 'not the other tenant’s hub');
  const names = (await sb.admin.state()).arm.eventHubs.map((e) => e.name).sort();
  const pa = prefixOf(first.job.provision.target.platformWorkspaceId);
  const pb = prefixOf(otherWs);
  assert.notEqual(pa, pb);
  assert.deepEqual(names, [...HUBS.map((n) => `${pa}${n}`), ...HUBS.map((n) => `${pb}${n}`)].sort());
  assert.equal((await sb.admin.state()).arm.dataConnections.length, 4);

  // Tenant B's remove refuses a hub under tenant A's prefix (a live id it was handed), and deletes nothing.
  const target = await installTarget(h.services.tenancy, h.services.profile, { tenantId: b.tenantId, mode: 'shared', binding: null }, true);
  const ctxB = {
    app: { id: APP },
    item: { key: 'readings-stream', itemType: 'eventstream', displayName: 'Plant Readings Stream' },
    content: READINGS,
    storedItemId: '',
    target,
    profile: h.services.profile,
    backends: h.services.backends,
    log: () => {},
    dependency: () => undefined,
    contentOf: () => ({ database: 'PlantReadings', tables: [] }),
  } as unknown as Parameters<typeof eventstreamEventHubs.remove>[0];
  const hubOfA = stepOf(first.job, 'Plant Readings Stream').result.resourceId as string;
  const before = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  await assert.rejects(eventstreamEventHubs.remove(ctxB, hubOfA), (e: any) => e.code === 'not_tenant_resource');
  assert.deepEqual((await sb.admin.requests({ since: before, service: 'arm' })).length, 0, 'nothing sent');
  const started = await call(h, b, 'DELETE', `/api/workspaces/${second.ws}/apps/${APP}?purgeData=false`, 202);
  assert.equal((await followJob(h, b, started.job.id)).status, 'done');
  const left = (await sb.admin.state()).arm;
  assert.deepEqual(left.eventHubs.map((e) => e.name).sort(), HUBS.map((n) => `${pa}${n}`).sort());
  assert.deepEqual(left.dataConnections.map((d) => d.name).sort(), [
    stepOf(first.job, ALERTS_NAME).result.secondaryIds.dataConnection,
    `${pa}Plant-Readings-Stream`,
  ]);
});

test('a cloud with the data platform: eventstreams stay on it, unless SVC_BACKEND_EVENTSTREAM=event-hubs names Event Hubs', async (t) => {
  await t.test('unset: the data platform', async (t) => {
    const { h, sb, tenant } = await setup(t, {}, true);
    const { job } = await installed(h, tenant);
    assert.equal(stepOf(job, 'Plant Readings Stream').result.backend, 'data-platform');
    assert.deepEqual((await sb.admin.state()).arm.eventHubs, []);
  });
  await t.test('SVC_BACKEND_EVENTSTREAM=event-hubs: the event hub and its data connection', async (t) => {
    const { h, sb, tenant } = await setup(t, { SVC_BACKEND_EVENTSTREAM: 'event-hubs' }, true);
    const { job } = await installed(h, tenant);
    const step = stepOf(job, 'Plant Readings Stream');
    assert.equal(step.result.backend, 'event-hubs');
    assert.equal(step.result.status, 'created');
    const state = (await sb.admin.state()).arm;
    assert.equal(state.eventHubs.length, HUBS.length);
    assert.ok(state.dataConnections.some((d) => d.name === step.result.secondaryIds.dataConnection));
  });
});

test('the catalog’s IoT app without the data platform: its three eventstreams on Event Hubs, each feeding its KQL table', async (t) => {
  const sb = await startSandbox({ dataPlatform: false });
  t.after(() => sb.stop());
  const { h, tenant } = await buildWithSandbox(t, {}, sb);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const job = await install(h, tenant, 'app-iot-realtime', { workspaceId: await workspace(h, tenant) });
  const streams = job.provision.steps.filter((s: any) => s.itemType === 'eventstream');
  assert.equal(streams.length, 3);
  for (const s of streams) {
    assert.equal(s.result.status, 'created', JSON.stringify(s.result));
    assert.equal(s.result.backend, 'event-hubs');
  }
  assert.deepEqual((await sb.admin.state()).arm.dataConnections.map((d) => `${d.database}.${d.tableName}`).sort(), [
    'PlantMaintenance.WorkOrders',
    'PlantTelemetry.DeviceEvents',
    'PlantTelemetry.Telemetry',
  ]);
  await checkRequests(sb, since, eventstreamEventHubs.calls);
});
