import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import { exportFile, importRdl, parsePdf, reportingApi, waitImport } from './reporting-helpers.js';

// Tablix hierarchies through the reporting API: a matrix (row group with a total, column group, sorted, filtered)
// and a table grouped by a parent group with its details, rendered to PDF and CSV.

const NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';
const ROWS = [
  ['West', 'Seattle', 'Jan', '100'],
  ['East', 'Boston', 'Jan', '200'],
  ['West', 'Portland', 'Feb', '50'],
  ['East', 'Boston', 'Feb', '25'],
  ['Central', 'Denver', 'Jan', '7'],
];

const box = (name: string, value: string) =>
  `<Textbox Name="${name}"><Paragraphs><Paragraph><TextRuns><TextRun><Value>${value}</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox>`;
const cell = (name: string, value: string) => `<TablixCell><CellContents>${box(name, value)}</CellContents></TablixCell>`;
const row = (cells: string) => `<TablixRow><Height>0.25in</Height><TablixCells>${cells}</TablixCells></TablixRow>`;
const header = (name: string, value: string) =>
  `<TablixHeader><Size>1in</Size><CellContents>${box(name, value)}</CellContents></TablixHeader>`;
const group = (name: string, expr: string) =>
  `<Group Name="${name}"><GroupExpressions><GroupExpression>${expr}</GroupExpression></GroupExpressions></Group>`;

function rdl(regions: string): string {
  const data = ROWS.map(([r, c, m, a]) => `&lt;Sale Region="${r}" City="${c}" Month="${m}" Amount="${a}" /&gt;`).join('');
  const matrix = `<Tablix Name="ByRegion">
    <TablixCorner><TablixCornerRows><TablixCornerRow><TablixCornerCell><CellContents>${box('Corner', 'Region')}</CellContents></TablixCornerCell></TablixCornerRow></TablixCornerRows></TablixCorner>
    <TablixBody><TablixColumns><TablixColumn><Width>1in</Width></TablixColumn><TablixColumn><Width>1in</Width></TablixColumn></TablixColumns>
      <TablixRows>${row(cell('Amount', '=Sum(Fields!Amount.Value)') + cell('RowTotal', '=Sum(Fields!Amount.Value)'))}${row(cell('ColTotal', '=Sum(Fields!Amount.Value)') + cell('Grand', '=Sum(Fields!Amount.Value)'))}</TablixRows></TablixBody>
    <TablixColumnHierarchy><TablixMembers>
      <TablixMember>${group('Month', '=Fields!Month.Value')}<SortExpressions><SortExpression><Value>=Fields!Month.Value</Value><Direction>Descending</Direction></SortExpression></SortExpressions>${header('MonthHeader', '=Fields!Month.Value')}</TablixMember>
      <TablixMember>${header('AllMonths', 'All months')}</TablixMember>
    </TablixMembers></TablixColumnHierarchy>
    <TablixRowHierarchy><TablixMembers>
      <TablixMember>${group('Region', '=Fields!Region.Value')}<SortExpressions><SortExpression><Value>=Fields!Region.Value</Value></SortExpression></SortExpressions>${header('RegionHeader', '=Fields!Region.Value')}</TablixMember>
      <TablixMember>${header('TotalHeader', 'Total')}<KeepWithGroup>Before</KeepWithGroup></TablixMember>
    </TablixMembers></TablixRowHierarchy>
    <DataSetName>Sales</DataSetName>
    <Filters><Filter><FilterExpression>=Fields!Region.Value</FilterExpression><Operator>In</Operator><FilterValues><FilterValue>=Parameters!Regions.Value</FilterValue></FilterValues></Filter></Filters>
  </Tablix>`;
  const grouped = `<Tablix Name="Cities">
    <TablixBody><TablixColumns><TablixColumn><Width>2in</Width></TablixColumn><TablixColumn><Width>1in</Width></TablixColumn></TablixColumns>
      <TablixRows>${row(cell('HCity', 'City') + cell('HAmt', 'Amount'))}${row(cell('DCity', '=UCase(Fields!City.Value)') + cell('DAmt', '=Fields!Amount.Value'))}${row(cell('SubLabel', 'Subtotal') + cell('SubAmt', '=Sum(Fields!Amount.Value)'))}</TablixRows></TablixBody>
    <TablixColumnHierarchy><TablixMembers><TablixMember /><TablixMember /></TablixMembers></TablixColumnHierarchy>
    <TablixRowHierarchy><TablixMembers>
      <TablixMember>${header('RegionCol', 'Region')}<KeepWithGroup>After</KeepWithGroup></TablixMember>
      <TablixMember>${group('CityRegion', '=Fields!Region.Value')}${header('CityRegionHeader', '="Region " &amp; Fields!Region.Value')}
        <TablixMembers><TablixMember><Group Name="CityDetails"><Filters><Filter><FilterExpression>=CInt(Fields!Amount.Value)</FilterExpression><Operator>GreaterThan</Operator><FilterValues><FilterValue>=20</FilterValue></FilterValues></Filter></Filters></Group></TablixMember><TablixMember /></TablixMembers>
      </TablixMember>
    </TablixMembers></TablixRowHierarchy>
    <DataSetName>Sales</DataSetName>
  </Tablix>`;
  return `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="${NS}">
  <DataSources><DataSource Name="Inline"><ConnectionProperties><DataProvider>XML</DataProvider><ConnectString /></ConnectionProperties></DataSource></DataSources>
  <DataSets><DataSet Name="Sales">
    <Query><DataSourceName>Inline</DataSourceName><CommandText>&lt;Query&gt;&lt;XmlData&gt;&lt;Sales&gt;${data}&lt;/Sales&gt;&lt;/XmlData&gt;&lt;/Query&gt;</CommandText></Query>
    <Fields><Field Name="Region"><DataField>Region</DataField></Field><Field Name="City"><DataField>City</DataField></Field><Field Name="Month"><DataField>Month</DataField></Field><Field Name="Amount"><DataField>Amount</DataField></Field></Fields>
  </DataSet></DataSets>
  <ReportSections><ReportSection>
    <Body><ReportItems>${box('Title', 'Sales by region')}${matrix}${grouped}</ReportItems><Height>3in</Height></Body>
    <Width>6in</Width><Page><PageHeight>11in</PageHeight><PageWidth>8.5in</PageWidth></Page>
  </ReportSection></ReportSections>
  <ReportParameters><ReportParameter Name="Regions"><DataType>String</DataType><MultiValue>true</MultiValue><Prompt>Regions</Prompt>
    <DefaultValue><Values><Value>=Split("West,East", ",")</Value></Values></DefaultValue></ReportParameter></ReportParameters>
</Report>`;
}

test('a matrix: row and column groups sorted, totals, the tablix filter from a multi-value default; a grouped table with a detail filter and subtotals', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  const imported = await importRdl(`${group}/imports?datasetDisplayName=Groups.rdl&nameConflict=Abort`, token, rdl(''));
  assert.equal(imported.status, 202, JSON.stringify(imported.body));
  const done = await waitImport(group, token, imported.body.id);
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  const report = (await call(`${group}/reports/${done.reports[0].id}`, { token })).body;

  const out = await exportFile(group, token, report.id, { format: 'PDF' });
  assert.equal(out.status.status, 'Succeeded', JSON.stringify(out.status));
  const lines = parsePdf(out.bytes).text.split('\n');
  // The matrix: the corner and the months (descending), then East and West (sorted), then the total row.
  const at = lines.indexOf('Region');
  assert.deepEqual(lines.slice(at, at + 4), ['Region', 'Jan', 'Feb', 'All months']);
  assert.deepEqual(lines.slice(at + 4, at + 8), ['East', '200', '25', '225']);
  assert.deepEqual(lines.slice(at + 8, at + 12), ['West', '100', '50', '150']);
  assert.deepEqual(lines.slice(at + 12, at + 16), ['Total', '300', '75', '375']);
  assert.equal(lines[at + 16], 'Region', 'no Central row: the tablix filter keeps the default regions (the next is the table)');

  // The grouped table: its header row, then per region a header, the details over 20, a subtotal of all its rows.
  const start = lines.indexOf('City');
  assert.deepEqual(lines.slice(start - 1, start + 2), ['Region', 'City', 'Amount']);
  const rest = lines.slice(start + 2);
  assert.deepEqual(rest.slice(0, 7), ['Region West', 'SEATTLE', '100', 'PORTLAND', '50', 'Subtotal', '150']);
  assert.ok(rest.includes('Region Central') && rest.includes('Subtotal') && !rest.includes('DENVER'), 'the detail filter drops 7');
  assert.equal(rest.filter((l) => l === 'Subtotal').length, 3, 'a subtotal per region');
});
