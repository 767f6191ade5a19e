import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import { exportFile, importRdl, parsePdf, reportingApi, waitImport } from './reporting-helpers.js';

// Expressions through the reporting API as the service calls it: parameter defaults given as expressions, text boxes,
// a table's detail and total rows, and the refusal of what the service cannot compile.

const NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';
const ROWS = [
  ['West', 'Seattle', '1250.50'],
  ['East', 'Boston', '2210.75'],
  ['West', 'Portland', '830.00'],
  ['Central', 'Denver', '990.00'],
];

const box = (name: string, value: string) =>
  `<Textbox Name="${name}"><Paragraphs><Paragraph><TextRuns><TextRun><Value>${value}</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox>`;
const cell = (name: string, value: string) => `<TablixCell><CellContents>${box(name, value)}</CellContents></TablixCell>`;
const row = (cells: string) => `<TablixRow><Height>0.25in</Height><TablixCells>${cells}</TablixCells></TablixRow>`;

/** A report over inline rows whose parameters default to expressions; `title` is the first text box's value. */
function rdl(title: string, parameters: string): string {
  const data = ROWS.map(([r, c, a]) => `&lt;Sale Region="${r}" City="${c}" Amount="${a}" /&gt;`).join('');
  return `<?xml version="1.0" encoding="utf-8"?>
<Report xmlns="${NS}">
  <DataSources><DataSource Name="Inline"><ConnectionProperties><DataProvider>XML</DataProvider><ConnectString /></ConnectionProperties></DataSource></DataSources>
  <DataSets><DataSet Name="Sales">
    <Query><DataSourceName>Inline</DataSourceName><CommandText>&lt;Query&gt;&lt;XmlData&gt;&lt;Sales&gt;${data}&lt;/Sales&gt;&lt;/XmlData&gt;&lt;/Query&gt;</CommandText></Query>
    <Fields><Field Name="Region"><DataField>Region</DataField></Field><Field Name="City"><DataField>City</DataField></Field><Field Name="Amount"><DataField>Amount</DataField></Field></Fields>
    <Filters><Filter><FilterExpression>=Fields!Region.Value</FilterExpression><Operator>In</Operator><FilterValues><FilterValue>=Parameters!Regions.Value</FilterValue></FilterValues></Filter></Filters>
  </DataSet></DataSets>
  <ReportSections><ReportSection>
    <Body><ReportItems>${box('Title', title)}${box('Sub', '="Rows: " &amp; CountRows("Sales") &amp; "; top region " &amp; First(Fields!Region.Value, "Sales")')}
      <Tablix Name="SalesTable"><TablixBody><TablixColumns><TablixColumn><Width>1in</Width></TablixColumn><TablixColumn><Width>2in</Width></TablixColumn><TablixColumn><Width>2in</Width></TablixColumn></TablixColumns><TablixRows>
        ${row(cell('H1', '#') + cell('H2', 'City') + cell('H3', 'Amount'))}
        ${row(cell('D1', '=RowNumber(Nothing)') + cell('D2', '=UCase(Fields!City.Value)') + cell('D3', '=Format(CDbl(Fields!Amount.Value), "C")'))}
        ${row(cell('T1', 'Total') + cell('T2', '=Count(Fields!City.Value) &amp; " cities"') + cell('T3', '=Format(Sum(Fields!Amount.Value), "N2")'))}
      </TablixRows></TablixBody><DataSetName>Sales</DataSetName></Tablix>
    </ReportItems><Height>3in</Height></Body>
    <Width>6in</Width><Page><PageHeight>11in</PageHeight><PageWidth>8.5in</PageWidth>
      <PageFooter><Height>0.3in</Height><ReportItems>${box('Foot', '="Page " &amp; Globals!PageNumber &amp; " of " &amp; Globals!TotalPages &amp; " - " &amp; ReportItems!Title.Value')}</ReportItems></PageFooter></Page>
  </ReportSection></ReportSections>
  <ReportParameters>${parameters}</ReportParameters>
</Report>`;
}

const PARAMETERS = `
  <ReportParameter Name="Since"><DataType>DateTime</DataType><Prompt>Since</Prompt><DefaultValue><Values><Value>=DateAdd("d", -7, Today())</Value></Values></DefaultValue></ReportParameter>
  <ReportParameter Name="Regions"><DataType>String</DataType><MultiValue>true</MultiValue><Prompt>Regions</Prompt>
    <DefaultValue><Values><Value>West</Value><Value>=UCase(Left("east", 1)) &amp; Mid("east", 2)</Value></Values></DefaultValue>
    <ValidValues><ParameterValues><ParameterValue><Value>West</Value></ParameterValue><ParameterValue><Value>East</Value></ParameterValue><ParameterValue><Value>Central</Value></ParameterValue></ParameterValues></ValidValues></ReportParameter>
  <ReportParameter Name="Top"><DataType>Integer</DataType><Prompt>Top</Prompt><DefaultValue><Values><Value>=2 * 5</Value></Values></DefaultValue></ReportParameter>`;

const TITLE =
  '="Since " &amp; Format(Parameters!Since.Value, "yyyy-MM-dd") &amp; " in " &amp; Join(Parameters!Regions.Value, "+") &amp; ", top " &amp; Parameters!Top.Value &amp; " for " &amp; User!UserID';

async function publish(group: string, token: string, name: string, definition: string): Promise<any> {
  const imported = await importRdl(`${group}/imports?datasetDisplayName=${name}.rdl&nameConflict=Abort`, token, definition);
  assert.equal(imported.status, 202, JSON.stringify(imported.body));
  const done = await waitImport(group, token, imported.body.id);
  assert.equal(done.importState, 'Succeeded', JSON.stringify(done));
  return (await call(`${group}/reports/${done.reports[0].id}`, { token })).body;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

test('ExportTo without parameter values: defaults given as expressions are evaluated; tables total their rows', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  const report = await publish(group, token, 'Expressions', rdl(TITLE, PARAMETERS));

  const before = daysAgo(7);
  const out = await exportFile(group, token, report.id, { format: 'PDF' });
  assert.equal(out.status.status, 'Succeeded', JSON.stringify(out.status));
  const text = parsePdf(out.bytes).text;
  // The title wraps at the page width before the caller's id.
  const since = new RegExp(`^Since (${before}|${daysAgo(7)}) in West\\+East, top 10 for\\s${sb.ids.serviceIdentity.appId}$`, 'm');
  assert.match(text, since, 'the DateTime default is seven days ago, the multi-value default has both values, the Integer default is 10');
  assert.match(text, /^Rows: 3; top region West$/m, 'aggregates with a data set scope read the filtered rows');
  for (const line of ['1', 'SEATTLE', '$1,250.50', '2', 'BOSTON', '$2,210.75', '3', 'PORTLAND', '$830.00'])
    assert.match(text, new RegExp(`^${line.replace(/[$.]/g, '\\$&')}$`, 'm'), line);
  assert.doesNotMatch(text, /DENVER/, 'the Regions filter keeps West and East');
  assert.match(text, /^3 cities$/m, 'the total row is rendered once, over the region');
  assert.match(text, /^4,291\.25$/m);
  assert.equal(text.match(/cities/g)?.length, 1);
  assert.match(text, /^Page 1 of 1 - Since /m, 'the footer reads the title through ReportItems');

  // Values given in the request replace the defaults; the effective identity is User!UserID.
  const given = await exportFile(group, token, report.id, {
    format: 'PDF',
    paginatedReportConfiguration: {
      parameterValues: [
        { name: 'Since', value: '2025-01-01' },
        { name: 'Regions', value: 'Central' },
      ],
      identities: [{ username: 'ana@contoso.com' }],
    },
  });
  const givenText = parsePdf(given.bytes).text;
  assert.match(givenText, /^Since 2025-01-01 in Central, top 10 for ana@contoso\.com$/m);
  assert.match(givenText, /^DENVER$/m);
  assert.match(givenText, /^990\.00$/m);
});

test('parameter defaults: a multi-value default from one expression, valid values as expressions, and the refusals', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  const split = PARAMETERS.replace(
    /<DefaultValue><Values><Value>West<\/Value><Value>[^<]*<\/Value><\/Values><\/DefaultValue>\s*<ValidValues>[\s\S]*?<\/ValidValues>/,
    '<DefaultValue><Values><Value>=Split("Central,East", ",")</Value></Values></DefaultValue><ValidValues><ParameterValues><ParameterValue><Value>="Cen" &amp; "tral"</Value><Label>=UCase("central")</Label></ParameterValue><ParameterValue><Value>East</Value></ParameterValue></ParameterValues></ValidValues>',
  );
  assert.notEqual(split, PARAMETERS);
  // Cities: defaults and valid values from the Sales data set's rows (filtered by the Regions before it).
  const cities =
    '<ReportParameter Name="Cities"><DataType>String</DataType><MultiValue>true</MultiValue><Prompt>Cities</Prompt><DefaultValue><DataSetReference><DataSetName>Sales</DataSetName><ValueField>City</ValueField></DataSetReference></DefaultValue><ValidValues><DataSetReference><DataSetName>Sales</DataSetName><ValueField>City</ValueField><LabelField>Region</LabelField></DataSetReference></ValidValues></ReportParameter>';
  const report = await publish(
    group,
    token,
    'Split',
    rdl(
      '=Join(Parameters!Regions.Label, " and ") &amp; ": " &amp; Join(Parameters!Cities.Value, ",") &amp; " in " &amp; Join(Parameters!Cities.Label, ",")',
      split + cities,
    ),
  );
  const out = await exportFile(group, token, report.id, { format: 'PDF' });
  const text = parsePdf(out.bytes).text;
  assert.match(
    text,
    /^CENTRAL and East: Boston,Denver in East,Central$/m,
    'Split gives two default values; labels from expressions and fields',
  );
  const seattle = await call(`${group}/reports/${report.id}/ExportTo`, {
    token,
    json: { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Cities', value: 'Seattle' }] } },
  });
  assert.equal(seattle.status, 400, 'Seattle is not among the valid values the query gives for Central and East');
  assert.match(seattle.body.error.message, /'Seattle' is not a valid value of parameter 'Cities'; valid values are Boston, Denver/);
  const west = await call(`${group}/reports/${report.id}/ExportTo`, {
    token,
    json: { format: 'PDF', paginatedReportConfiguration: { parameterValues: [{ name: 'Regions', value: 'West' }] } },
  });
  assert.equal(west.status, 400);
  assert.match(west.body.error.message, /'West' is not a valid value of parameter 'Regions'; valid values are Central, East/);

  // A default the service cannot compile refuses the export with the processing error's words and code.
  const broken = await publish(group, token, 'BrokenDefault', rdl(TITLE, PARAMETERS.replace('=2 * 5', '=NoSuch(2)')));
  const refused = await call(`${group}/reports/${broken.id}/ExportTo`, { token, json: { format: 'PDF' } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, 'InvalidRequest');
  assert.equal(
    refused.body.error.message,
    "The DefaultValue expression for the report parameter 'Top' contains an error: [BC30451] Name 'NoSuch' is not declared. (rsCompilerErrorInExpression)",
  );
  const bad = await publish(group, token, 'BadDefault', rdl(TITLE, PARAMETERS.replace('=2 * 5', '=CInt("ten")')));
  const runtime = await call(`${group}/reports/${bad.id}/ExportTo`, { token, json: { format: 'PDF' } });
  assert.equal(runtime.status, 400);
  assert.match(
    runtime.body.error.message,
    /^The DefaultValue expression for the report parameter 'Top' contains an error: Conversion from string "ten" to type 'Double' is not valid\. \(rsRuntimeErrorInExpression\)$/,
  );
  // Explicit values do not evaluate the default.
  const explicit = await exportFile(group, token, bad.id, {
    format: 'CSV',
    paginatedReportConfiguration: { parameterValues: [{ name: 'Top', value: '3' }] },
  });
  assert.equal(explicit.status.status, 'Succeeded');
});

test('an expression the service cannot evaluate fails the export job; the viewer shows the processing error; runtime errors show #Error', async (t) => {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('reporting.importMs', 0);
  await sb.admin.setSwitch('reporting.renderMs', 20);
  await sb.admin.setSwitch('reporting.retryAfterSeconds', 0);
  const { token, group } = await reportingApi(sb);
  for (const [name, title, words] of [
    ['CustomCode', '=Code.Discount(10)', /'Discount' is not a member of 'Code'/],
    ['Unknown', '=Lookup(1, 1, 1, "Sales")', /\[BC30451\] Name 'Lookup' is not declared\./],
    ['PageInBody', '=Globals!PageNumber', /Globals!PageNumber can only be used in a page header or footer/],
  ] as const) {
    const report = await publish(group, token, name, rdl(title, PARAMETERS));
    const out = await exportFile(group, token, report.id, { format: 'PDF' });
    assert.equal(out.status.status, 'Failed', name);
    assert.equal(out.status.resourceLocation, undefined);
    const page = await fetch(report.webUrl);
    assert.equal(page.status, 500, name);
    const html = await page.text();
    assert.match(
      html,
      /An error has occurred during report processing\. \(rsProcessingAborted\) The Value expression for the textrun &apos;Title\.Paragraphs\[0\]\.TextRuns\[0\]&apos; contains an error: /,
    );
    assert.match(html.replace(/&apos;/g, "'"), words, name);
    assert.match(html, /\(rsCompilerErrorInExpression\)/);
  }
  // Text runs of one paragraph: a literal run and expression runs, shown one after another.
  const runs = await publish(
    group,
    token,
    'Runs',
    rdl(
      'Total: </Value></TextRun><TextRun><Value>=Sum(Fields!Amount.Value, "Sales")</Value></TextRun><TextRun><Value>=" in " &amp; CountRows("Sales") &amp; " rows"',
      PARAMETERS,
    ),
  );
  assert.match(parsePdf((await exportFile(group, token, runs.id, { format: 'PDF' })).bytes).text, /^Total: 4291\.25 in 3 rows$/m);
  const report = await publish(group, token, 'Runtime', rdl('=CInt("x") &amp; "!"', PARAMETERS));
  const out = await exportFile(group, token, report.id, { format: 'PDF' });
  assert.equal(out.status.status, 'Succeeded');
  assert.match(parsePdf(out.bytes).text, /^#Error$/m);
});
