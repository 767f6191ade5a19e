import { ExpressionError, numericText, toBool, toDate, toNum, toStr, type Value } from './values.js';

const isNumLike = (v: Value) => typeof v === 'number' || typeof v === 'boolean' || v === null;

/**
 * VB's + : two strings concatenate unless both hold numbers (field values reach the renderer as text, their source's
 * numeric type lost, so numeric text adds like the numbers the source held); otherwise numeric addition.
 */
function plus(l: Value, r: Value): Value {
  if (l instanceof Date || r instanceof Date) throw new ExpressionError("Operator '+' is not defined for type 'Date'.");
  if (typeof l === 'string' && typeof r === 'string' && !(numericText(l) && numericText(r))) return l + r;
  if ((typeof l === 'string' && r === null) || (l === null && typeof r === 'string')) return toStr(l) + toStr(r);
  return toNum(l) + toNum(r);
}

/** Compares two values as VB does with Option Compare Binary: numbers numerically, dates by time, strings ordinally. */
export function compare(l: Value, r: Value): number {
  if (Array.isArray(l) || Array.isArray(r)) throw new ExpressionError("Operator '=' is not defined for type 'Object()'.");
  if (l instanceof Date || r instanceof Date) {
    if (l === null || r === null) return l === r ? 0 : l === null ? -1 : 1;
    const a = toDate(l).getTime();
    const b = toDate(r).getTime();
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof l === 'string' && typeof r === 'string') return l < r ? -1 : l > r ? 1 : 0;
  if ((typeof l === 'string' && r === null) || (l === null && typeof r === 'string')) {
    const a = toStr(l);
    const b = toStr(r);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof l === 'boolean' && typeof r === 'string') return compare(l, toBool(r));
  if (typeof r === 'boolean' && typeof l === 'string') return compare(toBool(l), r);
  const a = toNum(l);
  const b = toNum(r);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** VB's Like: ? one character, * any run, # a digit, [list] and [!list] character lists; case-sensitive. */
export function like(text: string, pattern: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '?') re += '[\\s\\S]';
    else if (c === '*') re += '[\\s\\S]*';
    else if (c === '#') re += '\\d';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new ExpressionError("Argument 'Pattern' is not a valid value.");
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      re += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`).test(text);
}

const integral = (v: Value) => (typeof v === 'boolean' ? (v ? -1 : 0) : Math.trunc(toNum(v)));

/** A logical operator: booleans (or text True/False) logically, numbers bitwise, as VB. */
function logical(op: string, l: Value, r: Value): Value {
  if (typeof l === 'number' && typeof r === 'number') {
    const a = integral(l);
    const b = integral(r);
    if (op === 'and') return a & b;
    if (op === 'or') return a | b;
    return a ^ b;
  }
  const a = toBool(l);
  const b = toBool(r);
  if (op === 'and') return a && b;
  if (op === 'or') return a || b;
  return a !== b;
}

/** Applies a binary operator to two evaluated operands (AndAlso/OrElse short-circuit in the evaluator). */
export function binary(op: string, l: Value, r: Value): Value {
  switch (op) {
    case '&':
      return toStr(l) + toStr(r);
    case '+':
      return plus(l, r);
    case '-':
      if (l instanceof Date || r instanceof Date) throw new ExpressionError("Operator '-' is not defined for type 'Date'.");
      return toNum(l) - toNum(r);
    case '*':
      return toNum(l) * toNum(r);
    case '/':
      return toNum(l) / toNum(r);
    case '\\': {
      const b = Math.round(toNum(r));
      if (b === 0) throw new ExpressionError('Attempted to divide by zero.');
      return Math.trunc(Math.round(toNum(l)) / b);
    }
    case 'mod': {
      const a = toNum(l);
      const b = toNum(r);
      if (b === 0 && isNumLike(l) && Number.isInteger(a)) throw new ExpressionError('Attempted to divide by zero.');
      return a % b;
    }
    case '^':
      return toNum(l) ** toNum(r);
    case '=':
      return compare(l, r) === 0;
    case '<>':
      return compare(l, r) !== 0;
    case '<':
      return compare(l, r) < 0;
    case '>':
      return compare(l, r) > 0;
    case '<=':
      return compare(l, r) <= 0;
    case '>=':
      return compare(l, r) >= 0;
    case 'like':
      return like(toStr(l), toStr(r));
    case 'is':
      return l === r || (l === null && r === null);
    case 'isnot':
      return !(l === r || (l === null && r === null));
    case 'and':
    case 'or':
    case 'xor':
      return logical(op, l, r);
    default:
      throw new ExpressionError(`Operator '${op}' is not defined.`);
  }
}

/** Unary - + and Not (bitwise on numbers). */
export function unary(op: string, v: Value): Value {
  if (op === '-') return -toNum(v);
  if (op === '+') return toNum(v);
  return typeof v === 'number' ? ~integral(v) : !toBool(v);
}
