import { test } from 'node:test';
import assert from 'node:assert/strict';
// tedious is the service's client (hoisted from @svc/server): rows are written to the sandbox's warehouse through it.
import { Connection, Request } from 'tedious';
import { call, sandbox, sleep } from './helpers.js';
import type { Sandbox } from '../src/index.js';
import { exportFile, importRdl, parsePdf, reportingApi, simpleRdl, unzip, waitImport, withTable } from './reporting-helpers.js';

// ExportTo against the reporting emulator: polling, the files of each format, parameters, limits and live data.

test('ExportTo: 202 with an opaque id, polling with Retry-After and percentComplete, then a PDF that parses', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.renderMs', 1500);
  const { token, group } = await reportingApi(sb);
  const sales = (await call(`${group}/reports`, { token })).body.value.find((r: any) => r.name === 'Sales by Region');
  const before = Date.now();
  const out = await exportFile(group, token, sales.id, {
    format: 'PDF',
    paginatedReportConfiguration: {
      parameterValues: [
        { name: 'Region', value: 'East' },
        { name: 'Region', value: 'Central' },
        { name: 'StartDate', value: '2025-02-01' },
      ],
    },
  });
  assert.doesNotMatch(out.start.id, /^[0-9a-f-]{36}$/, 'an export id is not a GUID');
  assert.equal(out.start.status, 'NotStarted');
  assert.equal(out.start.reportName, 'Sales by Region');
  assert.ok(Math.abs(Date.parse(out.start.expirationTime) - Date.parse(out.start.createdDateTime) - 86_400_000) < 1000);
  assert.ok(
    out.seen.some((s) => s.startsWith('202:Running:1')),
    `a Running poll with Retry-After: ${out.seen}`,
  );
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
  assert.match(
    pdf.text,
    /Page 1 of 1 - run \d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2} [AP]M by /,
    'page numbers and ExecutionTime in the footer',
  );
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
  const get = (format: string, formatSettings?: Record<string, string>) =>
    exportFile(group, token, sales.id, { format, paginatedReportConfiguration: { formatSettings } });

  const csv = await get('CSV');
  assert.equal(csv.res.headers.get('content-type'), 'text/csv');
  const lines = csv.bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  assert.equal(lines[0], 'Region,City,OrderDate,Amount');
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(',')[0]),
    ['West', 'West', 'East', 'East', 'West', 'East'],
    'default Region values West and East',
  );
  const tsv = await get('CSV', { FieldDelimiter: ';', NoHeader: 'true' });
  assert.match(tsv.bytes.toString('utf8'), /^\uFEFFWest;Seattle;2025-01-15;1250.50\r\n/);

  const xml = (await get('XML')).bytes.toString('utf8');
  assert.match(xml, /^<\?xml version="1.0" encoding="utf-8"\?>\n<Report /);
  assert.match(xml, /Name="Sales by Region"/);
  assert.match(
    xml,
    /<SalesTable>\s*<Details_Collection>\s*<Details Region="West" City="Seattle" OrderDate="2025-01-15" Amount="1250.50" \/>/,
  );

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
  for (const part of [
    'ppt/presentation.xml',
    'ppt/slides/slide1.xml',
    'ppt/slideMasters/slideMaster1.xml',
    'ppt/slideLayouts/slideLayout1.xml',
    'ppt/theme/theme1.xml',
  ])
    assert.ok(pptx.has(part), part);
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
  const jpeg = await call(`${group}/reports/${sales.id}/ExportTo`, {
    token,
    json: { format: 'IMAGE', paginatedReportConfiguration: { formatSettings: { OutputFormat: 'JPEG' } } },
  });
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
  const all = await exportFile(group, token, sales.id, {
    format: 'PDF',
    paginatedReportConfiguration: { formatSettings: { PageHeight: '3in' } },
  });
  const whole = parsePdf(all.bytes);
  assert.ok(whole.pages >= 3, `short pages give several pages (${whole.pages})`);
  assert.match(whole.text, new RegExp(`Page ${whole.pages} of ${whole.pages}`));
  const some = parsePdf(
    (
      await exportFile(group, token, sales.id, {
        format: 'PDF',
        paginatedReportConfiguration: { formatSettings: { PageHeight: '3in', StartPage: '2', EndPage: '2' } },
      })
    ).bytes,
  );
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
  await bad(
    { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'region', value: 'West' }] } },
    /no parameter 'region'.*did you mean 'Region'/,
  );
  await bad(
    { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Region', value: 'North' }] } },
    /'North' is not a valid value of parameter 'Region'/,
  );
  await bad(
    { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'StartDate', value: 'yesterday' }] } },
    /not a DateTime/,
  );
  const inventory = list.find((r: any) => r.name === 'Inventory Snapshot');
  await bad(
    { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'WarehouseId', value: '1.5' }] } },
    /not an Integer/,
    400,
    inventory.id,
  );
  await bad(
    {
      format: 'PDF',
      paginatedReportConfiguration: {
        parameterValues: [
          { name: 'WarehouseId', value: '1' },
          { name: 'WarehouseId', value: '2' },
        ],
      },
    },
    /takes one value; 2 were given/,
    400,
    inventory.id,
  );
  await bad(
    { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'IncludeDiscontinued', value: 'maybe' }] } },
    /not a Boolean/,
    400,
    inventory.id,
  );
  const customers = list.find((r: any) => r.name === 'Customer List');
  await bad(
    { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Segment', value: 'SMB' }] } },
    /must send paginatedReportConfiguration.identities/,
    400,
    customers.id,
  );
  await bad({ format: 'PDF' }, /parameter 'Segment' has no default value/, 400, customers.id);
  const withIdentity = await exportFile(group, token, customers.id, {
    format: 'PDF',
    paginatedReportConfiguration: {
      parameterValues: [{ name: 'Segment', value: 'SMB' }],
      identities: [{ username: 'ari@sandbox.onmicrosoft.com', reports: [customers.id] }],
    },
  });
  assert.match(parsePdf(withIdentity.bytes).text, /by ari@sandbox\.onmicrosoft\.com/, 'User!UserID is the effective identity');
  assert.match(parsePdf(withIdentity.bytes).text, /Customers in segment SMB/);
  const pbiPdf = await exportFile(group, token, pbi.id, { format: 'PDF' });
  assert.match(parsePdf(pbiPdf.bytes).text, /Executive Overview/);

  await sb.admin.setSwitch('reporting.export.word', false);
  const off = await bad({ format: 'DOCX' }, /Export reports as Word documents/, 403);
  assert.equal(off.body.error.code, 'FeatureDisabledByTenantSetting');
  assert.equal(
    (await call(`${group}/reports/${sales.id}/ExportTo`, { token, json: { format: 'CSV' } })).status,
    202,
    'other formats stay allowed',
  );
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

/** Runs one batch on the sandbox's SQL endpoint as the service identity (a db_owner user of the warehouse pool). */
async function sqlBatch(sb: Sandbox, sql: string): Promise<void> {
  const [host, port] = sb.urls.sql.split(':');
  const token = await sb.admin.token({ audience: 'https://database.windows.net/' });
  const conn = new Connection({
    server: host!,
    authentication: { type: 'azure-active-directory-access-token', options: { token } },
    options: { port: Number(port), database: sb.ids.warehousePool, encrypt: false, connectTimeout: 5000 },
  });
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
  await sqlBatch(
    sb,
    "CREATE TABLE dbo.Visits (Clinic NVARCHAR(50), Patients INT); INSERT INTO dbo.Visits (Clinic, Patients) VALUES (N'North', 12), (N'South', 30), (N'East', 7);",
  );
  const { token, group } = await reportingApi(sb);
  const rdl = simpleRdl('Visits')
    .replace('Data Source=old.example.net;Initial Catalog=sales', `Data Source=${sb.urls.sql};Initial Catalog=${sb.ids.warehousePool}`)
    .replace('SELECT Name, Total FROM dbo.T', 'SELECT Clinic AS Name, Patients AS Total FROM dbo.Visits WHERE Patients &gt;= @Top')
    .replace(
      '<Query><DataSourceName>Db</DataSourceName>',
      '<Query><DataSourceName>Db</DataSourceName><QueryParameters><QueryParameter Name="@Top"><Value>=Parameters!Top.Value</Value></QueryParameter></QueryParameters>',
    );
  const done = await waitImport(
    group,
    token,
    (await importRdl(`${group}/imports?datasetDisplayName=Visits.rdl&nameConflict=Abort`, token, withTable(rdl, 'Rows', ['Name']))).body.id,
  );
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  const id = done.reports[0].id;
  const csv = await exportFile(group, token, id, { format: 'CSV' });
  assert.deepEqual(
    csv.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n'),
    ['Name,Total', 'North,12', 'South,30'],
  );
  const pdf = await exportFile(group, token, id, {
    format: 'PDF',
    paginatedReportConfiguration: { parameterValues: [{ name: 'Top', value: '20' }] },
  });
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

test('a DAX data set over a sandbox semantic model reads its Direct Lake table on the SQL endpoint (FILTER on a parameter)', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  await sb.admin.setSwitch('dataPlatform.asyncMode', 'never');
  await sqlBatch(
    sb,
    "CREATE TABLE dbo.Visits (clinic NVARCHAR(50), patients INT); INSERT INTO dbo.Visits (clinic, patients) VALUES (N'North', 12), (N'South', 30);",
  );
  const [host, port] = sb.urls.sql.split(':');
  const bim = {
    compatibilityLevel: 1604,
    model: {
      tables: [
        {
          name: 'Visits',
          columns: [
            { name: 'Clinic', dataType: 'string', sourceColumn: 'clinic' },
            { name: 'Patients', dataType: 'int64', sourceColumn: 'patients' },
          ],
          partitions: [
            {
              name: 'Visits',
              mode: 'directLake',
              source: { type: 'entity', entityName: 'Visits', schemaName: 'dbo', expressionSource: 'DatabaseQuery' },
            },
          ],
        },
      ],
      expressions: [
        {
          name: 'DatabaseQuery',
          kind: 'm',
          expression: ['let', `    database = Sql.Database("${host},${port}", "${sb.ids.warehousePool}")`, 'in', '    database'],
        },
      ],
    },
  };
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const dp = await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/semanticModels`, {
    token: await sb.admin.token({ audience: 'dataPlatform' }),
    json: {
      displayName: 'Visits model',
      definition: {
        parts: [
          { path: 'model.bim', payload: b64(JSON.stringify(bim)), payloadType: 'InlineBase64' },
          { path: 'definition.pbism', payload: b64('{"version":"4.0"}'), payloadType: 'InlineBase64' },
        ],
      },
    },
  });
  assert.equal(dp.status, 201, JSON.stringify(dp.body));
  const { token, group } = await reportingApi(sb);
  const rdl = simpleRdl('Visits by clinic')
    .replace(
      '<DataProvider>SQL</DataProvider><ConnectString>Data Source=old.example.net;Initial Catalog=sales</ConnectString>',
      `<DataProvider>PBIDATASET</DataProvider><ConnectString>Data Source=pbiazure://api.powerbi.com/;Initial Catalog=sobe_wowvirtualserver-${dp.body.id};Integrated Security=ClaimsToken</ConnectString>`,
    )
    .replace(
      '<CommandText>SELECT Name, Total FROM dbo.T</CommandText>',
      "<QueryParameters><QueryParameter Name=\"Clinic\"><Value>=Parameters!Clinic.Value</Value></QueryParameter></QueryParameters><CommandText>EVALUATE FILTER('Visits', 'Visits'[Clinic] = @Clinic)</CommandText>",
    )
    .replace(
      '<Field Name="Name"><DataField>Name</DataField></Field><Field Name="Total"><DataField>Total</DataField></Field>',
      '<Field Name="Clinic"><DataField>Visits[Clinic]</DataField></Field><Field Name="Patients"><DataField>Visits[Patients]</DataField></Field>',
    )
    .replace(
      '<ReportParameters>',
      '<ReportParameters><ReportParameter Name="Clinic"><DataType>String</DataType><DefaultValue><Values><Value>South</Value></Values></DefaultValue></ReportParameter>',
    );
  const done = await waitImport(
    group,
    token,
    (
      await importRdl(
        `${group}/imports?datasetDisplayName=Clinics.rdl&nameConflict=Abort`,
        token,
        withTable(rdl, 'Rows', ['Clinic', 'Patients']),
      )
    ).body.id,
  );
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  const identities = [{ username: 'ari@sandbox.onmicrosoft.com', reports: [done.reports[0].id] }];
  const south = await exportFile(group, token, done.reports[0].id, { format: 'CSV', paginatedReportConfiguration: { identities } });
  assert.deepEqual(
    south.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n'),
    ['Clinic,Patients', 'South,30'],
  );
  const north = await exportFile(group, token, done.reports[0].id, {
    format: 'XML',
    paginatedReportConfiguration: { identities, parameterValues: [{ name: 'Clinic', value: 'North' }] },
  });
  assert.match(north.bytes.toString('utf8'), /<Details Clinic="North" Patients="12" \/>/);
});

test('long text wraps at the page width in the PDF', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 10);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
  const rdl = simpleRdl('Title').replace(
    '<Textbox Name="T">',
    `<Textbox Name="Intro"><Paragraphs><Paragraph><TextRuns><TextRun><Value>${words}</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox><Textbox Name="T">`,
  );
  const done = await waitImport(
    group,
    token,
    (await importRdl(`${group}/imports?datasetDisplayName=Long.rdl&nameConflict=Abort`, token, rdl)).body.id,
  );
  const text = parsePdf((await exportFile(group, token, done.reports[0].id, { format: 'PDF' })).bytes).text;
  const lines = text.split('\n').filter((l) => l.startsWith('word'));
  assert.ok(lines.length >= 5, `${lines.length} wrapped lines`);
  assert.ok(
    lines.every((l) => l.length <= 100),
    'no line runs past the page',
  );
  assert.equal(lines.join(' '), words, 'nothing is lost');
});
