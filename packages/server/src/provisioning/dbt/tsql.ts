/** T-SQL text the warehouse provisioner sends: quoting, literals, and idempotent forms of the bundle's DDL and seeds. */

/** [name] with ] doubled. */
export const quoteName = (s: string) => `[${s.replace(/\]/g, ']]')}]`;

/** N'text' with ' doubled. */
export const nstring = (s: string) => `N'${s.replace(/'/g, "''")}'`;

const IDENT = String.raw`(?:\[(?:[^\]]|\]\])+\]|"[^"]+"|[A-Za-z_@#][\w@#$]*)`;
const NAME = `${IDENT}(?:\\s*\\.\\s*${IDENT}){0,2}`;

/** The parts of a written name, unquoted. */
export function nameParts(written: string): string[] {
  return [...written.matchAll(new RegExp(IDENT, 'g'))].map((m) =>
    m[0]
      .replace(/^\[(.*)\]$/s, '$1')
      .replace(/\]\]/g, ']')
      .replace(/^"(.*)"$/s, '$1'),
  );
}

/** A column as the bundle's CREATE TABLE declares it. */
export interface ColumnType {
  name: string;
  type: string;
}

/** What one DDL statement of a bundle creates, so that its batch can be guarded. */
export type DdlStatement =
  | { kind: 'schema'; name: string; sql: string }
  | { kind: 'table'; schema: string; name: string; columns: ColumnType[]; sql: string }
  | { kind: 'constraint'; schema: string; table: string; name: string; sql: string }
  | { kind: 'view'; schema: string; name: string; sql: string }
  | { kind: 'other'; sql: string };

/** Classifies a DDL statement (CREATE SCHEMA / TABLE / VIEW, ALTER TABLE … ADD CONSTRAINT; anything else runs as written). */
export function classifyDdl(sql: string): DdlStatement {
  const text = sql.trim().replace(/;\s*$/, '');
  let m = new RegExp(`^CREATE\\s+SCHEMA\\s+(${IDENT})`, 'i').exec(text);
  if (m) return { kind: 'schema', name: nameParts(m[1]!)[0]!, sql: text };
  m = new RegExp(`^CREATE\\s+TABLE\\s+(${NAME})\\s*\\(([\\s\\S]*)\\)`, 'i').exec(text);
  if (m) {
    const [schema, name] = twoPart(m[1]!);
    return { kind: 'table', schema, name, columns: columnsOf(m[2]!), sql: text };
  }
  m = new RegExp(`^ALTER\\s+TABLE\\s+(${NAME})\\s+ADD\\s+CONSTRAINT\\s+(${IDENT})`, 'i').exec(text);
  if (m) {
    const [schema, table] = twoPart(m[1]!);
    return { kind: 'constraint', schema, table, name: nameParts(m[2]!)[0]!, sql: text };
  }
  m = new RegExp(`^CREATE\\s+(?:OR\\s+ALTER\\s+)?VIEW\\s+(${NAME})`, 'i').exec(text);
  if (m) {
    const [schema, name] = twoPart(m[1]!);
    // A dedicated SQL pool has CREATE VIEW only (no CREATE OR ALTER).
    return { kind: 'view', schema, name, sql: text.replace(/^CREATE\s+(?:OR\s+ALTER\s+)?VIEW/i, 'CREATE VIEW') };
  }
  return { kind: 'other', sql: text };
}

function twoPart(written: string): [string, string] {
  const parts = nameParts(written);
  return parts.length === 1 ? ['dbo', parts[0]!] : [parts[parts.length - 2]!, parts[parts.length - 1]!];
}

/** Top-level comma split of a CREATE TABLE body into column names and types (constraints skipped). */
function columnsOf(body: string): ColumnType[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')') depth--;
    else if (body[i] === ',' && depth === 0) {
      items.push(body.slice(start, i));
      start = i + 1;
    }
  }
  items.push(body.slice(start));
  const columns: ColumnType[] = [];
  for (const item of items.map((s) => s.trim())) {
    if (/^(CONSTRAINT|PRIMARY|UNIQUE|FOREIGN|CHECK|INDEX)\b/i.test(item)) continue;
    const m = new RegExp(`^(${IDENT})\\s+(${IDENT})`).exec(item);
    if (m) columns.push({ name: nameParts(m[1]!)[0]!, type: nameParts(m[2]!)[0]!.toLowerCase() });
  }
  return columns;
}

/** A string as the argument of EXEC: compiled when the batch reaches it, as a batch of its own (so it may start one). */
export const dynamic = (sql: string) => `EXEC(${nstring(sql)})`;

/**
 * The statement made idempotent and able to stand anywhere in a batch: an existence-guarded CREATE SCHEMA / TABLE /
 * constraint / VIEW run through EXEC (CREATE SCHEMA and CREATE VIEW must start a batch; a table's constraint names a
 * table an earlier statement of the batch may have made). `mark` (a SELECT) runs when it created something.
 */
export function guardedStatement(d: DdlStatement, mark = ''): string {
  const then = (sql: string) => (mark ? `BEGIN ${dynamic(sql)}; ${mark} END` : dynamic(sql));
  switch (d.kind) {
    case 'schema':
      return `IF SCHEMA_ID(${nstring(d.name)}) IS NULL ${then(`CREATE SCHEMA ${quoteName(d.name)}`)}`;
    case 'table':
      return `IF OBJECT_ID(${nstring(`${quoteName(d.schema)}.${quoteName(d.name)}`)}, N'U') IS NULL ${then(d.sql)}`;
    case 'constraint':
      return `IF OBJECT_ID(${nstring(`${quoteName(d.schema)}.${quoteName(d.name)}`)}) IS NULL ${then(d.sql)}`;
    case 'view':
      return `IF OBJECT_ID(${nstring(`${quoteName(d.schema)}.${quoteName(d.name)}`)}, N'V') IS NULL ${then(d.sql)}`;
    case 'other':
      return dynamic(d.sql);
  }
}

const NUMERIC = new Set(['int', 'bigint', 'smallint', 'tinyint', 'decimal', 'numeric', 'float', 'real', 'money', 'smallmoney', 'bit']);

/** A seed value as a literal of its column's type (install timestamps become the date or datetime the column holds). */
export function literal(value: unknown, type: string): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' && NUMERIC.has(type)) return String(value);
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const iso = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/.exec(text);
  if (iso && type === 'date') return nstring(iso[1]!);
  if (iso && (type.startsWith('datetime') || type === 'smalldatetime')) return nstring(`${iso[1]}T${iso[2]}`);
  return nstring(text);
}

/** One guarded INSERT per seed row: a row whose key is already present is not inserted again; `mark` runs per row inserted. */
export function seedStatements(
  schema: string,
  table: string,
  columns: ColumnType[],
  key: string[],
  rows: unknown[][],
  mark = '',
): string[] {
  const target = `${quoteName(schema)}.${quoteName(table)}`;
  const list = columns.map((c) => quoteName(c.name)).join(', ');
  const keys = seedKeyConditions(columns, key, rows);
  return rows.map((row, n) => {
    const values = columns.map((c, i) => literal(row[i], c.type)).join(', ');
    const insert = `INSERT INTO ${target} (${list}) VALUES (${values})`;
    return `IF NOT EXISTS (SELECT 1 FROM ${target} WHERE ${keys[n]})\n  ${mark ? `BEGIN ${insert}; ${mark} END` : `${insert};`}`;
  });
}

/** Each seed row's key as a WHERE condition (`[k] = literal AND …`, `IS NULL` for a null), as its guarded INSERT looks for it. */
export function seedKeyConditions(columns: ColumnType[], key: string[], rows: unknown[][]): string[] {
  const index = (name: string) => columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
  return rows.map((row) =>
    key
      .map((k) => {
        const i = index(k);
        const v = row[i];
        return v === null || v === undefined ? `${quoteName(k)} IS NULL` : `${quoteName(k)} = ${literal(v, columns[i]!.type)}`;
      })
      .join(' AND '),
  );
}
