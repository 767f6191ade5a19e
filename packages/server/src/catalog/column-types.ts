import { isNowToken } from './seed-tokens.js';

// Column types of each backing store, and whether a seed value fits one.

/** KQL scalar types a table column may have. */
export const KQL_TYPES = ['string', 'long', 'int', 'real', 'datetime', 'bool', 'dynamic', 'guid', 'timespan', 'decimal'] as const;

const SPARK_SIMPLE = [
  'string',
  'int',
  'integer',
  'bigint',
  'long',
  'smallint',
  'tinyint',
  'double',
  'float',
  'boolean',
  'date',
  'timestamp',
  'binary',
];
const SEARCH_SCALARS = [
  'Edm.String',
  'Edm.Int32',
  'Edm.Int64',
  'Edm.Double',
  'Edm.Boolean',
  'Edm.DateTimeOffset',
  'Edm.GeographyPoint',
  'Edm.ComplexType',
];
const SEARCH_VECTOR_ELEMENTS = ['Edm.Single', 'Edm.Half', 'Edm.Int16', 'Edm.SByte', 'Edm.Byte'];
/** TMSL column data types. */
export const TMSL_TYPES = ['string', 'int64', 'double', 'decimal', 'boolean', 'dateTime', 'binary'];

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESPAN = /^(-?\d+\.)?\d{2}:\d{2}:\d{2}(\.\d+)?$|^\d+(\.\d+)?(d|h|m|s|ms)$/;

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isInstant = (v: unknown) => typeof v === 'string' && (isNowToken(v) || ISO_DATETIME.test(v));
const isDecimal = (v: unknown) => isNum(v) || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));

/** True for a KQL column type. */
export const isKqlType = (t: string) => (KQL_TYPES as readonly string[]).includes(t);

/** True when `v` can be ingested into a KQL column of type `t` (null fits every type). */
export function fitsKql(t: string, v: unknown): boolean {
  if (v === null) return true;
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'int':
      return isInt(v) && Math.abs(v as number) <= 2 ** 31;
    case 'long':
      return isInt(v);
    case 'real':
      return isNum(v);
    case 'decimal':
      return isDecimal(v);
    case 'datetime':
      return isInstant(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'guid':
      return typeof v === 'string' && GUID.test(v);
    case 'timespan':
      return typeof v === 'string' && TIMESPAN.test(v);
    case 'dynamic':
      return true;
    default:
      return false;
  }
}

/** True for a Spark/Delta column type (`decimal(p,s)` included). */
export const isSparkType = (t: string) => SPARK_SIMPLE.includes(t) || /^decimal\(\d{1,2},\s*\d{1,2}\)$/.test(t);

/** True when `v` can be written to a Delta column of type `t`. */
export function fitsSpark(t: string, v: unknown): boolean {
  if (v === null) return true;
  if (t.startsWith('decimal')) return isDecimal(v);
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'int':
    case 'integer':
    case 'smallint':
    case 'tinyint':
    case 'bigint':
    case 'long':
      return isInt(v);
    case 'double':
    case 'float':
      return isNum(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'date':
      return typeof v === 'string' && (ISO_DATE.test(v) || isNowToken(v));
    case 'timestamp':
      return isInstant(v);
    case 'binary':
      return typeof v === 'string';
    default:
      return false;
  }
}

/** True for a search field type: an Edm scalar, or a collection of one (vector element types included). */
export function isSearchType(t: string): boolean {
  const inner = /^Collection\((.+)\)$/.exec(t)?.[1];
  return inner ? SEARCH_SCALARS.includes(inner) || SEARCH_VECTOR_ELEMENTS.includes(inner) : SEARCH_SCALARS.includes(t);
}

/** True when `v` can be uploaded into a search field of type `t`. */
export function fitsSearch(t: string, v: unknown): boolean {
  if (v === null) return true;
  const inner = /^Collection\((.+)\)$/.exec(t)?.[1];
  if (inner) return Array.isArray(v) && v.every((e) => fitsSearch(inner, e));
  switch (t) {
    case 'Edm.String':
      return typeof v === 'string';
    case 'Edm.Int32':
    case 'Edm.Int64':
    case 'Edm.Int16':
    case 'Edm.SByte':
    case 'Edm.Byte':
      return isInt(v);
    case 'Edm.Double':
    case 'Edm.Single':
    case 'Edm.Half':
      return isNum(v);
    case 'Edm.Boolean':
      return typeof v === 'boolean';
    case 'Edm.DateTimeOffset':
      return isInstant(v);
    case 'Edm.GeographyPoint':
      return typeof v === 'object' && (v as { type?: string }).type === 'Point';
    case 'Edm.ComplexType':
      return typeof v === 'object';
    default:
      return false;
  }
}

/** The TMSL data type a source column of a lakehouse (Spark) or warehouse (T-SQL) type maps to. */
export function tmslTypeOf(sourceType: string): string {
  const t = sourceType.toLowerCase().replace(/\(.*$/, '').trim();
  if (['string', 'varchar', 'char', 'nvarchar', 'nchar', 'uniqueidentifier'].includes(t)) return 'string';
  if (['int', 'integer', 'bigint', 'long', 'smallint', 'tinyint'].includes(t)) return 'int64';
  if (['double', 'float', 'real'].includes(t)) return 'double';
  if (['decimal', 'numeric', 'money'].includes(t)) return 'decimal';
  if (['boolean', 'bit'].includes(t)) return 'boolean';
  if (['date', 'timestamp', 'datetime2', 'datetime', 'time'].includes(t)) return 'dateTime';
  return 'binary';
}

/** True when `v` fits a T-SQL column of type `t` (loosely: numbers, strings, booleans for bit). */
export function fitsSql(t: string, v: unknown): boolean {
  if (v === null) return true;
  const tm = tmslTypeOf(t);
  if (tm === 'int64') return isInt(v);
  if (tm === 'double') return isNum(v);
  if (tm === 'decimal') return isDecimal(v);
  if (tm === 'boolean') return typeof v === 'boolean' || v === 0 || v === 1;
  if (tm === 'dateTime') return typeof v === 'string' && (isInstant(v) || /^\d{2}:\d{2}/.test(v));
  return typeof v === 'string';
}
