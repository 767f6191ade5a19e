import { syntaxError } from './errors.js';

export type TokenKind = 'ident' | 'string' | 'number' | 'timespan' | 'typed' | 'op' | 'punct' | 'end';

export interface Token {
  kind: TokenKind;
  text: string;
  value?: unknown;
  pos: number;
}

const OPS = [
  '!contains_cs',
  '!contains',
  'contains_cs',
  '!startswith',
  '!endswith',
  '!has',
  '!in~',
  '!in',
  'in~',
  '==',
  '!=',
  '=~',
  '!~',
  '<=',
  '>=',
  '<>',
  '=>',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
];
const SPAN_UNITS =
  '(?:days|day|d|hours|hour|hrs|hr|h|minutes|minute|min|m|seconds|second|sec|s|milliseconds|millisecond|ms|microseconds|microsecond|ticks|tick)';
const TYPED = /^(datetime|timespan|time|guid|dynamic|long|int|real|double|bool|decimal)\s*\(/i;
const NUMBER = new RegExp(`^(\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)(${SPAN_UNITS})?(?![A-Za-z0-9_])`, 'i');

/** Splits query text into tokens (identifiers, ['quoted names'], strings, numbers, timespan literals, operators). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '[' && (text[i + 1] === "'" || text[i + 1] === '"')) {
      const q = text[i + 1]!;
      const end = text.indexOf(`${q}]`, i + 2);
      if (end < 0) throw syntaxError(`SYN0002: unterminated bracketed name at ${i}`);
      out.push({ kind: 'ident', text: text.slice(i + 2, end), pos: i });
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"' || ((c === '@' || c === 'h' || c === 'H') && (text[i + 1] === "'" || text[i + 1] === '"'))) {
      const verbatim = c === '@';
      const start = c === "'" || c === '"' ? i : i + 1;
      const q = text[start]!;
      let j = start + 1;
      let s = '';
      while (j < text.length && text[j] !== q) {
        if (text[j] === '\\' && !verbatim) {
          const n = text[j + 1];
          s += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : (n ?? '');
          j += 2;
        } else s += text[j++];
      }
      if (j >= text.length) throw syntaxError(`SYN0002: unterminated string literal at ${i}`);
      out.push({ kind: 'string', text: s, value: s, pos: i });
      i = j + 1;
      continue;
    }
    const num = NUMBER.exec(text.slice(i));
    if (num && /[0-9]/.test(c)) {
      out.push(num[2] ? { kind: 'timespan', text: num[0], pos: i } : { kind: 'number', text: num[1]!, value: Number(num[1]), pos: i });
      i += num[0].length;
      continue;
    }
    const typed = TYPED.exec(text.slice(i));
    if (typed && (i === 0 || !/[A-Za-z0-9_]/.test(text[i - 1]!))) {
      // datetime(2024-01-01T00:00:00Z), timespan(1.02:00:00), dynamic([1,2]): the raw text between balanced parentheses.
      let depth = 1;
      let j = i + typed[0].length;
      const start = j;
      while (j < text.length && depth > 0) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')') depth--;
        j++;
      }
      if (depth > 0) throw syntaxError(`SYN0002: unterminated ${typed[1]}( literal at ${i}`);
      out.push({ kind: 'typed', text: typed[1]!.toLowerCase(), value: text.slice(start, j - 1).trim(), pos: i });
      i = j;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[A-Za-z0-9_\-]/.test(text[j]!)) {
        // A hyphen belongs to the identifier only inside keywords like project-away / mv-expand.
        if (
          text[j] === '-' &&
          !/^(project-away|project-keep|project-rename|project-reorder|mv-expand|mv-apply|top-nested|make-series|create-merge|create-or-alter)/i.test(
            text.slice(i),
          )
        )
          break;
        j++;
      }
      out.push({ kind: 'ident', text: text.slice(i, j), pos: i });
      i = j;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i) && !(/[a-z]$/.test(o) && /[A-Za-z0-9_]/.test(text[i + o.length] ?? '')));
    if (op) {
      out.push({ kind: 'op', text: op, pos: i });
      i += op.length;
      continue;
    }
    if ('(),|;.{}[]:'.includes(c)) {
      out.push({ kind: 'punct', text: c, pos: i });
      i++;
      continue;
    }
    throw syntaxError(`SYN0002: A recognition error occurred near '${text.slice(i, i + 10)}' at position ${i}`);
  }
  out.push({ kind: 'end', text: '', pos: text.length });
  return out;
}
