import { semanticError } from './errors.js';
import { evaluate, truthy, type Env } from './evaluate.js';
import type { Expr } from './expr.js';
import type { Column, KqlType } from './values.js';

export interface AggSpec {
  name?: string;
  fn: string;
  args: Expr[];
}

const AGGS = [
  'count',
  'countif',
  'sum',
  'sumif',
  'avg',
  'avgif',
  'min',
  'max',
  'dcount',
  'dcountif',
  'make_list',
  'make_set',
  'any',
  'take_any',
  'arg_max',
  'arg_min',
];

export function isAggregate(name: string): boolean {
  return AGGS.includes(name);
}

/** The output columns of the aggregations (arg_max/arg_min expand to the row's columns). */
export function aggregateColumns(
  aggs: AggSpec[],
  input: Column[],
  groups: string[],
): Array<{ name: string; type?: KqlType; agg: AggSpec; pick?: string }> {
  const out: Array<{ name: string; type?: KqlType; agg: AggSpec; pick?: string }> = [];
  for (const a of aggs) {
    const first = a.args[0];
    const argName = first?.k === 'col' ? first.name : '';
    if (a.fn === 'arg_max' || a.fn === 'arg_min') {
      out.push({ name: a.name ?? (argName || `${a.fn}_`), agg: a, pick: '#key', type: input.find((c) => c.name === argName)?.type });
      const rest = a.args.slice(1);
      const picks = rest.some((e) => e.k === 'star')
        ? input.map((c) => c.name).filter((n) => n !== argName && !groups.includes(n))
        : rest.map((e) => (e.k === 'col' ? e.name : ''));
      for (const p of picks) out.push({ name: p, agg: a, pick: p, type: input.find((c) => c.name === p)?.type });
      continue;
    }
    const suffix = a.fn === 'count' || a.fn === 'countif' ? '' : argName;
    const name = a.name ?? `${a.fn}_${suffix}`;
    const type: KqlType | undefined =
      a.fn.startsWith('count') || a.fn.startsWith('dcount')
        ? 'long'
        : a.fn.startsWith('avg')
          ? 'real'
          : a.fn.startsWith('make_')
            ? 'dynamic'
            : undefined;
    out.push({ name, agg: a, type });
  }
  return out;
}

/** Computes the aggregations over one group's rows. */
export function aggregate(
  aggs: AggSpec[],
  cols: ReturnType<typeof aggregateColumns>,
  rows: Record<string, unknown>[],
  env: Env,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const numeric = (v: unknown) =>
    v instanceof Date ? v.getTime() : v && typeof v === 'object' && 'ms' in v ? (v as { ms: number }).ms : Number(v);
  const argRows = new Map<AggSpec, Record<string, unknown> | undefined>();
  for (const c of cols) {
    const a = c.agg;
    const val = (r: Record<string, unknown>, i = 0) => evaluate(a.args[i]!, r, env);
    const present = (i = 0, pred?: number) =>
      rows.filter((r) => (pred === undefined || truthy(val(r, pred))) && val(r, i) !== null && val(r, i) !== undefined);
    switch (a.fn) {
      case 'count':
        out[c.name] = rows.length;
        break;
      case 'countif':
        out[c.name] = rows.filter((r) => truthy(val(r))).length;
        break;
      case 'sum':
      case 'sumif': {
        const rs = present(0, a.fn === 'sumif' ? 1 : undefined);
        out[c.name] = rs.reduce((s, r) => s + Number(val(r)), 0);
        break;
      }
      case 'avg':
      case 'avgif': {
        const rs = present(0, a.fn === 'avgif' ? 1 : undefined);
        out[c.name] = rs.length ? rs.reduce((s, r) => s + numeric(val(r)), 0) / rs.length : null;
        break;
      }
      case 'min':
      case 'max': {
        const vs = present().map((r) => val(r));
        out[c.name] = vs.length
          ? vs.reduce((m, v) => ((a.fn === 'min' ? numeric(v) < numeric(m) : numeric(v) > numeric(m)) ? v : m))
          : null;
        break;
      }
      case 'dcount':
      case 'dcountif':
        out[c.name] = new Set(present(0, a.fn === 'dcountif' ? 1 : undefined).map((r) => JSON.stringify(val(r)))).size;
        break;
      case 'make_list':
        out[c.name] = present().map((r) => val(r));
        break;
      case 'make_set':
        out[c.name] = [...new Set(present().map((r) => val(r)))];
        break;
      case 'any':
      case 'take_any':
        out[c.name] = rows.length ? val(rows[0]!) : null;
        break;
      case 'arg_max':
      case 'arg_min': {
        if (!argRows.has(a)) {
          const rs = present();
          argRows.set(
            a,
            rs.reduce<Record<string, unknown> | undefined>(
              (best, r) =>
                !best || (a.fn === 'arg_max' ? numeric(val(r)) > numeric(val(best)) : numeric(val(r)) < numeric(val(best))) ? r : best,
              undefined,
            ),
          );
        }
        const best = argRows.get(a);
        out[c.name] = !best ? null : c.pick === '#key' ? val(best) : best[c.pick!];
        break;
      }
      default:
        throw semanticError(`SEM0219: Unknown aggregation: '${a.fn}'`);
    }
  }
  return out;
}
