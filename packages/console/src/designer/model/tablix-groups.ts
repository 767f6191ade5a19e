// Row and column groups of a tablix: add a parent or child group, a total, delete a group; its expressions, sort
// and filters. The body grid, the corner and the tablix's size follow each change.

import type { RdlDocument } from './report.js';
import { ensureChild, setChildText } from './report.js';
import { cellSpec, cellTextbox, groupSpec, headerSpec } from './tablix-make.js';
import { contentItem, gridSize, type Member, readTablix, type TablixModel } from './tablix.js';
import { setBounds, textboxValue } from './items.js';
import { child, childText, elements, textOf, type XElement } from './xml.js';
import { build, insertChild, removeChild, setAttr, type Spec } from './xml-edit.js';
import { fromInches, unitOf } from './units.js';

export type Axis = 'row' | 'column';

/** Where a member is: its axis and its index at each level of the hierarchy. */
export interface MemberPath {
  axis: Axis;
  path: number[];
}

/** The tablix element by name (throws when absent). */
export function tablixEl(doc: RdlDocument, name: string): XElement {
  const el = doc.find(name);
  if (!el) throw new Error(`no tablix named ${name}`);
  return el;
}

const hierarchyOf = (t: TablixModel, axis: Axis) => (axis === 'row' ? t.rowMembers : t.colMembers);

/** The member at a path. */
export function memberAt(t: TablixModel, at: MemberPath): Member {
  let list = hierarchyOf(t, at.axis);
  let m: Member | undefined;
  for (const i of at.path) {
    m = list[i];
    if (!m) throw new Error(`no ${at.axis} member at ${at.path.join('.')}`);
    list = m.children;
  }
  if (!m) throw new Error('an empty member path');
  return m;
}

/** The path of a group's member, found by the group's name. */
export function groupPath(t: TablixModel, groupName: string): MemberPath | undefined {
  for (const axis of ['row', 'column'] as const) {
    const find = (list: Member[], path: number[]): number[] | undefined => {
      for (const [i, m] of list.entries()) {
        if (m.group?.name === groupName) return [...path, i];
        const deeper = find(m.children, [...path, i]);
        if (deeper) return deeper;
      }
      return undefined;
    };
    const path = find(hierarchyOf(t, axis), []);
    if (path) return { axis, path };
  }
  return undefined;
}

const displayName = (expr: string) => /^=Fields!(\w+)\.Value$/.exec(expr.trim())?.[1];

/** A group member spec: the group, its sort, a header cell showing the group value. */
function groupMemberSpec(doc: RdlDocument, taken: Set<string>, name: string, expression: string, headerSize: number): Spec {
  return ['TablixMember', ...groupSpec(name, expression), headerSpec(headerSize, cellTextbox(doc, taken, 'Textbox', expression))];
}

/** Adds a group around a member (a new header level above it); answers the group's name. */
export function addParentGroup(doc: RdlDocument, tablix: string, at: MemberPath, expression: string): string {
  const t = readTablix(tablixEl(doc, tablix));
  const m = memberAt(t, at);
  const taken = new Set<string>();
  const name = doc.uniqueName(displayName(expression) ?? `${at.axis === 'row' ? 'Row' : 'Column'}Group`, taken);
  const parent = build(groupMemberSpec(doc, taken, name, expression, at.axis === 'row' ? 1 : 0.25));
  const list = m.el.parent!;
  const index = elements(list, 'TablixMember').indexOf(m.el);
  removeChild(list, m.el);
  insertChild(list, parent, index);
  insertChild(ensureChild(parent, 'TablixMembers'), m.el);
  syncShape(doc, tablix);
  return name;
}

/** Adds a group inside a group member (between it and its children); answers the group's name. */
export function addChildGroup(doc: RdlDocument, tablix: string, at: MemberPath, expression: string): string {
  const t = readTablix(tablixEl(doc, tablix));
  const m = memberAt(t, at);
  const taken = new Set<string>();
  const name = doc.uniqueName(displayName(expression) ?? `${at.axis === 'row' ? 'Row' : 'Column'}Group`, taken);
  const made = build(groupMemberSpec(doc, taken, name, expression, at.axis === 'row' ? 1 : 0.25));
  const members = child(m.el, 'TablixMembers');
  if (members) {
    for (const k of elements(members, 'TablixMember')) {
      removeChild(members, k);
      insertChild(ensureChild(made, 'TablixMembers'), k);
    }
    removeChild(m.el, members);
  }
  insertChild(ensureChild(m.el, 'TablixMembers'), made);
  syncShape(doc, tablix);
  return name;
}

/** An expression for a total cell: an aggregate stays; a numeric field becomes its Sum; text fields show nothing. */
function totalValue(value: string, numeric: (field: string) => boolean): string {
  const f = /^=Fields!(\w+)\.Value$/.exec(value.trim())?.[1];
  if (f) return numeric(f) ? `=Sum(Fields!${f}.Value)` : '';
  return value.startsWith('=') ? value : '';
}

/** Adds a Total after a group (a static member with a "Total" header, and a body row or column of totals). */
export function addTotal(doc: RdlDocument, tablix: string, at: MemberPath, numeric: (field: string) => boolean = () => true): void {
  const t = readTablix(tablixEl(doc, tablix));
  const m = memberAt(t, at);
  const taken = new Set<string>();
  const header = m.header ? headerSpec(m.header.size, cellTextbox(doc, taken, 'Textbox', 'Total', true)) : undefined;
  const total = build(['TablixMember', header, ['KeepWithGroup', 'Before']]);
  const list = m.el.parent!;
  const index = elements(list, 'TablixMember').indexOf(m.el) + 1;
  insertChild(list, total, index);
  if (at.axis === 'row') {
    const source = t.body[m.last] ?? [];
    const values = source.map((c) => (c.item ? totalValue(textboxValue(c.item), numeric) : ''));
    insertBodyRow(doc, t, m.last + 1, values, t.rows[m.last] ?? 0.25, taken);
  } else {
    const values = t.body.map((r) => (r[m.last]?.item ? totalValue(textboxValue(r[m.last]!.item!), numeric) : ''));
    insertBodyColumn(doc, t, m.last + 1, values, t.columns[m.last] ?? 1, taken);
  }
  syncShape(doc, tablix);
}

/**
 * Adds a group header or footer row inside a row group: a static member first (header) or last (footer) among the
 * group's members, repeated with each group instance, with a body row: the group's value in the first cell of a
 * header, the numeric columns' sums in a footer. A group without members inside gets one for its own row first.
 */
export function addGroupRow(
  doc: RdlDocument,
  tablix: string,
  at: MemberPath,
  kind: 'header' | 'footer',
  numeric: (field: string) => boolean = () => true,
): void {
  if (at.axis !== 'row') throw new Error('group header and footer rows belong to row groups');
  const t = readTablix(tablixEl(doc, tablix));
  const m = memberAt(t, at);
  if (!m.group) throw new Error('a group header or footer row belongs to a group');
  const members = ensureChild(m.el, 'TablixMembers');
  if (!m.children.length) insertChild(members, build(['TablixMember']));
  const keep = kind === 'header' ? 'After' : 'Before';
  insertChild(members, build(['TablixMember', ['KeepWithGroup', keep]]), kind === 'header' ? 0 : undefined);
  const source = t.body[kind === 'header' ? m.first : m.last] ?? [];
  const values =
    kind === 'header'
      ? source.map((_, i) => (i === 0 ? (m.group!.expressions[0] ?? '') : ''))
      : source.map((c) => (c.item ? totalValue(textboxValue(c.item), numeric) : ''));
  insertBodyRow(doc, t, kind === 'header' ? m.first : m.last + 1, values, t.rows[m.first] ?? 0.25);
  syncShape(doc, tablix);
}

/** Inserts a body row of text boxes at an index. */
export function insertBodyRow(doc: RdlDocument, t: TablixModel, at: number, values: string[], height: number, taken = new Set<string>()) {
  const rows = child(child(t.el, 'TablixBody'), 'TablixRows')!;
  const cells = values.map((v) => cellSpec(cellTextbox(doc, taken, 'Textbox', v, true)));
  insertChild(rows, build(['TablixRow', ['Height', fromInches(height)], ['TablixCells', ...cells]]), at);
}

/** Inserts a body column at an index: its width and a cell in each row. */
export function insertBodyColumn(doc: RdlDocument, t: TablixModel, at: number, values: string[], width: number, taken = new Set<string>()) {
  const body = child(t.el, 'TablixBody')!;
  insertChild(child(body, 'TablixColumns')!, build(['TablixColumn', ['Width', fromInches(width)]]), at);
  elements(child(body, 'TablixRows'), 'TablixRow').forEach((row, r) => {
    const cells = child(row, 'TablixCells')!;
    insertChild(cells, build(cellSpec(cellTextbox(doc, taken, 'Textbox', values[r] ?? '', r === 0))), at);
  });
}

/** Removes a body row or column by index. */
function removeBody(t: TablixModel, axis: Axis, index: number) {
  const body = child(t.el, 'TablixBody')!;
  const rows = elements(child(body, 'TablixRows'), 'TablixRow');
  if (axis === 'row') {
    removeChild(child(body, 'TablixRows')!, rows[index]!);
    return;
  }
  removeChild(child(body, 'TablixColumns')!, elements(child(body, 'TablixColumns'), 'TablixColumn')[index]!);
  for (const row of rows) {
    const cells = child(row, 'TablixCells')!;
    const cell = elements(cells, 'TablixCell')[index];
    if (cell) removeChild(cells, cell);
  }
}

/**
 * Deletes a member. A group with members inside gives way to them (its header level goes); a leaf group stays as a
 * static row or column; a static member (a total) goes with its body row or column.
 */
export function deleteMember(doc: RdlDocument, tablix: string, at: MemberPath): void {
  const t = readTablix(tablixEl(doc, tablix));
  const m = memberAt(t, at);
  const list = m.el.parent!;
  if (m.children.length) {
    const index = elements(list, 'TablixMember').indexOf(m.el);
    const kids = elements(child(m.el, 'TablixMembers'), 'TablixMember');
    removeChild(list, m.el);
    for (const [i, k] of kids.entries()) insertChild(list, k, index + i);
  } else if (m.group) {
    removeChild(m.el, m.group.el);
    const sorts = child(m.el, 'SortExpressions');
    if (sorts) removeChild(m.el, sorts);
  } else {
    if (elements(list, 'TablixMember').length < 2 && list.parent?.parent === t.el)
      throw new Error('a tablix keeps at least one row and column');
    removeChild(list, m.el);
    removeBody(t, at.axis, m.first);
  }
  syncShape(doc, tablix);
}

/**
 * After a group change: the corner has a row per column header level and a cell per row header level (or goes when
 * either is none), and the tablix's Width and Height match its grid.
 */
export function syncShape(doc: RdlDocument, tablix: string): void {
  const el = tablixEl(doc, tablix);
  const t = readTablix(el);
  const cols = t.rowHeaderSizes.length;
  const rows = t.colHeaderSizes.length;
  const corner = child(el, 'TablixCorner');
  if (!cols || !rows) {
    if (corner) removeChild(el, corner);
  } else {
    const cornerEl = corner ?? ensureChild(el, 'TablixCorner', 0);
    const rowsEl = ensureChild(cornerEl, 'TablixCornerRows');
    const taken = new Set<string>();
    let rowEls = elements(rowsEl, 'TablixCornerRow');
    for (const extra of rowEls.slice(rows)) removeChild(rowsEl, extra);
    for (let r = rowEls.length; r < rows; r++) insertChild(rowsEl, build(['TablixCornerRow']));
    rowEls = elements(rowsEl, 'TablixCornerRow');
    for (const row of rowEls) {
      const cells = elements(row, 'TablixCornerCell');
      const spans = cells.reduce((s, c) => s + (Number(childText(child(c, 'CellContents'), 'ColSpan') ?? 1) || 1), 0);
      let over = spans - cols;
      for (const c of [...cells].reverse()) {
        if (over <= 0) break;
        removeChild(row, c);
        over -= Number(childText(child(c, 'CellContents'), 'ColSpan') ?? 1) || 1;
      }
      for (let n = spans; n < cols; n++)
        insertChild(row, build(['TablixCornerCell', ['CellContents', cellTextbox(doc, taken, 'Textbox', '', true)]]));
    }
  }
  const size = gridSize(readTablix(el));
  setBounds(el, { width: size.width, height: size.height });
}

/** The text box of a member's header cell. */
export const headerItem = (m: Member) => contentItem(m.header?.contents);

/** Sets a body column's width or a body row's height (inches), in the unit it had. */
export function setTrackSize(doc: RdlDocument, tablix: string, axis: Axis, index: number, inches: number): void {
  const el = tablixEl(doc, tablix);
  const body = child(el, 'TablixBody')!;
  const track =
    axis === 'row'
      ? elements(child(body, 'TablixRows'), 'TablixRow')[index]
      : elements(child(body, 'TablixColumns'), 'TablixColumn')[index];
  if (!track) return;
  const key = axis === 'row' ? 'Height' : 'Width';
  setChildText(track, key, fromInches(Math.max(0.1, inches), unitOf(childText(track, key))));
  syncShape(doc, tablix);
}
