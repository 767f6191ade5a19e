import type { ColumnDef } from './ast.js';
import { sqlError } from './errors.js';
import type { WireType } from './protocol/tokens.js';

const INT_TYPES = new Set(['int', 'bigint', 'smallint', 'tinyint']);
const NUMERIC_TYPES = new Set(['decimal', 'numeric', 'float', 'real', 'money', 'smallmoney']);
const STRING_TYPES = new Set(['char', 'varchar', 'nchar', 'nvarchar', 'text', 'ntext', 'sysname']);
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,7})?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Converts a value to a column's type as an INSERT does, raising the server's conversion errors. */
export function coerce(col: ColumnDef, v: unknown, table: string): unknown {
  if (v === null || v === undefined) return null;
  const text = typeof v === 'string' ? v : String(v);
  if (INT_TYPES.has(col.type)) {
    if (typeof v === 'number') return Math.trunc(v);
    if (/^\s*[+-]?\d+\s*$/.test(text)) return Number(text);
    throw sqlError.convertToInt(text, 'varchar');
  }
  if (NUMERIC_TYPES.has(col.type)) {
    const n = typeof v === 'number' ? v : /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text) ? Number(text) : NaN;
    if (Number.isNaN(n)) throw sqlError.convertToNumeric('varchar');
    return col.scale !== undefined ? Number(n.toFixed(col.scale)) : n;
  }
  if (col.type === 'bit') {
    if (typeof v === 'number' || typeof v === 'boolean') return v ? 1 : 0;
    if (/^(1|true)$/i.test(text)) return 1;
    if (/^(0|false)$/i.test(text)) return 0;
    throw sqlError.convertToInt(text, 'varchar');
  }
  if (col.type === 'date' || col.type.startsWith('datetime') || col.type === 'smalldatetime') {
    const m = DATETIME.exec(text.trim());
    if (!m || Number.isNaN(Date.parse(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`))) throw sqlError.convertDate();
    if (col.type === 'date') return `${m[1]}-${m[2]}-${m[3]}`;
    return `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ?? ''}`;
  }
  if (STRING_TYPES.has(col.type) && typeof col.length === 'number' && text.length > col.length) {
    throw sqlError.truncated(table, col.name, text.slice(0, col.length));
  }
  return text;
}

/** The wire type a column's values are sent as. */
export function wireTypeOf(col: ColumnDef): WireType {
  if (col.type === 'bigint') return 'bigint';
  if (INT_TYPES.has(col.type)) return 'int';
  if (col.type === 'bit') return 'bit';
  if (NUMERIC_TYPES.has(col.type)) return 'float';
  return 'nvarchar';
}

/** The wire type of a computed value. */
export function wireTypeOfValue(v: unknown): WireType {
  if (typeof v === 'boolean') return 'bit';
  if (typeof v === 'number') return Number.isInteger(v) ? (Math.abs(v) < 2 ** 31 ? 'int' : 'bigint') : 'float';
  return 'nvarchar';
}

/** SQL comparison under the case-insensitive default collation; null when either side is null. */
export function compare(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = Number(a);
    const y = Number(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  }
  const x = String(a).trimEnd().toLowerCase();
  const y = String(b).trimEnd().toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
