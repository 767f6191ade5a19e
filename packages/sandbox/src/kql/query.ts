import { ServiceError } from '../http/errors.js';
import { semanticError, syntaxError } from './errors.js';
import { evaluate, truthy, type Env } from './evaluate.js';
import { Tokens, parseExpr, type Expr } from './expr.js';
import { tokenize } from './lexer.js';
import { aggregate, aggregateColumns, isAggregate, type AggSpec } from './summarize.js';
import { typeOfValue, type Column, type KqlType, type ResultTable } from './values.js';

export type { Column, ResultTable };

/** Resolves the names a query uses: tables and stored functions of the database. */
export interface QueryHost {
  table(name: string): ResultTable | undefined;
  fn(name: string): { params: Array<{ name: string; type: KqlType; default?: string }>; body: string } | undefined;
}

interface ColDef {
  name?: string;
  expr: Expr;
}

/** Runs a query (let statements, then one tabular expression) against the host's tables and functions. */
export function runQuery(text: string, host: QueryHost, env: Env = { vars: new Map(), now: new Date() }, depth = 0): ResultTable {
  if (depth > 8) throw semanticError('SEM0001: function calls are nested too deeply');
  const t = new Tokens(tokenize(text));
  const tabularLets = new Map<string, ResultTable>();
  let result: ResultTable | undefined;
  while (t.peek().kind !== 'end') {
    if (t.accept(';')) continue;
    if (t.accept('let')) {
      const name = t.ident();
      t.expect('=');
      const startsTabular =
        t.peek().kind === 'ident' &&
        (host.table(t.peek().text) || host.fn(t.peek().text) || tabularLets.has(t.peek().text)) &&
        !t.is('(', 1);
      if (startsTabular || (t.peek().kind === 'ident' && host.fn(t.peek().text)))
        tabularLets.set(name, tabular(t, host, env, tabularLets, depth));
      else env.vars.set(name, evaluate(parseExpr(t), {}, env));
      continue;
    }
    result = tabular(t, host, env, tabularLets, depth);
    if (!t.accept(';') && t.peek().kind !== 'end') throw syntaxError(`SYN0002: unexpected '${t.peek().text}' at position ${t.peek().pos}`);
  }
  if (!result) throw syntaxError('SYN0002: the query has no tabular expression');
  return result;
}

function source(t: Tokens, host: QueryHost, env: Env, lets: Map<string, ResultTable>, depth: number): ResultTable {
  if (t.accept('(')) {
    const inner = tabular(t, host, env, lets, depth);
    t.expect(')');
    return inner;
  }
  if (t.accept('print')) {
    const defs = colDefs(t);
    const row: Record<string, unknown> = {};
    for (const [i, d] of defs.entries()) row[d.name ?? `print_${i}`] = evaluate(d.expr, {}, env);
    return withTypes({ columns: Object.keys(row).map((name) => ({ name, type: 'string' })), rows: [row] });
  }
  const name = t.ident();
  if (t.accept('(')) {
    const fn = host.fn(name);
    const args: unknown[] = [];
    if (!t.is(')'))
      do args.push(evaluate(parseExpr(t), {}, env));
      while (t.accept(','));
    t.expect(')');
    if (!fn) throw semanticError(`SEM0219: Unknown function: '${name}'`);
    const vars = new Map(env.vars);
    for (const [i, p] of fn.params.entries())
      vars.set(
        p.name,
        i < args.length ? args[i] : p.default !== undefined ? evaluate(parseExpr(new Tokens(tokenize(p.default))), {}, env) : null,
      );
    return runQuery(fn.body, host, { vars, now: env.now, probe: env.probe }, depth + 1);
  }
  const table = lets.get(name) ?? host.table(name);
  if (table) return { columns: [...table.columns], rows: table.rows };
  const fn = host.fn(name);
  if (fn && fn.params.length === 0) return runQuery(fn.body, host, { vars: new Map(env.vars), now: env.now, probe: env.probe }, depth + 1);
  // Kusto names the operator that consumes the unresolved source, when there is one.
  const op = t.is('|') && t.peek(1).kind === 'ident' ? `'${t.peek(1).text}' operator: ` : '';
  throw semanticError(`SEM0100: ${op}Failed to resolve table or column expression named '${name}'`);
}

function tabular(t: Tokens, host: QueryHost, env: Env, lets: Map<string, ResultTable>, depth: number): ResultTable {
  let table = source(t, host, env, lets, depth);
  while (t.accept('|')) {
    const op = t.peek().text;
    try {
      table = operator(t, table, env);
    } catch (err) {
      throw inOperator(err, op);
    }
  }
  return table;
}

/** A name the operator could not resolve, reported as Kusto does: "'where' operator: Failed to resolve …". */
function inOperator(err: unknown, op: string): unknown {
  const message = err instanceof ServiceError ? err.extra['@message'] : undefined;
  if (typeof message !== 'string' || !message.startsWith('Semantic error: SEM0100: Failed to resolve')) return err;
  return semanticError(`SEM0100: '${op}' operator: ${message.slice('Semantic error: SEM0100: '.length)}`);
}

function colDefs(t: Tokens): ColDef[] {
  const defs: ColDef[] = [];
  do {
    if (t.peek().kind === 'ident' && t.is('=', 1)) {
      const name = t.ident();
      t.expect('=');
      defs.push({ name, expr: parseExpr(t) });
    } else defs.push({ expr: parseExpr(t) });
  } while (t.accept(','));
  return defs;
}

const nameOf = (d: ColDef, i: number) => d.name ?? (d.expr.k === 'col' ? d.expr.name : `Column${i + 1}`);

/** Infers each column's type from its values, keeping known source types. */
function withTypes(table: ResultTable, known: Map<string, KqlType> = new Map()): ResultTable {
  const columns = table.columns.map((c) => {
    if (known.has(c.name)) return { name: c.name, type: known.get(c.name)! };
    const v = table.rows.find((r) => r[c.name] !== null && r[c.name] !== undefined)?.[c.name];
    return { name: c.name, type: v === undefined ? c.type : typeOfValue(v) };
  });
  return { columns, rows: table.rows };
}

function sortKeys(t: Tokens): Array<{ expr: Expr; desc: boolean }> {
  const keys: Array<{ expr: Expr; desc: boolean }> = [];
  do {
    const expr = parseExpr(t);
    let desc = true;
    if (t.accept('asc')) desc = false;
    else t.accept('desc');
    if (t.accept('nulls')) t.next();
    keys.push({ expr, desc });
  } while (t.accept(','));
  return keys;
}

function sortRows(rows: Record<string, unknown>[], keys: Array<{ expr: Expr; desc: boolean }>, env: Env) {
  const val = (v: unknown) => (v instanceof Date ? v.getTime() : v && typeof v === 'object' && 'ms' in v ? (v as { ms: number }).ms : v);
  return [...rows].sort((a, b) => {
    for (const k of keys) {
      const x = val(evaluate(k.expr, a, env)) as any;
      const y = val(evaluate(k.expr, b, env)) as any;
      if (x === y) continue;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * (k.desc ? -1 : 1);
    }
    return 0;
  });
}

function operator(t: Tokens, input: ResultTable, env: Env): ResultTable {
  const op = t.ident().toLowerCase();
  const types = new Map(input.columns.map((c) => [c.name, c.type]));
  switch (op) {
    case 'where':
    case 'filter': {
      const pred = parseExpr(t);
      return { columns: input.columns, rows: input.rows.filter((r) => truthy(evaluate(pred, r, env)) || env.probe) };
    }
    case 'take':
    case 'limit': {
      const n = Number(evaluate(parseExpr(t), {}, env));
      return { columns: input.columns, rows: env.probe ? input.rows : input.rows.slice(0, Math.max(0, n)) };
    }
    case 'count':
      return { columns: [{ name: 'Count', type: 'long' }], rows: [{ Count: input.rows.length }] };
    case 'project':
    case 'extend': {
      const defs = colDefs(t);
      const names = defs.map(nameOf);
      const rows = input.rows.map((r) => {
        const out: Record<string, unknown> = op === 'extend' ? { ...r } : {};
        for (const [i, d] of defs.entries()) out[names[i]!] = evaluate(d.expr, r, env);
        return out;
      });
      const columns =
        op === 'extend'
          ? [...input.columns.filter((c) => !names.includes(c.name)), ...names.map((name) => ({ name, type: 'string' as KqlType }))]
          : names.map((name) => ({ name, type: 'string' as KqlType }));
      const known = new Map([...types].filter(([n]) => defs.every((d, i) => names[i] !== n || (d.expr.k === 'col' && d.expr.name === n))));
      return withTypes({ columns, rows }, known);
    }
    case 'project-away': {
      const drop = new Set<string>();
      do drop.add(t.ident());
      while (t.accept(','));
      return {
        columns: input.columns.filter((c) => !drop.has(c.name)),
        rows: input.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.has(k)))),
      };
    }
    case 'sort':
    case 'order':
      t.expect('by');
      return { columns: input.columns, rows: sortRows(input.rows, sortKeys(t), env) };
    case 'top': {
      const n = Number(evaluate(parseExpr(t), {}, env));
      t.expect('by');
      return { columns: input.columns, rows: sortRows(input.rows, sortKeys(t), env).slice(0, env.probe ? undefined : n) };
    }
    case 'distinct': {
      const defs = t.accept('*') ? input.columns.map((c) => ({ expr: { k: 'col', name: c.name } as Expr })) : colDefs(t);
      const names = defs.map(nameOf);
      const seen = new Map<string, Record<string, unknown>>();
      for (const r of input.rows) {
        const out = Object.fromEntries(defs.map((d, i) => [names[i]!, evaluate(d.expr, r, env)]));
        seen.set(JSON.stringify(Object.values(out)), out);
      }
      return withTypes({ columns: names.map((name) => ({ name, type: 'string' })), rows: [...seen.values()] }, types);
    }
    case 'summarize': {
      const aggs: AggSpec[] = [];
      const groups: ColDef[] = [];
      if (!t.is('by')) {
        do {
          let name: string | undefined;
          if (t.peek().kind === 'ident' && t.is('=', 1)) {
            name = t.ident();
            t.expect('=');
          }
          const expr = parseExpr(t);
          if (expr.k !== 'call' || !isAggregate(expr.name))
            throw semanticError('SEM0101: summarize expects aggregation functions such as count(), sum(), avg()');
          aggs.push({ name, fn: expr.name, args: expr.args });
        } while (t.accept(','));
      }
      if (t.accept('by')) groups.push(...colDefs(t));
      const groupNames = groups.map(
        (g, i) =>
          g.name ??
          (g.expr.k === 'col' ? g.expr.name : g.expr.k === 'call' && g.expr.args[0]?.k === 'col' ? g.expr.args[0].name : `Column${i + 1}`),
      );
      const buckets = new Map<string, { key: Record<string, unknown>; rows: Record<string, unknown>[] }>();
      for (const r of input.rows) {
        const key = Object.fromEntries(groups.map((g, i) => [groupNames[i]!, evaluate(g.expr, r, env)]));
        const id = JSON.stringify(Object.values(key), (_k, v) => (v instanceof Date ? v.getTime() : v));
        const b = buckets.get(id) ?? { key, rows: [] };
        b.rows.push(r);
        buckets.set(id, b);
      }
      if (!groups.length && !buckets.size) buckets.set('', { key: {}, rows: [] });
      const aggCols = aggregateColumns(aggs, input.columns, groupNames);
      const rows = [...buckets.values()].map((b) => ({ ...b.key, ...aggregate(aggs, aggCols, b.rows, env) }));
      const known = new Map<string, KqlType>(aggCols.filter((c) => c.type).map((c) => [c.name, c.type!]));
      return withTypes(
        { columns: [...groupNames, ...aggCols.map((c) => c.name)].map((name) => ({ name, type: types.get(name) ?? 'string' })), rows },
        known,
      );
    }
    case 'getschema':
      return {
        columns: [
          { name: 'ColumnName', type: 'string' },
          { name: 'ColumnOrdinal', type: 'int' },
          { name: 'DataType', type: 'string' },
          { name: 'ColumnType', type: 'string' },
        ],
        rows: input.columns.map((c, i) => ({ ColumnName: c.name, ColumnOrdinal: i, DataType: c.type, ColumnType: c.type })),
      };
    case 'as':
      t.ident();
      return input;
  }
  throw semanticError(`SEM0002: the operator '${op}' is not supported by the sandbox's query engine`);
}
