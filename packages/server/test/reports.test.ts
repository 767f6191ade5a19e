import { test } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { buildWithSandbox, install, stepOf, workspace, type Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { loadConfig } from '../src/config.js';
import { RdlSchema } from '../src/reports/rdl-schema.js';

// The paginated-reports API through the real app against the sandbox's reporting emulator, over sockets.

const BASE = '/api/items/paginated-report';

async function setup(t: TestContext, env: Record<string, string> = {}) {
  const { h, sandbox, tenant } = await buildWithSandbox(t, env);
  const ws = await workspace(h, tenant);
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    who: TestTenant | { auth: Record<string, string> } = tenant,
  ) => {
    const sep = path.includes('?') ? '&' : '?';
    return h.app.inject({
      method,
      url: `${BASE}${path}${path.includes('workspaceId=') ? '' : `${sep}workspaceId=${ws}`}`,
      headers: { ...who.auth, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  };
  const byName = async (name: string) => {
    const r = await call('GET', '');
    assert.equal(r.statusCode, 200, r.body);
    const report = r.json().reports.find((x: { name: string }) => x.name === name);
    assert.ok(report, `no report ${name} in ${r.body}`);
    return report as { id: string; name: string; webUrl: string; embedUrl: string };
  };
  return { h, sandbox, tenant, ws, call, byName };
}

/** The emulator's own view of the group's reports, asked with the service identity's token. */
async function emulatorReports(sandbox: Sandbox, h: TestApp) {
  const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.biAudience);
  const res = await fetch(`${sandbox.urls.reporting}/v1.0/myorg/groups/${sandbox.ids.platformWorkspaceId}/reports`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(res.status, 200);
  return (await res.json()).value as Array<{ id: string; reportType: string; name: string }>;
}

test('lists only paginated reports of the bound group, with the reporting service metadata', async (t) => {
  const { h, sandbox, call } = await setup(t);
  const r = await call('GET', '');
  assert.equal(r.statusCode, 200, r.body);
  const reports = r.json().reports as Array<Record<string, unknown>>;
  const all = await emulatorReports(sandbox, h);
  assert.ok(
    all.some((x) => x.reportType === 'PowerBIReport'),
    'the group also holds a Power BI report',
  );
  assert.deepEqual(
    reports.map((x) => x.id).sort(),
    all
      .filter((x) => x.reportType === 'PaginatedReport')
      .map((x) => x.id)
      .sort(),
  );
  for (const x of reports) {
    assert.equal(x.reportType, 'PaginatedReport');
    assert.equal(x.groupId, sandbox.ids.platformWorkspaceId);
    assert.match(String(x.webUrl), /\/rdlreports\//);
    assert.match(String(x.embedUrl), /\/rdlEmbed\?/i);
  }
  // The spec's filter travels on the wire even though the group route ignores it.
  const logged = await sandbox.admin.requests({ service: 'reporting' });
  assert.ok(
    logged.some((e) => decodeURIComponent(e.path).includes("$filter=reportType eq 'PaginatedReport'")),
    'the list call carries the $filter',
  );
});

test('get answers the metadata; a Power BI report is not a paginated report here', async (t) => {
  const { h, sandbox, call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const r = await call('GET', `/${sales.id}`);
  assert.equal(r.statusCode, 200, r.body);
  const report = r.json().report;
  assert.equal(report.name, 'Sales by Region');
  assert.equal(report.datasetId, null);
  assert.equal(report.webUrl, sales.webUrl);
  const pbix = (await emulatorReports(sandbox, h)).find((x) => x.reportType === 'PowerBIReport')!;
  const other = await call('GET', `/${pbix.id}`);
  assert.equal(other.statusCode, 404, other.body);
  const unknown = await call('GET', '/00000000-0000-4000-8000-000000000000');
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.json().error.message, /PowerBIEntityNotFound/, 'the reporting service text is passed on');
});

test('definition round trip: download, publish back with If-Match, stale ETag 412, missing If-Match 428, invalid RDL 400 naming line and element', async (t) => {
  const { call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const got = await call('GET', `/${sales.id}/definition`);
  assert.equal(got.statusCode, 200, got.body);
  const { definition, etag, parameters } = got.json();
  assert.equal(got.headers.etag, etag);
  assert.match(definition, /^<\?xml[\s\S]*<Report /);
  const region = parameters.find((p: { name: string }) => p.name === 'Region');
  assert.deepEqual(
    { multiValue: region.multiValue, dataType: region.dataType, defaults: region.defaultValues, valid: region.validValues.length },
    { multiValue: true, dataType: 'String', defaults: ['West', 'East'], valid: 3 },
  );

  const changed = definition.replace('Sales by region and city for a date range.', 'Sales by region, edited through the API.');
  assert.notEqual(changed, definition);
  assert.equal((await call('PUT', `/${sales.id}/definition`, { definition: changed })).statusCode, 428);
  const put = await call('PUT', `/${sales.id}/definition`, { definition: changed }, { 'if-match': etag });
  assert.equal(put.statusCode, 200, put.body);
  assert.notEqual(put.json().etag, etag);
  assert.equal(put.json().report.id, sales.id, 'Overwrite keeps the report');
  const again = await call('GET', `/${sales.id}/definition`);
  assert.equal(again.json().definition, changed, 'the reporting service holds the bytes published');
  assert.equal(again.json().etag, put.json().etag);

  const stale = await call('PUT', `/${sales.id}/definition`, { definition }, { 'if-match': etag });
  assert.equal(stale.statusCode, 412, stale.body);
  assert.equal(stale.json().error.code, 'etag_mismatch');

  const lines = changed.split('\n');
  const bad = changed.replace('<DataType>DateTime</DataType>', '<DataType>Date</DataType>');
  const badLine = bad.split('\n').findIndex((l: string) => l.includes('<DataType>Date</DataType>')) + 1;
  const invalid = await call('PUT', `/${sales.id}/definition`, { definition: bad }, { 'if-match': '*' });
  assert.equal(invalid.statusCode, 400, invalid.body);
  assert.equal(invalid.json().error.code, 'invalid_rdl');
  assert.equal(invalid.json().error.field, 'definition');
  assert.match(
    invalid.json().error.message,
    new RegExp(`line ${badLine}, <DataType>: DataType 'Date' is not one of Boolean, DateTime, Integer, Float, String`),
  );
  const broken = await call('PUT', `/${sales.id}/definition`, { definition: lines.slice(0, 5).join('\n') }, { 'if-match': '*' });
  assert.equal(broken.statusCode, 400);
  assert.match(broken.json().error.message, /not well-formed XML/);
  const noSection = changed.replace(/<ReportSections>[\s\S]*<\/ReportSections>/, '');
  const missing = await call('PUT', `/${sales.id}/definition`, { definition: noSection }, { 'if-match': '*' });
  assert.match(missing.json().error.message, /line 2, <Report>: ReportSections is required/);
  assert.equal((await call('GET', `/${sales.id}/definition`)).json().definition, changed, 'a refused definition changes nothing');
});

test('publish a new report, an import conflict, clone and delete', async (t) => {
  const { call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const { definition } = (await call('GET', `/${sales.id}/definition`)).json();
  const created = await call('POST', '', { name: 'Regional sales (copy by import)', definition });
  assert.equal(created.statusCode, 201, created.body);
  const conflict = await call('POST', '', { name: 'Regional sales (copy by import)', definition });
  assert.equal(conflict.statusCode, 409, conflict.body);
  assert.equal(conflict.json().error.field, 'name');

  const clone = await call('POST', `/${sales.id}/clone`, { name: 'Sales by Region (clone)' });
  assert.equal(clone.statusCode, 201, clone.body);
  const cloned = clone.json().report;
  assert.equal(cloned.name, 'Sales by Region (clone)');
  assert.notEqual(cloned.id, sales.id);
  assert.equal((await call('GET', `/${cloned.id}/definition`)).json().definition, definition, 'the clone carries the same RDL');

  const del = await call('DELETE', `/${cloned.id}`);
  assert.equal(del.statusCode, 200, del.body);
  assert.equal((await call('GET', `/${cloned.id}`)).statusCode, 404);
  assert.equal((await call('DELETE', `/${cloned.id}`)).statusCode, 404);
});

test('an RDL up to the schema’s size is taken: a 3 MB definition published and put back, one over 4,000,000 characters 400 naming it', async (t) => {
  const { call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const { definition, etag } = (await call('GET', `/${sales.id}/definition`)).json();
  // A description of about 3 MB in UTF-8 (accented text and quotes, which JSON escapes): three times SVC_BODY_LIMIT_BYTES.
  const filler = 'Ventes par région et par ville — « l’année » "détaillée" \\ ';
  const large = definition.replace(
    'Sales by region and city for a date range.',
    filler.repeat(Math.ceil(3_000_000 / Buffer.byteLength(filler))),
  );
  const body = JSON.stringify({ name: 'Regional sales (large)', definition: large });
  assert.ok(
    Buffer.byteLength(body) > 3_000_000 && large.length < 4_000_000,
    `${Buffer.byteLength(body)} bytes, ${large.length} characters`,
  );

  const created = await call('POST', '', { name: 'Regional sales (large)', definition: large });
  assert.equal(created.statusCode, 201, created.body.slice(0, 500));
  const id = created.json().report.id;
  const read = (await call('GET', `/${id}/definition`)).json();
  assert.equal(read.definition, large, 'the reporting service holds the 3 MB definition as published');
  const put = await call('PUT', `/${sales.id}/definition`, { definition: large }, { 'if-match': etag });
  assert.equal(put.statusCode, 200, put.body.slice(0, 500));
  assert.equal((await call('GET', `/${sales.id}/definition`)).json().definition, large);

  const over = await call(
    'PUT',
    `/${sales.id}/definition`,
    { definition: `${large}${'x'.repeat(4_000_001 - large.length)}` },
    { 'if-match': '*' },
  );
  assert.equal(over.statusCode, 400, over.body.slice(0, 500));
  assert.equal(over.json().error.field, 'definition');
  assert.match(over.json().error.message, /4000000 characters/);
});

test('datasources: read, rebind a report the service owns, and a refused rebind passed on unmodified', async (t) => {
  const { call, byName } = await setup(t);
  const inventory = await byName('Inventory Snapshot');
  const list = await call('GET', `/${inventory.id}/datasources`);
  assert.equal(list.statusCode, 200, list.body);
  const [source] = list.json().datasources;
  assert.equal(source.name, 'Warehouse');
  assert.equal(source.connectionDetails.server, 'sandbox-warehouse.datawarehouse.fabric.microsoft.com');
  const rebind = await call('POST', `/${inventory.id}/datasources`, {
    updateDetails: [
      { datasourceName: 'Warehouse', connectionDetails: { server: 'other.datawarehouse.fabric.microsoft.com', database: 'stock' } },
    ],
  });
  assert.equal(rebind.statusCode, 200, rebind.body);
  assert.deepEqual(rebind.json().datasources[0].connectionDetails, {
    server: 'other.datawarehouse.fabric.microsoft.com',
    database: 'stock',
  });
  assert.match(
    (await call('GET', `/${inventory.id}/definition`)).json().definition,
    /Data Source=other\.datawarehouse\.fabric\.microsoft\.com;Initial Catalog=stock/,
  );

  // Customer List's data sources belong to a user: the reporting service refuses, and its text comes back as it was.
  const customers = await byName('Customer List');
  const refused = await call('POST', `/${customers.id}/datasources`, {
    updateDetails: [{ datasourceName: 'CustomersModel', connectionDetails: { database: 'sobe_wowvirtualserver-x' } }],
  });
  assert.equal(refused.statusCode, 400, refused.body);
  assert.equal(refused.json().error.code, 'reporting_refused');
  const backing = JSON.parse(refused.json().error.message);
  assert.equal(backing.error.code, 'PowerBINotAuthorizedException');
  assert.equal(backing.error['pbi.error'].details[0].code, 'NotDatasourceOwner');
  assert.match(refused.json().error.hint, /403 PowerBINotAuthorizedException/);

  const empty = await call('POST', `/${inventory.id}/datasources`, { updateDetails: [] });
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().error.field, 'updateDetails');
});

test('export to PDF: 202, polling with Retry-After, then a real PDF file; embed token', async (t) => {
  const { sandbox, call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const start = await call('POST', `/${sales.id}/exports`, {
    format: 'PDF',
    parameterValues: [
      { name: 'Region', value: 'West' },
      { name: 'Region', value: 'Central' },
    ],
  });
  assert.equal(start.statusCode, 202, start.body);
  let job = start.json().export;
  assert.ok(job.id && !/^[0-9a-f-]{36}$/.test(job.id), 'the export id is opaque');
  const early = await call('GET', `/${sales.id}/exports/${encodeURIComponent(job.id)}/file`);
  if (job.status !== 'Succeeded') assert.equal(early.statusCode, 409, early.body);
  let sawRetryAfter = false;
  const deadline = Date.now() + 30_000;
  while (job.status !== 'Succeeded' && job.status !== 'Failed') {
    assert.ok(Date.now() < deadline, 'export finished in time');
    const poll = await call('GET', `/${sales.id}/exports/${encodeURIComponent(job.id)}`);
    assert.equal(poll.statusCode, 200, poll.body);
    job = poll.json().export;
    if (job.status !== 'Succeeded' && job.status !== 'Failed') {
      assert.ok(Number(poll.headers['retry-after']) > 0, 'Retry-After while unfinished');
      sawRetryAfter = true;
      await new Promise((r) => setTimeout(r, 200));
    } else assert.equal(poll.headers['retry-after'], undefined);
  }
  assert.equal(job.status, 'Succeeded');
  assert.equal(job.percentComplete, 100);
  assert.ok(sawRetryAfter, 'the export was polled while running');
  const file = await call('GET', `/${sales.id}/exports/${encodeURIComponent(job.id)}/file`);
  assert.equal(file.statusCode, 200);
  assert.match(String(file.headers['content-type']), /^application\/pdf/);
  assert.match(String(file.headers['content-disposition']), /attachment; filename="Sales by Region\.pdf"/);
  assert.equal(file.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
  assert.match(file.rawPayload.toString('latin1'), /%%EOF\s*$/);

  // Embed tokens need the identity to be Member of the workspace: reduced to Contributor, a gate saying so, then a token.
  await sandbox.admin.grant({ service: 'reporting', role: 'Contributor' });
  const gated = await call('POST', `/${sales.id}/embed-token`, { lifetimeInMinutes: 30 });
  assert.equal(gated.statusCode, 424, gated.body);
  assert.match(gated.json().error.message, /InsufficientWorkspaceRole/);
  assert.match(gated.json().error.gate.remediation, /Member or higher/);
  await sandbox.admin.grant({ service: 'reporting', role: 'Member' });
  const token = await call('POST', `/${sales.id}/embed-token`, { lifetimeInMinutes: 30 });
  assert.equal(token.statusCode, 200, token.body);
  assert.ok(token.json().token.length > 20);
  assert.match(token.json().tokenId, /^[0-9a-f-]{36}$/);
  assert.ok(Date.parse(token.json().expiration) > Date.now());
});

test('tenant switches: a disabled export format and service principals turned off are 424 gates naming the setting', async (t) => {
  const { sandbox, call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  await sandbox.admin.setSwitch('reporting.export.pdf', false);
  const pdf = await call('POST', `/${sales.id}/exports`, { format: 'PDF' });
  assert.equal(pdf.statusCode, 424, pdf.body);
  assert.equal(pdf.json().error.code, 'deployment_gate');
  assert.match(pdf.json().error.gate.reason, /"Export reports as PowerPoint presentations or PDF documents" is off/);
  assert.match(pdf.json().error.message, /FeatureDisabledByTenantSetting/, 'the reporting service text is kept');
  const csv = await call('POST', `/${sales.id}/exports`, { format: 'CSV' });
  assert.equal(csv.statusCode, 202, 'other formats still export');

  await sandbox.admin.setSwitch('reporting.servicePrincipalsEnabled', false);
  const list = await call('GET', '');
  assert.equal(list.statusCode, 424, list.body);
  assert.match(list.json().error.gate.remediation, /Service principals can use Fabric APIs/);
  assert.match(list.json().error.hint, /Service principals can use Fabric APIs/);
});

test('isolation, scopes and input: another tenant 404, no reports scope 403, bad input 400 naming the field', async (t) => {
  const { h, ws, tenant, call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const other = await h.tenant();
  const foreign = await call('GET', `/${sales.id}`, undefined, {}, other);
  assert.equal(foreign.statusCode, 404, foreign.body);
  assert.match(foreign.json().error.message, new RegExp(`Workspace '${ws}'`));
  const readOnly = await tenant.token2(['read', 'write']);
  const denied = await call('GET', '', undefined, {}, readOnly);
  assert.equal(denied.statusCode, 403, denied.body);
  const noWs = await h.app.inject({ method: 'GET', url: BASE, headers: tenant.auth });
  assert.equal(noWs.statusCode, 400);
  assert.equal(noWs.json().error.field, 'workspaceId');
  const format = await call('POST', `/${sales.id}/exports`, { format: 'DOC' });
  assert.equal(format.statusCode, 400);
  assert.equal(format.json().error.field, 'format');
  const name = await call('POST', `/${sales.id}/clone`, { name: 'a/b' });
  assert.equal(name.statusCode, 400);
  assert.equal(name.json().error.field, 'name');
});

test('an app install publishes its report item through the import call; a re-run overwrites it in place', async (t) => {
  const { h, tenant, ws, call } = await setup(t);
  const job = await install(h, tenant, 'app-casino-analytics', { workspaceId: ws });
  const step = stepOf(job, 'report');
  assert.equal(step.result.status, 'created', JSON.stringify(step.result));
  assert.ok(
    step.result.steps.some((l: string) => /nameConflict=Abort/.test(l)),
    step.result.steps.join('\n'),
  );
  const listed = (await call('GET', '')).json().reports.find((r: { name: string }) => r.name === step.displayName);
  assert.ok(listed, `${step.displayName} is listed`);
  assert.equal(listed.id, step.result.resourceId);
  const { definition } = (await call('GET', `/${listed.id}/definition`)).json();
  const model = stepOf(job, 'semantic-model');
  assert.match(
    definition,
    new RegExp(`sobe_wowvirtualserver-${model.result.resourceId}`),
    'the RDL is bound to the installed semantic model',
  );
  assert.doesNotMatch(definition, /\$\{/, 'no binding is left in the published RDL');

  const again = await install(h, tenant, 'app-casino-analytics', { workspaceId: ws });
  const rerun = stepOf(again, 'report');
  assert.equal(rerun.result.status, 'exists', JSON.stringify(rerun.result));
  assert.equal(rerun.result.resourceId, listed.id, 'Overwrite keeps the report');
  const named = (await call('GET', '')).json().reports.filter((r: { name: string }) => r.name === step.displayName);
  assert.equal(named.length, 1, 'no duplicate report');
});

test('every export format renders a file of its kind (WORD and EXCEL travel as DOCX and XLSX)', async (t) => {
  const { call, byName } = await setup(t);
  const sales = await byName('Sales by Region');
  const expect: Record<string, { ext: string; magic: (b: Buffer) => boolean }> = {
    PDF: { ext: '.pdf', magic: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
    ACCESSIBLEPDF: { ext: '.pdf', magic: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
    WORD: { ext: '.docx', magic: (b) => b.subarray(0, 2).toString('latin1') === 'PK' && b.includes('word/document.xml') },
    EXCEL: { ext: '.xlsx', magic: (b) => b.subarray(0, 2).toString('latin1') === 'PK' && b.includes('xl/workbook.xml') },
    PPTX: { ext: '.pptx', magic: (b) => b.subarray(0, 2).toString('latin1') === 'PK' && b.includes('ppt/presentation.xml') },
    CSV: { ext: '.csv', magic: (b) => /Region/.test(b.toString('utf8')) && /Seattle/.test(b.toString('utf8')) },
    XML: { ext: '.xml', magic: (b) => /^(\uFEFF)?<\?xml/.test(b.toString('utf8')) && /Seattle/.test(b.toString('utf8')) },
    MHTML: { ext: '.mhtml', magic: (b) => /MIME-Version/i.test(b.subarray(0, 400).toString('latin1')) },
    IMAGE: { ext: '.tiff', magic: (b) => ['II*\0', 'MM\0*'].includes(b.subarray(0, 4).toString('latin1')) },
  };
  for (const [format, want] of Object.entries(expect)) {
    let job = (await call('POST', `/${sales.id}/exports`, { format })).json().export;
    for (let i = 0; job.status !== 'Succeeded' && job.status !== 'Failed'; i++) {
      assert.ok(i < 200, `${format} export finished`);
      await new Promise((r) => setTimeout(r, 150));
      job = (await call('GET', `/${sales.id}/exports/${encodeURIComponent(job.id)}`)).json().export;
    }
    assert.equal(job.status, 'Succeeded', format);
    const file = await call('GET', `/${sales.id}/exports/${encodeURIComponent(job.id)}/file`);
    assert.equal(file.statusCode, 200, `${format}: ${file.body.slice(0, 200)}`);
    assert.match(String(file.headers['content-disposition']), new RegExp(`filename="Sales by Region\\${want.ext}"`), format);
    assert.ok(
      want.magic(file.rawPayload),
      `${format} is a file of its kind (${file.headers['content-type']}): ${file.rawPayload.subarray(0, 40).toString('latin1')}`,
    );
  }
});

// A stand-in for the published schema (which carries no open licence and is not vendored): the 2016/01 target namespace,
// Report with any content, and Description limited to 60 characters, so the XSD step has something to refuse.
const TEST_XSD = `<?xml version="1.0" encoding="utf-8"?>
<xsd:schema targetNamespace="http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition"
  xmlns:xsd="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
  <xsd:element name="Report">
    <xsd:complexType>
      <xsd:sequence><xsd:any namespace="##any" processContents="lax" minOccurs="0" maxOccurs="unbounded" /></xsd:sequence>
      <xsd:anyAttribute namespace="##any" processContents="skip" />
    </xsd:complexType>
  </xsd:element>
  <xsd:element name="Description">
    <xsd:simpleType><xsd:restriction base="xsd:string"><xsd:maxLength value="60" /></xsd:restriction></xsd:simpleType>
  </xsd:element>
</xsd:schema>
`;

test('SVC_RDL_SCHEMA_PATH: definitions are also validated against the schema file, faults naming line and element', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rdl-xsd-'));
  const xsd = path.join(dir, 'ReportDefinition.xsd');
  fs.writeFileSync(xsd, TEST_XSD);
  const { call, byName } = await setup(t, { SVC_RDL_SCHEMA_PATH: xsd });
  const sales = await byName('Sales by Region');
  const { definition, etag } = (await call('GET', `/${sales.id}/definition`)).json();
  const long = definition.replace(
    'Sales by region and city for a date range.',
    `Sales by region and city for a date range, ${'and much more '.repeat(5)}`,
  );
  const line = long.split('\n').findIndex((l: string) => l.includes('<Description>')) + 1;
  const refused = await call('PUT', `/${sales.id}/definition`, { definition: long }, { 'if-match': etag });
  assert.equal(refused.statusCode, 400, refused.body);
  assert.equal(refused.json().error.code, 'invalid_rdl');
  assert.match(
    refused.json().error.message,
    new RegExp(`^definition line ${line}, <Description>: not valid against ReportDefinition\\.xsd: .*maxLength`),
  );
  const fine = definition.replace('Sales by region and city for a date range.', 'Sales by region, checked against the schema.');
  const ok = await call('PUT', `/${sales.id}/definition`, { definition: fine }, { 'if-match': etag });
  assert.equal(ok.statusCode, 200, ok.body);

  fs.writeFileSync(path.join(dir, 'not-a-schema.xsd'), '<html/>');
  // A path that is not a schema stops the start, naming the variable.
  assert.throws(
    () => RdlSchema.fromConfig(loadConfig({ SVC_RDL_SCHEMA_PATH: path.join(dir, 'not-a-schema.xsd') }).reports),
    /SVC_RDL_SCHEMA_PATH.*not an XML schema/,
  );
  assert.throws(
    () => RdlSchema.fromConfig(loadConfig({ SVC_RDL_SCHEMA_PATH: path.join(dir, 'missing.xsd') }).reports),
    /SVC_RDL_SCHEMA_PATH.*cannot read/,
  );
});
