/** Where JSON.parse stopped, as a 1-based line and column, with the parser's message. */
export interface JsonParseError {
  line: number;
  column: number;
  message: string;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The parse error of a JSON text, or undefined when it parses; the position comes from the engine's message. */
export function jsonParseError(text: string): JsonParseError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    const raw = (err as Error).message;
    // The line and column are given on their own: the message keeps only what is wrong.
    const message = raw.replace(/\s*\(line \d+ column \d+\)$/, '').replace(/,? (in JSON )?at position \d+$/, '');
    const lc = /line (\d+) column (\d+)/.exec(raw);
    if (lc) return { line: Number(lc[1]), column: Number(lc[2]), message };
    const pos = /at position (\d+)/.exec(raw);
    // V8 names no position when the text ends too early ("Unexpected end of JSON input"): that is the end.
    return { ...lineColumn(text, pos ? Number(pos[1]) : text.length), message };
  }
}

/**
 * The line of a JSON text (1-based) that holds the value a JSON pointer names (the service's `field`, e.g.
 * /cells/0/source); for a missing member, the line of the deepest value that exists on the way (its parent object).
 */
export function lineOfPointer(text: string, pointer: string): number {
  const want = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let i = 0;
  let best = { depth: -1, at: 0 };
  const ws = () => {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
  };
  const str = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string[], at: number): void => {
    ws();
    if (path.length > best.depth && path.every((p, k) => want[k] === p)) best = { depth: path.length, at };
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      for (let n = 0; text[i] !== close && i < text.length; n++) {
        ws();
        const keyAt = i;
        const key = c === '{' ? str() : String(n);
        if (c === '{') {
          ws();
          i++; // the colon
        }
        value([...path, key], keyAt);
        ws();
        if (text[i] === ',') i++;
      }
      i++;
      return;
    }
    if (c === '"') str();
    else while (i < text.length && !/[,\]}\s]/.test(text.charAt(i))) i++;
  };
  try {
    value([], 0);
  } catch {
    /* a text that does not parse: the best line found so far */
  }
  return lineColumn(text, best.at).line;
}
