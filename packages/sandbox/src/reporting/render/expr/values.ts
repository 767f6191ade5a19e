/** A value of the report language: Nothing, String, a number (Integer, Double, Decimal), Boolean, Date, or an array. */
export type Value = null | string | number | boolean | Date | Value[];

/** A runtime error (a bad conversion, a division by zero): the text box shows #Error, the report still renders. */
export class ExpressionError extends Error {}

/**
 * An expression the service cannot compile or process (an undeclared name, Code.*, a wrong scope): the report
 * fails to render. `code` is the processing error code (rsCompilerErrorInExpression, rsFieldReference …).
 */
export class CompileError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** en-US month and day names (the sandbox renders in en-US, as User!Language says). */
export const names = { MONTHS, DAYS };

/** A wall-clock date: the sandbox keeps dates as UTC fields. */
export const utc = (y: number, m: number, d: number, h = 0, n = 0, s = 0, ms = 0) => new Date(Date.UTC(y, m, d, h, n, s, ms));

const two = (n: number) => String(n).padStart(2, '0');

/** Parses the date texts the service reads: ISO 8601 (a Z or an offset is converted to UTC) and en-US month/day/year [time]. */
export function parseDate(text: string): Date | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (iso) {
    const [, y, m, d, h, n, s, f, zone] = iso;
    if (zone) {
      const ms = Date.parse(t.replace(' ', 'T'));
      return Number.isFinite(ms) ? new Date(ms) : undefined;
    }
    return valid(+y!, +m!, +d!, +(h ?? 0), +(n ?? 0), +(s ?? 0), f ? Math.round(Number(`0.${f}`) * 1000) : 0);
  }
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(AM|PM)?)?$/i.exec(t);
  if (us) {
    const [, m, d, y, h, n, s, ampm] = us;
    let hour = +(h ?? 0);
    if (ampm) {
      if (hour < 1 || hour > 12) return undefined;
      hour = (hour % 12) + (ampm.toUpperCase() === 'PM' ? 12 : 0);
    }
    return valid(+y!, +m!, +d!, hour, +(n ?? 0), +(s ?? 0), 0);
  }
  const named = /^(\w+)\s+(\d{1,2}),?\s+(\d{4})$/.exec(t);
  if (named) {
    const m = MONTHS.findIndex((x) => x.toLowerCase().startsWith(named[1]!.toLowerCase()) && named[1]!.length >= 3);
    if (m >= 0) return valid(+named[3]!, m + 1, +named[2]!, 0, 0, 0, 0);
  }
  return undefined;
}

function valid(y: number, m: number, d: number, h: number, n: number, s: number, ms: number): Date | undefined {
  const out = utc(y, m - 1, d, h, n, s, ms);
  if (out.getUTCMonth() !== m - 1 || out.getUTCDate() !== d || h > 23 || n > 59 || s > 59) return undefined;
  return out;
}

/** .NET's DateTime.ToString() in en-US: 2/1/2025 3:04:05 PM. */
export function generalDate(d: Date): string {
  return `${shortDate(d)} ${longTime(d)}`;
}

export const shortDate = (d: Date) => `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
export const longTime = (d: Date) => {
  const h = d.getUTCHours();
  return `${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
};

const isMidnight = (d: Date) => d.getUTCHours() + d.getUTCMinutes() + d.getUTCSeconds() + d.getUTCMilliseconds() === 0;

/** A Double as .NET Framework writes it (15 significant digits; E notation from 1E+15). */
export function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  const r = Number(n.toPrecision(15));
  if (r !== 0 && (Math.abs(r) >= 1e15 || Math.abs(r) < 1e-5)) {
    const [m, e] = r.toExponential().split('e');
    const exp = Number(e);
    return `${m!.toUpperCase()}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(r);
}

/** VB's CStr: Nothing is "", a date without a time is its date only, booleans are True/False. */
export function toStr(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v instanceof Date) return isMidnight(v) ? shortDate(v) : generalDate(v);
  throw new ExpressionError("Conversion from type 'Object()' to type 'String' is not valid.");
}

/** What a text box shows for a value: .NET's ToString (a date keeps its time). */
export function display(v: Value): string {
  if (v instanceof Date) return generalDate(v);
  if (Array.isArray(v)) return 'System.Object[]';
  return toStr(v);
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Whether a string converts to a Double (VB's IsNumeric also takes &H hex and thousands separators). */
export function numericText(s: string): boolean {
  return NUMERIC.test(s.replace(/,(?=\d{3}(\D|$))/g, '')) || /^\s*&H[0-9a-f]+\s*$/i.test(s);
}

/** VB's conversion to Double (CDbl): Nothing is 0, True is -1, a numeric string its number. */
export function toNum(v: Value): number {
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? -1 : 0;
  if (typeof v === 'string') {
    if (/^\s*&H[0-9a-f]+\s*$/i.test(v)) return Number.parseInt(v.trim().slice(2), 16);
    const s = v.replace(/,(?=\d{3}(\D|$))/g, '');
    if (NUMERIC.test(s)) return Number(s);
    throw new ExpressionError(`Conversion from string "${v}" to type 'Double' is not valid.`);
  }
  if (v instanceof Date) throw new ExpressionError("Conversion from type 'Date' to type 'Double' is not valid.");
  throw new ExpressionError("Conversion from type 'Object()' to type 'Double' is not valid.");
}

/** VB's CBool: numbers are True when not 0, strings "True"/"False" or a number. */
export function toBool(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    if (/^\s*true\s*$/i.test(v)) return true;
    if (/^\s*false\s*$/i.test(v)) return false;
    if (numericText(v)) return toNum(v) !== 0;
    throw new ExpressionError(`Conversion from string "${v}" to type 'Boolean' is not valid.`);
  }
  throw new ExpressionError(`Conversion from type '${v instanceof Date ? 'Date' : 'Object()'}' to type 'Boolean' is not valid.`);
}

/** VB's CDate: a Date, or a string in a date form the service reads. */
export function toDate(v: Value): Date {
  if (v instanceof Date) return v;
  if (v === null) return utc(1, 0, 1);
  if (typeof v === 'string') {
    const d = parseDate(v);
    if (d) return d;
    throw new ExpressionError(`Conversion from string "${v}" to type 'Date' is not valid.`);
  }
  throw new ExpressionError(`Conversion from type '${typeof v === 'number' ? 'Double' : 'Object()'}' to type 'Date' is not valid.`);
}

/** Math.Round's default: to even at the midpoint (banker's rounding), at `digits` decimals. */
export function roundEven(n: number, digits = 0): number {
  const f = 10 ** digits;
  const x = Number((n * f).toPrecision(15));
  const r = Math.round(x);
  const even = Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
  return even / f;
}

/** VB's CInt/CLng: rounds to even and checks the range. */
export function toInt(v: Value, bits: 32 | 64 = 32): number {
  const n = roundEven(toNum(v));
  const max = bits === 32 ? 2147483647 : Number.MAX_SAFE_INTEGER;
  if (n > max || n < -max - 1) throw new ExpressionError('Arithmetic operation resulted in an overflow.');
  return n;
}

/** The date in ISO form (date only at midnight), as query parameters and parameter values carry it. */
export function isoDate(d: Date): string {
  const date = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return isMidnight(d) ? date : `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
