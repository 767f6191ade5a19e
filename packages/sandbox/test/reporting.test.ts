import { test } from 'node:test';
// tedious is the service's client (hoisted from @svc/server): rows are written to the sandbox's warehouse through it.
import { Connection, Request } from 'tedious';
import assert from 'node:assert/strict';
import { call, sandbox, sleep } from './helpers.js';
import type { Sandbox } from '../src/index.js';
import { exportFile, importRdl, parsePdf, reportingApi, simpleRdl, unzip, waitImport } from './reporting-helpers.js';

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

test('ExportTo: 202 with an opaque id, polling with Retry-After and percentComplete, then a PDF that parses', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.renderMs', 1500);
  const { token, group } = await reportingApi(sb);
  const sales = (await call(`${group}/reports`, { token })).body.value.find((r: any) => r.name === 'Sales by Region');
  const before = Date.now();
  const out = await exportFile(group, token, sales.id, { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Region', value: 'East' }, { name: 'Region', value: 'Central' }, { name: 'StartDate', value: '2025-02-01' }] } });
  assert.doesNotMatch(out.start.id, /^[0-9a-f-]{36}$/, 'an export id is not a GUID');
  assert.equal(out.start.status, 'NotStarted');
  assert.equal(out.start.reportName, 'Sales by Region');
  assert.ok(Math.abs(Date.parse(out.start.expirationTime) - Date.parse(out.start.createdDateTime) - 86_400_000) < 1000);
  assert.ok(out.seen.some((s) => s.startsWith('202:Running:1')), `a Running poll with Retry-After: ${out.seen}`);
  assert.ok(out.seen.at(-1)!.startsWith('200:Succeeded:-'), 'no Retry-After once finished');
  assert.equal(out.status.percentComplete, 100);
  assert.equal(out.status.resourceFileExtension, '.pdf');
  assert.match(out.status.resourceLocation, new RegExp(`/reports/${sales.id}/exports/.+/file$`));
  assert.equal(out.res.status, 200);
  assert.equal(out.res.headers.get('content-type'), 'application/pdf');
  const pdf = parsePdf(out.bytes);
  assert.equal(pdf.pages, 1);
  assert.match(pdf.text, /Sales by Region: East, Central/, 'the title evaluates the multi-value parameter');
  assert.match(pdf.text, /From 2025-02-01 for /);
  assert.match(pdf.text, /^Sales by Region$/m, 'the header shows Globals!ReportName');
  assert.match(pdf.text, /Page 1 of 1 - run \d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2} [AP]M by /, 'page numbers and ExecutionTime in the footer');
  assert.ok(Date.now() - before >= 1400);
  for (const h of ['Region', 'City', 'Order date', 'Amount']) assert.match(pdf.text, new RegExp(`^${h}$`, 'm'), `table header ${h}`);
  assert.match(pdf.text, /^Boston$/m, 'an East row');
  assert.match(pdf.text, /^Chicago$/m, 'a Central row');
  assert.doesNotMatch(pdf.text, /Seattle/, 'the Region filter drops West rows');
  assert.match(out.bytes.toString('latin1'), new RegExp(`/Author \\(${sb.ids.serviceIdentity.appId}\\)`), 'User!UserID is the caller');
});

test('ExportTo formats: CSV and XML carry the fields and rows; DOCX/XLSX/PPTX are zip packages; MHTML, TIFF, PNG, GIF, BMP, accessible PDF', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  const sales = (await call(`${group}/reports`, { token })).body.value.find((r: any) => r.name === 'Sales by Region');
  const get = (format: string, formatSettings?: Record<string, string>) => exportFile(group, token, sales.id, { format, paginatedReportConfiguration: { formatSettings } });

  const csv = await get('CSV');
  assert.equal(csv.res.headers.get('content-type'), 'text/csv');
  const lines = csv.bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
  assert.equal(lines[0], 'Region,City,OrderDate,Amount');
  assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), ['West', 'West', 'East', 'East', 'West', 'East'], 'default Region values West and East');
  const tsv = await get('CSV', { FieldDelimiter: ';', NoHeader: 'true' });
  assert.match(tsv.bytes.toString('utf8'), /^\uFEFFWest;Seattle;2025-01-15;1250.50\r\n/);

  const xml = (await get('XML')).bytes.toString('utf8');
  assert.match(xml, /^<\?xml version="1.0" encoding="utf-8"\?>\n<Report /);
  assert.match(xml, /Name="Sales by Region"/);
  assert.match(xml, /<SalesTable>\s*<Details_Collection>\s*<Details Region="West" City="Seattle" OrderDate="2025-01-15" Amount="1250.50" \/>/);

  const docx = unzip((await get('DOCX')).bytes);
  assert.ok(docx.has('[Content_Types].xml'));
  assert.match(docx.get('[Content_Types].xml')!.toString(), /wordprocessingml\.document\.main\+xml/);
  assert.match(docx.get('_rels/.rels')!.toString(), /Target="word\/document.xml"/);
  assert.match(docx.get('word/document.xml')!.toString(), /<w:t xml:space="preserve">Order date<\/w:t>/);
  const xlsx = unzip((await get('XLSX')).bytes);
  assert.match(xlsx.get('xl/workbook.xml')!.toString(), /<sheet name="Page 1"/);
  assert.match(xlsx.get('xl/worksheets/sheet1.xml')!.toString(), /<t xml:space="preserve">Portland<\/t>/);
  assert.match(xlsx.get('xl/worksheets/sheet1.xml')!.toString(), /<v>830.00<\/v>/);
  const pptx = unzip((await get('PPTX')).bytes);
  for (const part of ['ppt/presentation.xml', 'ppt/slides/slide1.xml', 'ppt/slideMasters/slideMaster1.xml', 'ppt/slideLayouts/slideLayout1.xml', 'ppt/theme/theme1.xml']) assert.ok(pptx.has(part), part);
  assert.match(pptx.get('ppt/slides/slide1.xml')!.toString(), /Sales by Region: West, East/);

  const mhtml = (await get('MHTML')).bytes.toString('utf8');
  const boundary = /boundary="([^"]+)"/.exec(mhtml)![1]!;
  assert.match(mhtml, /^MIME-Version: 1.0\r\n/);
  const html = Buffer.from(mhtml.split(`--${boundary}`)[1]!.split('\r\n\r\n')[1]!.replace(/\r\n/g, ''), 'base64').toString('utf8');
  assert.match(html, /<th>City<\/th>/);

  const tiff = await get('IMAGE');
  assert.equal(tiff.status.resourceFileExtension, '.tiff');
  assert.equal(tiff.bytes.toString('latin1', 0, 4), 'II*\0');
  const ifd = tiff.bytes.readUInt32LE(4);
  assert.equal(tiff.bytes.readUInt16LE(ifd), 14, 'an image file directory');
  const png = await get('IMAGE', { OutputFormat: 'PNG' });
  assert.equal(png.res.headers.get('content-type'), 'image/png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.bytes.toString('latin1', 12, 16), 'IHDR');
  assert.equal(png.bytes.readUInt32BE(16), 612, 'a Letter page at 72 dpi');
  assert.equal((await get('IMAGE', { OutputFormat: 'GIF' })).bytes.toString('latin1', 0, 6), 'GIF89a');
  assert.equal((await get('IMAGE', { OutputFormat: 'BMP' })).bytes.toString('latin1', 0, 2), 'BM');
  const jpeg = await call(`${group}/reports/${sales.id}/ExportTo`, { token, json: { format: 'IMAGE', paginatedReportConfiguration: { formatSettings: { OutputFormat: 'JPEG' } } } });
  assert.equal(jpeg.status, 400);
  assert.match(jpeg.body.error.message, /OutputFormat 'JPEG'/);

  const accessible = (await get('ACCESSIBLEPDF')).bytes;
  parsePdf(accessible);
  assert.match(accessible.toString('latin1'), /\/MarkInfo << \/Marked true >> \/StructTreeRoot \d+ 0 R \/Lang \(en-US\)/);
  assert.match(accessible.toString('latin1'), /\/TH << \/MCID \d+ >> BDC/);
});

test('ExportTo: StartPage/EndPage and page height paginate; parameters are checked; format rules and tenant switches', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  const list = (await call(`${group}/reports`, { token })).body.value;
  const sales = list.find((r: any) => r.name === 'Sales by Region');
  const all = await exportFile(group, token, sales.id, { format: 'PDF', paginatedReportConfiguration: { formatSettings: { PageHeight: '3in' } } });
  const whole = parsePdf(all.bytes);
  assert.ok(whole.pages >= 3, `short pages give several pages (${whole.pages})`);
  assert.match(whole.text, new RegExp(`Page ${whole.pages} of ${whole.pages}`));
  const some = parsePdf((await exportFile(group, token, sales.id, { format: 'PDF', paginatedReportConfiguration: { formatSettings: { PageHeight: '3in', StartPage: '2', EndPage: '2' } } })).bytes);
  assert.equal(some.pages, 1);
  assert.match(some.text, new RegExp(`Page 2 of ${whole.pages}`));

  const bad = async (request: unknown, pattern: RegExp, status = 400, reportId = sales.id) => {
    const r = await call(`${group}/reports/${reportId}/ExportTo`, { token, json: request });
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.match(r.body.error.message, pattern);
    return r;
  };
  await bad({ format: 'WORD' }, /unsupported file format/);
  await bad({}, /unsupported file format/);
  await bad({ format: 'PNG' }, /PNG is for Power BI reports/);
  const pbi = list.find((r: any) => r.reportType === 'PowerBIReport');
  await bad({ format: 'CSV' }, /CSV is for paginated reports only/, 400, pbi.id);
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'region', value: 'West' }] } }, /no parameter 'region'.*did you mean 'Region'/);
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Region', value: 'North' }] } }, /'North' is not a valid value of parameter 'Region'/);
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'StartDate', value: 'yesterday' }] } }, /not a DateTime/);
  const inventory = list.find((r: any) => r.name === 'Inventory Snapshot');
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'WarehouseId', value: '1.5' }] } }, /not an Integer/, 400, inventory.id);
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'WarehouseId', value: '1' }, { name: 'WarehouseId', value: '2' }] } }, /takes one value; 2 were given/, 400, inventory.id);
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'IncludeDiscontinued', value: 'maybe' }] } }, /not a Boolean/, 400, inventory.id);
  const customers = list.find((r: any) => r.name === 'Customer List');
  await bad({ format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Segment', value: 'SMB' }] } }, /must send paginatedReportConfiguration.identities/, 400, customers.id);
  await bad({ format: 'PDF' }, /parameter 'Segment' has no default value/, 400, customers.id);
  const withIdentity = await exportFile(group, token, customers.id, { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Segment', value: 'SMB' }], identities: [{ username: 'ari@sandbox.onmicrosoft.com', reports: [customers.id] }] } });
  assert.match(parsePdf(withIdentity.bytes).text, /by ari@sandbox\.onmicrosoft\.com/, 'User!UserID is the effective identity');
  assert.match(parsePdf(withIdentity.bytes).text, /Customers in segment SMB/);
  const pbiPdf = await exportFile(group, token, pbi.id, { format: 'PDF' });
  assert.match(parsePdf(pbiPdf.bytes).text, /Executive Overview/);

  await sb.admin.setSwitch('reporting.export.word', false);
  const off = await bad({ format: 'DOCX' }, /Export reports as Word documents/, 403);
  assert.equal(off.body.error.code, 'FeatureDisabledByTenantSetting');
  assert.equal((await call(`${group}/reports/${sales.id}/ExportTo`, { token, json: { format: 'CSV' } })).status, 202, 'other formats stay allowed');
  await sb.admin.setSwitch('reporting.capacity', 'shared');
  assert.equal((await bad({ format: 'PDF' }, /capacity/, 403)).body.error.code, 'FeatureNotAvailableError');
  await sb.admin.setSwitch('reporting.capacity', 'ppu');
  assert.equal((await call(`${group}/reports/${sales.id}/ExportTo`, { token, json: { format: 'PDF' } })).status, 202);
  const second = await bad({ format: 'PDF' }, /one export request every 5 minutes/, 429);
  assert.ok(Number(second.headers.get('retry-after')) > 200);
  await sb.admin.setSwitch('reporting.capacity', 'fabric');
  await sleep(60); // the earlier 20 ms jobs are finished, so only the next one counts as rendering
  await sb.admin.setSwitch('reporting.renderMs', 5000);
  await sb.admin.setSwitch('reporting.maxConcurrentRenders', 1);
  assert.equal((await call(`${group}/reports/${sales.id}/ExportTo`, { token, json: { format: 'PDF' } })).status, 202);
  const busy = await bad({ format: 'PDF' }, /concurrently/, 429);
  assert.equal(busy.headers.get('retry-after'), '1');
  await sb.admin.setSwitch('reporting.maxConcurrentRenders', 500);
  await sb.admin.setSwitch('reporting.exportTimeoutMs', 30);
  const slow = await call(`${group}/reports/${sales.id}/ExportTo`, { token, json: { format: 'PDF' } });
  await sleep(60);
  const failed = await call(`${group}/reports/${sales.id}/exports/${encodeURIComponent(slow.body.id)}`, { token });
  assert.equal(failed.status, 200);
  assert.equal(failed.body.status, 'Failed');
  assert.equal(failed.headers.get('retry-after'), null);
  const noFile = await call(`${group}/reports/${sales.id}/exports/${encodeURIComponent(slow.body.id)}/file`, { token });
  assert.equal(noFile.status, 400);
  assert.equal((await call(`${group}/reports/${sales.id}/exports/bm90LWEtam9i/file`, { token })).status, 404);
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

  const update = (id: string, updateDetails: unknown, tk = token) => call(`${group}/reports/${id}/Default.UpdateDatasources`, { token: tk, json: { updateDetails } });
  const ok = await update(inventory.id, [{ datasourceName: 'Warehouse', connectionDetails: { server: 'other.datawarehouse.fabric.microsoft.com', database: 'sales' } }]);
  assert.equal(ok.status, 200);
  assert.equal(ok.text, '');
  assert.deepEqual((await call(`${group}/reports/${inventory.id}/datasources`, { token })).body.value[0].connectionDetails, { server: 'other.datawarehouse.fabric.microsoft.com', database: 'sales' });
  assert.match((await call(`${group}/reports/${inventory.id}/Export`, { token })).text, /<ConnectString>Data Source=other\.datawarehouse\.fabric\.microsoft\.com;Initial Catalog=sales<\/ConnectString>/);
  const refused = async (id: string, details: unknown, pattern: RegExp, status = 400) => {
    const before = (await call(`${group}/reports/${id}/Export`, { token })).text;
    const r = await update(id, details);
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.match(JSON.stringify(r.body), pattern);
    assert.equal((await call(`${group}/reports/${id}/Export`, { token })).text, before, 'a refused update changes nothing');
  };
  await refused(inventory.id, [], /updateDetails/);
  await refused(inventory.id, [{ datasourceName: 'Nope', connectionDetails: { server: 'x' } }], /'Nope' is not a data source of the report/);
  await refused(inventory.id, [{ datasourceName: 'Warehouse', connectionDetails: { url: 'https://x' } }], /only server and database can be updated; url cannot/);
  await refused(inventory.id, [{ datasourceName: 'Warehouse', connectionDetails: { server: 'pbiazure://api.powerbi.com/' } }], /type cannot change/);
  await refused(pbi.id, [{ datasourceName: 'X', connectionDetails: { server: 'y' } }], /paginated reports only/);
  await refused(customers.id, [{ datasourceName: 'CustomersModel', connectionDetails: { database: 'sobe_wowvirtualserver-00000000-0000-4000-8000-000000000000' } }], /NotDatasourceOwner/, 403);
  assert.equal((await call(`${group}/reports/${customers.id}/Default.TakeOver`, { token, method: 'POST' })).status, 200);
  assert.equal((await update(customers.id, [{ datasourceName: 'CustomersModel', connectionDetails: { database: 'sobe_wowvirtualserver-00000000-0000-4000-8000-000000000000' } }])).status, 200);

  const odbc = simpleRdl('odbc').replace('<DataProvider>SQL</DataProvider>', '<DataProvider>ODBC</DataProvider>');
  await sb.admin.setSwitch('reporting.importMs', 0);
  const imported = await waitImport(group, token, (await importRdl(`${group}/imports?datasetDisplayName=Odbc.rdl&nameConflict=Abort`, token, odbc)).body.id);
  await refused(imported.reports[0].id, [{ datasourceName: 'Db', connectionDetails: { server: 'x' } }], /ODBC/);

  const clone = await call(`${group}/reports/${inventory.id}/Clone`, { token, json: { name: 'Inventory copy' } });
  assert.equal(clone.status, 200);
  assert.equal(clone.body.name, 'Inventory copy');
  assert.equal(clone.body.format, 'RDL');
  assert.notEqual(clone.body.id, inventory.id);
  assert.equal((await call(`${group}/reports/${clone.body.id}/Export`, { token })).text, (await call(`${group}/reports/${inventory.id}/Export`, { token })).text);
  assert.equal((await call(`${group}/reports/${inventory.id}/Clone`, { token, json: {} })).body.error.message, "The request field 'name' is required: the name of the new report.");
  assert.equal((await call(`${group}/reports/${inventory.id}/Clone`, { token, json: { name: 'x', targetWorkspaceId: '00000000-0000-0000-0000-000000000000' } })).status, 400);
  assert.equal((await call(`${group}/reports/${inventory.id}/Clone`, { token, json: { name: 'x', targetWorkspaceId: '11111111-1111-4111-8111-111111111111' } })).status, 404);
  const other = await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces`, { token: await sb.admin.token({ audience: 'dataPlatform' }), json: { displayName: 'Reports copy target' } });
  assert.equal(other.status, 201);
  const moved = await call(`${group}/reports/${inventory.id}/Clone`, { token, json: { name: 'Inventory elsewhere', targetWorkspaceId: other.body.id } });
  assert.equal(moved.status, 200);
  assert.match(moved.body.webUrl, new RegExp(`/groups/${other.body.id}/rdlreports/${moved.body.id}$`));
  const there = await call(`${sb.urls.reporting}/v1.0/myorg/groups/${other.body.id}/reports`, { token });
  assert.deepEqual(there.body.value.map((r: any) => r.name), ['Inventory elsewhere']);
});

test('GenerateToken: service principals only for paginated reports, Member role, View access, capacity and embed switch; V2 limits', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const list = (await call(`${group}/reports`, { token })).body.value;
  const sales = list.find((r: any) => r.name === 'Sales by Region');
  const customers = list.find((r: any) => r.name === 'Customer List');
  const gen = (tk: string, body: unknown, id = sales.id) => call(`${group}/reports/${id}/GenerateToken`, { token: tk, json: body });
  const contributor = await gen(token, { accessLevel: 'View' });
  assert.equal(contributor.status, 403, 'the service identity is Contributor; paginated embed tokens need Member');
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
  assert.deepEqual(log.map((e) => e.status), [429, 200, 404, 200]);
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
  assert.deepEqual(paginated.body.value.map((r: any) => r.name), ['Sales by Region', 'Inventory Snapshot', 'Customer List']);
  const first = paginated.body.value[0];
  assert.ok(Date.parse(first.createdDateTime) <= Date.parse(first.modifiedDateTime));
  assert.equal(first.modifiedBy, sb.ids.serviceIdentity.name);
  assert.equal(first.isOwnedByMe, undefined);
  assert.equal((await call(`${admin}?$top=1&$skip=1`, { token })).body.value[0].name, 'Inventory Snapshot');
  const either = await call(`${admin}?$filter=${encodeURIComponent("name eq 'Customer List' or reportType eq 'PowerBIReport'")}`, { token });
  assert.deepEqual(either.body.value.map((r: any) => r.name), ['Customer List', 'Executive Overview']);
  const bad = await call(`${admin}?$filter=${encodeURIComponent("startswith(name,'S')")}`, { token });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /\$filter clause/);
  assert.equal((await call(admin, { token: (await reportingApi(sb, 'ada@sandbox.onmicrosoft.com')).token })).status, 200, 'Ada is a Fabric administrator');
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
  assert.equal((await fetch(`${sb.urls.reporting}/groups/${sb.ids.platformWorkspaceId}/rdlreports/00000000-0000-4000-8000-000000000000`)).status, 404);
});

/** Runs one batch on the sandbox's SQL endpoint as the service identity (a db_owner user of the warehouse pool). */
async function sqlBatch(sb: Sandbox, sql: string): Promise<void> {
  const [host, port] = sb.urls.sql.split(':');
  const token = await sb.admin.token({ audience: 'https://database.windows.net/' });
  const conn = new Connection({ server: host!, authentication: { type: 'azure-active-directory-access-token', options: { token } }, options: { port: Number(port), database: sb.ids.warehousePool, encrypt: false, connectTimeout: 5000 } });
  conn.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve, reject) => conn.execSqlBatch(new Request(sql, (err) => (err ? reject(err) : resolve()))));
  conn.close();
}

test('a data set over the sandbox warehouse renders its rows live (query parameters substituted); a failing query fails the job', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  await sqlBatch(sb, "CREATE TABLE dbo.Visits (Clinic NVARCHAR(50), Patients INT); INSERT INTO dbo.Visits (Clinic, Patients) VALUES (N'North', 12), (N'South', 30), (N'East', 7);");
  const { token, group } = await reportingApi(sb);
  const rdl = simpleRdl('Visits')
    .replace('Data Source=old.example.net;Initial Catalog=sales', `Data Source=${sb.urls.sql};Initial Catalog=${sb.ids.warehousePool}`)
    .replace('SELECT Name, Total FROM dbo.T', 'SELECT Clinic AS Name, Patients AS Total FROM dbo.Visits WHERE Patients &gt;= @Top')
    .replace('<Query><DataSourceName>Db</DataSourceName>', '<Query><DataSourceName>Db</DataSourceName><QueryParameters><QueryParameter Name="@Top"><Value>=Parameters!Top.Value</Value></QueryParameter></QueryParameters>')
    .replace('</ReportItems><Height>2in</Height>', '<Tablix Name="Visits"><TablixBody><TablixColumns><TablixColumn><Width>2in</Width></TablixColumn></TablixColumns><TablixRows><TablixRow><Height>0.25in</Height><TablixCells><TablixCell><CellContents><Textbox Name="H"><Paragraphs><Paragraph><TextRuns><TextRun><Value>Clinic</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></CellContents></TablixCell></TablixCells></TablixRow><TablixRow><Height>0.25in</Height><TablixCells><TablixCell><CellContents><Textbox Name="C"><Paragraphs><Paragraph><TextRuns><TextRun><Value>=Fields!Name.Value</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></CellContents></TablixCell></TablixCells></TablixRow></TablixRows></TablixBody><DataSetName>Rows</DataSetName></Tablix></ReportItems><Height>2in</Height>');
  const done = await waitImport(group, token, (await importRdl(`${group}/imports?datasetDisplayName=Visits.rdl&nameConflict=Abort`, token, rdl)).body.id);
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  const id = done.reports[0].id;
  const csv = await exportFile(group, token, id, { format: 'CSV' });
  assert.deepEqual(csv.bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n'), ['Name,Total', 'North,12', 'South,30']);
  const pdf = await exportFile(group, token, id, { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Top', value: '20' }] } });
  const text = parsePdf(pdf.bytes).text;
  assert.match(text, /^South$/m);
  assert.doesNotMatch(text, /North/);
  await sqlBatch(sb, 'DROP TABLE dbo.Visits;');
  const failed = await exportFile(group, token, id, { format: 'CSV' });
  assert.equal(failed.status.status, 'Failed');
  assert.equal(failed.status.resourceLocation, undefined);
  const file = await call(`${group}/reports/${id}/exports/${encodeURIComponent(failed.start.id)}/file`, { token });
  assert.equal(file.status, 400);
  assert.match(file.body.error.message, /Failed/);
});
