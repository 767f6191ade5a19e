import { formatDate } from './format.js';
import {
  ExpressionError,
  generalDate,
  longTime,
  names,
  parseDate,
  shortDate,
  toDate,
  toInt,
  toNum,
  toStr,
  utc,
  type Value,
} from './values.js';

/** DateInterval.* members and the interval strings they stand for. */
export const DATE_INTERVALS: Record<string, string> = {
  year: 'yyyy',
  quarter: 'q',
  month: 'm',
  dayofyear: 'y',
  day: 'd',
  weekday: 'w',
  weekofyear: 'ww',
  hour: 'h',
  minute: 'n',
  second: 's',
};

const INTERVALS = new Set(Object.values(DATE_INTERVALS));

function interval(v: Value): string {
  const s = toStr(v).toLowerCase();
  if (!INTERVALS.has(s)) throw new ExpressionError(`Argument 'Interval' is not a valid value.`);
  return s;
}

const addMonths = (d: Date, n: number) => {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return utc(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
};

/** DateAdd(interval, number, date): months keep the day when it exists (Jan 31 + 1 month is Feb 28/29). */
export function dateAdd(iv: Value, n: Value, d: Value): Date {
  const date = toDate(d);
  const k = Math.trunc(toNum(n));
  const ms = (unit: number) => new Date(date.getTime() + k * unit);
  switch (interval(iv)) {
    case 'yyyy':
      return addMonths(date, 12 * k);
    case 'q':
      return addMonths(date, 3 * k);
    case 'm':
      return addMonths(date, k);
    case 'ww':
      return ms(7 * 86_400_000);
    case 'h':
      return ms(3_600_000);
    case 'n':
      return ms(60_000);
    case 's':
      return ms(1000);
    default:
      return ms(86_400_000);
  }
}

const dayOfYear = (d: Date) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
const startOfDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

/** Weekday(date, firstDayOfWeek = Sunday): 1 for the first day of the week. */
export function weekday(d: Date, first = 1): number {
  return ((d.getUTCDay() - (first - 1) + 7) % 7) + 1;
}

/** DateDiff(interval, date1, date2): calendar boundaries crossed for years/quarters/months/weeks, whole units otherwise. */
export function dateDiff(iv: Value, a: Value, b: Value, first: Value = 1): number {
  const d1 = toDate(a);
  const d2 = toDate(b);
  const span = d2.getTime() - d1.getTime();
  switch (interval(iv)) {
    case 'yyyy':
      return d2.getUTCFullYear() - d1.getUTCFullYear();
    case 'q':
      return (d2.getUTCFullYear() - d1.getUTCFullYear()) * 4 + Math.floor(d2.getUTCMonth() / 3) - Math.floor(d1.getUTCMonth() / 3);
    case 'm':
      return (d2.getUTCFullYear() - d1.getUTCFullYear()) * 12 + d2.getUTCMonth() - d1.getUTCMonth();
    case 'ww': {
      const f = toNum(first) || 1;
      const weekStart = (d: Date) => startOfDay(d) - (weekday(d, f) - 1) * 86_400_000;
      return Math.round((weekStart(d2) - weekStart(d1)) / (7 * 86_400_000));
    }
    case 'w':
      return Math.trunc(span / (7 * 86_400_000));
    case 'h':
      return Math.trunc(span / 3_600_000);
    case 'n':
      return Math.trunc(span / 60_000);
    case 's':
      return Math.trunc(span / 1000);
    default:
      return Math.trunc((startOfDay(d2) - startOfDay(d1)) / 86_400_000);
  }
}

/** DatePart(interval, date). */
export function datePart(iv: Value, v: Value, first: Value = 1): number {
  const d = toDate(v);
  switch (interval(iv)) {
    case 'yyyy':
      return d.getUTCFullYear();
    case 'q':
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'm':
      return d.getUTCMonth() + 1;
    case 'y':
      return dayOfYear(d);
    case 'w':
      return weekday(d, toNum(first) || 1);
    case 'ww': {
      const jan1 = utc(d.getUTCFullYear(), 0, 1);
      return Math.floor((dayOfYear(d) - 1 + weekday(jan1, toNum(first) || 1) - 1) / 7) + 1;
    }
    case 'h':
      return d.getUTCHours();
    case 'n':
      return d.getUTCMinutes();
    case 's':
      return d.getUTCSeconds();
    default:
      return d.getUTCDate();
  }
}

/** FormatDateTime(date, DateFormat): 0 general, 1 long date, 2 short date, 3 long time, 4 short time. */
export function formatDateTime(v: Value, style: Value = 0): string {
  if (v === null) return '';
  const d = toDate(v);
  switch (toNum(style)) {
    case 0:
      return d.getUTCHours() + d.getUTCMinutes() + d.getUTCSeconds() === 0 ? shortDate(d) : generalDate(d);
    case 1:
      return formatDate(d, 'D');
    case 2:
      return shortDate(d);
    case 3:
      return longTime(d);
    case 4:
      return formatDate(d, 'HH:mm');
    default:
      throw new ExpressionError("Argument 'NamedFormat' is not a valid value.");
  }
}

/** The date functions, by lower-case name: [least, most arguments, implementation]. */
export const DATE_FUNCTIONS: Record<string, [number, number, (a: Value[]) => Value]> = {
  now: [0, 0, () => new Date()],
  today: [0, 0, () => new Date(startOfDay(new Date()))],
  dateadd: [3, 3, (a) => dateAdd(a[0]!, a[1]!, a[2]!)],
  datediff: [3, 5, (a) => dateDiff(a[0]!, a[1]!, a[2]!, a[3])],
  datepart: [2, 4, (a) => datePart(a[0]!, a[1]!, a[2])],
  dateserial: [
    3,
    3,
    (a) => {
      const y = toInt(a[0]!);
      return utc(y < 100 && y >= 0 ? y + (y < 30 ? 2000 : 1900) : y, toInt(a[1]!) - 1, toInt(a[2]!));
    },
  ],
  timeserial: [3, 3, (a) => utc(1, 0, 1, toInt(a[0]!), toInt(a[1]!), toInt(a[2]!))],
  datevalue: [1, 1, (a) => new Date(startOfDay(toDate(a[0]!)))],
  timevalue: [1, 1, (a) => ((d) => utc(1, 0, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()))(timeOf(a[0]!))],
  cdate: [1, 1, (a) => toDate(a[0]!)],
  year: [1, 1, (a) => toDate(a[0]!).getUTCFullYear()],
  month: [1, 1, (a) => toDate(a[0]!).getUTCMonth() + 1],
  day: [1, 1, (a) => toDate(a[0]!).getUTCDate()],
  hour: [1, 1, (a) => toDate(a[0]!).getUTCHours()],
  minute: [1, 1, (a) => toDate(a[0]!).getUTCMinutes()],
  second: [1, 1, (a) => toDate(a[0]!).getUTCSeconds()],
  weekday: [1, 2, (a) => weekday(toDate(a[0]!), a[1] === undefined ? 1 : toNum(a[1]) || 1)],
  weekdayname: [
    1,
    3,
    (a) => {
      const n = toInt(a[0]!);
      if (n < 1 || n > 7) throw new ExpressionError("Argument 'Weekday' is not a valid value.");
      const first = a[2] === undefined ? 1 : toNum(a[2]) || 1;
      const name = names.DAYS[(n - 1 + first - 1) % 7]!;
      return a[1] !== undefined && a[1] !== null && toNum(a[1]) !== 0 ? name.slice(0, 3) : name;
    },
  ],
  monthname: [
    1,
    2,
    (a) => {
      const n = toInt(a[0]!);
      if (n < 1 || n > 12) throw new ExpressionError("Argument 'Month' is not a valid value.");
      const name = names.MONTHS[n - 1]!;
      return a[1] !== undefined && a[1] !== null && toNum(a[1]) !== 0 ? name.slice(0, 3) : name;
    },
  ],
  formatdatetime: [1, 2, (a) => formatDateTime(a[0]!, a[1])],
  isdate: [1, 1, (a) => a[0] instanceof Date || (typeof a[0] === 'string' && parseDate(a[0]) !== undefined)],
};

function timeOf(v: Value): Date {
  if (typeof v === 'string') {
    const m = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?\s*$/i.exec(v);
    if (m) {
      const h = (+m[1]! % (m[4] ? 12 : 24)) + (m[4]?.toUpperCase() === 'PM' ? 12 : 0);
      return utc(1, 0, 1, h, +m[2]!, +(m[3] ?? 0));
    }
  }
  return toDate(v);
}
