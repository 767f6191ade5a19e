import { ServiceError } from '../http/errors.js';
import { messageError } from './errors.js';

// Push datasets (Power BI REST "Push Datasets"): a schema of tables, columns, measures and relationships created by
// API, and rows added by API. The limits are those of learn.microsoft.com/power-bi/developer/embedded/push-datasets-limitations.

/** The documented push dataset limits. */
export const PUSH_LIMITS = {
  tables: 75,
  columns: 75,
  relationships: 75,
  rowsPerPost: 10_000,
  rowsPerHour: 1_000_000,
  postsPerMinute: 120,
  fifoRows: 200_000,
  noneRows: 5_000_000,
  stringChars: 4_000,
};

/** The push data types, by the lower-case names the service accepts (its examples also send `bool` and `string`). */
const DATA_TYPES: Record<string, PushDataType> = {
  int64: 'Int64',
  double: 'Double',
  boolean: 'Boolean',
  bool: 'Boolean',
  datetime: 'DateTime',
  string: 'String',
  decimal: 'Decimal',
};
export type PushDataType = 'Int64' | 'Double' | 'Boolean' | 'DateTime' | 'String' | 'Decimal';

export interface PushColumn {
  name: string;
  dataType: PushDataType;
  /** The type as the request spelled it (answered back as sent). */
  sentType: string;
  formatString?: string;
}
export interface PushMeasure {
  name: string;
  expression: string;
  formatString?: string;
}
export interface PushTable {
  name: string;
  columns: PushColumn[];
  measures: PushMeasure[];
  rows: Array<Record<string, string | number | boolean | null>>;
}
export interface PushRelationship {
  name: string;
  fromTable: string;
  fromColumn: string;
  toTable: string;
  toColumn: string;
  crossFilteringBehavior: string;
}
export interface PushDataset {
  id: string;
  groupId: string;
  name: string;
  defaultMode: 'Push' | 'Streaming' | 'PushStreaming';
  retention: 'None' | 'basicFIFO';
  tables: PushTable[];
  relationships: PushRelationship[];
  configuredBy: string;
  createdAt: number;
  /** When each POST rows request arrived, and how many rows it added (the hourly and per-minute limits). */
  posts: Array<{ at: number; rows: number }>;
}

/** The service's answer to a malformed body: 400 BadRequest with the details naming what is wrong. */
export function badRequest(message: string, target = 'dataset'): ServiceError {
  return new ServiceError(400, 'BadRequest', 'Bad Request', { form: 'details', details: [{ message, target }] });
}

const TABLE_NAME = /^[\x09\x0A\x0D\x20\x23\x2D\x30-\x39\x40-\x5A\x5E-\x5F\x61-\x7A\x7E-\uD7FF\uE000-\uFFFD]{1,100}$/u;
const COLUMN_NAME = /^[\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD]+$/u;

function known(body: Record<string, unknown>, allowed: string[], type: string, target: string) {
  for (const k of Object.keys(body))
    if (!allowed.includes(k))
      throw badRequest(
        `The property '${k}' does not exist on type '${type}'. Make sure to only use property names that are defined by the type.`,
        target,
      );
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A table of a create or PUT request, validated (names, data types, the column limit); rows are not taken from it. */
export function parseTable(raw: unknown, at: string): PushTable {
  if (!isObject(raw)) throw badRequest(`${at} must be an object.`, at);
  known(
    raw,
    ['name', 'columns', 'rows', 'measures', 'isHidden', 'description', 'source'],
    'Microsoft.PowerBI.ServiceContracts.Api.Table',
    at,
  );
  if (typeof raw.name !== 'string' || !TABLE_NAME.test(raw.name))
    throw badRequest(`${at}.name is required: 1 to 100 characters, without the characters a table name may not hold.`, at);
  if (!Array.isArray(raw.columns) || !raw.columns.length) throw badRequest(`${at}.columns is required: a non-empty array.`, at);
  if (raw.columns.length > PUSH_LIMITS.columns)
    throw messageError(
      400,
      'InvalidRequest',
      `Table '${raw.name}' has ${raw.columns.length} columns; a push dataset table holds at most ${PUSH_LIMITS.columns}.`,
    );
  const columns = raw.columns.map((c: unknown, i: number): PushColumn => {
    const where = `${at}.columns[${i}]`;
    if (!isObject(c)) throw badRequest(`${where} must be an object.`, where);
    known(
      c,
      ['name', 'dataType', 'formatString', 'sortByColumn', 'dataCategory', 'isHidden', 'summarizeBy'],
      'Microsoft.PowerBI.ServiceContracts.Api.Column',
      where,
    );
    if (typeof c.name !== 'string' || !COLUMN_NAME.test(c.name)) throw badRequest(`${where}.name is required.`, where);
    if (typeof c.dataType !== 'string') throw badRequest(`${where}.dataType is required.`, where);
    const dataType = DATA_TYPES[c.dataType.toLowerCase()];
    if (!dataType)
      throw messageError(
        400,
        'InvalidRequest',
        `Column '${c.name}' of table '${raw.name}' has data type '${c.dataType}'; push datasets take Int64, Double, Boolean, Datetime, String or Decimal.`,
      );
    return {
      name: c.name,
      dataType,
      sentType: c.dataType,
      ...(typeof c.formatString === 'string' ? { formatString: c.formatString } : {}),
    };
  });
  const dup = columns.find((c, i) => columns.findIndex((d) => d.name.toLowerCase() === c.name.toLowerCase()) !== i);
  if (dup) throw messageError(400, 'InvalidRequest', `Table '${raw.name}' declares column '${dup.name}' twice.`);
  const measures = (Array.isArray(raw.measures) ? raw.measures : []).map((m: unknown, i: number): PushMeasure => {
    const where = `${at}.measures[${i}]`;
    if (!isObject(m) || typeof m.name !== 'string' || !m.name || typeof m.expression !== 'string' || !m.expression)
      throw badRequest(`${where} needs a name and a DAX expression.`, where);
    return { name: m.name, expression: m.expression, ...(typeof m.formatString === 'string' ? { formatString: m.formatString } : {}) };
  });
  return { name: raw.name, columns, measures, rows: [] };
}

/** The tables and relationships of a create request, validated against each other and the limits. */
export function parseSchema(body: Record<string, any>): { tables: PushTable[]; relationships: PushRelationship[] } {
  if (!Array.isArray(body.tables) || !body.tables.length) throw badRequest("The request field 'tables' is required: a non-empty array.");
  if (body.tables.length > PUSH_LIMITS.tables)
    throw messageError(
      400,
      'InvalidRequest',
      `The dataset has ${body.tables.length} tables; a push dataset holds at most ${PUSH_LIMITS.tables}.`,
    );
  const tables = body.tables.map((t: unknown, i: number) => parseTable(t, `dataset.tables[${i}]`));
  const dup = tables.find(
    (t: PushTable, i: number) => tables.findIndex((u: PushTable) => u.name.toLowerCase() === t.name.toLowerCase()) !== i,
  );
  if (dup) throw messageError(400, 'InvalidRequest', `The dataset declares table '${dup.name}' twice.`);
  const rels = body.relationships ?? [];
  if (!Array.isArray(rels)) throw badRequest("'relationships' must be an array.");
  if (rels.length > PUSH_LIMITS.relationships)
    throw messageError(
      400,
      'InvalidRequest',
      `The dataset has ${rels.length} relationships; a push dataset holds at most ${PUSH_LIMITS.relationships}.`,
    );
  const relationships = rels.map((r: unknown, i: number): PushRelationship => {
    const where = `dataset.relationships[${i}]`;
    if (!isObject(r)) throw badRequest(`${where} must be an object.`, where);
    for (const k of ['name', 'fromTable', 'fromColumn', 'toTable', 'toColumn'])
      if (typeof r[k] !== 'string' || !r[k]) throw badRequest(`${where}.${k} is required.`, where);
    for (const [t, c] of [
      [r.fromTable, r.fromColumn],
      [r.toTable, r.toColumn],
    ] as const) {
      const table = tables.find((x: PushTable) => x.name === t);
      if (!table?.columns.some((x) => x.name === c))
        throw messageError(400, 'InvalidRequest', `Relationship '${r.name}' names column '${t}'[${c}], which the dataset does not have.`);
    }
    const cross = r.crossFilteringBehavior ?? 'OneDirection';
    if (!['OneDirection', 'BothDirections', 'Automatic'].includes(cross))
      throw badRequest(`${where}.crossFilteringBehavior '${cross}' is not OneDirection, BothDirections or Automatic.`, where);
    return {
      name: r.name,
      fromTable: r.fromTable,
      fromColumn: r.fromColumn,
      toTable: r.toTable,
      toColumn: r.toColumn,
      crossFilteringBehavior: cross,
    };
  });
  return { tables, relationships };
}

/** A pushed value as the column's type holds it; an error names the row and column when it does not fit. */
function coerce(col: PushColumn, v: unknown, at: string): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  const refuse = () =>
    messageError(400, 'InvalidRequest', `${at}: value ${JSON.stringify(v)} does not fit column '${col.name}' of type ${col.dataType}.`);
  switch (col.dataType) {
    case 'Int64': {
      const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isInteger(n)) throw refuse();
      return n;
    }
    case 'Double':
    case 'Decimal': {
      const n = typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v) ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw refuse();
      return n;
    }
    case 'Boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw refuse();
    case 'DateTime': {
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw refuse();
      return new Date(Date.parse(v)).toISOString();
    }
    default: {
      const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
      if (s === undefined) throw refuse();
      if (s.length > PUSH_LIMITS.stringChars)
        throw messageError(
          400,
          'InvalidRequest',
          `${at}: a string value holds at most ${PUSH_LIMITS.stringChars} characters; column '${col.name}' got ${s.length}.`,
        );
      return s;
    }
  }
}

/** The rows of a POST rows request, each checked against the table's columns. */
export function parseRows(table: PushTable, raw: unknown): PushTable['rows'] {
  if (!Array.isArray(raw)) throw badRequest("The request field 'rows' is required: an array of objects.", 'requestMessage');
  if (raw.length > PUSH_LIMITS.rowsPerPost)
    throw messageError(
      400,
      'InvalidRequest',
      `The request carries ${raw.length} rows; one POST rows request adds at most ${PUSH_LIMITS.rowsPerPost}.`,
    );
  return raw.map((r: unknown, i: number) => {
    if (!isObject(r)) throw badRequest(`rows[${i}] must be an object of column values.`, 'requestMessage');
    const out: PushTable['rows'][number] = {};
    for (const [k, v] of Object.entries(r)) {
      const col = table.columns.find((c) => c.name === k);
      if (!col) throw messageError(400, 'InvalidRequest', `rows[${i}]: table '${table.name}' has no column '${k}'.`);
      out[col.name] = coerce(col, v, `rows[${i}]`);
    }
    return out;
  });
}
