import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox, sleep } from './helpers.js';
import type { Sandbox } from '../src/index.js';

const RDL_NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';

/** A small valid definition with one parameter, a data set and a table. */
export const simpleRdl = (title: string) => `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="${RDL_NS}">
  <DataSources><DataSource Name="Db"><ConnectionProperties><DataProvider>SQL</DataProvider><ConnectString>Data Source=old.example.net;Initial Catalog=sales</ConnectString></ConnectionProperties></DataSource></DataSources>
  <DataSets><DataSet Name="Rows"><Query><DataSourceName>Db</DataSourceName><CommandText>SELECT Name, Total FROM dbo.T</CommandText></Query>
    <Fields><Field Name="Name"><DataField>Name</DataField></Field><Field Name="Total"><DataField>Total</DataField></Field></Fields></DataSet></DataSets>
  <ReportSections><ReportSection>
    <Body><ReportItems><Textbox Name="T"><Paragraphs><Paragraph><TextRuns><TextRun><Value>${title}</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></ReportItems><Height>2in</Height></Body>
    <Width>6in</Width><Page><PageHeight>11in</PageHeight><PageWidth>8.5in</PageWidth></Page>
  </ReportSection></ReportSections>
  <ReportParameters><ReportParameter Name="Top"><DataType>Integer</DataType><DefaultValue><Values><Value>10</Value></Values></DefaultValue><Prompt>Top</Prompt></ReportParameter></ReportParameters>
</Report>
`;

/** Base of the group routes and a token of the service identity for the reporting API audience. */
export async function reportingApi(sb: Sandbox, principal?: string) {
  const token = await sb.admin.token({ principal, audience: 'https://analysis.windows.net/powerbi/api' });
  return { token, group: `${sb.env.SVC_BI_API_URL}/v1.0/myorg/groups/${sb.ids.platformWorkspaceId}` };
}

/** POST an .rdl as multipart/form-data to the import call. */
export async function importRdl(url: string, token: string, rdl: string | Buffer, filename = 'file.rdl') {
  const form = new FormData();
  form.append('file0', new Blob([typeof rdl === 'string' ? rdl : new Uint8Array(rdl)]), filename);
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Polls an import until it leaves Publishing. */
export async function waitImport(group: string, token: string, id: string) {
  for (let i = 0; i < 100; i++) {
    const r = await call(`${group}/imports/${id}`, { token });
    assert.equal(r.status, 200);
    if (r.body.importState !== 'Publishing') return r.body;
    await sleep(30);
  }
  throw new Error('the import did not finish');
}

test('reports in a group: paginated reports carry RDL markers, Power BI reports do not; $filter is ignored', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  assert.equal(sb.env.SVC_BI_API_URL, sb.urls.reporting);
  const list = await call(`${group}/reports?$filter=reportType eq 'PaginatedReport'`, { token });
  assert.equal(list.status, 200);
  assert.ok(list.headers.get('requestid'));
  const types = list.body.value.map((r: any) => r.reportType).sort();
  assert.deepEqual(types, ['PaginatedReport', 'PaginatedReport', 'PaginatedReport', 'PowerBIReport'], 'the filter is ignored on the group route');
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
  assert.deepEqual(missing.body, { error: { code: 'PowerBIEntityNotFound', 'pbi.error': { code: 'PowerBIEntityNotFound', parameters: {}, details: [], exceptionCulprit: 1 } } });
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
  assert.deepEqual(expired.body, { error: { code: 'TokenExpired', message: 'Access token has expired, resubmit with a new access token' } });
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
  const viewerDelete = await call(`${group}/reports/${(await call(`${group}/reports`, { token })).body.value[0].id}`, { method: 'DELETE', token: (await reportingApi(sb, ci)).token });
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
  const over = await importRdl(`${group}/imports?datasetDisplayName=Sales%20by%20Region.rdl&nameConflict=Overwrite`, token, simpleRdl('v2'));
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

  const broken = await importRdl(`${group}/imports?datasetDisplayName=Broken.rdl&nameConflict=Abort`, token, simpleRdl('x').replace('<Width>6in</Width>', ''));
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
  assert.equal((await call(`${group}/reports`, { token })).body.value.filter((r: any) => r.name === 'Broken').length, 0, 'a failed import creates no report');

  await sb.admin.grant({ service: 'reporting', role: 'Viewer', principal: 'ari@sandbox.onmicrosoft.com' });
  const viewer = await importRdl(`${group}/imports?datasetDisplayName=V.rdl&nameConflict=Abort`, (await reportingApi(sb, 'ari@sandbox.onmicrosoft.com')).token, rdl);
  assert.equal(viewer.status, 403);
  await sb.admin.setSwitch('reporting.userLicence', 'free');
  const free = await importRdl(`${group}/imports?datasetDisplayName=F.rdl&nameConflict=Abort`, (await reportingApi(sb, 'ada@sandbox.onmicrosoft.com')).token, rdl);
  assert.equal(free.status, 403);
  assert.equal(free.body.error['pbi.error'].details[0].code, 'LicenseRequired');
});
