import { sqlError } from './errors.js';

/** A T-SQL token: bare word, quoted identifier, string, number, variable or operator, with its source span. */
export interface Tok {
  k: 'word' | 'qid' | 'str' | 'num' | 'var' | 'op';
  v: string;
  start: number;
  end: number;
  /** N'…' (Unicode) string. */
  unicode?: boolean;
}

const OPS = ['<>', '!=', '<=', '>=', '(', ')', ',', '.', ';', '=', '<', '>', '*', '+', '-', '/', '%'];

/** Splits a batch into tokens; comments and whitespace are dropped. */
export function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (src.startsWith('--', i)) {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl + 1;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const close = src.indexOf('*/', i + 2);
      if (close < 0) throw sqlError.missingEndComment();
      i = close + 2;
      continue;
    }
    const start = i;
    if (c === "'" || ((c === 'N' || c === 'n') && src[i + 1] === "'")) {
      const unicode = c !== "'";
      i += unicode ? 2 : 1;
      let v = '';
      for (;;) {
        if (i >= src.length) throw sqlError.unclosedQuote(v);
        if (src[i] === "'") {
          if (src[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += src[i++];
      }
      toks.push({ k: 'str', v, start, end: i, unicode });
      continue;
    }
    if (c === '[' || c === '"') {
      const close = c === '[' ? ']' : '"';
      i++;
      let v = '';
      for (;;) {
        if (i >= src.length) throw sqlError.syntax(v);
        if (src[i] === close) {
          if (src[i + 1] === close) {
            v += close;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += src[i++];
      }
      toks.push({ k: 'qid', v, start, end: i });
      continue;
    }
    const num = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i, i + 64));
    if (num) {
      i += num[0].length;
      toks.push({ k: 'num', v: num[0], start, end: i });
      continue;
    }
    const word = /^[@#]{0,2}[A-Za-z_\u00c0-\uffff][\w@#$\u00c0-\uffff]*/.exec(src.slice(i, i + 256));
    if (word) {
      i += word[0].length;
      toks.push({ k: word[0].startsWith('@') ? 'var' : 'word', v: word[0], start, end: i });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw sqlError.syntax(c);
    i += op.length;
    toks.push({ k: 'op', v: op, start, end: i });
  }
  return toks;
}
