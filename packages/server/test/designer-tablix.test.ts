// The designer's tablix edits (packages/console/src/designer/model): a grouped matrix built from a semantic model's
// columns, table columns and groups, parameters of every type; every step passes the service's RDL checks and keeps
// the hierarchies in step with the body grid.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRdl } from '../src/reports/rdl/check.js';
import { RdlDocument } from '../../console/src/designer/model/report.js';
import { insertElement } from '../../console/src/designer/model/items.js';
import { blankReport } from '../../console/src/designer/model/blank.js';
import { dataSets, ensureModelField, setDataSetFilters } from '../../console/src/designer/model/data.js';
import { matrixSpec, tableSpec } from '../../console/src/designer/model/tablix-make.js';
import { allMembers, groupsOf, placeCells, readTablix, shapeOf, type TablixModel } from '../../console/src/designer/model/tablix.js';
import {
  addChildGroup,
  addGroupRow,
  addParentGroup,
  addTotal,
  deleteMember,
  groupPath,
  memberAt,
} from '../../console/src/designer/model/tablix-groups.js';
import { groupDetails, setGroup } from '../../console/src/designer/model/group-props.js';
import { deleteTableColumn, dropField } from '../../console/src/designer/model/tablix-fields.js';
import { deleteParameter, PARAMETER_TYPES, type ParameterDef, parameters, saveParameter } from '../../console/src/designer/model/params.js';
import { textboxValue } from '../../console/src/designer/model/items.js';
import { catalogDefinitions, refusals } from './designer-helpers.js';

const MODEL = { name: 'CasinoFloorModel', apiHost: 'api.powerbi.com', datasetId: '11111111-2222-4333-8444-555555555555' };

/** The hierarchies cover the body exactly: as many row leaves as rows, column leaves as columns, cells per row as columns. */
function consistent(t: TablixModel) {
  const leaves = (list: TablixModel['rowMembers']) => allMembers(list).filter((m) => !m.children.length).length;
  assert.equal(leaves(t.rowMembers), t.rows.length, 'row leaves = body rows');
  assert.equal(leaves(t.colMembers), t.columns.length, 'column leaves = body columns');
  for (const row of t.body)
    assert.equal(
      row.reduce((s, c) => s + c.colSpan, 0),
      t.columns.length,
      'cells per row',
    );
  const cornerCols = t.rowHeaderSizes.length;
  const cornerRows = t.colHeaderSizes.length;
  if (cornerCols && cornerRows) {
    assert.equal(t.corner.length, cornerRows, 'a corner row per column header level');
    for (const r of t.corner)
      assert.equal(
        r.reduce((s, c) => s + c.colSpan, 0),
        cornerCols,
        'a corner cell per row header level',
      );
  } else assert.equal(t.corner.length, 0);
}

const clean = async (doc: RdlDocument) => assert.deepEqual(await refusals(doc.toString()), []);

test('a grouped matrix from a semantic model: fields on the groups and the data cell, a row and a column total, a multi-value parameter filtering it', async () => {
  const doc = RdlDocument.parse(blankReport('Coin in by zone'));
  const zone = ensureModelField(doc, MODEL, { table: 'Machine KPIs', column: 'floor_zone', dataType: 'string' });
  const day = ensureModelField(doc, MODEL, { table: 'Machine KPIs', column: 'business_date', dataType: 'dateTime' });
  const coin = ensureModelField(doc, MODEL, { table: 'Machine KPIs', column: 'coin_in', dataType: 'decimal' });
  assert.equal(zone.dataSet, coin.dataSet, 'one data set per model table');
  assert.equal(coin.numeric, true);
  const { name, spec } = matrixSpec(doc, { bounds: { top: 0.6, left: 0, width: 2, height: 0.5 } });
  insertElement(doc, 'body', spec, 1.1);
  let t = readTablix(doc.find(name)!);
  assert.equal(shapeOf(t), 'matrix');
  consistent(t);
  dropField(doc, name, { dataSet: zone.dataSet, name: zone.field, numeric: false }, { kind: 'header', at: { axis: 'row', path: [0] } });
  dropField(doc, name, { dataSet: day.dataSet, name: day.field, numeric: false }, { kind: 'header', at: { axis: 'column', path: [0] } });
  dropField(doc, name, { dataSet: coin.dataSet, name: coin.field, numeric: true }, { kind: 'cell', row: 0, col: 0 });
  t = readTablix(doc.find(name)!);
  assert.equal(t.dataSet, zone.dataSet);
  assert.deepEqual(t.rowMembers[0]!.group, { ...t.rowMembers[0]!.group!, name: 'floor_zone', expressions: ['=Fields!floor_zone.Value'] });
  assert.equal(t.colMembers[0]!.group!.name, 'business_date');
  assert.equal(textboxValue(t.body[0]![0]!.item!), '=Sum(Fields!coin_in.Value)');
  await clean(doc);

  addTotal(doc, name, { axis: 'row', path: [0] });
  addTotal(doc, name, { axis: 'column', path: [0] });
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.deepEqual([t.rows.length, t.columns.length], [2, 2]);
  assert.equal(textboxValue(t.body[1]![1]!.item!), '=Sum(Fields!coin_in.Value)', 'the grand total cell sums too');
  const headers = placeCells(t)
    .filter((c) => c.role === 'rowHeader')
    .map((c) => (c.item ? textboxValue(c.item) : ''));
  assert.deepEqual(headers, ['=Fields!floor_zone.Value', 'Total']);
  await clean(doc);

  const zones: ParameterDef = {
    name: 'Zones',
    dataType: 'String',
    prompt: 'Floor zones',
    multiValue: true,
    nullable: false,
    allowBlank: false,
    hidden: false,
    defaults: { kind: 'values', values: ['=Split("Main Floor,High Limit", ",")'] },
    available: { kind: 'none' },
  };
  saveParameter(doc, zones);
  setDataSetFilters(doc, zone.dataSet, [{ expression: '=Fields!floor_zone.Value', operator: 'In', values: ['=Parameters!Zones.Value'] }]);
  assert.deepEqual(parameters(doc), [zones]);
  assert.deepEqual(dataSets(doc).find((s) => s.name === zone.dataSet)!.filters[0]!.values, ['=Parameters!Zones.Value']);
  await clean(doc);
  // Reading it back gives the same text (nothing the designer writes is lost on the next open).
  assert.equal(RdlDocument.parse(doc.toString()).toString(), doc.toString());
});

test('a table: columns added and removed, a parent group with a total, a child group, sort and filters, groups deleted', async () => {
  const doc = RdlDocument.parse(blankReport('Machines'));
  const id = ensureModelField(doc, MODEL, { table: 'Machines', column: 'machine_id' });
  const zone = ensureModelField(doc, MODEL, { table: 'Machines', column: 'floor_zone' });
  const maker = ensureModelField(doc, MODEL, { table: 'Machines', column: 'manufacturer' });
  const par = ensureModelField(doc, MODEL, { table: 'Machines', column: 'par_pct', dataType: 'double' });
  const { name, spec } = tableSpec(doc, {
    dataSet: id.dataSet,
    columns: [{ header: 'Machine', value: `=Fields!${id.field}.Value` }],
    bounds: { top: 0.6, left: 0, width: 2, height: 0.5 },
  });
  insertElement(doc, 'body', spec, 1.1);
  const field = (f: typeof id, numeric = false) => ({ dataSet: f.dataSet, name: f.field, numeric });
  dropField(doc, name, field(par, true), { kind: 'newColumn', index: 1 });
  dropField(doc, name, field(maker), { kind: 'newColumn', index: 1 });
  let t = readTablix(doc.find(name)!);
  consistent(t);
  assert.deepEqual(
    t.body.map((r) => r.map((c) => textboxValue(c.item!))),
    [
      ['Machine', 'Manufacturer', 'Par Pct'],
      ['=Fields!machine_id.Value', '=Fields!manufacturer.Value', '=Fields!par_pct.Value'],
    ],
  );
  deleteTableColumn(doc, name, 1);
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.equal(t.columns.length, 2);
  await clean(doc);

  const zoneGroup = addParentGroup(doc, name, { axis: 'row', path: [1] }, `=Fields!${zone.field}.Value`);
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.equal(zoneGroup, 'floor_zone');
  assert.deepEqual(t.rowHeaderSizes, [1]);
  addTotal(doc, name, groupPath(t, zoneGroup)!, (f) => f === par.field);
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.deepEqual(
    t.body[2]!.map((c) => textboxValue(c.item!)),
    ['', '=Sum(Fields!par_pct.Value)'],
    'a total sums the numeric column, leaves text columns empty',
  );
  await clean(doc);

  // A group header row (the zone, once per zone) and footer row (the zone's sums) inside the zone group.
  addGroupRow(doc, name, groupPath(t, zoneGroup)!, 'header', (f) => f === par.field);
  addGroupRow(doc, name, groupPath(t, zoneGroup)!, 'footer', (f) => f === par.field);
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.deepEqual(
    t.body.map((r) => r.map((c) => textboxValue(c.item!))),
    [
      ['Machine', 'Par Pct'],
      ['=Fields!floor_zone.Value', ''],
      ['=Fields!machine_id.Value', '=Fields!par_pct.Value'],
      ['', '=Sum(Fields!par_pct.Value)'],
      ['', '=Sum(Fields!par_pct.Value)'],
    ],
  );
  await clean(doc);
  deleteMember(doc, name, { axis: 'row', path: [1, 2] });
  deleteMember(doc, name, { axis: 'row', path: [1, 0] });
  t = readTablix(doc.find(name)!);
  consistent(t);

  const makerGroup = addChildGroup(doc, name, groupPath(t, zoneGroup)!, `=Fields!${maker.field}.Value`);
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.deepEqual(
    groupsOf(t.rowMembers).map((g) => [g.member.group!.name, g.depth]),
    [
      ['floor_zone', 0],
      ['manufacturer', 1],
      ['Table_Details', 2],
    ],
  );
  setGroup(doc, name, makerGroup, {
    sorts: [{ value: `=Fields!${maker.field}.Value`, direction: 'Descending' }],
    filters: [{ expression: `=Fields!${maker.field}.Value`, operator: 'NotEqual', values: ['AGS'] }],
  });
  t = readTablix(doc.find(name)!);
  assert.deepEqual(groupDetails(memberAt(t, groupPath(t, makerGroup)!)), {
    sorts: [{ value: '=Fields!manufacturer.Value', direction: 'Descending' }],
    filters: [{ expression: '=Fields!manufacturer.Value', operator: 'NotEqual', values: ['AGS'] }],
  });
  await clean(doc);

  // Deleting the outer group keeps its rows (the total stays a row of its own); deleting the total removes its row.
  deleteMember(doc, name, groupPath(t, makerGroup)!);
  t = readTablix(doc.find(name)!);
  consistent(t);
  deleteMember(doc, name, { axis: 'row', path: [2] });
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.equal(t.rows.length, 2);
  deleteMember(doc, name, groupPath(t, zoneGroup)!);
  t = readTablix(doc.find(name)!);
  consistent(t);
  assert.deepEqual(t.rowHeaderSizes, []);
  await clean(doc);
});

test('parameters of every type, single and multi value, defaults and available values from a list or a query; renamed and deleted', () => {
  const doc = RdlDocument.parse(blankReport('Parameters'));
  const zone = ensureModelField(doc, MODEL, { table: 'Machines', column: 'floor_zone' });
  for (const [i, type] of PARAMETER_TYPES.entries()) {
    const p: ParameterDef = {
      name: `P${type}`,
      dataType: type,
      prompt: `${type} value`,
      multiValue: type !== 'Boolean' && i % 2 === 0,
      nullable: type === 'Boolean' || i % 2 === 1,
      allowBlank: type === 'String',
      hidden: type === 'Float',
      defaults:
        type === 'DateTime'
          ? { kind: 'values', values: ['=Today()'] }
          : type === 'String'
            ? { kind: 'query', dataSet: zone.dataSet, valueField: zone.field }
            : { kind: 'values', values: [type === 'Boolean' ? 'true' : '1'] },
      available:
        type === 'String'
          ? { kind: 'query', dataSet: zone.dataSet, valueField: zone.field, labelField: zone.field }
          : type === 'Integer'
            ? {
                kind: 'list',
                values: [
                  { value: '1', label: 'One' },
                  { value: '2', label: '2' },
                ],
              }
            : { kind: 'none' },
    };
    saveParameter(doc, p);
    assert.deepEqual(parameters(doc).at(-1), p, type);
  }
  assert.deepEqual(checkRdl(doc.toString()).faults, []);
  assert.deepEqual(
    checkRdl(doc.toString()).parameters.map((p) => [p.name, p.dataType, p.multiValue]),
    parameters(doc).map((p) => [p.name, p.dataType, p.multiValue]),
  );
  const first = parameters(doc)[0]!;
  assert.throws(() => saveParameter(doc, { ...first, nullable: true }, first.name), /cannot be nullable/);
  assert.throws(() => saveParameter(doc, { ...first, name: 'PInteger' }, first.name), /already a parameter/);
  saveParameter(doc, { ...first, name: 'Renamed' }, first.name);
  assert.equal(parameters(doc)[0]!.name, 'Renamed', 'a renamed parameter keeps its place');
  deleteParameter(doc, 'Renamed');
  assert.equal(parameters(doc).length, PARAMETER_TYPES.length - 1);
  assert.deepEqual(checkRdl(doc.toString()).faults, []);
});

test('a catalog report keeps its ReportParametersLayout naming each parameter once when one is added or renamed', () => {
  const floor = catalogDefinitions().find((d) => d.name.includes('daily-floor'))!;
  const doc = RdlDocument.parse(floor.text);
  const before = parameters(doc).length;
  saveParameter(doc, { ...parameters(doc)[0]!, name: 'FirstDay' }, parameters(doc)[0]!.name);
  saveParameter(doc, {
    name: 'Shift',
    dataType: 'String',
    prompt: 'Shift',
    multiValue: false,
    nullable: true,
    allowBlank: false,
    hidden: false,
    defaults: { kind: 'none' },
    available: { kind: 'none' },
  });
  const text = doc.toString();
  const named = [...text.matchAll(/<ParameterName>(\w+)<\/ParameterName>/g)].map((m) => m[1]);
  assert.equal(named.length, before + 1);
  assert.ok(named.includes('FirstDay') && named.includes('Shift') && !named.includes('StartDate'));
});
