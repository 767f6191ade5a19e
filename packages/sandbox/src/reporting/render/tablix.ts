import type { RdlHierarchy, RdlMember, RdlTable } from '../rdl.js';
import { compare } from './expr/operators.js';
import { type EvalScope, evaluate, evaluateTyped, type Row, type Value } from './expressions.js';
import { filterRows } from './filters.js';

/** One instance of a leaf member: the body row (or column) it repeats, its rows, and the header texts it starts. */
interface Instance {
  leaf: number;
  rows: Row[];
  /** Whether a group is above it (a repeated row or column, not a static one). */
  dynamic: boolean;
  headers: Array<{ level: number; text: string }>;
}

/** The most header levels on any path of a hierarchy. */
function levels(members: RdlMember[]): number {
  return Math.max(0, ...members.map((m) => (m.header ? 1 : 0) + levels(m.children)));
}

/** The body row (or column) index of each leaf member, in definition order. */
function leafIndex(members: RdlMember[], out = new Map<RdlMember, number>()): Map<RdlMember, number> {
  for (const m of members) {
    if (m.children.length) leafIndex(m.children, out);
    else out.set(m, out.size);
  }
  return out;
}

const safeCompare = (a: Value | undefined, b: Value | undefined) => {
  try {
    return compare(a ?? null, b ?? null);
  } catch {
    return 0;
  }
};

/** The instances of a member over rows: one per group value (first appearance order, then its sort), per row for details, one when static. */
function instancesOf(m: RdlMember, rows: Row[], scope: EvalScope, fieldNames: string[]): Row[][] {
  const at = (r: Row[]) => ({ ...scope, fields: r[0] ?? {}, fieldNames, rows: r, region: { rows: r, index: 0 } });
  if (!m.group) return [rows];
  const kept = filterRows(rows, m.group.filters, fieldNames, scope, `the grouping '${m.group.name}'`);
  let sets: Row[][];
  if (!m.group.expressions.length) sets = kept.map((r) => [r]);
  else {
    const byKey = new Map<string, Row[]>();
    for (const r of kept) {
      const key = JSON.stringify(m.group.expressions.map((e) => evaluateTyped(e, at([r]), `the grouping '${m.group!.name}'`) ?? null));
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      list.push(r);
    }
    sets = [...byKey.values()];
  }
  if (m.sorts.length) {
    const keys = new Map(sets.map((s) => [s, m.sorts.map((x) => evaluateTyped(x.value, at(s), 'SortExpression'))]));
    sets.sort((a, b) => {
      for (const [i, x] of m.sorts.entries()) {
        const c = safeCompare(keys.get(a)![i], keys.get(b)![i]);
        if (c) return x.descending ? -c : c;
      }
      return 0;
    });
  }
  return sets;
}

/** Expands a hierarchy over rows into leaf instances, in the order they print. */
function expand(members: RdlMember[], rows: Row[], scope: EvalScope, fieldNames: string[], leaves: Map<RdlMember, number>): Instance[] {
  const out: Instance[] = [];
  const walk = (list: RdlMember[], scoped: Row[], level: number, dynamic: boolean, pending: Instance['headers']) => {
    for (const m of list) {
      for (const set of instancesOf(m, scoped, scope, fieldNames)) {
        const headers = [...pending];
        if (m.header) {
          const where = `Value expression for the textrun '${m.header.name}.Paragraphs[0].TextRuns[0]'`;
          headers.push({
            level,
            text: evaluate(
              m.header.value,
              { ...scope, fields: set[0] ?? {}, fieldNames, rows: set, region: { rows: set, index: 0 } },
              where,
            ),
          });
        }
        const next = level + (m.header ? 1 : 0);
        if (m.children.length) walk(m.children, set, next, dynamic || !!m.group, headers);
        else out.push({ leaf: leaves.get(m)!, rows: set, dynamic: dynamic || !!m.group, headers });
        // A header prints once, on the first row (or column) of its instance.
        pending = pending.length ? [] : pending;
      }
    }
  };
  walk(members, rows, 0, false, []);
  return out;
}

/**
 * A grouping tablix (matrix or grouped table) as text rows: the column header rows (after the corner), then a row
 * per row instance with its row header texts and its cells, each cell over the rows both its row and column cover.
 * Rows before the first repeated one form the heading (repeated on each page).
 */
export function renderHierarchy(
  t: RdlTable & { hierarchy: RdlHierarchy },
  records: Row[],
  scope: EvalScope,
  fieldNames: string[],
): { heads: string[][]; rows: string[][] } {
  const h = t.hierarchy;
  const rows = filterRows(records, h.filters, fieldNames, scope, `the tablix '${t.name}'`);
  const region: EvalScope = { ...scope, fields: rows[0] ?? {}, fieldNames, rows };
  const cols = expand(h.columnMembers, rows, region, fieldNames, leafIndex(h.columnMembers));
  const rowInstances = expand(h.rowMembers, rows, region, fieldNames, leafIndex(h.rowMembers));
  const rowLevels = levels(h.rowMembers);
  const colLevels = levels(h.columnMembers);
  const heads: string[][] = [];
  for (let level = 0; level < colLevels; level++) {
    const corner = (h.corner[level] ?? []).map((v) => evaluate(v, region, `Value expression for the corner of '${t.name}'`));
    const lead = Array.from({ length: rowLevels }, (_, i) => corner[i] ?? '');
    heads.push([...lead, ...cols.map((c) => c.headers.find((x) => x.level === level)?.text ?? '')]);
  }
  const body = rowInstances.map((r) => {
    const inRow = new Set(r.rows);
    const lead = Array.from({ length: rowLevels }, (_, i) => r.headers.find((x) => x.level === i)?.text ?? '');
    const cells = cols.map((c) => {
      const value = t.rows[r.leaf]?.[c.leaf] ?? '';
      const scoped = c.rows.filter((x) => inRow.has(x));
      // An intersection without data shows nothing, as in the service; a literal shows itself.
      if (!scoped.length && value.startsWith('=')) return '';
      const where = `Value expression for the textrun '${t.cellNames?.[r.leaf]?.[c.leaf] || `${t.name}.Cell`}.Paragraphs[0].TextRuns[0]'`;
      return evaluate(value, { ...scope, fields: scoped[0] ?? {}, fieldNames, rows: scoped, region: { rows: scoped, index: 0 } }, where);
    });
    return { dynamic: r.dynamic, cells: [...lead, ...cells] };
  });
  const firstDynamic = body.findIndex((b) => b.dynamic);
  const lead = colLevels ? 0 : firstDynamic < 0 ? 0 : firstDynamic;
  return { heads: [...heads, ...body.slice(0, lead).map((b) => b.cells)], rows: body.slice(lead).map((b) => b.cells) };
}
