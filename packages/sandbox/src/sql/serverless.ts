// A Synapse serverless SQL pool's own statements: its databases (CREATE/DROP DATABASE) and external tables that read
// delimited text files from the lake when queried (it stores no rows; regular tables and DML are not in its dialect).
import type { Stmt } from './ast.js';
import type { Emitted, Session } from './engine.js';
import { sqlError } from './errors.js';
import { newDatabase, type SqlDatabase, type SqlState, type SqlTable } from './state.js';
import { coerce } from './values.js';

/** The files under a lake URL (a folder read recursively, or one file); undefined when nothing is there. */
export type ReadLake = (url: string) => Array<{ path: string; text: string }> | undefined;

/** CREATE DATABASE: the server's admin (dbo) only; an existing name is 1801. */
export function createDatabase(state: SqlState, session: Session, s: Stmt & { t: 'createDatabase' }, out: Emitted[]): void {
  if (session.user !== 'dbo') throw sqlError.createPermission('CREATE DATABASE', 'master');
  if (state.databases.has(s.name.toLowerCase())) throw sqlError.databaseExists(s.name);
  state.databases.set(s.name.toLowerCase(), newDatabase(s.name));
  out.push({ t: 'done' });
}

/** DROP DATABASE: the server's admin only, never master or the session's own database. */
export function dropDatabase(state: SqlState, session: Session, s: Stmt & { t: 'dropDatabase' }, out: Emitted[]): void {
  const key = s.name.toLowerCase();
  if (session.user !== 'dbo' || key === 'master') throw sqlError.cannotDropDatabase(s.name);
  if (!state.databases.has(key)) {
    if (s.ifExists) return void out.push({ t: 'done' });
    throw sqlError.cannotDropDatabase(s.name);
  }
  if (session.database.toLowerCase() === key) throw sqlError.databaseInUse(s.name);
  state.databases.delete(key);
  out.push({ t: 'done' });
}

/** Splits delimited text into records (RFC 4180 quoting with the format's string delimiter). */
export function parseDelimited(text: string, field = ',', quote = '"'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === quote && text[i + 1] === quote) (cell += quote), i++;
      else if (ch === quote) quoted = false;
      else cell += ch;
    } else if (ch === quote && cell === '') (quoted = true), (wasQuoted = true);
    else if (ch === field) row.push(cell), (cell = ''), (wasQuoted = false);
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.length > 1 || row[0] !== '' || wasQuoted) rows.push(row);
      (row = []), (cell = ''), (wasQuoted = false);
    } else cell += ch;
  }
  if (cell !== '' || row.length || wasQuoted) rows.push([...row, cell]);
  return rows;
}

/** A FORMAT_OPTIONS value by name, unquoted ('(FIELD_TERMINATOR = ',', FIRST_ROW = 2)'). */
function formatOption(options: string | undefined, name: string): string | undefined {
  const m = new RegExp(`${name}\\s*=\\s*(?:'((?:[^']|'')*)'|(\\w+))`, 'i').exec(options ?? '');
  return m ? (m[1]?.replace(/''/g, "'") ?? m[2]) : undefined;
}

/** The lake URL an external table reads: its data source's LOCATION joined with its own. */
export function externalUrl(db: SqlDatabase, table: SqlTable): string {
  const ext = table.external!;
  const base = db.dataSources.get(ext.dataSource.toLowerCase())?.location ?? '';
  return /^[a-z]+:\/\//i.test(ext.location) ? ext.location : `${base.replace(/\/+$/, '')}/${ext.location.replace(/^\/+/, '')}`;
}

/**
 * The rows of an external table as a serverless pool reads them at query time: every file under its location parsed
 * with its file format (DELIMITEDTEXT; FIRST_ROW skips a header), each value converted to its column's type.
 */
export function externalRows(db: SqlDatabase, table: SqlTable, read: ReadLake): unknown[][] {
  const format = db.fileFormats.get(table.external!.fileFormat.toLowerCase());
  const qualified = `${table.schema}.${table.name}`;
  const files = read(externalUrl(db, table));
  if (!files) throw sqlError.externalLocationMissing(qualified);
  if (format?.type !== 'DELIMITEDTEXT') throw sqlError.unsupported(`reading ${format?.type ?? 'unknown'} files`);
  const field = formatOption(format.options, 'FIELD_TERMINATOR') ?? ',';
  const quote = formatOption(format.options, 'STRING_DELIMITER') ?? '"';
  const skip = Math.max(Number(formatOption(format.options, 'FIRST_ROW') ?? 1) - 1, 0);
  return files.flatMap((f) =>
    parseDelimited(f.text, field, quote)
      .slice(skip)
      .map((cells) => table.columns.map((c, i) => (cells[i] === undefined || cells[i] === '' ? null : coerce(c, cells[i], qualified)))),
  );
}
