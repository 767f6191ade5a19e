import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_CATALOG_DIR } from '../src/catalog/index.js';
import { checkRdl, faultText, RDL_PARAMETER_TYPES } from '../src/reports/rdl/check.js';

const casino = readFileSync(join(DEFAULT_CATALOG_DIR, 'app-casino-analytics', 'reports', 'daily-floor-performance.rdl'), 'utf8');
const lineOf = (src: string, needle: string) => src.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('the curated casino report passes both levels and declares what it uses', () => {
  for (const complete of [false, true]) assert.deepEqual(checkRdl(casino, { complete }).faults, []);
  const rdl = checkRdl(casino, { complete: true });
  assert.ok(rdl.dataSources.some((d) => d.provider === 'PBIDATASET' && d.connectString.includes('${item:floor-model.id}')));
  assert.ok(rdl.dataSets.every((s) => s.commandText && s.fields.length > 0));
  assert.deepEqual([...new Set(rdl.parameters.map((p) => p.dataType))].sort(), [...RDL_PARAMETER_TYPES].sort());
  const zone = rdl.parameters.find((p) => p.multiValue)!;
  assert.ok(zone.validValues.length > 0 || zone.validValuesDataSet, 'the multi-value parameter lists its valid values');
});

test('one parameter-type list: an unknown DataType is a fault at its line on either level', () => {
  const bad = casino.replace('<DataType>Float</DataType>', '<DataType>Decimal</DataType>');
  for (const complete of [false, true]) {
    const [f] = checkRdl(bad, { complete }).faults;
    assert.equal(
      faultText(f!),
      `line ${lineOf(bad, '<DataType>Decimal')}, <DataType>: DataType 'Decimal' is not one of Boolean, DateTime, Integer, Float, String`,
    );
  }
});

test('completeness is asked of curated content only: expressions, ConnectString, CommandText and Fields', () => {
  const edits: [string, (s: string) => string, RegExp][] = [
    [
      'an undeclared field',
      (s) => s.replace('Fields!NetWin.Value', 'Fields!NetWinn.Value'),
      /<Value>: the expression uses Fields!NetWinn but no data set declares that field/,
    ],
    [
      'an undeclared parameter',
      (s) => s.replace('Parameters!TopN.Value', 'Parameters!TopM.Value'),
      /the expression uses Parameters!TopM but no ReportParameter/,
    ],
    ['an unknown global', (s) => s.replace('Globals!ExecutionTime', 'Globals!ExecutionTimes'), /unknown built-in Globals!ExecutionTimes/],
    [
      'no ConnectString',
      (s) => s.replace(/<ConnectString>[\s\S]*?<\/ConnectString>/, ''),
      /<ConnectionProperties>: ConnectString is required/,
    ],
    ['no CommandText', (s) => s.replace(/<CommandText>[\s\S]*?<\/CommandText>/, ''), /<Query>: CommandText is required/],
    ['no Fields', (s) => s.replace(/<Fields>[\s\S]*?<\/Fields>/, ''), /<DataSet Name="\w+">: Fields is required/],
  ];
  for (const [what, edit, fault] of edits) {
    const src = edit(casino);
    assert.notEqual(src, casino, `the edit for ${what} changes nothing`);
    assert.deepEqual(checkRdl(src).faults, [], `a published definition with ${what} passes the structural check`);
    assert.match(faultText(checkRdl(src, { complete: true }).faults[0] ?? { line: 0, element: '', message: 'no fault' }), fault, what);
  }
});

test('a page-only global in the Body is a fault of a complete report; in the page footer it is not', () => {
  assert.ok(casino.includes('Globals!PageNumber'));
  const inBody = casino.replace(
    '</ReportItems>',
    '<Textbox Name="P"><Paragraphs><Paragraph><TextRuns><TextRun><Value>=Globals!PageNumber</Value></TextRun></TextRuns></Paragraph></Paragraphs></Textbox></ReportItems>',
  );
  assert.notEqual(inBody, casino);
  const faults = checkRdl(inBody, { complete: true }).faults;
  assert.equal(faults.length, 1);
  assert.match(faults[0]!.message, /Globals!PageNumber is allowed only in the page header or footer/);
});

test('structure: every fault is reported with its line and element, not just the first', () => {
  const src = [
    '<?xml version="1.0"?>',
    '<Report xmlns="http://schemas.microsoft.com/sqlserver/reporting/2010/01/reportdefinition">',
    '  <ReportSections><ReportSection><Body><Height>1in</Height></Body><Width>1in</Width></ReportSection></ReportSections>',
    '  <DataSources><DataSource Name="S"><DataSourceReference>shared</DataSourceReference></DataSource></DataSources>',
    '  <DataSets><DataSet Name="D"><Query><DataSourceName>T</DataSourceName></Query></DataSet></DataSets>',
    '  <ReportParameters><ReportParameter Name="P"><DataType>String</DataType>',
    '    <DefaultValue><DataSetReference><DataSetName>E</DataSetName></DataSetReference></DefaultValue></ReportParameter></ReportParameters>',
    '</Report>',
  ].join('\n');
  assert.deepEqual(checkRdl(src).faults.map(faultText), [
    "line 2, <Report>: the namespace is 'http://schemas.microsoft.com/sqlserver/reporting/2010/01/reportdefinition', not the 2016/01 report definition namespace http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition",
    'line 3, <ReportSection>: Page is required',
    'line 4, <DataSource Name="S">: shared data sources (DataSourceReference) are not supported by the reporting service',
    "line 5, <DataSourceName>: data source 'T' is not declared in DataSources",
    "line 7, <DataSetReference>: data set 'E' is not declared in DataSets",
  ]);
  assert.deepEqual(checkRdl('<Report>\n<Body></Report>').faults.map(faultText), ['line 2: not well-formed XML: </Report> closes <Body>']);
});
