import { semanticError, syntaxError } from './errors.js';
import type { Token } from './lexer.js';
import { Span, parseSpan } from './values.js';

export type Expr =
  | { k: 'lit'; v: unknown }
  | { k: 'col'; name: string }
  | { k: 'star' }
  | { k: 'call'; name: string; args: Expr[] }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'not'; e: Expr }
  | { k: 'neg'; e: Expr }
  | { k: 'in'; e: Expr; list: Expr[]; neg: boolean; ci: boolean };

/** A cursor over tokens shared by the expression and query parsers. */
export class Tokens {
  i = 0;
  constructor(readonly list: Token[]) {}
  peek(o = 0): Token {
    return this.list[Math.min(this.i + o, this.list.length - 1)]!;
  }
  next(): Token {
    return this.list[Math.min(this.i++, this.list.length - 1)]!;
  }
  is(text: string, o = 0): boolean {
    const t = this.peek(o);
    return (t.kind === 'ident' || t.kind === 'op' || t.kind === 'punct') && t.text.toLowerCase() === text.toLowerCase();
  }
  accept(text: string): boolean {
    if (this.is(text)) {
      this.i++;
      return true;
    }
    return false;
  }
  expect(text: string): Token {
    if (!this.is(text))
      throw syntaxError(`SYN0002: expected '${text}' but found '${this.peek().text || 'end of query'}' at position ${this.peek().pos}`);
    return this.next();
  }
  ident(): string {
    const t = this.next();
    if (t.kind !== 'ident') throw syntaxError(`SYN0002: expected a name but found '${t.text || 'end of query'}' at position ${t.pos}`);
    return t.text;
  }
}

const WORD_OPS = ['contains', 'contains_cs', 'has', 'has_cs', 'startswith', 'endswith', 'matches'];
const CMP = ['==', '!=', '<>', '=~', '!~', '<', '<=', '>', '>=', '!contains', '!contains_cs', '!has', '!startswith', '!endswith'];

/** Parses an expression: or → and → comparison → additive → multiplicative → unary → primary. */
export function parseExpr(t: Tokens): Expr {
  let l = parseAnd(t);
  while (t.accept('or')) l = { k: 'bin', op: 'or', l, r: parseAnd(t) };
  return l;
}

function parseAnd(t: Tokens): Expr {
  let l = parseCmp(t);
  while (t.accept('and')) l = { k: 'bin', op: 'and', l, r: parseCmp(t) };
  return l;
}

function parseCmp(t: Tokens): Expr {
  const l = parseAdd(t);
  const tok = t.peek();
  const word = tok.kind === 'ident' ? tok.text.toLowerCase() : '';
  if ((tok.kind === 'op' && CMP.includes(tok.text)) || WORD_OPS.includes(word)) {
    t.next();
    return { k: 'bin', op: tok.kind === 'op' ? tok.text : word, l, r: parseAdd(t) };
  }
  if (word === 'in' || tok.text === 'in~' || tok.text === '!in' || tok.text === '!in~') {
    t.next();
    t.expect('(');
    const list: Expr[] = [];
    if (!t.is(')'))
      do list.push(parseExpr(t));
      while (t.accept(','));
    t.expect(')');
    return { k: 'in', e: l, list, neg: tok.text.startsWith('!'), ci: tok.text.endsWith('~') };
  }
  if (word === 'between' || word === '!between') {
    t.next();
    t.expect('(');
    const lo = parseAdd(t);
    t.expect('.');
    t.expect('.');
    const hi = parseAdd(t);
    t.expect(')');
    const inside: Expr = { k: 'bin', op: 'and', l: { k: 'bin', op: '>=', l, r: lo }, r: { k: 'bin', op: '<=', l, r: hi } };
    return word === 'between' ? inside : { k: 'not', e: inside };
  }
  return l;
}

function parseAdd(t: Tokens): Expr {
  let l = parseMul(t);
  while (t.is('+') || t.is('-')) l = { k: 'bin', op: t.next().text, l, r: parseMul(t) };
  return l;
}

function parseMul(t: Tokens): Expr {
  let l = parseUnary(t);
  while (t.is('*') || t.is('/') || t.is('%')) l = { k: 'bin', op: t.next().text, l, r: parseUnary(t) };
  return l;
}

function parseUnary(t: Tokens): Expr {
  if (t.accept('-')) return { k: 'neg', e: parseUnary(t) };
  return parsePrimary(t);
}

function parsePrimary(t: Tokens): Expr {
  const tok = t.next();
  if (tok.kind === 'string') return { k: 'lit', v: tok.value };
  if (tok.kind === 'number') return { k: 'lit', v: tok.value };
  if (tok.kind === 'timespan') return { k: 'lit', v: parseSpan(tok.text) };
  if (tok.kind === 'typed') return { k: 'call', name: `${tok.text}#literal`, args: [{ k: 'lit', v: tok.value }] };
  if (tok.kind === 'op' && tok.text === '*') return { k: 'star' };
  if (tok.kind === 'punct' && tok.text === '(') {
    const e = parseExpr(t);
    t.expect(')');
    return e;
  }
  if (tok.kind === 'ident') {
    const name = tok.text;
    const lower = name.toLowerCase();
    if (lower === 'true' || lower === 'false') return { k: 'lit', v: lower === 'true' };
    if (lower === 'null') return { k: 'lit', v: null };
    if (t.accept('(')) {
      const args: Expr[] = [];
      if (!t.is(')'))
        do args.push(parseExpr(t));
        while (t.accept(','));
      t.expect(')');
      return { k: 'call', name: lower, args };
    }
    return { k: 'col', name };
  }
  throw syntaxError(`SYN0002: unexpected '${tok.text || 'end of query'}' at position ${tok.pos}`);
}

export interface Env {
  vars: Map<string, unknown>;
  now: Date;
  /** Checking a function body: filters keep every row, so each later operator resolves its names on the probe row. */
  probe?: boolean;
}

const toNum = (v: unknown) =>
  v instanceof Date ? v.getTime() : v instanceof Span ? v.ms : typeof v === 'string' && v !== '' ? Number(v) : (v as number);
const str = (v: unknown) =>
  v === null || v === undefined
    ? ''
    : typeof v === 'object' && !(v instanceof Date) && !(v instanceof Span)
      ? JSON.stringify(v)
      : v instanceof Date
        ? v.toISOString()
        : String(v);

function equal(a: unknown, b: unknown): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (a instanceof Date || b instanceof Date || a instanceof Span || b instanceof Span) return toNum(a) === toNum(b);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return str(a) === str(b);
}

function compare(a: unknown, b: unknown): number | undefined {
  if (a === null || b === null || a === undefined || b === undefined) return undefined;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (b instanceof Date && typeof a === 'string') a = new Date(a);
  if (a instanceof Date && typeof b === 'string') b = new Date(b);
  const x = toNum(a);
  const y = toNum(b);
  return Number.isNaN(x) || Number.isNaN(y) ? undefined : x - y;
}

function arith(op: string, a: unknown, b: unknown): unknown {
  if (a === null || b === null || a === undefined || b === undefined) return null;
  if (op === '-' && a instanceof Date && b instanceof Date) return new Span(a.getTime() - b.getTime());
  if ((op === '+' || op === '-') && a instanceof Date && b instanceof Span) return new Date(a.getTime() + (op === '+' ? b.ms : -b.ms));
  if (op === '+' && a instanceof Span && b instanceof Date) return new Date(b.getTime() + a.ms);
  if (a instanceof Span && b instanceof Span)
    return op === '/' ? a.ms / b.ms : op === '+' ? new Span(a.ms + b.ms) : op === '-' ? new Span(a.ms - b.ms) : null;
  if (a instanceof Span && typeof b === 'number') return op === '*' ? new Span(a.ms * b) : op === '/' ? new Span(a.ms / b) : null;
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return Number.isInteger(x) && Number.isInteger(y) ? (y === 0 ? null : Math.trunc(x / y)) : x / y;
    case '%':
      return y === 0 ? null : x % y;
  }
  return null;
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
