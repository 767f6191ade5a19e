import { semanticError } from './errors.js';
import type { Expr } from './expr.js';
import { arith, compare, equal, str, toNum } from './scalar-ops.js';
import { parseSpan, Span } from './values.js';

/** What an expression sees besides its row: let variables and parameters, the query's now. */
export interface Env {
  vars: Map<string, unknown>;
  now: Date;
  /** Checking a function body: filters keep every row, so each later operator resolves its names on the probe row. */
  probe?: boolean;
}

/** Evaluates an expression against a row (columns by name) and the environment (let variables, parameters). */
export function evaluate(e: Expr, row: Record<string, unknown>, env: Env): unknown {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'star':
      return null;
    case 'col':
      if (Object.prototype.hasOwnProperty.call(row, e.name)) return row[e.name];
      if (env.vars.has(e.name)) return env.vars.get(e.name);
      throw semanticError(`SEM0100: Failed to resolve column or scalar expression named '${e.name}'`);
    case 'neg': {
      const v = evaluate(e.e, row, env);
      return v instanceof Span ? new Span(-v.ms) : v === null ? null : -Number(v);
    }
    case 'not':
      return !truthy(evaluate(e.e, row, env));
    case 'in': {
      const v = evaluate(e.e, row, env);
      const hit = e.list.some((x) => {
        const w = evaluate(x, row, env);
        return e.ci ? str(v).toLowerCase() === str(w).toLowerCase() : equal(v, w);
      });
      return e.neg ? !hit : hit;
    }
    case 'bin': {
      if (e.op === 'and') return truthy(evaluate(e.l, row, env)) && truthy(evaluate(e.r, row, env));
      if (e.op === 'or') return truthy(evaluate(e.l, row, env)) || truthy(evaluate(e.r, row, env));
      const a = evaluate(e.l, row, env);
      const b = evaluate(e.r, row, env);
      const cmp = () => compare(a, b);
      switch (e.op) {
        case '==':
          return equal(a, b);
        case '!=':
        case '<>':
          return a !== null && b !== null && !equal(a, b);
        case '=~':
          return str(a).toLowerCase() === str(b).toLowerCase();
        case '!~':
          return str(a).toLowerCase() !== str(b).toLowerCase();
        case '<': {
          const c = cmp();
          return c !== undefined && c < 0;
        }
        case '<=': {
          const c = cmp();
          return c !== undefined && c <= 0;
        }
        case '>': {
          const c = cmp();
          return c !== undefined && c > 0;
        }
        case '>=': {
          const c = cmp();
          return c !== undefined && c >= 0;
        }
        case 'contains':
          return str(a).toLowerCase().includes(str(b).toLowerCase());
        case '!contains':
          return !str(a).toLowerCase().includes(str(b).toLowerCase());
        case 'contains_cs':
          return str(a).includes(str(b));
        case '!contains_cs':
          return !str(a).includes(str(b));
        case 'has':
        case 'has_cs':
          return new RegExp(
            `(^|[^A-Za-z0-9])${str(b).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9])`,
            e.op === 'has' ? 'i' : '',
          ).test(str(a));
        case '!has':
          return !new RegExp(`(^|[^A-Za-z0-9])${str(b).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9])`, 'i').test(str(a));
        case 'startswith':
          return str(a).toLowerCase().startsWith(str(b).toLowerCase());
        case '!startswith':
          return !str(a).toLowerCase().startsWith(str(b).toLowerCase());
        case 'endswith':
          return str(a).toLowerCase().endsWith(str(b).toLowerCase());
        case '!endswith':
          return !str(a).toLowerCase().endsWith(str(b).toLowerCase());
        case 'matches':
          return new RegExp(str(b)).test(str(a));
        default:
          return arith(e.op, a, b);
      }
    }
    case 'call':
      return callFunction(e, row, env);
  }
}

/** Whether a predicate's value keeps a row: only true does (null does not). */
export function truthy(v: unknown): boolean {
  return v === true;
}

function callFunction(e: Extract<Expr, { k: 'call' }>, row: Record<string, unknown>, env: Env): unknown {
  const arg = (i: number) => evaluate(e.args[i]!, row, env);
  switch (e.name) {
    case 'datetime#literal': {
      const t = String(arg(0));
      if (t.toLowerCase() === 'null') return null;
      const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : /[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);
      return Number.isFinite(ms) ? new Date(ms) : null;
    }
    case 'timespan#literal':
    case 'time#literal':
      return parseSpan(String(arg(0))) ?? null;
    case 'long#literal':
    case 'int#literal':
    case 'real#literal':
    case 'double#literal':
    case 'decimal#literal':
      return Number(arg(0));
    case 'bool#literal':
      return String(arg(0)).toLowerCase() === 'true';
    case 'guid#literal':
      return String(arg(0));
    case 'dynamic#literal':
      try {
        return JSON.parse(String(arg(0)));
      } catch {
        return String(arg(0));
      }
    case 'now':
      return e.args.length ? new Date(env.now.getTime() + ((arg(0) as Span)?.ms ?? 0)) : env.now;
    case 'ago':
      return new Date(env.now.getTime() - ((arg(0) as Span)?.ms ?? 0));
    case 'isnull': {
      const v = arg(0);
      return v === null || v === undefined;
    }
    case 'isnotnull': {
      const v = arg(0);
      return v !== null && v !== undefined;
    }
    case 'isempty': {
      const v = arg(0);
      return v === null || v === undefined || v === '';
    }
    case 'isnotempty': {
      const v = arg(0);
      return !(v === null || v === undefined || v === '');
    }
    case 'not':
      return !truthy(arg(0));
    case 'iff':
    case 'iif':
      return truthy(arg(0)) ? arg(1) : arg(2);
    case 'tolower':
      return str(arg(0)).toLowerCase();
    case 'toupper':
      return str(arg(0)).toUpperCase();
    case 'strlen':
      return str(arg(0)).length;
    case 'tostring':
      return str(arg(0));
    case 'toint':
    case 'tolong': {
      const n = Number(arg(0));
      return Number.isFinite(n) ? Math.trunc(n) : null;
    }
    case 'todouble':
    case 'toreal': {
      const n = Number(toNum(arg(0)));
      return Number.isFinite(n) ? n : null;
    }
    case 'todatetime': {
      const v = arg(0);
      const ms = v instanceof Date ? v.getTime() : Date.parse(str(v));
      return Number.isFinite(ms) ? new Date(ms) : null;
    }
    case 'strcat':
      return e.args.map((_, i) => str(arg(i))).join('');
    case 'round': {
      const n = Number(arg(0));
      const p = e.args.length > 1 ? Number(arg(1)) : 0;
      return Math.round(n * 10 ** p) / 10 ** p;
    }
    case 'abs':
      return Math.abs(Number(arg(0)));
    case 'coalesce': {
      for (let i = 0; i < e.args.length; i++) {
        const v = arg(i);
        if (v !== null && v !== undefined && v !== '') return v;
      }
      return null;
    }
    case 'startofday': {
      const d = arg(0) as Date;
      if (!(d instanceof Date)) return null;
      const x = new Date(d);
      x.setUTCHours(0, 0, 0, 0);
      return x;
    }
    case 'bin':
    case 'floor': {
      const v = arg(0);
      const size = arg(1);
      if (v instanceof Date && size instanceof Span) return new Date(Math.floor(v.getTime() / size.ms) * size.ms);
      if (v instanceof Span && size instanceof Span) return new Span(Math.floor(v.ms / size.ms) * size.ms);
      return v === null ? null : Math.floor(Number(v) / Number(size)) * Number(size);
    }
  }
  throw semanticError(`SEM0219: Unknown function: '${e.name}'`);
}
