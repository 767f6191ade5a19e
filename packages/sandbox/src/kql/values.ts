/** Kusto scalar types the emulator stores. */
export type KqlType = 'string' | 'long' | 'int' | 'real' | 'bool' | 'datetime' | 'timespan' | 'dynamic' | 'guid' | 'decimal';

/** A column of a result: its name and KQL type. */
export interface Column {
  name: string;
  type: KqlType;
}

/** A tabular result with runtime values (Date for datetime, Span for timespan). */
export interface ResultTable {
  columns: Column[];
  rows: Record<string, unknown>[];
}

const ALIASES: Record<string, KqlType> = {
  string: 'string',
  long: 'long',
  int64: 'long',
  int: 'int',
  int32: 'int',
  real: 'real',
  double: 'real',
  float: 'real',
  bool: 'bool',
  boolean: 'bool',
  datetime: 'datetime',
  date: 'datetime',
  timespan: 'timespan',
  time: 'timespan',
  dynamic: 'dynamic',
  guid: 'guid',
  uniqueid: 'guid',
  decimal: 'decimal',
};

/** The canonical type for a schema's type name, or undefined for an unknown one. */
export function kqlType(name: string): KqlType | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

/** The .NET type name of the V1 frames' DataType. */
export const DOTNET_TYPE: Record<KqlType, string> = {
  string: 'String',
  long: 'Int64',
  int: 'Int32',
  real: 'Double',
  bool: 'Boolean',
  datetime: 'DateTime',
  timespan: 'TimeSpan',
  dynamic: 'Object',
  guid: 'Guid',
  decimal: 'Decimal',
};

/** A timespan value (milliseconds). */
export class Span {
  constructor(readonly ms: number) {}
}

const UNITS: Record<string, number> = {
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  ms: 1,
  milli: 1,
  millis: 1,
  millisecond: 1,
  milliseconds: 1,
  tick: 0.0001,
  ticks: 0.0001,
  microsecond: 0.001,
  microseconds: 0.001,
};

/** '1h', '30m', '1.02:03:04', '00:05:00' → Span. */
export function parseSpan(text: string): Span | undefined {
  const t = text.trim();
  const unit = /^(-?\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(t);
  if (unit && UNITS[unit[2]!.toLowerCase()] !== undefined) return new Span(Number(unit[1]) * UNITS[unit[2]!.toLowerCase()]!);
  const clock = /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(t);
  if (clock) {
    const [, neg, d, h, m, s, f] = clock;
    const ms = ((Number(d ?? 0) * 24 + Number(h)) * 3600 + Number(m) * 60 + Number(s ?? 0)) * 1000 + Number(`0.${f ?? 0}`) * 1000;
    return new Span(neg ? -ms : ms);
  }
  return undefined;
}

function formatSpan(s: Span): string {
  const neg = s.ms < 0;
  let ms = Math.abs(s.ms);
  const d = Math.floor(ms / 86_400_000);
  ms -= d * 86_400_000;
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = Math.floor((ms % 60_000) / 1000);
  const frac = Math.round((ms % 1000) * 10_000);
  return `${neg ? '-' : ''}${d ? `${d}.` : ''}${pad(h)}:${pad(m)}:${pad(sec)}${frac ? `.${String(frac).padStart(7, '0')}` : ''}`;
}

/** Converts ingested text (or a JSON value) to a stored value of the column type; null when it does not convert. */
export function convert(value: unknown, type: KqlType): unknown {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : undefined;
  if (text !== undefined && text === '' && type !== 'string') return null;
  switch (type) {
    case 'string':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'long':
    case 'int': {
      const n = typeof value === 'number' ? value : Number(text);
      return Number.isFinite(n) ? Math.trunc(n) : null;
    }
    case 'real': {
      const n = typeof value === 'number' ? value : Number(text);
      return Number.isFinite(n) ? n : null;
    }
    case 'decimal': {
      const n = typeof value === 'number' ? value : Number(text);
      return Number.isFinite(n) ? String(value) : null;
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      const t = String(value).trim().toLowerCase();
      return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : null;
    }
    case 'datetime': {
      const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
      return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
    }
    case 'timespan': {
      if (value instanceof Span) return formatSpan(value);
      const s = parseSpan(String(value));
      return s ? formatSpan(s) : null;
    }
    case 'guid':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(value)) ? String(value).toLowerCase() : null;
    case 'dynamic':
      if (text === undefined) return value;
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
  }
}

/** A stored value as the evaluator sees it (datetimes as Date, timespans as Span). */
export function toRuntime(value: unknown, type: KqlType): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'datetime') return new Date(String(value));
  if (type === 'timespan') return parseSpan(String(value)) ?? null;
  if (type === 'decimal') return Number(value);
  return value;
}

/** A runtime value as a response frame carries it. */
export function toWire(value: unknown, type: KqlType): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString() : null;
  if (value instanceof Span) return formatSpan(value);
  if (type === 'decimal') return String(value);
  if ((type === 'long' || type === 'int') && typeof value === 'number') return Math.trunc(value);
  return value;
}

/** The type of a computed value. */
export function typeOfValue(v: unknown): KqlType {
  if (v instanceof Date) return 'datetime';
  if (v instanceof Span) return 'timespan';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'long' : 'real';
  if (typeof v === 'string') return 'string';
  return 'dynamic';
}
