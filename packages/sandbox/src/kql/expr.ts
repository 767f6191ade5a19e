import { syntaxError } from './errors.js';
import type { Token } from './lexer.js';
import { parseSpan } from './values.js';

/** A parsed KQL scalar expression. */
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
