import { syntaxError, semanticError } from './errors.js';
import { kqlType, type KqlType } from './values.js';

/** A cursor over command text: names (plain or ['bracketed']), balanced parentheses, keywords. */
export class CommandText {
  constructor(
    readonly text: string,
    public pos = 0,
  ) {}

  skipWs(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  /** Consumes a case-insensitive keyword (followed by a non-word character). */
  keyword(word: string): boolean {
    this.skipWs();
    const slice = this.text.slice(this.pos, this.pos + word.length);
    if (slice.toLowerCase() !== word.toLowerCase() || /[\w-]/.test(this.text[this.pos + word.length] ?? '')) return false;
    this.pos += word.length;
    return true;
  }

  name(): string {
    this.skipWs();
    const rest = this.text.slice(this.pos);
    const bracket = /^\[\s*(['"])((?:(?!\1).)*)\1\s*\]/.exec(rest);
    if (bracket) {
      this.pos += bracket[0].length;
      return bracket[2]!;
    }
    const plain = /^[A-Za-z_][\w]*/.exec(rest);
    if (!plain) throw syntaxError(`SYN0002: expected a name at position ${this.pos} ('${rest.slice(0, 20)}')`);
    this.pos += plain[0].length;
    return plain[0];
  }

  /** The text inside the next balanced parentheses (strings respected). */
  parens(): string {
    this.skipWs();
    if (this.text[this.pos] !== '(') throw syntaxError(`SYN0002: expected '(' at position ${this.pos}`);
    let depth = 0;
    let quote = '';
    const start = this.pos + 1;
    for (; this.pos < this.text.length; this.pos++) {
      const c = this.text[this.pos]!;
      if (quote) {
        if (c === '\\') this.pos++;
        else if (c === quote) quote = '';
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) {
        this.pos++;
        return this.text.slice(start, this.pos - 1);
      }
    }
    throw syntaxError('SYN0002: unbalanced parentheses');
  }

  /** An optional `with (k=v, …)` clause. */
  withProps(): Record<string, string> {
    if (!this.keyword('with')) return {};
    return parseProps(this.parens());
  }

  rest(): string {
    return this.text.slice(this.pos).trim();
  }
}

/** Splits on commas that are outside quotes, parentheses and brackets. */
export function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      cur += c;
      if (c === '\\') cur += text[++i] ?? '';
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const unquote = (v: string) => {
  const t = v.trim();
  const m = /^(['"])([\s\S]*)\1$/.exec(t) ?? /^@(['"])([\s\S]*)\1$/.exec(t);
  return m ? m[2]!.replace(/\\(["'\\])/g, '$1') : t;
};

/** `docstring="…", folder="…"` → map (keys lower-cased). */
function parseProps(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of splitTop(text)) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw syntaxError(`SYN0002: expected name=value in with(...) but found '${pair}'`);
    out[pair.slice(0, eq).trim().toLowerCase()] = unquote(pair.slice(eq + 1));
  }
  return out;
}

/** `a:string, ['b c']:long` → columns with canonical types. */
export function parseSchema(text: string): Array<{ name: string; type: KqlType }> {
  const cols = splitTop(text).map((entry) => {
    const m = /^(\[\s*(['"])(.+?)\2\s*\]|[A-Za-z_][\w]*)\s*:\s*([A-Za-z0-9_]+)$/.exec(entry);
    if (!m) throw syntaxError(`SYN0002: invalid column declaration '${entry}' (expected name:type)`);
    const type = kqlType(m[4]!);
    if (!type) throw semanticError(`SEM0012: Unknown scalar type '${m[4]}' for column '${m[3] ?? m[1]}'`);
    return { name: m[3] ?? m[1]!, type };
  });
  if (!cols.length) throw syntaxError('SYN0002: a table needs at least one column');
  const seen = new Set<string>();
  for (const c of cols) {
    if (seen.has(c.name)) throw semanticError(`SEM0100: the column '${c.name}' is declared more than once`);
    seen.add(c.name);
  }
  return cols;
}

/** `(p:string, n:long = 5)` → parameters (tabular parameters are not supported). */
export function parseParams(text: string): Array<{ name: string; type: KqlType; default?: string }> {
  if (!text.trim()) return [];
  return splitTop(text).map((entry) => {
    const m = /^([A-Za-z_][\w]*)\s*:\s*([A-Za-z0-9_]+)\s*(?:=\s*([\s\S]+))?$/.exec(entry);
    if (!m) throw syntaxError(`SYN0002: invalid function parameter '${entry}'`);
    const type = kqlType(m[2]!);
    if (!type) throw semanticError(`SEM0012: Unknown scalar type '${m[2]}' for parameter '${m[1]}'`);
    return { name: m[1]!, type, ...(m[3] ? { default: m[3].trim() } : {}) };
  });
}

export { unquote };
