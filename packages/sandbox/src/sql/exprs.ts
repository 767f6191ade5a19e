import type { Cursor } from './cursor.js';
import { STATEMENT_WORDS } from './cursor.js';
import type { Expr, Select } from './ast.js';
import { sqlError } from './errors.js';

const CLAUSE_WORDS = new Set([
  'FROM',
  'WHERE',
  'ORDER',
  'UNION',
  'GROUP',
  'HAVING',
  'AND',
  'OR',
  'ON',
  'JOIN',
  'AS',
  'ASC',
  'DESC',
  'IS',
  'NOT',
  'IN',
  'LIKE',
  'THEN',
  'ELSE',
  'WHEN',
]);

/** Parses an expression (OR has the lowest precedence). */
export function parseExpr(c: Cursor): Expr {
  let l = parseAnd(c);
  while (c.acceptKw('OR')) l = { t: 'bin', op: 'OR', l, r: parseAnd(c) };
  return l;
}

function parseAnd(c: Cursor): Expr {
  let l = parseNot(c);
  while (c.acceptKw('AND')) l = { t: 'bin', op: 'AND', l, r: parseNot(c) };
  return l;
}

function parseNot(c: Cursor): Expr {
  if (c.acceptKw('NOT')) return { t: 'not', e: parseNot(c) };
  return parsePredicate(c);
}

function parsePredicate(c: Cursor): Expr {
  const e = parseAdditive(c);
  for (const op of ['=', '<>', '!=', '<=', '>=', '<', '>']) {
    if (c.acceptOp(op)) return { t: 'bin', op: op === '!=' ? '<>' : op, l: e, r: parseAdditive(c) };
  }
  if (c.acceptKw('IS')) {
    const not = c.acceptKw('NOT');
    c.expectKw('NULL');
    return { t: 'isnull', e, not };
  }
  const not = c.isKw('NOT') && (c.isKw('IN', 1) || c.isKw('LIKE', 1));
  if (not) c.i++;
  if (c.acceptKw('IN')) {
    c.expectOp('(');
    const list = [parseExpr(c)];
    while (c.acceptOp(',')) list.push(parseExpr(c));
    c.expectOp(')');
    return { t: 'in', e, list, not };
  }
  if (c.acceptKw('LIKE')) return { t: 'like', e, pattern: parseAdditive(c), not };
  if (not) c.fail();
  return e;
}

function parseAdditive(c: Cursor): Expr {
  let l = parseMultiplicative(c);
  for (;;) {
    const op = c.isOp('+') ? '+' : c.isOp('-') ? '-' : undefined;
    if (!op) return l;
    c.i++;
    l = { t: 'bin', op, l, r: parseMultiplicative(c) };
  }
}

function parseMultiplicative(c: Cursor): Expr {
  let l = parseUnary(c);
  for (;;) {
    const op = ['*', '/', '%'].find((o) => c.isOp(o));
    if (!op) return l;
    c.i++;
    l = { t: 'bin', op, l, r: parseUnary(c) };
  }
}

function parseUnary(c: Cursor): Expr {
  if (c.acceptOp('-')) return { t: 'neg', e: parseUnary(c) };
  if (c.acceptOp('+')) return parseUnary(c);
  return parsePrimary(c);
}

function parsePrimary(c: Cursor): Expr {
  const t = c.peek();
  if (!t) c.fail();
  if (t.k === 'num') {
    c.i++;
    return { t: 'lit', v: Number(t.v) };
  }
  if (t.k === 'str') {
    c.i++;
    return { t: 'lit', v: t.v };
  }
  if (c.acceptOp('(')) {
    if (c.isKw('SELECT')) {
      const select = parseSelect(c);
      c.expectOp(')');
      return { t: 'subquery', select };
    }
    const e = parseExpr(c);
    c.expectOp(')');
    return e;
  }
  if (c.acceptKw('NULL')) return { t: 'lit', v: null };
  if (c.acceptKw('EXISTS')) {
    c.expectOp('(');
    const select = parseSelect(c);
    c.expectOp(')');
    return { t: 'exists', select };
  }
  if (c.acceptKw('CAST') || c.acceptKw('TRY_CAST')) {
    c.expectOp('(');
    const e = parseExpr(c);
    c.expectKw('AS');
    c.ident();
    if (c.isOp('(')) c.skipParens();
    c.expectOp(')');
    return e;
  }
  if (t.k === 'var' && t.v.startsWith('@@')) {
    c.i++;
    return { t: 'fn', name: t.v.toUpperCase(), args: [] };
  }
  if (t.k === 'var') {
    c.i++;
    return { t: 'var', name: t.v };
  }
  if (c.isKw('CURRENT_USER') || c.isKw('SYSTEM_USER') || c.isKw('SESSION_USER')) {
    c.i++;
    return { t: 'fn', name: 'USER_NAME', args: [] };
  }
  if ((t.k === 'word' && !STATEMENT_WORDS.has(t.v.toUpperCase()) && !CLAUSE_WORDS.has(t.v.toUpperCase())) || t.k === 'qid') {
    const parts = [c.ident()];
    if (t.k === 'word' && c.acceptOp('(')) {
      const fn: Expr & { t: 'fn' } = { t: 'fn', name: t.v.toUpperCase(), args: [] };
      if (c.acceptOp('*')) fn.star = true;
      else if (!c.isOp(')')) {
        fn.distinct = c.acceptKw('DISTINCT');
        fn.args.push(parseExpr(c));
        while (c.acceptOp(',')) fn.args.push(parseExpr(c));
      }
      c.expectOp(')');
      return fn;
    }
    while (c.acceptOp('.')) parts.push(c.ident());
    return { t: 'col', parts };
  }
  return c.fail();
}

/** SELECT [TOP n] list [FROM name [AS alias]] [WHERE …] [ORDER BY …] [UNION ALL SELECT …]. */
export function parseSelect(c: Cursor): Select {
  c.expectKw('SELECT');
  const s: Select = { columns: [] };
  if (c.acceptKw('TOP')) {
    const paren = c.acceptOp('(');
    const n = c.peek();
    if (n?.k !== 'num') c.fail();
    c.i++;
    s.top = Number(n.v);
    if (paren) c.expectOp(')');
  }
  if (c.isKw('DISTINCT')) throw sqlError.unsupported('SELECT DISTINCT');
  do {
    if (c.acceptOp('*')) {
      s.columns.push({ expr: '*' });
      continue;
    }
    const expr = parseExpr(c);
    let alias: string | undefined;
    if (c.acceptKw('AS')) alias = c.peek()?.k === 'str' ? c.toks[c.i++]!.v : c.ident();
    else if (
      c.peek()?.k === 'qid' ||
      (c.peek()?.k === 'word' && !CLAUSE_WORDS.has(c.peek()!.v.toUpperCase()) && !STATEMENT_WORDS.has(c.peek()!.v.toUpperCase()))
    )
      alias = c.ident();
    s.columns.push({ expr, alias });
  } while (c.acceptOp(','));
  if (c.acceptKw('FROM')) {
    const name = c.name();
    let alias: string | undefined;
    if (c.acceptKw('AS')) alias = c.ident();
    else if (c.isIdent() && !CLAUSE_WORDS.has(c.peek()!.v.toUpperCase())) alias = c.ident();
    if (['JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS'].some((w) => c.isKw(w)) || c.isOp(','))
      throw sqlError.unsupported('joins in a SELECT it evaluates (views are stored, not evaluated)');
    s.from = { name, alias };
  }
  if (c.acceptKw('WHERE')) s.where = parseExpr(c);
  if (c.isKw('GROUP') || c.isKw('HAVING')) throw sqlError.unsupported('GROUP BY in a SELECT it evaluates');
  if (c.acceptKw('ORDER', 'BY')) {
    s.orderBy = [];
    do {
      const expr = parseExpr(c);
      const desc = c.acceptKw('DESC');
      if (!desc) c.acceptKw('ASC');
      s.orderBy.push({ expr, desc });
    } while (c.acceptOp(','));
  }
  if (c.acceptKw('UNION')) {
    c.expectKw('ALL');
    s.unionAll = parseSelect(c);
  }
  return s;
}
