import type { RdlDataSet, RdlFilter } from '../rdl.js';
import { compare, like } from './expr/operators.js';
import { toNum, toStr } from './expr/values.js';
import { type EvalScope, evaluateTyped, type Row, type Value } from './expressions.js';

/** Compares a filter's values without failing the render: a value that cannot be compared does not match. */
function cmp(a: Value, b: Value): number | undefined {
  try {
    return compare(a, b);
  } catch {
    return undefined;
  }
}

const flat = (vs: Array<Value | undefined>): Value[] => vs.flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

/**
 * Keeps the rows a filter (Equal, NotEqual, <, <=, >, >=, Like, In, Between, TopN/BottomN/TopPercent/BottomPercent)
 * passes; `owner` names what it filters in errors ("the data set 'Sales'").
 */
function applyFilter(rows: Row[], f: RdlFilter, fieldNames: string[], scope: EvalScope, owner: string): Row[] {
  const at = (expr: string, rec: Row, what: string) =>
    evaluateTyped(expr, { ...scope, fields: rec, fieldNames, rows: [rec] }, `${what} expression for ${owner}`);
  const left = rows.map((rec) => at(f.expression, rec, 'FilterExpression'));
  const rights = (rec: Row) => flat(f.values.map((v) => at(v, rec, 'FilterValue')));
  const keep = (test: (l: Value, r: Value[]) => boolean) =>
    rows.filter((rec, i) => {
      const l = left[i];
      return l !== undefined && !Array.isArray(l) && test(l, rights(rec));
    });
  switch (f.operator) {
    case 'Equal':
    case 'In':
      return keep((l, r) => r.some((x) => cmp(l, x) === 0));
    case 'NotEqual':
      return keep((l, r) => r.every((x) => cmp(l, x) !== 0));
    case 'GreaterThan':
      return keep((l, r) => r.length > 0 && (cmp(l, r[0]!) ?? 0) > 0);
    case 'GreaterThanOrEqual':
      return keep((l, r) => r.length > 0 && (cmp(l, r[0]!) ?? -1) >= 0);
    case 'LessThan':
      return keep((l, r) => r.length > 0 && (cmp(l, r[0]!) ?? 0) < 0);
    case 'LessThanOrEqual':
      return keep((l, r) => r.length > 0 && (cmp(l, r[0]!) ?? 1) <= 0);
    case 'Like':
      // Filter patterns use * for any run, matched without regard to case.
      return keep((l, r) => r.some((x) => like(toStr(l).toLowerCase(), toStr(x).toLowerCase())));
    case 'Between':
      return keep((l, r) => r.length >= 2 && (cmp(l, r[0]!) ?? -1) >= 0 && (cmp(l, r[1]!) ?? 1) <= 0);
    case 'TopN':
    case 'BottomN':
    case 'TopPercent':
    case 'BottomPercent': {
      const first = rows[0];
      const n = first ? toNum(rights(first)[0] ?? 0) : 0;
      const order = rows
        .map((rec, i) => ({ rec, v: left[i] ?? null }))
        .sort((a, b) => (cmp(b.v, a.v) ?? 0) * (f.operator.startsWith('Top') ? 1 : -1));
      const count = f.operator.endsWith('Percent') ? Math.ceil((rows.length * n) / 100) : n;
      const kept = new Set(order.slice(0, count).map((o) => o.rec));
      return rows.filter((r) => kept.has(r));
    }
    default:
      return rows;
  }
}

/** A data set's rows (live ones when fetched, else those the definition carries) keyed by field name, filters applied. */
export function dataSetRows(ds: RdlDataSet, scope: EvalScope, live?: Map<string, Row[]>): Row[] {
  let rows: Row[] = (live?.get(ds.name) ?? ds.rows).map((raw) =>
    Object.fromEntries(ds.fields.map((f) => [f.name, raw[f.dataField] ?? ''])),
  );
  return filterRows(
    rows,
    ds.filters,
    ds.fields.map((x) => x.name),
    scope,
    `the data set '${ds.name}'`,
  );
}

/** Rows that pass every filter (of a data set, a tablix or a group). */
export function filterRows(rows: Row[], filters: RdlFilter[], fieldNames: string[], scope: EvalScope, owner: string): Row[] {
  for (const f of filters) rows = applyFilter(rows, f, fieldNames, scope, owner);
  return rows;
}
