import { CompileError, parseDate, type Value } from './values.js';

/** A node of a parsed expression. */
export type Node =
  | { k: 'lit'; v: Value; text?: boolean }
  | { k: 'id'; name: string }
  | { k: 'bang'; coll: string; member: string }
  | { k: 'member'; obj: Node; name: string }
  | { k: 'call'; fn: Node; args: Node[] }
  | { k: 'un'; op: string; e: Node }
  | { k: 'bin'; op: string; l: Node; r: Node };

type Token = { t: 'num' | 'str' | 'date' | 'id' | 'op' | 'end'; s: string; v?: Value; at: number };

const syntax = (detail: string) => new CompileError('rsCompilerErrorInExpression', detail);

/** Splits an expression (without its leading '=') into tokens. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c) || (c === '_' && /^_\s*(\r?\n|$)/.test(src.slice(i)))) {
      i++;
      continue;
    }
    const at = i;
    if (c === '"' || c === '\u201C' || c === '\u201D') {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw syntax('[BC30648] String constants must end with a double quote.');
        const ch = src[i++]!;
        if (ch === '"' || ch === '\u201C' || ch === '\u201D') {
          if (src[i] === ch) {
            s += ch;
            i++;
          } else break;
        } else s += ch;
      }
      out.push({ t: 'str', s, v: s, at });
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?([RrDdFfIiLlSs@!#%&]|UI|UL|US)?/.exec(src.slice(i));
    if (num) {
      i += num[0].length;
      out.push({ t: 'num', s: num[0], v: Number(num[1]! + (num[2] ?? '')), at });
      continue;
    }
    const hex = /^&H([0-9A-Fa-f]+)/.exec(src.slice(i));
    if (hex) {
      i += hex[0].length;
      out.push({ t: 'num', s: hex[0], v: Number.parseInt(hex[1]!, 16), at });
      continue;
    }
    if (c === '#') {
      const end = src.indexOf('#', i + 1);
      const d = end > 0 ? parseDate(src.slice(i + 1, end)) : undefined;
      if (!d) throw syntax('[BC30034] Bracketed identifier or date literal is not valid.');
      i = end + 1;
      out.push({ t: 'date', s: src.slice(at, i), v: d, at });
      continue;
    }
    const id = /^([A-Za-z_]\w*|\[[^\]]+\])/.exec(src.slice(i));
    if (id) {
      i += id[0].length;
      out.push({ t: 'id', s: id[0].startsWith('[') ? id[0].slice(1, -1) : id[0], at });
      continue;
    }
    const op = /^(<>|<=|>=|[-+*/\\^&=<>(),.!:])/.exec(src.slice(i));
    if (!op) throw syntax(`[BC30037] Character is not valid: '${c}'.`);
    i += op[0].length;
    out.push({ t: 'op', s: op[0], at });
  }
  out.push({ t: 'end', s: '', at: src.length });
  return out;
}

const COLLECTIONS: Record<string, string> = {
  parameters: 'Parameters',
  fields: 'Fields',
  globals: 'Globals',
  user: 'User',
  reportitems: 'ReportItems',
};

const KEYWORD = (t: Token, ...words: string[]) => t.t === 'id' && words.some((w) => w.toLowerCase() === t.s.toLowerCase());

/** Binary operators from the loosest to the tightest (VB's precedence); `Not` sits between And and comparisons. */
const LEVELS: string[][] = [
  ['xor'],
  ['or', 'orelse'],
  ['and', 'andalso'],
  ['=', '<>', '<', '>', '<=', '>=', 'like', 'is', 'isnot'],
  ['&'],
  ['+', '-'],
  ['mod'],
  ['\\'],
  ['*', '/'],
];

/** Parses an expression (the text after '=') into a tree; a syntax error is a compile error as the service reports it. */
export function parse(src: string): Node {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p]!;
  const isOp = (s: string) => peek().t === 'op' && peek().s === s;
  const expect = (s: string) => {
    if (!isOp(s)) throw syntax(peek().t === 'end' ? `[BC30198] '${s}' expected.` : `[BC30205] End of statement expected.`);
    p++;
  };
  const opAt = (level: number): string | undefined => {
    const t = peek();
    const s = t.t === 'op' ? t.s : t.t === 'id' ? t.s.toLowerCase() : '';
    return LEVELS[level]!.includes(s) ? s : undefined;
  };
  const binary = (level: number): Node => {
    if (level === LEVELS.length) return unaryMinus();
    if (LEVELS[level]![0] === '=') return comparison();
    let l = binary(level + 1);
    for (let op = opAt(level); op; op = opAt(level)) {
      p++;
      l = { k: 'bin', op, l, r: binary(level + 1) };
    }
    return l;
  };
  // Not binds looser than comparisons and tighter than And.
  const comparison = (): Node => {
    if (KEYWORD(peek(), 'not')) {
      p++;
      return { k: 'un', op: 'not', e: comparison() };
    }
    const level = LEVELS.findIndex((l) => l[0] === '=');
    let l = binary(level + 1);
    for (let op = opAt(level); op; op = opAt(level)) {
      p++;
      l = { k: 'bin', op, l, r: binary(level + 1) };
    }
    return l;
  };
  const unaryMinus = (): Node => {
    if (isOp('-') || isOp('+')) {
      const op = peek().s;
      p++;
      return { k: 'un', op, e: unaryMinus() };
    }
    return power();
  };
  const power = (): Node => {
    let l = postfix();
    while (isOp('^')) {
      p++;
      // -2 ^ 2 is -(2 ^ 2); 2 ^ -1 takes a signed operand.
      const r = isOp('-') || isOp('+') ? unaryMinus() : postfix();
      l = { k: 'bin', op: '^', l, r };
    }
    return l;
  };
  const args = (): Node[] => {
    expect('(');
    const out: Node[] = [];
    if (isOp(')')) {
      p++;
      return out;
    }
    for (;;) {
      out.push(binary(0));
      if (isOp(')')) {
        p++;
        return out;
      }
      expect(',');
    }
  };
  const name = (): string => {
    const t = peek();
    if (t.t !== 'id') throw syntax('[BC30203] Identifier expected.');
    p++;
    return t.s;
  };
  const postfix = (): Node => {
    let n = primary();
    for (;;) {
      if (isOp('.')) {
        p++;
        n = { k: 'member', obj: n, name: name() };
      } else if (isOp('!')) {
        p++;
        if (n.k !== 'id') throw syntax("[BC30203] Identifier expected before '!'.");
        n = { k: 'bang', coll: n.name, member: name() };
      } else if (isOp('(')) {
        const a = args();
        // Parameters("X") is Parameters!X (and so for the other collections) when the name is a constant.
        const coll = n.k === 'id' ? COLLECTIONS[n.name.toLowerCase()] : undefined;
        const key = a.length === 1 && a[0]!.k === 'lit' && typeof a[0]!.v === 'string' ? a[0]!.v : undefined;
        n = coll && key !== undefined ? { k: 'bang', coll, member: key } : { k: 'call', fn: n, args: a };
      } else return n;
    }
  };
  const primary = (): Node => {
    const t = peek();
    if (t.t === 'num' || t.t === 'date') {
      p++;
      return { k: 'lit', v: t.v! };
    }
    if (t.t === 'str') {
      p++;
      return { k: 'lit', v: t.v!, text: true };
    }
    if (t.t === 'id') {
      const w = t.s.toLowerCase();
      if (w === 'true' || w === 'false' || w === 'nothing') {
        p++;
        return { k: 'lit', v: w === 'nothing' ? null : w === 'true' };
      }
      p++;
      return { k: 'id', name: t.s };
    }
    if (isOp('(')) {
      p++;
      const e = binary(0);
      expect(')');
      return e;
    }
    throw syntax('[BC30201] Expression expected.');
  };
  const tree = binary(0);
  if (peek().t !== 'end') throw syntax('[BC30205] End of statement expected.');
  return tree;
}
