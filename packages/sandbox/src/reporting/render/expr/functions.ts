import { DATE_FUNCTIONS } from './dates.js';
import { format, formatNumberLike } from './format.js';
import { compare } from './operators.js';
import { ExpressionError, numericText, roundEven, toBool, toInt, toNum, toStr, type Value } from './values.js';

type Fn = [number, number, (a: Value[]) => Value];

const str = (v: Value | undefined) => toStr(v ?? null);
const int = (v: Value | undefined, fallback: number) => (v === undefined || v === null ? fallback : toInt(v));
const textCompare = (v: Value | undefined) => v !== undefined && v !== null && toNum(v) === 1;

/** A count argument (Length, Number): refused below zero, as VB does. */
function count(name: string, v: Value): number {
  const n = toInt(v);
  if (n < 0) throw new ExpressionError(`Argument '${name}' must be greater than or equal to zero.`);
  return n;
}

function arg(name: string, ok: boolean) {
  if (!ok) throw new ExpressionError(`Argument '${name}' must be greater than or equal to zero.`);
}

/** InStr([start,] string1, string2[, compare]): 1-based position or 0. */
function inStr(a: Value[]): number {
  const withStart = a.length >= 3 && typeof a[0] === 'number';
  const start = withStart ? toInt(a[0]!) : 1;
  const [s, find, cmp] = withStart ? [a[1], a[2], a[3]] : [a[0], a[1], a[2]];
  arg('Start', start >= 1);
  let hay = str(s);
  let needle = str(find);
  if (textCompare(cmp)) {
    hay = hay.toLowerCase();
    needle = needle.toLowerCase();
  }
  if (start > hay.length && needle !== '') return 0;
  return hay.indexOf(needle, start - 1) + 1;
}

function replace(a: Value[]): Value {
  const s = str(a[0]);
  const find = str(a[1]);
  const by = str(a[2]);
  const start = int(a[3], 1);
  let count = int(a[4], -1);
  arg('Start', start >= 1);
  if (find === '') return s.slice(start - 1);
  const text = textCompare(a[5]);
  let out = '';
  let rest = s.slice(start - 1);
  for (;;) {
    const i = count === 0 ? -1 : text ? rest.toLowerCase().indexOf(find.toLowerCase()) : rest.indexOf(find);
    if (i < 0) return out + rest;
    out += rest.slice(0, i) + by;
    rest = rest.slice(i + find.length);
    count--;
  }
}

const split = (a: Value[]): Value => {
  const s = str(a[0]);
  const d = a[1] === undefined ? ' ' : str(a[1]);
  if (s === '') return [''];
  const parts = d === '' ? [s] : s.split(d);
  const limit = int(a[2], -1);
  return limit > 0 && parts.length > limit ? [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(d)] : parts;
};

const join = (a: Value[]): Value => {
  const list = a[0];
  const d = a[1] === undefined ? ' ' : str(a[1]);
  if (!Array.isArray(list)) {
    if (list === null || list === undefined) throw new ExpressionError("Argument 'SourceArray' is Nothing.");
    return str(list);
  }
  return list.map((x) => toStr(Array.isArray(x) ? null : x)).join(d);
};

function val(v: Value): number {
  const s = str(v).replace(/[\s\t\n]/g, '');
  if (/^&H[0-9a-f]+/i.test(s)) return Number.parseInt(s.slice(2), 16);
  const m = /^[-+]?(\d+\.?\d*|\.\d+)(E[-+]?\d+)?/i.exec(s);
  return m ? Number(m[0]) : 0;
}

const num1 = (f: (n: number) => number): Fn => [1, 1, (a) => f(toNum(a[0]!))];

/** The functions of the report language besides aggregates, by lower-case name: [least, most arguments, implementation]. */
export const FUNCTIONS: Record<string, Fn> = {
  ...DATE_FUNCTIONS,
  // Strings.
  len: [1, 1, (a) => (a[0] instanceof Date ? 8 : str(a[0]).length)],
  left: [2, 2, (a) => str(a[0]).slice(0, count('Length', a[1]!))],
  right: [2, 2, (a) => ((n) => (n === 0 ? '' : str(a[0]).slice(-n)))(count('Length', a[1]!))],
  mid: [
    2,
    3,
    (a) => {
      const start = toInt(a[1]!);
      if (start < 1) throw new ExpressionError("Argument 'Start' must be greater than zero.");
      const n = int(a[2], Number.MAX_SAFE_INTEGER);
      arg('Length', n >= 0);
      return str(a[0]).slice(start - 1, start - 1 + n);
    },
  ],
  instr: [2, 4, inStr],
  instrrev: [
    2,
    4,
    (a) => {
      const s = str(a[0]);
      const start = int(a[2], -1);
      return s.lastIndexOf(str(a[1]), start === -1 ? s.length : start - 1) + 1;
    },
  ],
  replace: [3, 6, replace],
  trim: [1, 1, (a) => str(a[0]).replace(/^ +| +$/g, '')],
  ltrim: [1, 1, (a) => str(a[0]).replace(/^ +/, '')],
  rtrim: [1, 1, (a) => str(a[0]).replace(/ +$/, '')],
  ucase: [1, 1, (a) => (a[0] === null ? null : str(a[0]).toUpperCase())],
  lcase: [1, 1, (a) => (a[0] === null ? null : str(a[0]).toLowerCase())],
  strcomp: [
    2,
    3,
    (a) => {
      const [x, y] = textCompare(a[2]) ? [str(a[0]).toLowerCase(), str(a[1]).toLowerCase()] : [str(a[0]), str(a[1])];
      return x < y ? -1 : x > y ? 1 : 0;
    },
  ],
  space: [1, 1, (a) => ' '.repeat(count('Number', a[0]!))],
  strreverse: [1, 1, (a) => [...str(a[0])].reverse().join('')],
  split: [1, 4, split],
  join: [1, 2, join],
  chr: [1, 1, (a) => String.fromCharCode(toInt(a[0]!))],
  chrw: [1, 1, (a) => String.fromCharCode(toInt(a[0]!))],
  asc: [1, 1, (a) => str(a[0]).charCodeAt(0)],
  format: [1, 2, (a) => format(a[0]!, a[1] === undefined || a[1] === null ? '' : str(a[1]))],
  formatnumber: [1, 5, (a) => formatNumberLike('number', a[0]!, int(a[1], -1))],
  formatcurrency: [1, 5, (a) => formatNumberLike('currency', a[0]!, int(a[1], -1))],
  formatpercent: [1, 5, (a) => formatNumberLike('percent', a[0]!, int(a[1], -1))],
  // Math (also as Math.X).
  abs: num1(Math.abs),
  round: [1, 2, (a) => roundEven(toNum(a[0]!), int(a[1], 0))],
  floor: num1(Math.floor),
  ceiling: num1(Math.ceil),
  sqrt: num1(Math.sqrt),
  pow: [2, 2, (a) => toNum(a[0]!) ** toNum(a[1]!)],
  int: num1(Math.floor),
  fix: num1(Math.trunc),
  truncate: num1(Math.trunc),
  sign: num1((n) => (n > 0 ? 1 : n < 0 ? -1 : 0)),
  exp: num1(Math.exp),
  log: [1, 2, (a) => (a[1] === undefined ? Math.log(toNum(a[0]!)) : Math.log(toNum(a[0]!)) / Math.log(toNum(a[1])))],
  log10: num1(Math.log10),
  'math.min': [2, 2, (a) => (compare(a[0]!, a[1]!) <= 0 ? a[0]! : a[1]!)],
  'math.max': [2, 2, (a) => (compare(a[0]!, a[1]!) >= 0 ? a[0]! : a[1]!)],
  // Conversion and inspection.
  cstr: [1, 1, (a) => toStr(a[0]!)],
  cint: [1, 1, (a) => toInt(a[0]!)],
  cshort: [1, 1, (a) => toInt(a[0]!)],
  clng: [1, 1, (a) => toInt(a[0]!, 64)],
  cdbl: [1, 1, (a) => toNum(a[0]!)],
  csng: [1, 1, (a) => Math.fround(toNum(a[0]!))],
  cdec: [1, 1, (a) => Number(toNum(a[0]!).toPrecision(15))],
  cbool: [1, 1, (a) => toBool(a[0]!)],
  val: [1, 1, (a) => val(a[0]!)],
  isnothing: [1, 1, (a) => a[0] === null],
  isnumeric: [1, 1, (a) => typeof a[0] === 'number' || typeof a[0] === 'boolean' || (typeof a[0] === 'string' && numericText(a[0]))],
  isarray: [1, 1, (a) => Array.isArray(a[0])],
  isdbnull: [1, 1, () => false],
  typename: [
    1,
    1,
    (a) => {
      const v = a[0];
      if (v === null) return 'Nothing';
      if (Array.isArray(v)) return 'Object()';
      if (v instanceof Date) return 'Date';
      return typeof v === 'string' ? 'String' : typeof v === 'boolean' ? 'Boolean' : Number.isInteger(v) ? 'Integer' : 'Double';
    },
  ],
  // Decision (IIf evaluates both branches, as VB does; If is the short-circuit operator, handled by the evaluator).
  iif: [3, 3, (a) => (toBool(a[0]!) ? a[1]! : a[2]!)],
  switch: [
    2,
    Number.MAX_SAFE_INTEGER,
    (a) => {
      if (a.length % 2) throw new ExpressionError("Argument 'VarExpr' must have an even number of elements.");
      for (let i = 0; i < a.length; i += 2) if (toBool(a[i]!)) return a[i + 1]!;
      return null;
    },
  ],
  choose: [
    2,
    Number.MAX_SAFE_INTEGER,
    (a) => {
      const i = Math.trunc(toNum(a[0]!));
      return i >= 1 && i < a.length ? a[i]! : null;
    },
  ],
};

/** Methods and properties of .NET values (`x.ToString("N2")`, `s.Length`, `d.AddDays(1)` …). */
export function method(target: Value, name: string, a: Value[]): Value {
  const n = name.toLowerCase();
  if (target === null) throw new ExpressionError('Object reference not set to an instance of an object.');
  if (n === 'tostring')
    return a.length
      ? format(target, str(a[0]))
      : Array.isArray(target)
        ? 'System.Object[]'
        : target instanceof Date
          ? format(target, 'G')
          : toStr(target);
  if (Array.isArray(target)) {
    if (n === 'length' || n === 'count') return target.length;
    throw new ExpressionError(`Public member '${name}' on type 'Object()' not found.`);
  }
  if (target instanceof Date) {
    const d = target;
    const add = (iv: string) => FUNCTIONS.dateadd![2]([iv, a[0]!, d]);
    const props: Record<string, () => Value> = {
      year: () => d.getUTCFullYear(),
      month: () => d.getUTCMonth() + 1,
      day: () => d.getUTCDate(),
      hour: () => d.getUTCHours(),
      minute: () => d.getUTCMinutes(),
      second: () => d.getUTCSeconds(),
      dayofweek: () => d.getUTCDay(),
      dayofyear: () => FUNCTIONS.datepart![2](['y', d]),
      date: () => FUNCTIONS.datevalue![2]([d]),
      adddays: () => new Date(d.getTime() + toNum(a[0]!) * 86_400_000),
      addhours: () => new Date(d.getTime() + toNum(a[0]!) * 3_600_000),
      addminutes: () => new Date(d.getTime() + toNum(a[0]!) * 60_000),
      addseconds: () => new Date(d.getTime() + toNum(a[0]!) * 1000),
      addmonths: () => add('m'),
      addyears: () => add('yyyy'),
    };
    const f = props[n];
    if (!f) throw new ExpressionError(`Public member '${name}' on type 'Date' not found.`);
    return f();
  }
  const s = toStr(target);
  const strings: Record<string, () => Value> = {
    length: () => s.length,
    toupper: () => s.toUpperCase(),
    tolower: () => s.toLowerCase(),
    trim: () => s.trim(),
    trimstart: () => s.trimStart(),
    trimend: () => s.trimEnd(),
    substring: () => {
      const start = toInt(a[0]!);
      const len = a[1] === undefined ? s.length - start : toInt(a[1]);
      if (start < 0 || len < 0 || start + len > s.length)
        throw new ExpressionError('Index and length must refer to a location within the string.');
      return s.slice(start, start + len);
    },
    contains: () => s.includes(str(a[0])),
    startswith: () => s.startsWith(str(a[0])),
    endswith: () => s.endsWith(str(a[0])),
    indexof: () => s.indexOf(str(a[0])),
    replace: () => s.split(str(a[0])).join(str(a[1])),
    padleft: () => s.padStart(toInt(a[0]!), a[1] === undefined ? ' ' : str(a[1])),
    padright: () => s.padEnd(toInt(a[0]!), a[1] === undefined ? ' ' : str(a[1])),
    split: () => s.split(str(a[0])),
  };
  const f = strings[n];
  if (!f)
    throw new ExpressionError(
      `Public member '${name}' on type '${typeof target === 'string' ? 'String' : typeof target === 'number' ? 'Double' : 'Boolean'}' not found.`,
    );
  return f();
}

/** VB constants and enumeration members the language names (DateInterval.Day, DateFormat.ShortDate, vbCrLf …). */
export const CONSTANTS: Record<string, Value> = {
  vbcrlf: '\r\n',
  vbnewline: '\r\n',
  vbcr: '\r',
  vblf: '\n',
  vbtab: '\t',
  vbnullstring: '',
  'math.pi': Math.PI,
  'math.e': Math.E,
  'dateformat.generaldate': 0,
  'dateformat.longdate': 1,
  'dateformat.shortdate': 2,
  'dateformat.longtime': 3,
  'dateformat.shorttime': 4,
  'comparemethod.binary': 0,
  'comparemethod.text': 1,
  'tristate.true': -1,
  'tristate.false': 0,
  'tristate.usedefault': -2,
  ...Object.fromEntries(
    ['system', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d, i) => [`firstdayofweek.${d}`, i]),
  ),
};
