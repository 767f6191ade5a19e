// A group's properties: its name, expressions, sort and filters; and the filters of data sets and tablixes.

import type { RdlDocument } from './report.js';
import type { Member } from './tablix.js';
import { readTablix } from './tablix.js';
import { groupPath, memberAt, tablixEl } from './tablix-groups.js';
import { child, childText, elements, textOf } from './xml.js';
import { build, insertChild, removeChild, setAttr, type Spec } from './xml-edit.js';

export interface SortExpression {
  value: string;
  direction: 'Ascending' | 'Descending';
}

export interface FilterSpec {
  expression: string;
  operator: string;
  values: string[];
}

/** Changes a group: name, expressions, sort and filters (each only when given). */
export function setGroup(
  doc: RdlDocument,
  tablix: string,
  groupName: string,
  change: { name?: string; expressions?: string[]; sorts?: SortExpression[]; filters?: FilterSpec[] },
): void {
  const t = readTablix(tablixEl(doc, tablix));
  const at = groupPath(t, groupName);
  if (!at) throw new Error(`no group ${groupName}`);
  const m = memberAt(t, at);
  const g = m.group!.el;
  if (change.name && change.name !== groupName) {
    if (doc.names().has(change.name)) throw new Error(`the name ${change.name} is taken`);
    setAttr(g, 'Name', change.name);
  }
  if (change.expressions) {
    const old = child(g, 'GroupExpressions');
    if (old) removeChild(g, old);
    const exprs = change.expressions.filter((e) => e.trim());
    if (exprs.length) insertChild(g, build(['GroupExpressions', ...exprs.map((e): Spec => ['GroupExpression', e])]), 0);
  }
  if (change.filters) {
    const old = child(g, 'Filters');
    if (old) removeChild(g, old);
    if (change.filters.length) insertChild(g, build(filtersSpec(change.filters)));
  }
  if (change.sorts) {
    const old = child(m.el, 'SortExpressions');
    if (old) removeChild(m.el, old);
    const list = change.sorts.filter((s) => s.value.trim());
    if (list.length)
      insertChild(
        m.el,
        build([
          'SortExpressions',
          ...list.map((s): Spec => ['SortExpression', ['Value', s.value], s.direction === 'Descending' && ['Direction', 'Descending']]),
        ]),
        1,
      );
  }
}

/** A Filters element. */
export const filtersSpec = (filters: FilterSpec[]): Spec => [
  'Filters',
  ...filters.map(
    (f): Spec => [
      'Filter',
      ['FilterExpression', f.expression],
      ['Operator', f.operator],
      ['FilterValues', ...f.values.map((v): Spec => ['FilterValue', v])],
    ],
  ),
];

/** A group's sort expressions and filters as the grouping pane edits them. */
export function groupDetails(m: Member): { sorts: SortExpression[]; filters: FilterSpec[] } {
  return {
    sorts: elements(child(m.el, 'SortExpressions'), 'SortExpression').map((s) => ({
      value: childText(s, 'Value') ?? '',
      direction: childText(s, 'Direction') === 'Descending' ? 'Descending' : 'Ascending',
    })),
    filters: elements(child(m.group?.el, 'Filters'), 'Filter').map((f) => ({
      expression: childText(f, 'FilterExpression') ?? '',
      operator: childText(f, 'Operator') ?? 'Equal',
      values: elements(child(f, 'FilterValues'), 'FilterValue').map((v) => textOf(v)?.trim() ?? ''),
    })),
  };
}
