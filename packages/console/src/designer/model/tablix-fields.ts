// Fields dropped on a tablix: a body cell shows the field (a matrix's data cell its aggregate), a group header
// groups by it, the right edge of a table adds a column for it.

import { setChildText, type RdlDocument } from './report.js';
import { setTextboxValue, textboxValue } from './items.js';
import { type Axis, insertBodyColumn, memberAt, syncShape, tablixEl, type MemberPath } from './tablix-groups.js';
import { setGroup } from './group-props.js';
import { contentItem, readTablix, shapeOf } from './tablix.js';
import { child, elements } from './xml.js';
import { build, insertChild, removeChild, setAttr } from './xml-edit.js';

/** A field of a data set as the data pane drags it. */
export interface DraggedField {
  dataSet: string;
  name: string;
  /** Whether it holds numbers (a matrix sums it). */
  numeric: boolean;
}

/** Where on a tablix a field lands. */
export type FieldTarget =
  | { kind: 'cell'; row: number; col: number }
  | { kind: 'header'; at: MemberPath }
  | { kind: 'newColumn'; index: number };

/** "CoinIn" or "coin_in" as a column heading: words split, first letters capitalised. */
export const heading = (field: string) =>
  field
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/\b\w/g, (c) => c.toUpperCase());

const ref = (f: DraggedField) => `=Fields!${f.name}.Value`;

/** Binds a tablix to a data set (first field dropped); refuses a field of another data set. */
function bindDataSet(doc: RdlDocument, tablix: string, field: DraggedField): void {
  const el = tablixEl(doc, tablix);
  const current = readTablix(el).dataSet;
  if (current && current !== field.dataSet)
    throw new Error(`${tablix} shows data set ${current}; a field of ${field.dataSet} cannot be placed in it`);
  if (!current) setChildText(el, 'DataSetName', field.dataSet);
}

/** Places a field on a tablix. */
export function dropField(doc: RdlDocument, tablix: string, field: DraggedField, target: FieldTarget): void {
  bindDataSet(doc, tablix, field);
  const t = readTablix(tablixEl(doc, tablix));
  const matrix = shapeOf(t) === 'matrix';
  if (target.kind === 'header') {
    const m = memberAt(t, target.at);
    if (m.group) {
      setGroup(doc, tablix, m.group.name, { expressions: [ref(field)], sorts: [{ value: ref(field), direction: 'Ascending' }] });
      const taken = doc.names();
      if (/^(Row|Column)Group\d*$/.test(m.group.name) && !taken.has(field.name)) setGroup(doc, tablix, m.group.name, { name: field.name });
    }
    const item = contentItem(m.header?.contents);
    if (item) setTextboxValue(item, ref(field));
    return;
  }
  if (target.kind === 'cell') {
    const cell = t.body[target.row]?.[target.col];
    if (!cell?.item) throw new Error('no cell there');
    const inDetails = !matrix && rowIsDynamic(t, target.row);
    setTextboxValue(
      cell.item,
      matrix ? (field.numeric ? `=Sum(${ref(field).slice(1)})` : ref(field)) : inDetails ? ref(field) : heading(field.name),
    );
    // A table's detail cell also titles its column when the header cell above is empty.
    if (inDetails && target.row > 0) {
      const above = t.body[0]?.[target.col]?.item;
      if (above && !rowIsDynamic(t, 0) && !textboxValue(above)) setTextboxValue(above, heading(field.name));
    }
    return;
  }
  if (matrix) throw new Error('a matrix grows by groups: drop the field on a group header or the data cell');
  const cols = elements(child(child(t.el, 'TablixColumnHierarchy'), 'TablixMembers'), 'TablixMember');
  if (t.colMembers.some((m) => m.children.length || m.group)) throw new Error('columns can be added to a table with static columns only');
  const values = t.body.map((_, r) => (rowIsDynamic(t, r) ? ref(field) : r === 0 ? heading(field.name) : ''));
  insertBodyColumn(doc, t, target.index, values, 1);
  insertChild(cols[0]!.parent!, build(['TablixMember']), target.index);
  syncShape(doc, tablix);
}

/** Whether a body row repeats (its leaf member is inside a group). */
function rowIsDynamic(t: ReturnType<typeof readTablix>, row: number): boolean {
  const walk = (list: typeof t.rowMembers, inGroup: boolean): boolean | undefined => {
    for (const m of list) {
      if (row < m.first || row > m.last) continue;
      if (!m.children.length) return inGroup || !!m.group;
      return walk(m.children, inGroup || !!m.group);
    }
    return undefined;
  };
  return walk(t.rowMembers, false) ?? false;
}

/** Removes a column of a table with static columns. */
export function deleteTableColumn(doc: RdlDocument, tablix: string, index: number): void {
  const t = readTablix(tablixEl(doc, tablix));
  if (t.columns.length < 2) throw new Error('a table keeps at least one column');
  const cols = elements(child(child(t.el, 'TablixColumnHierarchy'), 'TablixMembers'), 'TablixMember');
  const member = cols[index];
  if (!member || t.colMembers.some((m) => m.children.length || m.group))
    throw new Error('only a table with static columns loses a column here');
  removeChild(member.parent!, member);
  const body = child(t.el, 'TablixBody')!;
  removeChild(child(body, 'TablixColumns')!, elements(child(body, 'TablixColumns'), 'TablixColumn')[index]!);
  for (const row of elements(child(body, 'TablixRows'), 'TablixRow')) {
    const cells = child(row, 'TablixCells')!;
    removeChild(cells, elements(cells, 'TablixCell')[index]!);
  }
  syncShape(doc, tablix);
}

/** Renames a report item, if the new name is free and valid. */
export function renameItem(doc: RdlDocument, from: string, to: string): void {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(to)) throw new Error('a name starts with a letter and has letters, digits and underscores only');
  if (doc.names().has(to)) throw new Error(`the name ${to} is taken`);
  const el = doc.find(from);
  if (!el) throw new Error(`no item ${from}`);
  setAttr(el, 'Name', to);
}

export type { Axis };
