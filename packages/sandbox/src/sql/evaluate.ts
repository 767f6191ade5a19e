import type { Expr, Name, Select } from './ast.js';
import type { Relation } from './catalog-views.js';
import { SqlServerError, sqlError } from './errors.js';
import type { ResultColumn } from './protocol/tokens.js';
import { compare, wireTypeOf, wireTypeOfValue } from './values.js';

/** What expression evaluation needs from the engine: relations, object ids and who is asking. */
export interface EvalEnv {
  relation(name: Name): Relation;
  schemaId(name: string): number | null;
  objectId(name: string, type?: string): number | null;
  /** The schema and name of an object id in the session's database. */
  objectName(id: number): { schema: string; name: string } | undefined;
  isRoleMember(role: string, user?: string): number | null;
  /** Parameter values by lower-cased name with its @ (an RPC's parameters); absent in a plain batch. */
  variables?: Map<string, unknown>;
  database: string;
  user: string;
  login: string;
}

/** A row in scope: its relation, alias and values; `outer` for correlated subqueries. */
interface Scope {
  rel?: Relation;
  names: string[];
  values?: unknown[];
  group?: unknown[][];
  outer?: Scope;
}

const AGGREGATES = new Set(['COUNT', 'COUNT_BIG', 'MAX', 'MIN', 'SUM', 'AVG']);
const hasAggregate = (e: Expr): boolean =>
  (e.t === 'fn' && AGGREGATES.has(e.name)) ||
  (e.t === 'bin' && (hasAggregate(e.l) || hasAggregate(e.r))) ||
  ((e.t === 'neg' || e.t === 'not' || e.t === 'isnull') && hasAggregate(e.e));

/** Runs a single-table SELECT and returns its columns and rows. */
export function runSelect(env: EvalEnv, s: Select, outer?: Scope): { columns: ResultColumn[]; rows: unknown[][] } {
  const rel = s.from ? env.relation(s.from.name) : undefined;
  const names = s.from ? [s.from.alias ?? s.from.name[s.from.name.length - 1]!] : [];
  const source = rel ? rel.rows : [[]];
  let scopes: Scope[] = source.map((values) => ({ rel, names, values, outer }));
  if (s.where) scopes = scopes.filter((sc) => evaluate(env, s.where!, sc) === true);
  if (s.orderBy) {
    scopes.sort((a, b) => {
      for (const o of s.orderBy!) {
        const c = compare(evaluate(env, o.expr, a), evaluate(env, o.expr, b)) ?? 0;
        if (c) return o.desc ? -c : c;
      }
      return 0;
    });
  }
  const columns: ResultColumn[] = [];
  const typed: boolean[] = [];
  const exprs: Array<(sc: Scope) => unknown> = [];
  for (const c of s.columns) {
    if (c.expr === '*') {
      if (!rel) throw sqlError.unsupported('SELECT * without FROM');
      rel.columns.forEach((col, i) => {
        columns.push({ name: col.name, type: wireTypeOf(col) });
        typed.push(true);
        exprs.push((sc) => sc.values![i]);
      });
      continue;
    }
    const e = c.expr;
    const colDef =
      e.t === 'col' && rel ? rel.columns.find((x) => x.name.toLowerCase() === e.parts[e.parts.length - 1]!.toLowerCase()) : undefined;
    columns.push({ name: c.alias ?? (e.t === 'col' ? e.parts[e.parts.length - 1]! : ''), type: colDef ? wireTypeOf(colDef) : 'nvarchar' });
    typed.push(Boolean(colDef));
    exprs.push((sc) => evaluate(env, e, sc));
  }
  let rows: unknown[][];
  if (s.columns.some((c) => c.expr !== '*' && hasAggregate(c.expr))) {
    const group: Scope = { rel, names, values: scopes[0]?.values, group: scopes.map((x) => x.values!), outer };
    rows = [exprs.map((f) => f(group))];
  } else rows = scopes.map((sc) => exprs.map((f) => f(sc)));
  if (s.top !== undefined) rows = rows.slice(0, s.top);
  if (s.unionAll) rows = rows.concat(runSelect(env, s.unionAll, outer).rows);
  columns.forEach((c, i) => {
    if (!typed[i]) {
      const sample = rows.find((r) => r[i] !== null && r[i] !== undefined)?.[i];
      if (sample !== undefined) c.type = wireTypeOfValue(sample);
    }
  });
  return { columns, rows };
}

function lookupColumn(scope: Scope | undefined, parts: string[]): unknown {
  const column = parts[parts.length - 1]!.toLowerCase();
  const qualifier = parts.length > 1 ? parts[parts.length - 2]!.toLowerCase() : undefined;
  for (let sc = scope; sc; sc = sc.outer) {
    if (!sc.rel || (qualifier && !sc.names.some((n) => n.toLowerCase() === qualifier))) continue;
    const i = sc.rel.columns.findIndex((c) => c.name.toLowerCase() === column);
    if (i >= 0) return sc.values?.[i] ?? null;
  }
  throw sqlError.invalidColumn(parts.join('.'));
}

const truth = (v: unknown) => (v === null || v === undefined ? null : Boolean(v));

/** Evaluates an expression in a row scope (three-valued logic: null for unknown). */
export function evaluate(env: EvalEnv, e: Expr, scope?: Scope): unknown {
  switch (e.t) {
    case 'lit':
      return e.v;
    case 'col':
      return lookupColumn(scope, e.parts);
    case 'var': {
      if (!env.variables?.has(e.name.toLowerCase()))
        throw new SqlServerError(137, 2, 15, `Must declare the scalar variable "${e.name}".`, true);
      return env.variables.get(e.name.toLowerCase());
    }
    case 'neg': {
      const v = evaluate(env, e.e, scope);
      return v === null ? null : -Number(v);
    }
    case 'not': {
      const v = truth(evaluate(env, e.e, scope));
      return v === null ? null : !v;
    }
    case 'isnull': {
      const v = evaluate(env, e.e, scope);
      return (v === null || v === undefined) !== e.not;
    }
    case 'in': {
      const v = evaluate(env, e.e, scope);
      const hit = e.list.some((x) => compare(v, evaluate(env, x, scope)) === 0);
      return v === null ? null : hit !== e.not;
    }
    case 'like': {
      const v = evaluate(env, e.e, scope);
      const p = evaluate(env, e.pattern, scope);
      if (v === null || p === null) return null;
      const re = new RegExp(
        `^${String(p)
          .replace(/[.*+?^${}()|\\]/g, '\\$&')
          .replace(/%/g, '.*')
          .replace(/_/g, '.')}$`,
        'is',
      );
      return re.test(String(v)) !== e.not;
    }
    case 'exists':
      return runSelect(env, e.select, scope).rows.length > 0;
    case 'subquery':
      return runSelect(env, e.select, scope).rows[0]?.[0] ?? null;
    case 'bin':
      return binary(env, e.op, e.l, e.r, scope);
    case 'fn':
      return call(env, e, scope);
  }
}

function binary(env: EvalEnv, op: string, le: Expr, re: Expr, scope?: Scope): unknown {
  if (op === 'AND' || op === 'OR') {
    const l = truth(evaluate(env, le, scope));
    const r = truth(evaluate(env, re, scope));
    if (op === 'AND') return l === false || r === false ? false : l === null || r === null ? null : true;
    return l === true || r === true ? true : l === null || r === null ? null : false;
  }
  const l = evaluate(env, le, scope);
  const r = evaluate(env, re, scope);
  if (['=', '<>', '<', '>', '<=', '>='].includes(op)) {
    const c = compare(l, r);
    if (c === null) return null;
    return { '=': c === 0, '<>': c !== 0, '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[op];
  }
  if (l === null || r === null) return null;
  if (op === '+' && (typeof l === 'string' || typeof r === 'string')) return String(l) + String(r);
  const x = Number(l);
  const y = Number(r);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) throw new SqlServerError(8134, 1, 16, 'Divide by zero error encountered.', true);
      return Number.isInteger(x) && Number.isInteger(y) ? Math.trunc(x / y) : x / y;
    default:
      return x % y;
  }
}

function call(env: EvalEnv, e: Expr & { t: 'fn' }, scope?: Scope): unknown {
  const arg = (i: number) => (e.args[i] ? evaluate(env, e.args[i]!, scope) : undefined);
  if (AGGREGATES.has(e.name)) {
    const rows = scope?.group ?? [];
    if (e.star) return rows.length;
    const values = rows
      .map((values) => evaluate(env, e.args[0]!, { ...scope!, values, group: undefined }))
      .filter((v) => v !== null && v !== undefined);
    if (e.name.startsWith('COUNT')) return e.distinct ? new Set(values.map((v) => String(v).toLowerCase())).size : values.length;
    if (!values.length) return null;
    if (e.name === 'SUM' || e.name === 'AVG') {
      const sum = values.reduce((a: number, v) => a + Number(v), 0);
      return e.name === 'SUM' ? sum : sum / values.length;
    }
    return values.reduce((a, v) => ((compare(v, a) ?? 0) * (e.name === 'MAX' ? 1 : -1) > 0 ? v : a));
  }
  switch (e.name) {
    case 'SCHEMA_ID':
      return env.schemaId(String(arg(0)));
    case 'OBJECT_ID':
      return env.objectId(String(arg(0)), arg(1) === undefined ? undefined : String(arg(1)));
    case 'OBJECT_NAME':
      return env.objectName(Number(arg(0)))?.name ?? null;
    case 'OBJECT_SCHEMA_NAME':
      return env.objectName(Number(arg(0)))?.schema ?? null;
    case 'IS_ROLEMEMBER':
      return env.isRoleMember(String(arg(0)), arg(1) === undefined ? undefined : String(arg(1)));
    case 'DB_NAME':
      return env.database;
    case 'USER_NAME':
      return env.user;
    case 'SUSER_SNAME':
    case 'SUSER_NAME':
      return env.login;
    case 'ISNULL':
    case 'COALESCE':
      return e.args.map((_, i) => arg(i)).find((v) => v !== null && v !== undefined) ?? null;
    case 'UPPER': {
      const v = arg(0);
      return v === null ? null : String(v).toUpperCase();
    }
    case 'LOWER': {
      const v = arg(0);
      return v === null ? null : String(v).toLowerCase();
    }
    case 'LEN': {
      const v = arg(0);
      return v === null ? null : String(v).trimEnd().length;
    }
    case 'GETDATE':
    case 'SYSDATETIME':
    case 'GETUTCDATE':
    case 'SYSUTCDATETIME':
      return new Date().toISOString().replace('T', ' ').replace('Z', '');
    case '@@VERSION':
      return 'Microsoft SQL Server (sandbox TDS endpoint)';
    case '@@SERVERNAME':
      return 'sandbox';
    default:
      throw new SqlServerError(195, 10, 15, `'${e.name.toLowerCase()}' is not a recognized built-in function name.`, true);
  }
}
