import {
  ExpressionError,
  generalDate,
  longTime,
  names,
  numberText,
  numericText,
  parseDate,
  roundEven,
  shortDate,
  toNum,
  type Value,
} from './values.js';

const { MONTHS, DAYS } = names;

/** Digits with en-US thousands separators. */
const group = (int: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A non-negative number at `digits` decimals, rounded away from zero at the midpoint as .NET formatting does. */
function fixed(n: number, digits: number): string {
  const f = 10 ** digits;
  const r = Math.round(Number((Math.abs(n) * f).toPrecision(15))) / f;
  return r.toFixed(digits);
}

/** .NET standard numeric format strings (C, D, E, F, G, N, P, R, X) in en-US, as .NET Framework writes them. */
function standardNumber(n: number, spec: string): string | undefined {
  const m = /^([CcDdEeFfGgNnPpRrXx])(\d{0,2})$/.exec(spec);
  if (!m) return undefined;
  const p = m[2] === '' ? undefined : Number(m[2]);
  const neg = n < 0 || Object.is(n, -0);
  const a = Math.abs(n);
  switch (m[1]!.toUpperCase()) {
    case 'C': {
      const [i, d] = fixed(a, p ?? 2).split('.');
      const s = `$${group(i!)}${d ? `.${d}` : ''}`;
      return neg && Number(fixed(a, p ?? 2)) !== 0 ? `(${s})` : s;
    }
    case 'D':
      if (!Number.isInteger(n)) throw new ExpressionError('Format specifier was invalid.');
      return `${neg && n !== 0 ? '-' : ''}${String(a).padStart(p ?? 0, '0')}`;
    case 'E': {
      const [mant, e] = a.toExponential(p ?? 6).split('e');
      const exp = Number(e);
      return `${neg ? '-' : ''}${mant}${m[1]}${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(3, '0')}`;
    }
    case 'F':
      return `${neg && Number(fixed(a, p ?? 2)) !== 0 ? '-' : ''}${fixed(a, p ?? 2)}`;
    case 'N': {
      const [i, d] = fixed(a, p ?? 2).split('.');
      return `${neg && Number(fixed(a, p ?? 2)) !== 0 ? '-' : ''}${group(i!)}${d ? `.${d}` : ''}`;
    }
    case 'P': {
      const [i, d] = fixed(a * 100, p ?? 2).split('.');
      return `${neg && Number(fixed(a * 100, p ?? 2)) !== 0 ? '-' : ''}${group(i!)}${d ? `.${d}` : ''} %`;
    }
    case 'X':
      if (!Number.isInteger(n)) throw new ExpressionError('Format specifier was invalid.');
      return ((n < 0 ? 2 ** 32 + n : n).toString(16)[m[1] === 'X' ? 'toUpperCase' : 'toLowerCase']() as string).padStart(p ?? 0, '0');
    default:
      return p === undefined ? numberText(n) : String(Number(n.toPrecision(p || 15)));
  }
}

/** A .NET custom numeric format (0 # . , % ‰ 'literal' \x, sections split by ;). */
function customNumber(n: number, spec: string): string {
  const sections = spec.split(/;(?=(?:[^']*'[^']*')*[^']*$)/);
  let fmt = sections[0]!;
  let v = n;
  if (n < 0 && sections[1] !== undefined && sections[1] !== '') {
    fmt = sections[1];
    v = -n;
  } else if (n === 0 && sections[2] !== undefined) fmt = sections[2];
  const plain = fmt.replace(/'[^']*'|"[^"]*"|\\./g, '');
  const point = plain.indexOf('.');
  const intPart = point < 0 ? plain : plain.slice(0, point);
  const decPart = point < 0 ? '' : plain.slice(point + 1);
  let scale = (plain.match(/%/g)?.length ?? 0) * 2 + (plain.match(/‰/g)?.length ?? 0) * 3;
  // Commas right before the point divide by 1000 each.
  const trailing = /(,+)$/.exec(intPart.replace(/[^0#,]/g, ''))?.[1]?.length ?? 0;
  scale -= trailing * 3;
  const useGroups = /[0#],+[0#]/.test(intPart);
  const maxDec = (decPart.match(/[0#]/g) ?? []).length;
  const minDec = /^[^#]*/.exec(decPart.replace(/[^0#]/g, ''))![0].length;
  const minInt = ((intPart.replace(/[^0#]/g, '').match(/0[0#]*$/) ?? [''])[0] ?? '').length;
  let digits = fixed(Math.abs(v) * 10 ** scale, maxDec);
  let [i, d = ''] = digits.split('.');
  d = d.replace(/0+$/, '');
  while (d.length < minDec) d += '0';
  i = i === '0' && minInt === 0 ? '' : i!.padStart(minInt, '0');
  if (useGroups) i = group(i);
  digits = `${i}${d ? `.${d}` : ''}`;
  const negative = v < 0 && Number(digits.replace(/,/g, '') || '0') !== 0 && sections.length < 2;
  let placed = false;
  let out = '';
  for (let k = 0; k < fmt.length; k++) {
    const c = fmt[k]!;
    if (c === "'" || c === '"') {
      const end = fmt.indexOf(c, k + 1);
      out += fmt.slice(k + 1, end < 0 ? undefined : end);
      k = end < 0 ? fmt.length : end;
    } else if (c === '\\') out += fmt[++k] ?? '';
    else if ('0#.,'.includes(c)) {
      if (!placed) out += digits;
      placed = true;
    } else out += c;
  }
  return (negative ? '-' : '') + out;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A date by a .NET standard (d D f F g G M O R s t T u U Y) or custom (yyyy MM dd HH hh mm ss tt fff …) format, en-US. */
export function formatDate(d: Date, spec: string): string {
  const std: Record<string, string> = {
    d: 'M/d/yyyy',
    D: 'dddd, MMMM d, yyyy',
    f: 'dddd, MMMM d, yyyy h:mm tt',
    F: 'dddd, MMMM d, yyyy h:mm:ss tt',
    g: 'M/d/yyyy h:mm tt',
    G: 'M/d/yyyy h:mm:ss tt',
    M: 'MMMM d',
    m: 'MMMM d',
    O: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffff",
    o: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffff",
    R: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
    r: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
    s: "yyyy'-'MM'-'dd'T'HH':'mm':'ss",
    t: 'h:mm tt',
    T: 'h:mm:ss tt',
    u: "yyyy'-'MM'-'dd HH':'mm':'ss'Z'",
    U: 'dddd, MMMM d, yyyy h:mm:ss tt',
    Y: 'MMMM yyyy',
    y: 'MMMM yyyy',
  };
  const fmt = spec.length === 1 ? std[spec] : spec.length === 2 && spec[0] === '%' ? spec.slice(1) : spec;
  if (fmt === undefined) throw new ExpressionError('Input string was not in a correct format.');
  let out = '';
  for (let i = 0; i < fmt.length; ) {
    const c = fmt[i]!;
    if (c === "'" || c === '"') {
      const end = fmt.indexOf(c, i + 1);
      out += fmt.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? fmt.length : end + 1;
      continue;
    }
    if (c === '\\') {
      out += fmt[i + 1] ?? '';
      i += 2;
      continue;
    }
    let run = 1;
    while (fmt[i + run] === c) run++;
    i += run;
    const h = d.getUTCHours();
    switch (c) {
      case 'y':
        out +=
          run === 1
            ? String(d.getUTCFullYear() % 100)
            : run === 2
              ? two(d.getUTCFullYear() % 100)
              : String(d.getUTCFullYear()).padStart(run, '0');
        break;
      case 'M':
        out +=
          run === 1
            ? d.getUTCMonth() + 1
            : run === 2
              ? two(d.getUTCMonth() + 1)
              : run === 3
                ? MONTHS[d.getUTCMonth()]!.slice(0, 3)
                : MONTHS[d.getUTCMonth()];
        break;
      case 'd':
        out +=
          run === 1 ? d.getUTCDate() : run === 2 ? two(d.getUTCDate()) : run === 3 ? DAYS[d.getUTCDay()]!.slice(0, 3) : DAYS[d.getUTCDay()];
        break;
      case 'h':
        out += run === 1 ? h % 12 || 12 : two(h % 12 || 12);
        break;
      case 'H':
        out += run === 1 ? h : two(h);
        break;
      case 'm':
        out += run === 1 ? d.getUTCMinutes() : two(d.getUTCMinutes());
        break;
      case 's':
        out += run === 1 ? d.getUTCSeconds() : two(d.getUTCSeconds());
        break;
      case 't':
        out += (h < 12 ? 'AM' : 'PM').slice(0, run === 1 ? 1 : 2);
        break;
      case 'f':
      case 'F': {
        const frac = String(d.getUTCMilliseconds()).padStart(3, '0').padEnd(run, '0').slice(0, run);
        out += c === 'F' ? frac.replace(/0+$/, '') : frac;
        break;
      }
      case 'z':
        out += run === 1 ? '+0' : run === 2 ? '+00' : '+00:00';
        break;
      case 'K':
        out += 'Z';
        break;
      case 'g':
        out += 'A.D.';
        break;
      default:
        out += c.repeat(run);
    }
  }
  return out;
}

/** VB's named formats of Format (General Date, Short Date, Currency, Percent, Yes/No …), or undefined. */
function named(v: Value, spec: string): string | undefined {
  switch (spec.toLowerCase()) {
    case 'general date':
      return v instanceof Date ? generalDate(v) : undefined;
    case 'long date':
      return v instanceof Date ? formatDate(v, 'D') : undefined;
    case 'short date':
      return v instanceof Date ? shortDate(v) : undefined;
    case 'long time':
    case 'medium time':
      return v instanceof Date ? longTime(v) : undefined;
    case 'short time':
      return v instanceof Date ? formatDate(v, 'HH:mm') : undefined;
    case 'general number':
      return numberText(toNum(v));
    case 'currency':
      return standardNumber(toNum(v), 'C');
    case 'fixed':
      return standardNumber(toNum(v), 'F2');
    case 'standard':
      return standardNumber(toNum(v), 'N2');
    case 'percent':
      return `${standardNumber(toNum(v) * 100, 'F2')}%`;
    case 'scientific':
      return toNum(v)
        .toExponential(2)
        .toUpperCase()
        .replace(/E([-+])(\d)$/, 'E$10$2');
    case 'yes/no':
      return toNum(v) !== 0 ? 'Yes' : 'No';
    case 'true/false':
      return toNum(v) !== 0 ? 'True' : 'False';
    case 'on/off':
      return toNum(v) !== 0 ? 'On' : 'Off';
    default:
      return undefined;
  }
}

/** VB's Format(value, style): .NET format strings for numbers and dates, and VB's named formats. */
export function format(v: Value, spec: string): string {
  if (v === null) return '';
  const n = named(v, spec);
  if (n !== undefined) return n;
  if (v instanceof Date) return spec === '' ? generalDate(v) : formatDate(v, spec);
  if (typeof v === 'string' && !numericText(v)) {
    // A field's date reaches the renderer as text (ISO from a query): it formats as the date the source held.
    const d = parseDate(v);
    if (d) return spec === '' ? generalDate(d) : formatDate(d, spec);
    return v;
  }
  const num = toNum(v as Value);
  if (spec === '') return numberText(num);
  return standardNumber(num, spec) ?? customNumber(num, spec);
}

/** FormatNumber / FormatCurrency / FormatPercent: grouped digits at `digits` decimals (2 by default). */
export function formatNumberLike(kind: 'number' | 'currency' | 'percent', v: Value, digits: number): string {
  const n = toNum(v) * (kind === 'percent' ? 100 : 1);
  const d = digits < 0 ? 2 : digits;
  const body = standardNumber(Math.abs(roundEven(n, 10)), `N${d}`)!;
  const neg = n < 0 && Number(body.replace(/,/g, '')) !== 0;
  if (kind === 'currency') return neg ? `($${body})` : `$${body}`;
  return `${neg ? '-' : ''}${body}${kind === 'percent' ? '%' : ''}`;
}
