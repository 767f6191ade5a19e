import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, DFS_VERSION, part, sandbox, sleep } from './helpers.js';

async function rig(t: Parameters<typeof sandbox>[0], options = {}) {
  const sb = await sandbox(t, options);
  const token = await sb.admin.token({ audience: 'https://api.fabric.microsoft.com' });
  const api = sb.env.SVC_DATA_PLATFORM_API_URL!;
  const ws = `${api}/workspaces/${sb.ids.platformWorkspaceId}`;
  return { sb, token, api, ws, dp: (path: string, opts: Parameters<typeof call>[1] = {}) => call(`${ws}${path}`, { token, ...opts }) };
}

const semanticModel = () => ({
  format: 'TMSL',
  parts: [
    part(
      'model.bim',
      JSON.stringify({
        compatibilityLevel: 1604,
        model: {
          culture: 'en-US',
          tables: [{ name: 'Sales Fact', columns: [{ name: 'amount', dataType: 'double', sourceColumn: 'amount' }] }],
        },
      }),
    ),
    part('definition.pbism', '{"version":"4.0"}'),
  ],
});

test('a 202 create is followed through /v1/operations/{id} (NotStarted → Running → Succeeded) to its /result', async (t) => {
  const { sb, token, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.lroMs', 600);
  const res = await dp('/semanticModels', { json: { displayName: 'Sales Model', definition: semanticModel() } });
  assert.equal(res.status, 202);
  assert.equal(res.text, '', 'no body');
  const opId = res.headers.get('x-ms-operation-id')!;
  assert.equal(res.headers.get('location'), `${sb.urls.dataPlatform}/v1/operations/${opId}`);
  assert.equal(res.headers.get('retry-after'), '1');
  const seen = new Set<string>();
  let poll: Awaited<ReturnType<typeof call>>;
  for (;;) {
    poll = await call(res.headers.get('location')!, { token });
    assert.equal(poll.status, 200);
    seen.add(poll.body.status);
    assert.equal(poll.headers.get('x-ms-operation-id'), opId);
    if (poll.body.status === 'Succeeded') break;
    assert.equal(poll.headers.get('location'), res.headers.get('location'), 'Location points back at the operation while it runs');
    assert.ok(poll.headers.get('retry-after'));
    await sleep(120);
  }
  assert.ok(seen.has('NotStarted') && seen.has('Running'), [...seen].join());
  assert.equal(poll.body.percentComplete, 100);
  assert.ok(poll.body.createdTimeUtc && poll.body.lastUpdatedTimeUtc);
  assert.equal(poll.headers.get('location'), `${sb.urls.dataPlatform}/v1/operations/${opId}/result`);
  const result = await call(poll.headers.get('location')!, { token });
  assert.equal(result.status, 200);
  assert.deepEqual(Object.keys(result.body).sort(), ['description', 'displayName', 'id', 'type', 'workspaceId']);
  assert.equal(result.body.type, 'SemanticModel');
  const other = await sb.admin.token({ principal: 'ci-deployer', audience: 'dataPlatform' });
  assert.equal(
    (await call(res.headers.get('location')!, { token: other })).body.errorCode,
    'OperationNotFound',
    'only its caller sees an operation',
  );
});

test('a list that needs three pages: continuationToken and continuationUri in the body, absent on the last page', async (t) => {
  const { dp, token } = await rig(t, { pageSize: 2 });
  for (const name of ['One', 'Two', 'Three', 'Four', 'Five'])
    assert.equal((await dp('/notebooks', { json: { displayName: name } })).status, 201);
  await dp('/reflexes', { json: { displayName: 'Not a notebook' } });
  const names: string[] = [];
  let page = await dp('/items?type=Notebook');
  let pages = 1;
  names.push(...page.body.value.map((i: any) => i.displayName));
  while (page.body.continuationUri) {
    assert.match(page.body.continuationToken, /%3D|^[A-Za-z0-9+/]+$/, 'opaque and URL-encoded');
    page = await call(page.body.continuationUri, { token });
    pages++;
    names.push(...page.body.value.map((i: any) => i.displayName));
  }
  assert.equal(pages, 3);
  assert.equal(page.body.continuationToken, undefined);
  assert.deepEqual(names, ['One', 'Two', 'Three', 'Four', 'Five']);
  const typed = await dp('/notebooks');
  assert.equal(typed.body.value.length, 2);
  const byToken = await dp(`/notebooks?continuationToken=${encodeURIComponent(typed.body.continuationToken)}`);
  assert.deepEqual(
    byToken.body.value.map((i: any) => i.displayName),
    ['Three', 'Four'],
    'a token encoded once more still works',
  );
  const bad = await dp('/items?continuationToken=garbage');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errorCode, 'InvalidContinuationToken');
});

test('display names are unique per workspace and type, case-insensitive: ItemDisplayNameAlreadyInUse', async (t) => {
  const { sb, dp } = await rig(t);
  assert.equal((await dp('/items', { json: { type: 'Lakehouse', displayName: 'Sales' } })).status, 201);
  const dup = await dp('/lakehouses', { json: { displayName: 'SALES' } });
  assert.equal(dup.status, 409);
  assert.equal(dup.body.errorCode, 'ItemDisplayNameAlreadyInUse');
  assert.equal(dup.body.message, "Requested 'SALES' is already in use");
  assert.equal(dup.headers.get('x-ms-public-api-error-code'), 'ItemDisplayNameAlreadyInUse');
  assert.match(dup.body.requestId, /^[0-9a-f-]{36}$/);
  assert.equal((await dp('/notebooks', { json: { displayName: 'Sales' } })).status, 201, 'another type may use the name');
  const bad = await dp('/lakehouses', { json: { displayName: 'sales-raw' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errorCode, 'InvalidInput');
  await sb.admin.setSwitch('dataPlatform.nameHoldMs', 60_000);
  const lh = (await dp('/items?type=Lakehouse')).body.value[0];
  assert.equal((await dp(`/items/${lh.id}`, { method: 'DELETE' })).status, 200);
  const held = await dp('/lakehouses', { json: { displayName: 'Sales' } });
  assert.equal(held.body.errorCode, 'ItemDisplayNameNotAvailableYet');
  assert.equal(held.body.isRetriable, true);
  const state = await sb.admin.state();
  assert.equal(state.dataPlatform.workspaces[0]!.recycleBin.length, 1, 'soft delete keeps it in the recycle bin');
});

test('429 RequestBlocked with Retry-After from the per-identity throttle', async (t) => {
  const { sb, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.throttlePerMinute', 3);
  for (let i = 0; i < 3; i++) assert.equal((await dp('/items')).status, 200);
  const blocked = await dp('/items');
  assert.equal(blocked.status, 429);
  assert.equal(blocked.body.errorCode, 'RequestBlocked');
  assert.equal(blocked.body.isRetriable, true);
  assert.match(blocked.headers.get('retry-after')!, /^\d+$/);
  assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
  const other = await sb.admin.token({ principal: 'ada@sandbox.onmicrosoft.com', audience: 'dataPlatform' });
  assert.equal((await dp('/items', { token: other })).status, 200, 'the budget is per identity');
});

test('the quota buckets: operation polls count against the LRO budget and job calls against the Job Scheduler one, not the platform APIs', async (t) => {
  const { sb, token, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.throttlePerMinute', 3);
  await sb.admin.setSwitch('dataPlatform.throttleLroPerMinute', 2);
  await sb.admin.setSwitch('dataPlatform.lroMs', 0);
  const created = await dp('/semanticModels', { json: { displayName: 'Bucket Model', definition: semanticModel() } });
  assert.equal(created.status, 202);
  const op = created.headers.get('location')!;
  // Two polls fit the LRO bucket; the platform bucket still has two of its three calls after the create.
  assert.equal((await call(op, { token })).status, 200);
  assert.equal((await call(`${op}/result`, { token })).status, 200);
  const spent = await call(op, { token });
  assert.equal(spent.status, 429, 'the LRO bucket is spent');
  assert.equal(spent.body.errorCode, 'RequestBlocked');
  assert.equal((await dp('/items')).status, 200, 'polls took nothing from the platform APIs bucket');
  const pipeline = await dp('/dataPipelines', { json: { displayName: 'Bucket Pipeline' } });
  assert.equal(pipeline.status, 201);
  assert.equal((await dp('/items')).status, 429, 'the platform APIs bucket is spent after its three calls');
  // Job Scheduler calls have their own bucket (unlimited here), so a job runs while the platform bucket is spent.
  const run = await dp(`/items/${pipeline.body.id}/jobs/instances?jobType=Pipeline`, { method: 'POST' });
  assert.equal(run.status, 202);
  await sb.admin.setSwitch('dataPlatform.throttleJobsPerMinute', 1);
  assert.equal((await call(run.headers.get('location')!, { token })).status, 200);
  assert.equal((await call(run.headers.get('location')!, { token })).status, 429, 'the Job Scheduler bucket is spent');
  await assert.rejects(sb.admin.setSwitch('dataPlatform.throttleLroPerMinute', 0), /positive integer or null/);
});

test('the throttle window is a switch: once it has passed the identity may call again', async (t) => {
  const { sb, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.throttleWindowMs', 1500);
  await sb.admin.setSwitch('dataPlatform.throttlePerMinute', 2);
  assert.equal((await dp('/items')).status, 200);
  assert.equal((await dp('/items')).status, 200);
  const blocked = await dp('/items');
  assert.equal(blocked.status, 429);
  assert.ok(
    ['1', '2'].includes(blocked.headers.get('retry-after')!),
    `Retry-After within the window: ${blocked.headers.get('retry-after')}`,
  );
  await sleep(1600);
  assert.equal((await dp('/items')).status, 200, 'the window has moved on');
  await assert.rejects(sb.admin.setSwitch('dataPlatform.throttleWindowMs', 0), /positive integer/);
});

test('in-flight counts: requests being answered per service and the most at once, reset with the request log', async (t) => {
  const { sb, dp } = await rig(t);
  await sb.admin.setLatency('dataPlatform', 150);
  await Promise.all(Array.from({ length: 5 }, () => dp('/items')));
  const after = await sb.admin.inFlight();
  assert.deepEqual(after.dataPlatform, { now: 0, peak: 5 });
  const pending = Promise.all([dp('/items'), dp('/items')]);
  await sleep(60);
  assert.equal((await sb.admin.inFlight()).dataPlatform!.now, 2);
  await sb.admin.clearRequests();
  assert.deepEqual((await sb.admin.inFlight()).dataPlatform, { now: 2, peak: 2 }, 'the peak starts again from what is in flight');
  await pending;
  const http = await call(`${sb.urls.admin}/_sandbox/in-flight`);
  assert.equal(http.status, 200);
  assert.deepEqual(http.body.inFlight.dataPlatform, { now: 0, peak: 2 });
});

test('401 for a wrong audience or no token; 401 when the tenant setting for service principals is off; 403 for a missing role', async (t) => {
  const { sb, dp } = await rig(t);
  const arm = await sb.admin.token({ audience: 'arm' });
  const wrong = await dp('/items', { token: arm });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.errorCode, 'InvalidToken');
  assert.match(wrong.headers.get('www-authenticate')!, /^Bearer /);
  assert.equal(
    (await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/items`)).body.errorCode,
    'Unauthorized',
  );
  await sb.admin.setSwitch('dataPlatform.servicePrincipalsEnabled', false);
  const off = await dp('/items');
  assert.equal(off.status, 401);
  assert.equal(off.headers.get('x-ms-public-api-error-code'), 'Unauthorized');
  const user = await sb.admin.token({ principal: 'ada@sandbox.onmicrosoft.com', audience: 'dataPlatform' });
  assert.equal((await dp('/items', { token: user })).status, 200, 'users are not affected');
  await sb.admin.setSwitch('dataPlatform.servicePrincipalsEnabled', true);
  await sb.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  const none = await dp('/notebooks', { json: { displayName: 'X' } });
  assert.equal(none.status, 403);
  assert.equal(none.body.errorCode, 'InsufficientPrivileges');
  await sb.admin.grant({ service: 'dataPlatform', role: 'Viewer' });
  const viewer = await dp('/notebooks', { json: { displayName: 'X' } });
  assert.equal(viewer.status, 403);
  assert.equal(viewer.body.errorCode, 'InsufficientWorkspaceRole');
  assert.equal((await dp('/items')).status, 200, 'a Viewer reads');
});

test('definitions: per-type part validation, exact round trip, .platform always returned, metadata only with updateMetadata', async (t) => {
  const { dp, token } = await rig(t);
  const nb = (await dp('/notebooks', { json: { displayName: 'Loader' } })).body;
  const missing = await dp(`/items/${nb.id}/updateDefinition`, { json: { definition: { parts: [part('other.txt', 'x')] } } });
  assert.equal(missing.body.errorCode, 'InvalidDefinitionParts');
  const corrupted = await dp(`/items/${nb.id}/updateDefinition`, {
    json: { definition: { parts: [{ path: 'notebook-content.py', payload: '!!not base64', payloadType: 'InlineBase64' }] } },
  });
  assert.equal(corrupted.body.errorCode, 'CorruptedPayload');
  const source = '# Fabric notebook source\nprint("hi")\n';
  const platform = JSON.stringify({
    metadata: { type: 'Notebook', displayName: 'Loader v2' },
    config: { version: '2.0', logicalId: '11111111-2222-4333-8444-555555555555' },
  });
  assert.equal(
    (
      await dp(`/items/${nb.id}/updateDefinition`, {
        json: { definition: { parts: [part('notebook-content.py', source), part('.platform', platform)] } },
      })
    ).status,
    200,
  );
  assert.equal((await dp(`/items/${nb.id}`)).body.displayName, 'Loader', 'metadata ignored without updateMetadata');
  const got = await dp(`/notebooks/${nb.id}/getDefinition`, { method: 'POST' });
  assert.equal(got.status, 200);
  const parts = Object.fromEntries(got.body.definition.parts.map((p: any) => [p.path, Buffer.from(p.payload, 'base64').toString()]));
  assert.equal(parts['notebook-content.py'], source, 'exact round trip');
  assert.equal(JSON.parse(parts['.platform']).config.logicalId, '11111111-2222-4333-8444-555555555555');
  assert.equal(
    (
      await dp(`/items/${nb.id}/updateDefinition?updateMetadata=true`, {
        json: { definition: { parts: [part('notebook-content.py', source), part('.platform', platform)] } },
      })
    ).status,
    200,
  );
  assert.equal((await dp(`/items/${nb.id}`)).body.displayName, 'Loader v2');
  const noDef = await dp('/semanticModels', { json: { displayName: 'No definition' } });
  assert.equal(noDef.status, 400, 'semantic models need a definition');
  const both = await dp('/lakehouses', {
    json: { displayName: 'Both', definition: { parts: [] }, creationPayload: { enableSchemas: true } },
  });
  assert.equal(both.body.errorCode, 'RequestWithDefinitionAndCreationPayloadNotSupported');
  const dash = await dp('/kqlDashboards', {
    json: { displayName: 'Board', definition: { parts: [part('RealTimeDashboard.json', '{"tiles": [')] } },
  });
  assert.equal(dash.status, 202, 'a create with a definition goes async');
  await sleep(350);
  const failed = await call(dash.headers.get('location')!, { token });
  assert.equal(failed.body.status, 'Failed', 'a part that does not parse fails the operation');
  assert.equal(failed.body.error.errorCode, 'InvalidDefinitionParts');
  assert.equal(failed.headers.get('location'), null, 'a failed operation has no result');
  assert.equal((await dp('/items?type=KQLDashboard')).body.value.length, 0, 'and creates nothing');
});

test('semantic models: TMDL by default from getDefinition, TMSL with ?format=TMSL', async (t) => {
  const { sb, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  const sm = (await dp('/semanticModels', { json: { displayName: 'Model', definition: semanticModel() } })).body;
  const tmdl = (await dp(`/semanticModels/${sm.id}/getDefinition`, { method: 'POST' })).body.definition;
  assert.equal(tmdl.format, 'TMDL');
  const paths = tmdl.parts.map((p: any) => p.path);
  assert.ok(
    paths.includes('definition/model.tmdl') && paths.includes('definition/tables/Sales Fact.tmdl') && paths.includes('.platform'),
    paths.join(),
  );
  const tmsl = (await dp(`/semanticModels/${sm.id}/getDefinition?format=TMSL`, { method: 'POST' })).body.definition;
  const bim = JSON.parse(Buffer.from(tmsl.parts.find((p: any) => p.path === 'model.bim').payload, 'base64').toString());
  assert.equal(bim.model.tables[0].name, 'Sales Fact');
});

test('role assignments, GET workspace and firewall rules (a marked extension)', async (t) => {
  const { sb, dp } = await rig(t);
  const ws = await dp('');
  assert.equal(ws.body.id, sb.ids.platformWorkspaceId);
  assert.equal(ws.body.type, 'Workspace');
  assert.ok(ws.body.capacityId && ws.body.oneLakeEndpoints.dfsEndpoint);
  const admin = await sb.admin.token({ principal: 'ada@sandbox.onmicrosoft.com', audience: 'dataPlatform' });
  const ci = sb.ids.servicePrincipals[0]!;
  const ra = await dp('/roleAssignments', {
    token: admin,
    json: { principal: { id: ci.objectId, type: 'ServicePrincipal' }, role: 'Contributor' },
  });
  assert.equal(ra.status, 201);
  assert.equal(
    ra.headers.get('location'),
    `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/roleAssignments/${ci.objectId}`,
  );
  assert.equal(ra.body.principal.servicePrincipalDetails.aadAppId, ci.appId);
  assert.equal(
    (await dp('/roleAssignments', { token: admin, json: { principal: { id: ci.objectId, type: 'ServicePrincipal' }, role: 'Viewer' } }))
      .body.errorCode,
    'PrincipalAlreadyHasWorkspaceRolePermissions',
  );
  // The service identity reduced from its seeded Admin to what provisioning needs.
  await sb.admin.grant({ service: 'dataPlatform', role: 'Contributor' });
  assert.equal(
    (await dp('/roleAssignments', { json: { principal: { id: ci.objectId, type: 'ServicePrincipal' }, role: 'Viewer' } })).status,
    403,
    'a Contributor cannot grant roles',
  );
  const fw = await dp('/firewallRules', { token: admin, json: { name: 'office', startIpAddress: '10.0.0.1', endIpAddress: '10.0.0.9' } });
  assert.equal(fw.status, 201);
  assert.equal(fw.headers.get('x-sandbox-extension'), 'non-fabric');
  const listed = await dp('/firewallRules', { token: admin });
  assert.deepEqual(
    listed.body.value.map((r: any) => [r.name, r.startIpAddress, r.endIpAddress]),
    [['office', '10.0.0.1', '10.0.0.9']],
  );
  const real = await dp('/networking/communicationPolicy/inbound/firewall', { token: admin });
  assert.deepEqual(real.body.rules, [{ displayName: 'office', value: '10.0.0.1-10.0.0.9' }]);
  assert.equal((await dp(`/firewallRules/${fw.body.id}`, { token: admin, method: 'DELETE' })).status, 200);
  assert.equal(
    (await dp('/firewallRules', { json: { name: 'x', startIpAddress: '1.1.1.1', endIpAddress: '1.1.1.1' } })).status,
    403,
    'firewall rules need Admin',
  );
});

test('reflex triggers: the reflex API has no such path, so it answers 404 like the real service; rules live in ReflexEntities.json', async (t) => {
  const { sb, dp } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  const entities = [{ uniqueIdentifier: '1b3f0c2e-5d5a-4d0c-9f4e-2a1d9b7c6e01', payload: { name: 'Hot' }, type: 'rule-v1' }];
  const reflex = (
    await dp('/reflexes', {
      json: { displayName: 'Alerts', definition: { format: 'json', parts: [part('ReflexEntities.json', JSON.stringify(entities))] } },
    })
  ).body;
  for (const [method, json] of [
    ['GET', undefined],
    ['POST', { name: 'Hot', condition: { column: 'Temp', operator: '>', value: 80 } }],
  ] as const) {
    const res = await dp(`/reflexes/${reflex.id}/triggers`, { method, ...(json ? { json } : {}) });
    assert.equal(res.status, 404, `${method} triggers`);
    assert.equal(res.body.errorCode, 'EntityNotFound');
    assert.equal(res.headers.get('x-ms-public-api-error-code'), 'EntityNotFound');
  }
  // The rules are read back from the stored definition.
  const def = (await dp(`/reflexes/${reflex.id}/getDefinition`, { method: 'POST' })).body.definition;
  const stored = def.parts.find((p: any) => p.path === 'ReflexEntities.json');
  assert.deepEqual(JSON.parse(Buffer.from(stored.payload, 'base64').toString()), entities);
});

test('pipeline job instances: 202 with a job-instance Location, then Completed; a pipeline running a missing notebook Fails', async (t) => {
  const { sb, dp, token } = await rig(t);
  await sb.admin.setSwitch('dataPlatform.jobMs', 150);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  const nb = (await dp('/notebooks', { json: { displayName: 'Step' } })).body;
  const content = (id: string) =>
    JSON.stringify({
      properties: {
        activities: [
          { name: 'Run step', type: 'TridentNotebook', typeProperties: { notebookId: id, workspaceId: sb.ids.platformWorkspaceId } },
        ],
      },
    });
  const ok = (await dp('/dataPipelines', { json: { displayName: 'Good' } })).body;
  await dp(`/items/${ok.id}/updateDefinition`, { json: { definition: { parts: [part('pipeline-content.json', content(nb.id))] } } });
  const run = await dp(`/items/${ok.id}/jobs/instances?jobType=Pipeline`, { method: 'POST' });
  assert.equal(run.status, 202);
  assert.match(
    run.headers.get('location')!,
    new RegExp(`/v1/workspaces/${sb.ids.platformWorkspaceId}/items/${ok.id}/jobs/instances/[0-9a-f-]{36}$`),
  );
  assert.ok(run.headers.get('retry-after'));
  assert.equal((await call(run.headers.get('location')!, { token })).body.status, 'NotStarted');
  await sleep(200);
  const done = await call(run.headers.get('location')!, { token });
  assert.equal(done.body.status, 'Completed');
  assert.equal(done.body.failureReason, null);
  const bad = await dp('/dataPipelines', {
    json: {
      displayName: 'Broken',
      definition: { parts: [part('pipeline-content.json', content('00000000-0000-4000-8000-000000000000'))] },
    },
  });
  assert.equal(bad.status, 201);
  const failing = await dp(`/items/${bad.body.id}/jobs/Pipeline/instances`, { method: 'POST' });
  await sleep(200);
  const failed = await call(failing.headers.get('location')!, { token });
  assert.equal(failed.body.status, 'Failed');
  assert.ok(failed.body.failureReason.errorCode);
  assert.equal((await dp(`/items/${nb.id}/jobs/instances?jobType=Pipeline`, { method: 'POST' })).body.errorCode, 'InvalidJobType');
});

test('lakehouse: the SQL endpoint turns Success after a delay; OneLake table folders become its tables', async (t) => {
  const { sb, dp } = await rig(t);
  const lh = (await dp('/lakehouses', { json: { displayName: 'Bronze' } })).body;
  const first = await dp(`/lakehouses/${lh.id}`);
  assert.equal(first.body.properties.sqlEndpointProperties.provisioningStatus, 'InProgress');
  assert.equal(first.body.properties.oneLakeTablesPath, `${sb.env.SVC_ONELAKE_URL}/${sb.ids.platformWorkspaceId}/${lh.id}/Tables`);
  const storage = await sb.admin.token({ audience: 'storage' });
  const put = await call(`${first.body.properties.oneLakeTablesPath}/orders?resource=directory`, {
    method: 'PUT',
    token: storage,
    headers: DFS_VERSION,
  });
  assert.equal(put.status, 201);
  assert.equal(
    (
      await call(`${sb.env.SVC_ONELAKE_URL}/${sb.ids.platformWorkspaceId}/${lh.id}/Other?resource=directory`, {
        method: 'PUT',
        token: storage,
        headers: DFS_VERSION,
      })
    ).body.error.code,
    'OperationNotAllowedOnThePath',
  );
  await sleep(320);
  assert.equal((await dp(`/lakehouses/${lh.id}`)).body.properties.sqlEndpointProperties.provisioningStatus, 'Success');
  const tables = await dp(`/lakehouses/${lh.id}/tables`);
  assert.deepEqual(
    tables.body.data.map((x: any) => x.name),
    ['orders'],
  );
});
