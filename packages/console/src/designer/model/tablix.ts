// A tablix (table, matrix or list) read for the surface and the grouping pane: its body grid, its row and column
// hierarchies (groups, header cells) and where each cell sits.

import { toInches } from './units.js';
import { child, childText, elements, local, textOf, type XElement } from './xml.js';

/** A member of a row or column hierarchy: static (no group), a group, or the details group (no group expressions). */
export interface Member {
  el: XElement;
  group?: { name: string; expressions: string[]; el: XElement };
  /** The header cell of the member (a matrix's group header, a table group's column), with its size in inches. */
  header?: { size: number; contents: XElement | undefined };
  children: Member[];
  /** The first and last leaf (body row or column) the member covers. */
  first: number;
  last: number;
  /** How many members above it have a header (its header's level). */
  level: number;
}

export interface BodyCell {
  cell: XElement | undefined;
  item: XElement | undefined;
  colSpan: number;
}

/** A cell as the surface places it, in inches from the tablix's top left corner. */
export interface PlacedCell {
  role: 'corner' | 'rowHeader' | 'colHeader' | 'body';
  x: number;
  y: number;
  w: number;
  h: number;
  item: XElement | undefined;
  row?: number;
  col?: number;
  member?: Member;
}

export interface TablixModel {
  el: XElement;
  name: string;
  dataSet: string | undefined;
  columns: number[];
  rows: number[];
  body: BodyCell[][];
  rowMembers: Member[];
  colMembers: Member[];
  /** Widths of the row header levels and heights of the column header levels. */
  rowHeaderSizes: number[];
  colHeaderSizes: number[];
  corner: Array<Array<{ item: XElement | undefined; rowSpan: number; colSpan: number }>>;
}

/** Which layout a tablix has, as the designer names it. */
export type TablixShape = 'table' | 'matrix' | 'list';

/** The one report item of a CellContents. */
export const contentItem = (contents: XElement | undefined) =>
  elements(contents).find((e) => local(e.name) !== 'ColSpan' && local(e.name) !== 'RowSpan');

function readMembers(list: XElement | undefined, next: { leaf: number }, level: number, sizes: number[]): Member[] {
  return elements(list, 'TablixMember').map((el) => {
    const g = child(el, 'Group');
    const h = child(el, 'TablixHeader');
    const own = h ? level + 1 : level;
    if (h) {
      const size = toInches(childText(h, 'Size')) ?? 1;
      sizes[level] = Math.max(sizes[level] ?? 0, size);
    }
    const first = next.leaf;
    const kids = readMembers(child(el, 'TablixMembers'), next, own, sizes);
    if (!kids.length) next.leaf++;
    return {
      el,
      group: g
        ? {
            name: g.attrs.Name ?? '',
            expressions: elements(child(g, 'GroupExpressions'), 'GroupExpression').map((e) => textOf(e)?.trim() ?? ''),
            el: g,
          }
        : undefined,
      header: h ? { size: toInches(childText(h, 'Size')) ?? 1, contents: child(h, 'CellContents') } : undefined,
      children: kids,
      first,
      last: next.leaf - 1,
      level,
    };
  });
}

/** Reads a tablix element. */
export function readTablix(el: XElement): TablixModel {
  const body = child(el, 'TablixBody');
  const columns = elements(child(body, 'TablixColumns'), 'TablixColumn').map((c) => toInches(childText(c, 'Width')) ?? 1);
  const rowEls = elements(child(body, 'TablixRows'), 'TablixRow');
  const rows = rowEls.map((r) => toInches(childText(r, 'Height')) ?? 0.25);
  const grid = rowEls.map((r) =>
    elements(child(r, 'TablixCells'), 'TablixCell').map((c) => {
      const contents = child(c, 'CellContents');
      return { cell: c, item: contentItem(contents), colSpan: Number(childText(contents, 'ColSpan') ?? 1) || 1 };
    }),
  );
  const rowHeaderSizes: number[] = [];
  const colHeaderSizes: number[] = [];
  const rowMembers = readMembers(child(child(el, 'TablixRowHierarchy'), 'TablixMembers'), { leaf: 0 }, 0, rowHeaderSizes);
  const colMembers = readMembers(child(child(el, 'TablixColumnHierarchy'), 'TablixMembers'), { leaf: 0 }, 0, colHeaderSizes);
  const corner = elements(child(child(el, 'TablixCorner'), 'TablixCornerRows'), 'TablixCornerRow').map((r) =>
    elements(r, 'TablixCornerCell').map((c) => {
      const contents = child(c, 'CellContents');
      return {
        item: contentItem(contents),
        rowSpan: Number(childText(contents, 'RowSpan') ?? 1) || 1,
        colSpan: Number(childText(contents, 'ColSpan') ?? 1) || 1,
      };
    }),
  );
  return {
    el,
    name: el.attrs.Name ?? '',
    dataSet: childText(el, 'DataSetName'),
    columns,
    rows,
    body: grid,
    rowMembers,
    colMembers,
    rowHeaderSizes: fill(rowHeaderSizes),
    colHeaderSizes: fill(colHeaderSizes),
    corner,
  };
}

const fill = (a: number[]) => Array.from(a, (v) => v ?? 0);

/** Every member of a hierarchy, parents before children. */
export function allMembers(list: Member[]): Member[] {
  return list.flatMap((m) => [m, ...allMembers(m.children)]);
}

/** The groups of a hierarchy with their depth (nesting), parents first. */
export function groupsOf(list: Member[], depth = 0): Array<{ member: Member; depth: number }> {
  return list.flatMap((m) => [...(m.group ? [{ member: m, depth }] : []), ...groupsOf(m.children, m.group ? depth + 1 : depth)]);
}

/** Table, matrix or list: a matrix has column groups; a list is one cell holding a rectangle. */
export function shapeOf(t: TablixModel): TablixShape {
  if (allMembers(t.colMembers).some((m) => m.group)) return 'matrix';
  if (t.columns.length === 1 && t.rows.length === 1 && local(t.body[0]?.[0]?.item?.name ?? '') === 'Rectangle') return 'list';
  return 'table';
}

const sum = (a: number[], from = 0, to = a.length) => a.slice(from, to).reduce((s, v) => s + v, 0);

/** Every cell of the tablix placed on its grid: corner, column headers, row headers and body. */
export function placeCells(t: TablixModel): PlacedCell[] {
  const left = sum(t.rowHeaderSizes);
  const top = sum(t.colHeaderSizes);
  const out: PlacedCell[] = [];
  // The corner: as many rows as column header levels, as many columns as row header levels.
  t.corner.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      out.push({
        role: 'corner',
        x: sum(t.rowHeaderSizes, 0, c),
        y: sum(t.colHeaderSizes, 0, r),
        w: sum(t.rowHeaderSizes, c, c + cell.colSpan),
        h: sum(t.colHeaderSizes, r, r + cell.rowSpan),
        item: cell.item,
      });
      c += cell.colSpan;
    }
  });
  const headers = (members: Member[], axis: 'row' | 'col') => {
    for (const m of allMembers(members)) {
      if (!m.header) continue;
      const deeper = allMembers(m.children).some((k) => k.header);
      const sizes = axis === 'row' ? t.rowHeaderSizes : t.colHeaderSizes;
      const start = sum(sizes, 0, m.level);
      const extent = deeper ? sizes[m.level]! : sum(sizes, m.level);
      const leaves = axis === 'row' ? t.rows : t.columns;
      const along = (axis === 'row' ? top : left) + sum(leaves, 0, m.first);
      const length = sum(leaves, m.first, m.last + 1);
      const item = contentItem(m.header.contents);
      if (axis === 'row') out.push({ role: 'rowHeader', x: start, y: along, w: extent, h: length, item, member: m });
      else out.push({ role: 'colHeader', x: along, y: start, w: length, h: extent, item, member: m });
    }
  };
  headers(t.rowMembers, 'row');
  headers(t.colMembers, 'col');
  t.body.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      out.push({
        role: 'body',
        x: left + sum(t.columns, 0, c),
        y: top + sum(t.rows, 0, r),
        w: sum(t.columns, c, c + cell.colSpan),
        h: t.rows[r] ?? 0.25,
        item: cell.item,
        row: r,
        col: c,
      });
      c += cell.colSpan;
    }
  });
  return out;
}

/** The tablix's own width and height from its grid (what Width and Height should say). */
export function gridSize(t: TablixModel): { width: number; height: number } {
  return { width: sum(t.rowHeaderSizes) + sum(t.columns), height: sum(t.colHeaderSizes) + sum(t.rows) };
}
