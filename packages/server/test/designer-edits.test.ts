// The designer's dialogs and panes write through the document model (packages/console/src/designer/model): a data set
// saved unchanged, report properties set back to what they were and a field placed from the keyboard leave the rest of
// the definition as it was; the expression editor's check follows the report language.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRdl } from '../src/reports/rdl/check.js';
import { RdlDocument } from '../../console/src/designer/model/report.js';
import { dataSets, saveDataSet } from '../../console/src/designer/model/data.js';
import { checkExpression, contextFor } from '../../console/src/designer/model/expression-check.js';
import { parameters, saveParameter } from '../../console/src/designer/model/params.js';
import { setDescription, setPageSetting, setBand, setRegionSize } from '../../console/src/designer/model/report-props.js';
import { placeField } from '../../console/src/designer/model/place.js';
import { readTablix } from '../../console/src/designer/model/tablix.js';
import { textboxValue } from '../../console/src/designer/model/items.js';
import { blankReport } from '../../console/src/designer/model/blank.js';
import { catalogDefinitions } from './designer-helpers.js';

test('a data set saved as it was, every parameter saved as it was, the page set to what it is: the definition is unchanged', () => {
  for (const d of catalogDefinitions()) {
    const doc = RdlDocument.parse(d.text);
    for (const set of dataSets(doc))
      saveDataSet(
        doc,
        {
          name: set.name,
          dataSource: set.dataSource,
          commandText: set.commandText,
          fields: set.fields.map((f) => ({ ...f, original: f.name })),
          filters: set.filters,
        },
        false,
      );
    for (const p of parameters(doc)) saveParameter(doc, p, p.name);
    // A parameter is written anew (its own element, one place): only its lines may differ; data sets stay byte for byte.
    const again = RdlDocument.parse(d.text);
    for (const set of dataSets(again))
      saveDataSet(
        again,
        {
          name: set.name,
          dataSource: set.dataSource,
          commandText: set.commandText,
          fields: set.fields.map((f) => ({ ...f, original: f.name })),
          filters: set.filters,
        },
        false,
      );
    setPageSetting(again, 'PageWidth', again.pageSize('PageWidth', 8.5));
    setRegionSize(again, 'body', again.regionHeight('body'));
    setDescription(again, again.property('Description') ?? '');
    assert.equal(again.toString(), d.text, `${d.name}: unchanged`);
    assert.deepEqual(checkRdl(doc.toString()).faults, [], `${d.name}: parameters rewritten still pass the checks`);
    assert.deepEqual(
      parameters(RdlDocument.parse(doc.toString())),
      parameters(RdlDocument.parse(d.text)),
      `${d.name}: the parameters read back the same`,
    );
  }
});

test('a data set edited in its dialog: query, a field renamed, one removed, one added, a filter', () => {
  const doc = RdlDocument.parse(catalogDefinitions().find((d) => d.name.includes('sales-by-region'))!.text);
  const set = dataSets(doc)[0]!;
  saveDataSet(
    doc,
    {
      name: set.name,
      dataSource: set.dataSource,
      commandText: set.commandText,
      fields: [
        { name: 'SalesRegion', dataField: 'Region', original: 'Region' },
        { name: 'City', dataField: 'City', original: 'City' },
        { name: 'Amount', dataField: 'Amount', original: 'Amount' },
        { name: 'Doubled', dataField: '=Fields!Amount.Value * 2' },
      ],
      filters: [{ expression: '=Fields!City.Value', operator: 'NotEqual', values: ['Boston'] }],
    },
    false,
  );
  const after = dataSets(doc)[0]!;
  assert.deepEqual(
    after.fields.map((f) => [f.name, f.dataField, f.calculated]),
    [
      ['SalesRegion', 'Region', false],
      ['City', 'City', false],
      ['Amount', 'Amount', false],
      ['Doubled', '=Fields!Amount.Value * 2', true],
    ],
  );
  assert.deepEqual(after.filters, [{ expression: '=Fields!City.Value', operator: 'NotEqual', values: ['Boston'] }]);
});

test('report properties: description, page size, body size, the page header and footer added and removed', () => {
  const doc = RdlDocument.parse(blankReport('Props'));
  setDescription(doc, 'Coin in per zone & day');
  setPageSetting(doc, 'PageWidth', 11);
  setPageSetting(doc, 'PageHeight', 8.5);
  setRegionSize(doc, 'width', 9);
  setBand(doc, 'header', false);
  assert.equal(doc.regionEl('header'), undefined);
  setBand(doc, 'header', true);
  assert.equal(doc.regionHeight('header'), 0.5);
  const text = doc.toString();
  assert.match(text, /<Description>Coin in per zone &amp; day<\/Description>/);
  assert.match(text, /<PageWidth>11in<\/PageWidth>/);
  assert.deepEqual(checkRdl(text, { complete: true }).faults, []);
});

test('a field placed without dragging: on a table it adds a column, on the page it starts a table', () => {
  const doc = RdlDocument.parse(catalogDefinitions().find((d) => d.name.includes('sales-by-region'))!.text);
  placeField(
    doc,
    { kind: 'field', dataSet: 'Sales', name: 'OrderDate', numeric: false },
    { tablix: 'SalesTable', kind: 'newColumn', index: 4 },
  );
  const t = readTablix(doc.find('SalesTable')!);
  assert.deepEqual(
    t.body.map((r) => textboxValue(r.at(-1)!.item!)),
    ['Order Date', '=Fields!OrderDate.Value'],
  );
  const made = placeField(
    doc,
    { kind: 'field', dataSet: 'Sales', name: 'City', numeric: false },
    { kind: 'region', region: 'body', top: 2, left: 0 },
  );
  assert.ok(made && doc.find(made));
  // (The seed's XML data source has no ConnectString, which the complete check of catalog reports would want.)
  assert.deepEqual(checkRdl(doc.toString()).faults, []);
});

test('the expression check: syntax, fields in scope, parameters, built-in fields, page-only globals, functions and their arguments', () => {
  const doc = RdlDocument.parse(catalogDefinitions().find((d) => d.name.includes('daily-floor'))!.text);
  const ctx = contextFor(doc, dataSets(doc), parameters(doc), 'valAssetNumber');
  assert.ok(ctx.fields.includes('CoinIn'), 'a cell of MachineTable sees its data set');
  const ok = [
    '=Sum(Fields!CoinIn.Value)',
    '=Format(Parameters!StartDate.Value, "d")',
    '=Join(Parameters!FloorZone.Label, ", ")',
    '=IIf(Fields!HoldPct.Value > 0.1, "High", "Low")',
    '=Globals!ExecutionTime',
    'literal text',
  ];
  for (const e of ok) assert.deepEqual(checkExpression(e, ctx), [], e);
  const bad: Array<[string, RegExp]> = [
    ['=Sum(Fields!Coin.Value)', /Fields!Coin: no field/],
    ['=Parameters!Floor.Value', /no parameter of that name/],
    ['=Globals!PageNumber', /only in the page header or footer/],
    ['=Globals!Nope', /not a built-in field/],
    ['=Lefty("a", 1)', /Lefty is not a function/],
    ['=Left("a")', /BC30516/],
    ['="a" &', /BC30201/],
  ];
  for (const [e, re] of bad)
    assert.match(
      checkExpression(e, ctx)
        .map((p) => p.message)
        .join('; '),
      re,
      e,
    );
  const footer = contextFor(doc, dataSets(doc), parameters(doc), 'PageNumber');
  assert.equal(footer.page, true);
  assert.deepEqual(checkExpression('="Page " & Globals!PageNumber & " of " & Globals!TotalPages', footer), []);
});
