// Push datasets in a group: create with a schema, list and get, tables, PUT a table's schema, rows, delete; the real
// status codes and error bodies, data type checks, the documented limits, auth and workspace roles; a paginated report
// bound to a push dataset renders its rows; every request passes the fidelity gate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../src/conformance/validate.js';
import { call, sandbox } from './helpers.js';
import { exportFile, importRdl, reportingApi, waitImport } from './reporting-helpers.js';
import type { Sandbox } from '../src/index.js';

/** A push dataset as the sandbox state shows it (with its rows). */
const pushed = async (sb: Sandbox, id: string) => (await sb.admin.state()).reporting.datasets.find((d) => d.id === id)!;

const schema = (name: string) => ({
  name,
  defaultMode: 'Push',
  tables: [
    {
      name: 'Machines',
      columns: [
        { name: 'machine_id', dataType: 'String' },
        { name: 'zone', dataType: 'string' },
        { name: 'coin_in', dataType: 'Double' },
        { name: 'active', dataType: 'bool' },
        { name: 'installed', dataType: 'DateTime' },
        { name: 'games', dataType: 'Int64' },
      ],
      measures: [{ name: 'Coin In', expression: "SUM('Machines'[coin_in])" }],
    },
    { name: 'Zones', columns: [{ name: 'zone', dataType: 'String' }] },
  ],
  relationships: [{ name: 'm-z', fromTable: 'Machines', fromColumn: 'zone', toTable: 'Zones', toColumn: 'zone' }],
});

test('push datasets: create, list, get, tables, PUT schema, rows, delete, with the real refusals', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;

  const created = await call(`${group}/datasets?defaultRetentionPolicy=basicFIFO`, { token, json: schema('Floor') });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.name, 'Floor');
  assert.equal(created.body.defaultRetentionPolicy, 'basicFIFO');
  const ds = `${group}/datasets/${created.body.id}`;

  const list = await call(`${group}/datasets`, { token });
  assert.equal(list.status, 200);
  const listed = list.body.value.find((d: any) => d.id === created.body.id);
  assert.equal(listed.addRowsAPIEnabled, true);
  assert.equal((await call(ds, { token })).body.name, 'Floor');
  assert.deepEqual((await call(`${ds}/tables`, { token })).body.value, [{ name: 'Machines' }, { name: 'Zones' }]);

  const rows = [
    { machine_id: 'M1', zone: 'North', coin_in: 1200.5, active: true, installed: '2024-03-01T00:00:00Z', games: 40 },
    { machine_id: 'M2', zone: 'South', coin_in: '80', active: false, installed: '07/30/2014', games: '3' },
  ];
  assert.equal((await call(`${ds}/tables/Machines/rows`, { token, json: { rows } })).status, 200);
  const bad = await call(`${ds}/tables/Machines/rows`, { token, json: { rows: [{ games: 1.5 }] } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'InvalidRequest');
  assert.match(bad.body.error.message, /games.*Int64/);
  const unknownCol = await call(`${ds}/tables/Machines/rows`, { token, json: { rows: [{ nope: 1 }] } });
  assert.equal(unknownCol.status, 400);
  const long = await call(`${ds}/tables/Zones/rows`, { token, json: { rows: [{ zone: 'x'.repeat(4001) }] } });
  assert.equal(long.status, 400, 'a string value holds at most 4,000 characters');
  const many = await call(`${ds}/tables/Zones/rows`, { token, json: { rows: Array.from({ length: 10_001 }, () => ({ zone: 'a' })) } });
  assert.equal(many.status, 400, 'one POST adds at most 10,000 rows');
  assert.equal((await pushed(sb, created.body.id)).tables[0]!.rows.length, 2, 'refused rows are not added');

  // PUT updates an existing table's schema; a table the dataset lacks is 404 ItemNotFound.
  const put = await call(`${ds}/tables/Machines`, {
    token,
    method: 'PUT',
    json: {
      name: 'Machines',
      columns: [
        { name: 'machine_id', dataType: 'String' },
        { name: 'zone', dataType: 'String' },
      ],
    },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.deepEqual(put.body, { name: 'Machines' });
  assert.deepEqual((await pushed(sb, created.body.id)).tables[0]!.rows[0], { machine_id: 'M1', zone: 'North' });
  const putMissing = await call(`${ds}/tables/Nope`, {
    token,
    method: 'PUT',
    json: { name: 'Nope', columns: [{ name: 'a', dataType: 'String' }] },
  });
  assert.equal(putMissing.status, 404);
  assert.equal(putMissing.body.error.code, 'ItemNotFound');
  assert.match(putMissing.body.error.message, /Table 'Nope' not found in dataset/);

  // 120 POST rows requests per minute per dataset (one was accepted above; refused ones do not count): then 429.
  const zones = `${ds}/tables/Zones/rows`;
  for (let i = 0; i < 119; i++) assert.equal((await call(zones, { token, json: { rows: [{ zone: `z${i}` }] } })).status, 200);
  const limited = await call(zones, { token, json: { rows: [{ zone: 'late' }] } });
  assert.equal(limited.status, 429);
  assert.equal(limited.body.error.code, 'TooManyRequests');
  assert.equal(limited.headers.get('retry-after'), '60');

  assert.equal((await call(`${ds}/tables/Machines/rows`, { token, method: 'DELETE' })).status, 200);
  assert.equal((await pushed(sb, created.body.id)).tables[0]!.rows.length, 0);
  assert.equal((await call(ds, { token, method: 'DELETE' })).status, 200);
  const gone = await call(ds, { token });
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'PowerBIEntityNotFound');
  assert.equal((await call(ds, { token, method: 'DELETE' })).status, 404);

  // Every request above is one the published description holds, with valid parameters and bodies.
  for (const r of await sb.admin.requests({ since, service: 'reporting' })) {
    const v = validate(r);
    assert.ok(v.kind === 'described' && !v.problems.length, `${r.method} ${r.path}: ${v.kind} ${v.problems.join('; ')}`);
  }
});

test('push datasets refuse bad schemas: data types, unknown properties, limits, relationships, retention policy', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  const post = (body: unknown, q = '') => call(`${group}/datasets${q}`, { token, json: body });
  const badType = await post({ name: 'x', tables: [{ name: 'T', columns: [{ name: 'a', dataType: 'int' }] }] });
  assert.equal(badType.status, 400);
  assert.match(badType.body.error.message, /'int'.*Int64, Double, Boolean, Datetime, String or Decimal/);
  const extra = await post({ ...schema('x'), compatibilityLevel: 1604 });
  assert.equal(extra.status, 400);
  assert.equal(extra.body.error.code, 'BadRequest');
  assert.match(extra.body.error.details[0].message, /The property 'compatibilityLevel' does not exist on type/);
  const noTables = await post({ name: 'x' });
  assert.equal(noTables.status, 400);
  const tooMany = await post({
    name: 'x',
    tables: Array.from({ length: 76 }, (_, i) => ({ name: `T${i}`, columns: [{ name: 'a', dataType: 'String' }] })),
  });
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.body.error.message, /at most 75/);
  const wideTable = await post({
    name: 'x',
    tables: [{ name: 'T', columns: Array.from({ length: 76 }, (_, i) => ({ name: `c${i}`, dataType: 'String' })) }],
  });
  assert.equal(wideTable.status, 400);
  const rel = schema('x');
  rel.relationships[0]!.toColumn = 'nope';
  assert.equal((await post(rel)).status, 400);
  assert.equal((await post(schema('x'), '?defaultRetentionPolicy=forever')).status, 400);
  assert.equal((await post({ ...schema('x'), defaultMode: 'AsAzure' })).status, 400);
  assert.equal((await sb.admin.state()).reporting.datasets.length, 0, 'nothing refused was created');

  // Auth: no token 401; a workspace Viewer may read but not create; service principals off → 401 naming the setting.
  assert.equal((await call(`${group}/datasets`)).status, 401);
  const ci = sb.ids.servicePrincipals[0]!.appId;
  assert.equal((await call(`${group}/datasets`, { token: (await reportingApi(sb, ci)).token })).status, 401, 'no workspace role');
  await sb.admin.grant({ service: 'reporting', role: 'Viewer', principal: ci });
  const vt = (await reportingApi(sb, ci)).token;
  assert.equal((await call(`${group}/datasets`, { token: vt })).status, 200);
  const viewerCreate = await call(`${group}/datasets`, { token: vt, json: schema('v') });
  assert.equal(viewerCreate.status, 403);
  assert.equal(viewerCreate.body.error['pbi.error'].details[0].code, 'InsufficientWorkspaceRole');
  await sb.admin.setSwitch('reporting.servicePrincipalsEnabled', false);
  const off = await post(schema('x'));
  assert.equal(off.status, 401);
  assert.equal(off.body.error['pbi.error'].details[0].code, 'TenantSetting');
});

test('a paginated report bound to a push dataset renders the rows pushed to it', async (t) => {
  const sb = await sandbox(t);
  const { token, group } = await reportingApi(sb);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const created = await call(`${group}/datasets`, { token, json: schema('Bound') });
  const ds = `${group}/datasets/${created.body.id}`;
  const rows = [
    { machine_id: 'M-101', zone: 'North', coin_in: 10, active: true, games: 1 },
    { machine_id: 'M-202', zone: 'South', coin_in: 20, active: true, games: 2 },
  ];
  assert.equal((await call(`${ds}/tables/Machines/rows`, { token, json: { rows } })).status, 200);
  const rdl = `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition">
  <DataSources><DataSource Name="Model"><ConnectionProperties><DataProvider>PBIDATASET</DataProvider><ConnectString>Data Source=pbiazure://api.powerbi.com/;Initial Catalog=sobe_wowvirtualserver-${created.body.id};Integrated Security=ClaimsToken</ConnectString></ConnectionProperties></DataSource></DataSources>
  <DataSets><DataSet Name="Rows"><Query><DataSourceName>Model</DataSourceName><CommandText>EVALUATE FILTER('Machines', 'Machines'[zone] = "South")</CommandText></Query>
    <Fields><Field Name="Machine"><DataField>Machines[machine_id]</DataField></Field></Fields></DataSet></DataSets>
  <ReportSections><ReportSection>
    <Body><ReportItems><Tablix Name="Tbl"><TablixBody><TablixColumns><TablixColumn><Width>2in</Width></TablixColumn></TablixColumns><TablixRows><TablixRow><Height>0.3in</Height><TablixCells><TablixCell><CellContents><Textbox Name="C"><Paragraphs><Paragraph><TextRuns><TextRun><Value>=Fields!Machine.Value</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></CellContents></TablixCell></TablixCells></TablixRow></TablixRows></TablixBody><TablixColumnHierarchy><TablixMembers><TablixMember /></TablixMembers></TablixColumnHierarchy><TablixRowHierarchy><TablixMembers><TablixMember><Group Name="Details" /></TablixMember></TablixMembers></TablixRowHierarchy><DataSetName>Rows</DataSetName></Tablix></ReportItems><Height>2in</Height></Body>
    <Width>6in</Width><Page><PageHeight>11in</PageHeight><PageWidth>8.5in</PageWidth></Page>
  </ReportSection></ReportSections>
</Report>`;
  const imp = await importRdl(`${group}/imports?datasetDisplayName=Bound.rdl&nameConflict=Abort`, token, rdl, 'Bound.rdl');
  assert.equal(imp.status, 202, JSON.stringify(imp.body));
  const done = await waitImport(group, token, imp.body.id);
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  const reportId = done.reports[0].id;
  // A service principal exporting a report over a semantic model names the effective identity.
  const out = await exportFile(group, token, reportId, {
    format: 'CSV',
    paginatedReportConfiguration: { identities: [{ username: 'ada@sandbox.onmicrosoft.com', reports: [reportId] }] },
  });
  assert.equal(out.status.status, 'Succeeded', JSON.stringify(out));
  const csv = out.bytes.toString('utf8');
  assert.match(csv, /M-202/);
  assert.doesNotMatch(csv, /M-101/, 'the FILTER keeps the South row only');
});
