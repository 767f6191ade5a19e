import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import { importRdl, parsePdf, reportingApi, simpleRdl, waitImport } from './reporting-helpers.js';

test('reports in a group: paginated reports carry RDL markers, Power BI reports do not; $filter is ignored', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  assert.equal(sb.env.SVC_BI_API_URL, sb.urls.reporting);
  const list = await call(`${group}/reports?$filter=reportType eq 'PaginatedReport'`, { token });
  assert.equal(list.status, 200);
  assert.ok(list.headers.get('requestid'));
  const types = list.body.value.map((r: any) => r.reportType).sort();
  assert.deepEqual(
    types,
    ['PaginatedReport', 'PaginatedReport', 'PaginatedReport', 'PowerBIReport'],
    'the filter is ignored on the group route',
  );
  const sales = list.body.value.find((r: any) => r.name === 'Sales by Region');
  assert.equal(sales.format, 'RDL');
  assert.equal(sales.isFromPbix, false);
  assert.equal(sales.datasetId, undefined);
  assert.deepEqual(sales.users, []);
  assert.equal(sales.webUrl, `${sb.urls.reporting}/groups/${sb.ids.platformWorkspaceId}/rdlreports/${sales.id}`);
  assert.match(sales.embedUrl, /\/rdlEmbed\?reportId=[0-9a-f-]+&groupId=[0-9a-f-]+&config=/);
  const pbi = list.body.value.find((r: any) => r.reportType === 'PowerBIReport');
  assert.match(pbi.embedUrl, /\/reportEmbed\?/);
  assert.ok(pbi.datasetId);
  assert.equal(pbi.format, undefined);

  const one = await call(`${group}/reports/${sales.id}`, { token });
  assert.equal(one.status, 200);
  assert.equal(one.body.value, undefined, 'a single report is not wrapped');
  assert.equal(one.body.name, 'Sales by Region');

  const missing = await call(`${group}/reports/00000000-0000-4000-8000-000000000000`, { token });
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, {
    error: {
      code: 'PowerBIEntityNotFound',
      'pbi.error': { code: 'PowerBIEntityNotFound', parameters: {}, details: [], exceptionCulprit: 1 },
    },
  });
  const otherGroup = await call(`${sb.urls.reporting}/v1.0/myorg/groups/00000000-0000-4000-8000-000000000001/reports`, { token });
  assert.equal(otherGroup.status, 404);
});

test('authentication: no token 401, expired token 403 TokenExpired, service principals switch, non-member 401', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const none = await call(`${group}/reports`);
  assert.equal(none.status, 401);
  assert.equal(none.body.error.code, 'PowerBINotAuthorizedException');
  assert.ok(none.headers.get('www-authenticate'));
  const wrongAudience = await call(`${group}/reports`, { token: await sb.admin.token({ audience: 'arm' }) });
  assert.equal(wrongAudience.status, 401);
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', -10);
  const expired = await call(`${group}/reports`, { token: await sb.admin.token({ audience: 'dataPlatform' }) });
  assert.equal(expired.status, 403);
  assert.deepEqual(expired.body, {
    error: { code: 'TokenExpired', message: 'Access token has expired, resubmit with a new access token' },
  });
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', 3599);
  await sb.admin.setSwitch('reporting.servicePrincipalsEnabled', false);
  const sp = await call(`${group}/reports`, { token });
  assert.equal(sp.status, 401);
  assert.equal(sp.body.error['pbi.error'].code, 'PowerBINotAuthorizedException');
  const user = await call(`${group}/reports`, { token: (await reportingApi(sb, 'ada@sandbox.onmicrosoft.com')).token });
  assert.equal(user.status, 200, 'the switch concerns service principals only');
  await sb.admin.setSwitch('reporting.servicePrincipalsEnabled', true);
  const ci = sb.ids.servicePrincipals[0]!.appId;
  const outsider = await call(`${group}/reports`, { token: (await reportingApi(sb, ci)).token });
  assert.equal(outsider.status, 401);
  await sb.admin.grant({ service: 'reporting', role: 'Viewer', principal: ci });
  assert.equal((await call(`${group}/reports`, { token: (await reportingApi(sb, ci)).token })).status, 200);
  const viewerDelete = await call(`${group}/reports/${(await call(`${group}/reports`, { token })).body.value[0].id}`, {
    method: 'DELETE',
    token: (await reportingApi(sb, ci)).token,
  });
  assert.equal(viewerDelete.status, 403);
});

test('Export returns the imported .rdl bytes unchanged; delete then 404', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 400);
  const { token, group } = await reportingApi(sb);
  const rdl = Buffer.from(simpleRdl('Bytes ünchanged'), 'utf8');
  const started = await importRdl(`${group}/imports?datasetDisplayName=Byte%20Check.rdl&nameConflict=Abort`, token, rdl);
  assert.equal(started.status, 202);
  assert.match(started.body.id, /^[0-9a-f-]{36}$/);
  const first = await call(`${group}/imports/${started.body.id}`, { token });
  assert.equal(first.body.importState, 'Publishing');
  const done = await waitImport(group, token, started.body.id);
  assert.equal(done.importState, 'Succeeded');
  assert.deepEqual(done.datasets, []);
  assert.equal(done.reports.length, 1);
  assert.equal(done.reports[0].name, 'Byte Check');
  const id = done.reports[0].id;
  const res = await fetch(`${group}/reports/${id}/Export`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(rdl));
  await sb.admin.setSwitch('reporting.downloadEnabled', false);
  const off = await call(`${group}/reports/${id}/Export`, { token });
  assert.equal(off.status, 403);
  assert.match(off.body.error.message, /Download reports/);
  const del = await call(`${group}/reports/${id}`, { method: 'DELETE', token });
  assert.equal(del.status, 200);
  assert.equal(del.text, '');
  const gone = await call(`${group}/reports/${id}`, { token });
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error['pbi.error'].code, 'PowerBIEntityNotFound');
});

test('imports: multipart only, .rdl display name, Abort/Overwrite rules, invalid RDL fails asynchronously', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 20);
  const { token, group } = await reportingApi(sb);
  const rdl = simpleRdl('v1');
  const noExt = await importRdl(`${group}/imports?datasetDisplayName=Sales&nameConflict=Abort`, token, rdl);
  assert.equal(noExt.status, 400);
  assert.match(noExt.body.error.message, /\.rdl/);
  const ignore = await importRdl(`${group}/imports?datasetDisplayName=A.rdl`, token, rdl);
  assert.equal(ignore.status, 400);
  assert.match(ignore.body.error.message, /nameConflict 'Ignore'/);
  const unique = await importRdl(`${group}/imports?datasetDisplayName=A.rdl&nameConflict=GenerateUniqueName`, token, rdl);
  assert.equal(unique.status, 400);
  const bogus = await importRdl(`${group}/imports?datasetDisplayName=A.rdl&nameConflict=Whatever`, token, rdl);
  assert.equal(bogus.status, 400);
  const json = await call(`${group}/imports?datasetDisplayName=A.rdl&nameConflict=Abort`, { token, json: { fileUrl: 'x' } });
  assert.equal(json.status, 400);
  assert.match(json.body.error.message, /multipart\/form-data/);

  const clash = await importRdl(`${group}/imports?datasetDisplayName=Sales%20by%20Region.rdl&nameConflict=Abort`, token, rdl);
  assert.equal(clash.status, 400);
  assert.equal(clash.body.error.code, 'DuplicatePackageFoundError');
  const nothing = await importRdl(`${group}/imports?datasetDisplayName=Nothing%20Here.rdl&nameConflict=Overwrite`, token, rdl);
  assert.equal(nothing.status, 404);
  assert.equal(nothing.body.error.code, 'DuplicatePackageNotFoundError');

  const sales = (await call(`${group}/reports`, { token })).body.value.find((r: any) => r.name === 'Sales by Region');
  const over = await importRdl(
    `${group}/imports?datasetDisplayName=Sales%20by%20Region.rdl&nameConflict=Overwrite`,
    token,
    simpleRdl('v2'),
  );
  assert.equal(over.status, 202);
  const overDone = await waitImport(group, token, over.body.id);
  assert.equal(overDone.importState, 'Succeeded');
  assert.equal(overDone.reports[0].id, sales.id, 'Overwrite keeps the report id');
  const bytes = await call(`${group}/reports/${sales.id}/Export`, { token });
  assert.match(bytes.text, /<Value>v2<\/Value>/);

  const cloned = await call(`${group}/reports/${sales.id}/Clone`, { token, json: { name: 'Sales by Region' } });
  assert.equal(cloned.status, 200);
  const two = await importRdl(`${group}/imports?datasetDisplayName=Sales%20by%20Region.rdl&nameConflict=Overwrite`, token, rdl);
  assert.equal(two.status, 409);
  assert.equal(two.body.error.code, 'MoreThanOneDuplicatePackageFoundError');

  const broken = await importRdl(
    `${group}/imports?datasetDisplayName=Broken.rdl&nameConflict=Abort`,
    token,
    simpleRdl('x').replace('<Width>6in</Width>', ''),
  );
  assert.equal(broken.status, 202);
  const failed = await waitImport(group, token, broken.body.id);
  assert.equal(failed.importState, 'Failed');
  assert.deepEqual(failed.reports, []);
  assert.match(failed.error.details, /<ReportSection> requires a <Width>/);
  const notXml = await importRdl(`${group}/imports?datasetDisplayName=NotXml.rdl&nameConflict=Abort`, token, '<Report xmlns="x"><Body>');
  assert.equal((await waitImport(group, token, notXml.body.id)).importState, 'Failed');
  const list = await call(`${group}/imports`, { token });
  assert.equal(list.status, 200);
  assert.ok(list.body.value.length >= 3);
  assert.equal(
    (await call(`${group}/reports`, { token })).body.value.filter((r: any) => r.name === 'Broken').length,
    0,
    'a failed import creates no report',
  );

  await sb.admin.grant({ service: 'reporting', role: 'Viewer', principal: 'ari@sandbox.onmicrosoft.com' });
  const viewer = await importRdl(
    `${group}/imports?datasetDisplayName=V.rdl&nameConflict=Abort`,
    (await reportingApi(sb, 'ari@sandbox.onmicrosoft.com')).token,
    rdl,
  );
  assert.equal(viewer.status, 403);
  await sb.admin.setSwitch('reporting.userLicence', 'free');
  const free = await importRdl(
    `${group}/imports?datasetDisplayName=F.rdl&nameConflict=Abort`,
    (await reportingApi(sb, 'ada@sandbox.onmicrosoft.com')).token,
    rdl,
  );
  assert.equal(free.status, 403);
  assert.equal(free.body.error['pbi.error'].details[0].code, 'LicenseRequired');
});

test('clone, datasources, Default.UpdateDatasources restrictions and TakeOver', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const list = (await call(`${group}/reports`, { token })).body.value;
  const inventory = list.find((r: any) => r.name === 'Inventory Snapshot');
  const customers = list.find((r: any) => r.name === 'Customer List');
  const pbi = list.find((r: any) => r.reportType === 'PowerBIReport');

  const sources = await call(`${group}/reports/${inventory.id}/datasources`, { token });
  assert.equal(sources.status, 200);
  assert.equal(sources.body.value.length, 1);
  const [ds] = sources.body.value;
  assert.equal(ds.datasourceType, 'Sql');
  assert.deepEqual(ds.connectionDetails, { server: 'sandbox-warehouse.datawarehouse.fabric.microsoft.com', database: 'analytics' });
  assert.match(ds.datasourceId, /^[0-9a-f-]{36}$/);
  const semantic = (await call(`${group}/reports/${customers.id}/datasources`, { token })).body.value[0];
  assert.equal(semantic.datasourceType, 'AnalysisServices');
  assert.equal(semantic.connectionDetails.server, 'pbiazure://api.powerbi.com/');
  assert.match(semantic.connectionDetails.database, /^sobe_wowvirtualserver-[0-9a-f-]{36}$/);
  assert.equal((await call(`${group}/reports/${pbi.id}/datasources`, { token })).status, 400);

  const update = (id: string, updateDetails: unknown, tk = token) =>
    call(`${group}/reports/${id}/Default.UpdateDatasources`, { token: tk, json: { updateDetails } });
  const ok = await update(inventory.id, [
    { datasourceName: 'Warehouse', connectionDetails: { server: 'other.datawarehouse.fabric.microsoft.com', database: 'sales' } },
  ]);
  assert.equal(ok.status, 200);
  assert.equal(ok.text, '');
  assert.deepEqual((await call(`${group}/reports/${inventory.id}/datasources`, { token })).body.value[0].connectionDetails, {
    server: 'other.datawarehouse.fabric.microsoft.com',
    database: 'sales',
  });
  assert.match(
    (await call(`${group}/reports/${inventory.id}/Export`, { token })).text,
    /<ConnectString>Data Source=other\.datawarehouse\.fabric\.microsoft\.com;Initial Catalog=sales<\/ConnectString>/,
  );
  const refused = async (id: string, details: unknown, pattern: RegExp, status = 400) => {
    const before = (await call(`${group}/reports/${id}/Export`, { token })).text;
    const r = await update(id, details);
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.match(JSON.stringify(r.body), pattern);
    assert.equal((await call(`${group}/reports/${id}/Export`, { token })).text, before, 'a refused update changes nothing');
  };
  await refused(inventory.id, [], /updateDetails/);
  await refused(
    inventory.id,
    [{ datasourceName: 'Nope', connectionDetails: { server: 'x' } }],
    /'Nope' is not a data source of the report/,
  );
  await refused(
    inventory.id,
    [{ datasourceName: 'Warehouse', connectionDetails: { url: 'https://x' } }],
    /only server and database can be updated; url cannot/,
  );
  await refused(
    inventory.id,
    [{ datasourceName: 'Warehouse', connectionDetails: { server: 'pbiazure://api.powerbi.com/' } }],
    /type cannot change/,
  );
  await refused(pbi.id, [{ datasourceName: 'X', connectionDetails: { server: 'y' } }], /paginated reports only/);
  await refused(
    customers.id,
    [{ datasourceName: 'CustomersModel', connectionDetails: { database: 'sobe_wowvirtualserver-00000000-0000-4000-8000-000000000000' } }],
    /NotDatasourceOwner/,
    403,
  );
  assert.equal((await call(`${group}/reports/${customers.id}/Default.TakeOver`, { token, method: 'POST' })).status, 200);
  assert.equal(
    (
      await update(customers.id, [
        { datasourceName: 'CustomersModel', connectionDetails: { database: 'sobe_wowvirtualserver-00000000-0000-4000-8000-000000000000' } },
      ])
    ).status,
    200,
  );

  const odbc = simpleRdl('odbc').replace('<DataProvider>SQL</DataProvider>', '<DataProvider>ODBC</DataProvider>');
  await sb.admin.setSwitch('reporting.importMs', 0);
  const imported = await waitImport(
    group,
    token,
    (await importRdl(`${group}/imports?datasetDisplayName=Odbc.rdl&nameConflict=Abort`, token, odbc)).body.id,
  );
  await refused(imported.reports[0].id, [{ datasourceName: 'Db', connectionDetails: { server: 'x' } }], /ODBC/);

  const clone = await call(`${group}/reports/${inventory.id}/Clone`, { token, json: { name: 'Inventory copy' } });
  assert.equal(clone.status, 200);
  assert.equal(clone.body.name, 'Inventory copy');
  assert.equal(clone.body.format, 'RDL');
  assert.notEqual(clone.body.id, inventory.id);
  assert.equal(
    (await call(`${group}/reports/${clone.body.id}/Export`, { token })).text,
    (await call(`${group}/reports/${inventory.id}/Export`, { token })).text,
  );
  assert.equal(
    (await call(`${group}/reports/${inventory.id}/Clone`, { token, json: {} })).body.error.message,
    "The request field 'name' is required: the name of the new report.",
  );
  assert.equal(
    (
      await call(`${group}/reports/${inventory.id}/Clone`, {
        token,
        json: { name: 'x', targetWorkspaceId: '00000000-0000-0000-0000-000000000000' },
      })
    ).status,
    400,
  );
  assert.equal(
    (
      await call(`${group}/reports/${inventory.id}/Clone`, {
        token,
        json: { name: 'x', targetWorkspaceId: '11111111-1111-4111-8111-111111111111' },
      })
    ).status,
    404,
  );
  const other = await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces`, {
    token: await sb.admin.token({ audience: 'dataPlatform' }),
    json: { displayName: 'Reports copy target' },
  });
  assert.equal(other.status, 201);
  const moved = await call(`${group}/reports/${inventory.id}/Clone`, {
    token,
    json: { name: 'Inventory elsewhere', targetWorkspaceId: other.body.id },
  });
  assert.equal(moved.status, 200);
  assert.match(moved.body.webUrl, new RegExp(`/groups/${other.body.id}/rdlreports/${moved.body.id}$`));
  const there = await call(`${sb.urls.reporting}/v1.0/myorg/groups/${other.body.id}/reports`, { token });
  assert.deepEqual(
    there.body.value.map((r: any) => r.name),
    ['Inventory elsewhere'],
  );
});

test('GenerateToken: service principals only for paginated reports, Member role, View access, capacity and embed switch; V2 limits', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const list = (await call(`${group}/reports`, { token })).body.value;
  const sales = list.find((r: any) => r.name === 'Sales by Region');
  const customers = list.find((r: any) => r.name === 'Customer List');
  const gen = (tk: string, body: unknown, id = sales.id) => call(`${group}/reports/${id}/GenerateToken`, { token: tk, json: body });
  await sb.admin.grant({ service: 'reporting', role: 'Contributor' });
  const contributor = await gen(token, { accessLevel: 'View' });
  assert.equal(contributor.status, 403, 'reduced to Contributor: paginated embed tokens need Member');
  await sb.admin.grant({ service: 'reporting', role: 'Member' });
  const ok = await gen(token, { accessLevel: 'View', lifetimeInMinutes: 10 });
  assert.equal(ok.status, 200);
  assert.match(ok.body.tokenId, /^[0-9a-f-]{36}$/);
  assert.ok(ok.body.token.length > 40);
  const minutes = (Date.parse(ok.body.expiration) - Date.now()) / 60_000;
  assert.ok(minutes > 9 && minutes <= 10, `lifetime honoured (${minutes})`);
  assert.equal((await gen(token, { accessLevel: 'Edit' })).status, 400);
  assert.equal((await gen(token, { accessLevel: 'View', datasetId: 'x' })).status, 400);
  assert.equal((await gen(token, { accessLevel: 'View', identities: [{ username: 'has space' }] })).status, 400);
  const user = await gen((await reportingApi(sb, 'ada@sandbox.onmicrosoft.com')).token, { accessLevel: 'View' });
  assert.equal(user.status, 403);
  assert.equal(user.body.error['pbi.error'].details[0].code, 'ServicePrincipalRequired');
  await sb.admin.setSwitch('reporting.capacity', 'ppu');
  assert.equal((await gen(token, { accessLevel: 'View' })).body.error.code, 'FeatureNotAvailableError');
  await sb.admin.setSwitch('reporting.capacity', 'fabric');
  await sb.admin.setSwitch('reporting.embedEnabled', false);
  const off = await gen(token, { accessLevel: 'View' });
  assert.equal(off.status, 403);
  assert.match(off.body.error.message, /Embed content in apps/);
  await sb.admin.setSwitch('reporting.embedEnabled', true);

  const v2 = (body: unknown) => call(`${sb.urls.reporting}/v1.0/myorg/GenerateToken`, { token, json: body });
  assert.equal((await v2({ reports: [{ id: sales.id }] })).status, 200);
  const tooMany = await v2({ reports: Array.from({ length: 51 }, () => ({ id: sales.id })) });
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.body.error.message, /at most 50/);
  assert.equal((await v2({ reports: [{ id: sales.id }], targetWorkspaces: [{ id: '00000000-0000-0000-0000-000000000000' }] })).status, 400);
  const model = /sobe_wowvirtualserver-([0-9a-f-]{36})/.exec((await call(`${group}/reports/${customers.id}/Export`, { token })).text)![1];
  const missingModel = await v2({ reports: [{ id: customers.id }] });
  assert.equal(missingModel.status, 400);
  assert.match(missingModel.body.error.message, /xmlaPermissions ReadOnly/);
  assert.equal((await v2({ reports: [{ id: customers.id }], datasets: [{ id: model, xmlaPermissions: 'ReadOnly' }] })).status, 200);
});

test('fault rules, latency and the request log cover the reporting service; state shows reports, imports and exports', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  await sb.admin.addFault({ service: 'reporting', method: 'GET', path: '/reports$', status: 429, retryAfter: 7, count: 1 });
  const throttled = await call(`${group}/reports`, { token });
  assert.equal(throttled.status, 429);
  assert.equal(throttled.headers.get('retry-after'), '7');
  assert.equal(throttled.body.error.code, 'TooManyRequests');
  assert.equal((await call(`${group}/reports`, { token })).status, 200, 'count 1');
  await sb.admin.addFault({ service: 'reporting', path: '/Export', status: 404, count: 1 });
  const nf = await call(`${group}/reports/${sb.ids.platformWorkspaceId}/Export`, { token });
  assert.deepEqual(nf.body.error['pbi.error'].code, 'PowerBIEntityNotFound');
  await sb.admin.setLatency('reporting', 120);
  const t0 = Date.now();
  await call(`${group}/reports`, { token });
  assert.ok(Date.now() - t0 >= 110);
  const log = await sb.admin.requests({ service: 'reporting' });
  assert.equal(log.length, 4);
  assert.deepEqual(
    log.map((e) => e.status),
    [429, 200, 404, 200],
  );
  assert.ok(log[0]!.fault);
  assert.equal(log[1]!.identity, sb.ids.serviceIdentity.objectId);
  const state = await sb.admin.state();
  assert.equal(state.reporting.reports.length, 4);
  assert.equal(state.switches['reporting.capacity'], 'fabric');
});

test('admin reports route: $filter/$top/$skip and the authoring fields; admins and allowed service principals only', async (t) => {
  const sb = await sandbox(t);
  const { token } = await reportingApi(sb);
  const admin = `${sb.urls.reporting}/v1.0/myorg/admin/groups/${sb.ids.platformWorkspaceId}/reports`;
  const paginated = await call(`${admin}?$filter=${encodeURIComponent("reportType eq 'PaginatedReport'")}`, { token });
  assert.equal(paginated.status, 200);
  assert.deepEqual(
    paginated.body.value.map((r: any) => r.name),
    ['Sales by Region', 'Inventory Snapshot', 'Customer List'],
  );
  const first = paginated.body.value[0];
  assert.ok(Date.parse(first.createdDateTime) <= Date.parse(first.modifiedDateTime));
  assert.equal(first.modifiedBy, sb.ids.serviceIdentity.name);
  assert.equal(first.isOwnedByMe, undefined);
  assert.equal((await call(`${admin}?$top=1&$skip=1`, { token })).body.value[0].name, 'Inventory Snapshot');
  const either = await call(`${admin}?$filter=${encodeURIComponent("name eq 'Customer List' or reportType eq 'PowerBIReport'")}`, {
    token,
  });
  assert.deepEqual(
    either.body.value.map((r: any) => r.name),
    ['Customer List', 'Executive Overview'],
  );
  const bad = await call(`${admin}?$filter=${encodeURIComponent("startswith(name,'S')")}`, { token });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /\$filter clause/);
  assert.equal(
    (await call(admin, { token: (await reportingApi(sb, 'ada@sandbox.onmicrosoft.com')).token })).status,
    200,
    'Ada is a Fabric administrator',
  );
  assert.equal((await call(admin, { token: (await reportingApi(sb, 'ari@sandbox.onmicrosoft.com')).token })).status, 401);
  await sb.admin.setSwitch('reporting.adminApisEnabled', false);
  assert.equal((await call(admin, { token })).status, 401);
});

test('viewer: the webUrl renders the report with rp: parameters and rdl:format downloads', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const sales = (await call(`${group}/reports`, { token })).body.value.find((r: any) => r.name === 'Sales by Region');
  const page = await fetch(`${sales.webUrl}?rp:Region=Central`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<h1>Sales by Region<\/h1>/);
  assert.match(html, /<td>Denver<\/td>/);
  assert.doesNotMatch(html, /<td>Seattle<\/td>/);
  assert.match(html, /<option value="Central" selected>/);
  const pdf = await fetch(`${sales.webUrl}?rp:Region=West&rdl:format=PDF`);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.match(parsePdf(Buffer.from(await pdf.arrayBuffer())).text, /Seattle/);
  const embed = await fetch(sales.embedUrl);
  assert.equal(embed.status, 200);
  const wrong = await fetch(`${sales.webUrl}?rp:Region=North`);
  assert.equal(wrong.status, 400);
  assert.match(await wrong.text(), /not a valid value of parameter &apos;Region&apos;/);
  assert.equal(
    (await fetch(`${sb.urls.reporting}/groups/${sb.ids.platformWorkspaceId}/rdlreports/00000000-0000-4000-8000-000000000000`)).status,
    404,
  );
});
