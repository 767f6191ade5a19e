// New tablix layouts: a table (header row and detail row), a matrix (a row group, a column group and a data cell)
// and a list (one repeated rectangle), as the ribbon's Insert commands make them.

import type { Bounds } from './items.js';
import { boundsSpec, textboxSpec } from './items.js';
import type { RdlDocument } from './report.js';
import { fromInches } from './units.js';
import type { Spec } from './xml-edit.js';

/** A column of a new table: the header text and the detail value (an =expression). */
export interface TableColumn {
  header: string;
  value: string;
}

const HEADER_RUN: Spec[] = [['FontWeight', 'Bold']];
const CELL_BOX: Spec[] = [
  ['Border', ['Color', 'LightGrey'], ['Style', 'Solid']],
  ['PaddingLeft', '2pt'],
  ['PaddingRight', '2pt'],
  ['PaddingTop', '2pt'],
  ['PaddingBottom', '2pt'],
];
const HEADER_BOX: Spec[] = [['BackgroundColor', 'LightGrey'], ...CELL_BOX];

/** A cell of a table body holding one text box. */
export const cellSpec = (textbox: Spec): Spec => ['TablixCell', ['CellContents', textbox]];

/** A text box for a tablix cell (no position: the grid places it). */
export function cellTextbox(doc: RdlDocument, taken: Set<string>, base: string, value: string, header = false): Spec {
  const name = doc.uniqueName(base, taken);
  return textboxSpec(name, value, { runStyle: header ? HEADER_RUN : [], boxStyle: header ? HEADER_BOX : CELL_BOX });
}

/** A header cell's member part: `<TablixHeader><Size/><CellContents>…`. */
export const headerSpec = (size: number, textbox: Spec): Spec => ['TablixHeader', ['Size', fromInches(size)], ['CellContents', textbox]];

/** A group with one group expression (and the same sort), or the details group for none. */
export function groupSpec(name: string, expression?: string): Spec[] {
  if (!expression) return [['Group', { Name: name }]];
  return [
    ['Group', { Name: name }, ['GroupExpressions', ['GroupExpression', expression]]],
    ['SortExpressions', ['SortExpression', ['Value', expression]]],
  ];
}

/** A table over a data set: a header row, then one detail row per record. */
export function tableSpec(
  doc: RdlDocument,
  opts: { dataSet?: string; columns: TableColumn[]; bounds: Bounds },
): { name: string; spec: Spec } {
  const taken = new Set<string>();
  const name = doc.uniqueName('Table', taken);
  const cols = opts.columns.length ? opts.columns : [{ header: '', value: '' }];
  const width = Math.max(1, opts.bounds.width / cols.length);
  const spec: Spec = [
    'Tablix',
    { Name: name },
    [
      'TablixBody',
      ['TablixColumns', ...cols.map((): Spec => ['TablixColumn', ['Width', fromInches(width)]])],
      [
        'TablixRows',
        [
          'TablixRow',
          ['Height', '0.25in'],
          ['TablixCells', ...cols.map((c) => cellSpec(cellTextbox(doc, taken, 'Textbox', c.header, true)))],
        ],
        ['TablixRow', ['Height', '0.25in'], ['TablixCells', ...cols.map((c) => cellSpec(cellTextbox(doc, taken, 'Textbox', c.value)))]],
      ],
    ],
    ['TablixColumnHierarchy', ['TablixMembers', ...cols.map((): Spec => ['TablixMember'])]],
    [
      'TablixRowHierarchy',
      [
        'TablixMembers',
        ['TablixMember', ['KeepWithGroup', 'After'], ['RepeatOnNewPage', 'true']],
        ['TablixMember', ...groupSpec(doc.uniqueName(`${name}_Details`, taken))],
      ],
    ],
    opts.dataSet ? ['DataSetName', opts.dataSet] : undefined,
    ...boundsSpec({ ...opts.bounds, height: 0.5, width: width * cols.length }),
    ['Style', ['Border', ['Style', 'None']]],
  ];
  return { name, spec };
}

/** A matrix: a corner cell, a row group and a column group (fields dropped on them set their expressions), one data cell. */
export function matrixSpec(doc: RdlDocument, opts: { dataSet?: string; bounds: Bounds }): { name: string; spec: Spec } {
  const taken = new Set<string>();
  const name = doc.uniqueName('Matrix', taken);
  const rowGroup = doc.uniqueName('RowGroup', taken);
  const colGroup = doc.uniqueName('ColumnGroup', taken);
  const spec: Spec = [
    'Tablix',
    { Name: name },
    [
      'TablixCorner',
      ['TablixCornerRows', ['TablixCornerRow', ['TablixCornerCell', ['CellContents', cellTextbox(doc, taken, 'Textbox', '', true)]]]],
    ],
    [
      'TablixBody',
      ['TablixColumns', ['TablixColumn', ['Width', '1in']]],
      ['TablixRows', ['TablixRow', ['Height', '0.25in'], ['TablixCells', cellSpec(cellTextbox(doc, taken, 'Textbox', ''))]]],
    ],
    [
      'TablixColumnHierarchy',
      ['TablixMembers', ['TablixMember', ...groupSpec(colGroup), headerSpec(0.25, cellTextbox(doc, taken, 'Textbox', '', true))]],
    ],
    [
      'TablixRowHierarchy',
      ['TablixMembers', ['TablixMember', ...groupSpec(rowGroup), headerSpec(1, cellTextbox(doc, taken, 'Textbox', '', true))]],
    ],
    opts.dataSet ? ['DataSetName', opts.dataSet] : undefined,
    ...boundsSpec({ ...opts.bounds, height: 0.5, width: 2 }),
    ['Style', ['Border', ['Style', 'None']]],
  ];
  return { name, spec };
}

/** A list: one cell holding a rectangle, repeated per record (the details group). */
export function listSpec(doc: RdlDocument, opts: { dataSet?: string; bounds: Bounds }): { name: string; spec: Spec } {
  const taken = new Set<string>();
  const name = doc.uniqueName('List', taken);
  const rect = doc.uniqueName(`${name}_Contents`, taken);
  const spec: Spec = [
    'Tablix',
    { Name: name },
    [
      'TablixBody',
      ['TablixColumns', ['TablixColumn', ['Width', fromInches(opts.bounds.width)]]],
      [
        'TablixRows',
        [
          'TablixRow',
          ['Height', fromInches(opts.bounds.height)],
          [
            'TablixCells',
            [
              'TablixCell',
              ['CellContents', ['Rectangle', { Name: rect }, ['KeepTogether', 'true'], ['Style', ['Border', ['Style', 'None']]]]],
            ],
          ],
        ],
      ],
    ],
    ['TablixColumnHierarchy', ['TablixMembers', ['TablixMember']]],
    ['TablixRowHierarchy', ['TablixMembers', ['TablixMember', ...groupSpec(doc.uniqueName(`${name}_Details`, taken))]]],
    opts.dataSet ? ['DataSetName', opts.dataSet] : undefined,
    ...boundsSpec(opts.bounds),
    ['Style', ['Border', ['Style', 'Solid']]],
  ];
  return { name, spec };
}
