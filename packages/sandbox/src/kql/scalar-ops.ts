import { Span } from './values.js';

// The scalar operators of KQL: equality, ordering and arithmetic over numbers, strings, datetimes and timespans.

/** A value as a number: a datetime's epoch milliseconds, a timespan's milliseconds, a string parsed. */
export const toNum = (v: unknown) =>
  v instanceof Date ? v.getTime() : v instanceof Span ? v.ms : typeof v === 'string' && v !== '' ? Number(v) : (v as number);
/** A value as a string: null as empty, a datetime in ISO form, an object as JSON. */
export const str = (v: unknown) =>
  v === null || v === undefined
    ? ''
    : typeof v === 'object' && !(v instanceof Date) && !(v instanceof Span)
      ? JSON.stringify(v)
      : v instanceof Date
        ? v.toISOString()
        : String(v);

/** KQL `==`: never true for null. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (a instanceof Date || b instanceof Date || a instanceof Span || b instanceof Span) return toNum(a) === toNum(b);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return str(a) === str(b);
}

/** The order of two values, or undefined when they do not compare. */
export function compare(a: unknown, b: unknown): number | undefined {
  if (a === null || b === null || a === undefined || b === undefined) return undefined;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (b instanceof Date && typeof a === 'string') a = new Date(a);
  if (a instanceof Date && typeof b === 'string') b = new Date(b);
  const x = toNum(a);
  const y = toNum(b);
  return Number.isNaN(x) || Number.isNaN(y) ? undefined : x - y;
}

/** KQL `+ - * / %` over numbers, datetimes and timespans (null for null or a combination without a meaning). */
export function arith(op: string, a: unknown, b: unknown): unknown {
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
