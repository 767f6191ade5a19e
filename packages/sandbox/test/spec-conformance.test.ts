import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, part, sandbox, sleep } from './helpers.js';
import { assertConforms, check, responseSchema, SPECS } from './spec-shapes.js';
import fs from 'node:fs';
import path from 'node:path';
import { exportFile, importRdl, reportingApi, simpleRdl, waitImport } from './reporting-helpers.js';

const PLATFORM = 'fabric/platform/swagger.json';
const KUSTO = 'kusto-arm/resource-manager/Microsoft.Kusto/stable/2024-04-13/kusto.json';
const SEARCH_SERVICE = 'search/data-plane/Azure.Search/stable/2024-07-01/searchservice.json';
const SEARCH_INDEX = 'search/data-plane/Azure.Search/stable/2024-07-01/searchindex.json';

test('data-platform answers have the shapes of the published Fabric descriptions (bodies and documented statuses)', async (t) => {
  const sb = await sandbox(t, { pageSize: 2 });
  await sb.admin.setSwitch('dataPlatform.lroMs', 50);
  await sb.admin.setSwitch('dataPlatform.jobMs', 50);
  const token = await sb.admin.token({ audience: 'dataPlatform' });
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const created = await call(`${ws}/items`, { token, json: { type: 'Notebook', displayName: 'Shape' } });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items', 'POST', created);
  await call(`${ws}/items`, { token, json: { type: 'Lakehouse', displayName: 'Shape2' } });
  await call(`${ws}/items`, { token, json: { type: 'Reflex', displayName: 'Shape3' } });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items', 'GET', await call(`${ws}/items`, { token }));
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items/{itemId}', 'GET', await call(`${ws}/items/${created.body.id}`, { token }));
  assertConforms(PLATFORM, '/workspaces/{workspaceId}', 'GET', await call(ws, { token }));
  assertConforms(
    PLATFORM,
    '/workspaces/{workspaceId}/items',
    'POST',
    await call(`${ws}/items`, { token, json: { type: 'Notebook', displayName: 'shape' } }),
  );
  assertConforms(
    PLATFORM,
    '/workspaces/{workspaceId}/items/{itemId}',
    'GET',
    await call(`${ws}/items/00000000-0000-4000-8000-000000000000`, { token }),
  );
  const async = await call(`${ws}/items`, {
    token,
    json: { type: 'KQLDashboard', displayName: 'Board', definition: { parts: [part('RealTimeDashboard.json', '{}')] } },
  });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items', 'POST', async);
  assertConforms(PLATFORM, '/operations/{operationId}', 'GET', await call(async.headers.get('location')!, { token }));
  await sleep(80);
  const done = await call(async.headers.get('location')!, { token });
  assertConforms(PLATFORM, '/operations/{operationId}', 'GET', done);
  assertConforms(PLATFORM, '/operations/{operationId}/result', 'GET', await call(done.headers.get('location')!, { token }));
  const def = await call(`${ws}/items/${created.body.id}/getDefinition`, { token, method: 'POST' });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items/{itemId}/getDefinition', 'POST', def);
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/roleAssignments', 'GET', await call(`${ws}/roleAssignments`, { token }));
  const adminToken = await sb.admin.token({ principal: 'ada@sandbox.onmicrosoft.com', audience: 'dataPlatform' });
  const ra = await call(`${ws}/roleAssignments`, {
    token: adminToken,
    json: { principal: { id: sb.ids.servicePrincipals[0]!.objectId, type: 'ServicePrincipal' }, role: 'Viewer' },
  });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/roleAssignments', 'POST', ra);
  const pipeline = await call(`${ws}/items`, { token, json: { type: 'DataPipeline', displayName: 'Run' } });
  const job = await call(`${ws}/items/${pipeline.body.id}/jobs/Pipeline/instances`, { token, method: 'POST' });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/items/{itemId}/jobs/{jobType}/instances', 'POST', job);
  assertConforms(
    PLATFORM,
    '/workspaces/{workspaceId}/items/{itemId}/jobs/instances/{jobInstanceId}',
    'GET',
    await call(job.headers.get('location')!, { token }),
  );
  assertConforms(
    PLATFORM,
    '/workspaces/{workspaceId}/items/{itemId}/jobs/instances',
    'GET',
    await call(`${ws}/items/${pipeline.body.id}/jobs/instances`, { token }),
  );
  assertConforms(
    'fabric/lakehouse/swagger.json',
    '/workspaces/{workspaceId}/lakehouses/{lakehouseId}',
    'GET',
    await call(`${ws}/lakehouses/${(await call(`${ws}/items?type=Lakehouse`, { token })).body.value[0].id}`, { token }),
  );
  const fw = await call(`${ws}/networking/communicationPolicy/inbound/firewall`, { token: adminToken });
  assertConforms(PLATFORM, '/workspaces/{workspaceId}/networking/communicationPolicy/inbound/firewall', 'GET', fw);
});

test('resource-manager answers have the shapes of the published Microsoft.Kusto description', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'arm' });
  const cluster = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Kusto/clusters/{clusterName}';
  const db = `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Shapes?api-version=2024-04-13`;
  const put = await call(db, {
    method: 'PUT',
    token,
    json: { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P30D' } },
  });
  assertConforms(KUSTO, `${cluster}/databases/{databaseName}`, 'PUT', put);
  assertConforms(
    KUSTO,
    '/subscriptions/{subscriptionId}/providers/Microsoft.Kusto/locations/{location}/operationResults/{operationId}',
    'GET',
    await call(put.headers.get('azure-asyncoperation')!, { token }),
  );
  assertConforms(KUSTO, `${cluster}/databases/{databaseName}`, 'GET', await call(db, { token }));
  assertConforms(
    KUSTO,
    `${cluster}/databases`,
    'GET',
    await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases?api-version=2024-04-13`, { token }),
  );
  assertConforms(
    KUSTO,
    `${cluster}/databases/{databaseName}`,
    'PUT',
    await call(db, { method: 'PUT', token, json: { location: 'eastus' } }),
  );
  const pa = await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/principalAssignments/ci?api-version=2024-04-13`, {
    method: 'PUT',
    token,
    json: {
      properties: {
        principalId: sb.ids.servicePrincipals[0]!.appId,
        principalType: 'App',
        role: 'AllDatabasesViewer',
        tenantId: sb.ids.tenantId,
      },
    },
  });
  assertConforms(KUSTO, `${cluster}/principalAssignments/{principalAssignmentName}`, 'PUT', pa);
  assertConforms(
    KUSTO,
    `${cluster}/principalAssignments`,
    'GET',
    await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}/principalAssignments?api-version=2024-04-13`, { token }),
  );
  assertConforms(KUSTO, cluster, 'GET', await call(`${sb.urls.arm}${sb.ids.kqlClusterResourceId}?api-version=2024-04-13`, { token }));
});

test('search answers have the shapes of the published 2024-07-01 descriptions', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'search' });
  const url = `${sb.urls.search}/indexes('shapes')?api-version=2024-07-01`;
  const def = {
    name: 'shapes',
    fields: [
      { name: 'id', type: 'Edm.String', key: true },
      { name: 'body', type: 'Edm.String', searchable: true },
      { name: 'v', type: 'Collection(Edm.Single)', dimensions: 2, vectorSearchProfile: 'p' },
      { name: 'addr', type: 'Edm.ComplexType', fields: [{ name: 'city', type: 'Edm.String' }] },
    ],
    vectorSearch: { profiles: [{ name: 'p', algorithm: 'a' }], algorithms: [{ name: 'a', kind: 'hnsw' }] },
  };
  assertConforms(SEARCH_SERVICE, "/indexes('{indexName}')", 'PUT', await call(url, { method: 'PUT', token, json: def }));
  assertConforms(SEARCH_SERVICE, "/indexes('{indexName}')", 'GET', await call(url, { token }));
  assertConforms(SEARCH_SERVICE, '/indexes', 'GET', await call(`${sb.urls.search}/indexes?api-version=2024-07-01`, { token }));
  assertConforms(
    SEARCH_SERVICE,
    "/indexes('{indexName}')/search.stats",
    'GET',
    await call(`${sb.urls.search}/indexes('shapes')/search.stats?api-version=2024-07-01`, { token }),
  );
  assertConforms(
    SEARCH_SERVICE,
    "/indexes('{indexName}')",
    'GET',
    await call(`${sb.urls.search}/indexes('missing')?api-version=2024-07-01`, { token }),
  );
  const batch = await call(`${sb.urls.search}/indexes('shapes')/docs/search.index?api-version=2024-07-01`, {
    token,
    json: {
      value: [
        { id: 'a', body: 'x', v: [1, 2], addr: { city: 'Oslo' } },
        { '@search.action': 'merge', id: 'b' },
      ],
    },
  });
  assert.equal(batch.status, 207);
  assertConforms(SEARCH_INDEX, '/docs/search.index', 'POST', batch);
  assertConforms(
    SEARCH_INDEX,
    '/docs',
    'GET',
    await call(`${sb.urls.search}/indexes('shapes')/docs?api-version=2024-07-01&search=*`, { token }),
  );
});

const POWERBI = 'powerbi/swagger.json';

/**
 * Fields the live reporting service sends that its published description does not declare (reference/reporting-service.md):
 * Report.format/isFromPbix/datasetWorkspaceId [obs], Import.connectionType/source and Export.resourceFileExtension
 * (the examples' spelling; the schema writes ResourceFileExtension), and Import.error on a failed import.
 */
const OBSERVED =
  /^\$(\.value\[\d+\])?(\.reports\[\d+\])?\.(format|isFromPbix|datasetWorkspaceId|connectionType|source|resourceFileExtension|error): not declared by the spec$/;

function assertPowerBi(template: string, method: string, res: { status: number; body: unknown }): void {
  const { schema, file, documented } = responseSchema(POWERBI, template, method, res.status);
  assert.ok(documented, `${method} ${template}: status ${res.status} is not documented`);
  const errors = check(res.body, schema, file).filter((e) => !OBSERVED.test(e));
  assert.deepEqual(errors, [], `${method} ${template} ${res.status}: ${String(JSON.stringify(res.body)).slice(0, 400)}`);
}

test('reporting answers have the shapes of the published Power BI description, and its request log replays through the description', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 20);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  await sb.admin.grant({ service: 'reporting', role: 'Member' });
  const { token, group } = await reportingApi(sb);
  const G = '/v1.0/myorg/groups/{groupId}';
  const list = await call(`${group}/reports`, { token });
  assertPowerBi(`${G}/reports`, 'GET', list);
  const sales = list.body.value.find((r: any) => r.name === 'Sales by Region');
  assertPowerBi(`${G}/reports/{reportId}`, 'GET', await call(`${group}/reports/${sales.id}`, { token }));
  assertPowerBi(
    '/v1.0/myorg/admin/groups/{groupId}/reports',
    'GET',
    await call(`${sb.urls.reporting}/v1.0/myorg/admin/groups/${sb.ids.platformWorkspaceId}/reports?$top=2`, { token }),
  );
  assertPowerBi(
    `${G}/reports/{reportId}/datasources`,
    'GET',
    await call(`${group}/reports/${list.body.value.find((r: any) => r.name === 'Inventory Snapshot').id}/datasources`, { token }),
  );
  const started = await importRdl(`${group}/imports?datasetDisplayName=Shape.rdl&nameConflict=Abort`, token, simpleRdl('shape'));
  assertPowerBi(`${G}/imports`, 'POST', started);
  const done = await waitImport(group, token, started.body.id);
  assertPowerBi(`${G}/imports/{importId}`, 'GET', { status: 200, body: done });
  const failed = await importRdl(`${group}/imports?datasetDisplayName=Broken.rdl&nameConflict=Abort`, token, '<Report/>');
  assertPowerBi(`${G}/imports/{importId}`, 'GET', { status: 200, body: await waitImport(group, token, failed.body.id) });
  assertPowerBi(`${G}/imports`, 'GET', await call(`${group}/imports`, { token }));
  const id = done.reports[0].id;
  assertPowerBi(
    `${G}/reports/{reportId}/Clone`,
    'POST',
    await call(`${group}/reports/${id}/Clone`, { token, json: { name: 'Shape copy' } }),
  );
  assertPowerBi(
    `${G}/reports/{reportId}/Default.UpdateDatasources`,
    'POST',
    await call(`${group}/reports/${id}/Default.UpdateDatasources`, {
      token,
      json: { updateDetails: [{ datasourceName: 'Db', connectionDetails: { server: 'new.example.net' } }] },
    }),
  );
  assertPowerBi(
    `${G}/reports/{reportId}/Default.TakeOver`,
    'POST',
    await call(`${group}/reports/${id}/Default.TakeOver`, { token, method: 'POST' }),
  );
  assertPowerBi(
    `${G}/reports/{reportId}/GenerateToken`,
    'POST',
    await call(`${group}/reports/${id}/GenerateToken`, { token, json: { accessLevel: 'View' } }),
  );
  assertPowerBi(
    '/v1.0/myorg/GenerateToken',
    'POST',
    await call(`${sb.urls.reporting}/v1.0/myorg/GenerateToken`, { token, json: { reports: [{ id }] } }),
  );
  const exp = await exportFile(group, token, sales.id, { format: 'PDF' });
  assertPowerBi(`${G}/reports/{reportId}/ExportTo`, 'POST', { status: 202, body: exp.start });
  assertPowerBi(`${G}/reports/{reportId}/exports/{exportId}`, 'GET', { status: 200, body: exp.status });
  assert.match(
    exp.res.headers.get('content-type')!,
    /^(application\/|image\/|text\/csv|text\/xml|multipart\/related)/,
    'a documented file type',
  );
  assertPowerBi(`${G}/reports/{reportId}`, 'DELETE', await call(`${group}/reports/${id}`, { token, method: 'DELETE' }));

  // Every logged call is an operation of the description; every success status is one it documents.
  const doc = JSON.parse(fs.readFileSync(path.join(SPECS, POWERBI), 'utf8'));
  const templates = Object.keys(doc.paths).map((p) => ({
    p,
    re: new RegExp(`^${p.replace(/[.$]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const log = await sb.admin.requests({ service: 'reporting' });
  assert.ok(log.length >= 18, `${log.length} reporting calls logged`);
  for (const e of log) {
    const bare = e.path.split('?')[0]!;
    const matches = templates.filter((x) => x.re.test(bare) && doc.paths[x.p][e.method.toLowerCase()]);
    assert.ok(matches.length, `${e.method} ${bare} is an operation of the Power BI description`);
    if (e.status < 400)
      assert.ok(
        matches.some((m) => doc.paths[m.p][e.method.toLowerCase()].responses[String(e.status)]),
        `${e.method} ${bare} → ${e.status} is documented`,
      );
  }
});
