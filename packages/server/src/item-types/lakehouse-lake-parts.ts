import { sqlTypeOf } from '../provisioning/dbt/external.js';
import type { LiveParts } from './descriptor.js';
import type { LakehouseContent } from './lakehouse.js';

// What a lakehouse on the lake is compared as (plan and drift): its folders, and each table's external table columns.

/** A declared folder as a path ('Files/adt/' → 'Files/adt'). */
export const folderPath = (f: string) => f.replace(/^\/+|\/+$/g, '');

/** Every folder the content declares: its tables' and its file folders. */
export const lakeFolders = (c: LakehouseContent) => [...c.tables.map((t) => t.folder), ...(c.files ?? [])].map(folderPath);

/** The content's table folders (and file folders, when it declares some) that `present` holds, one a line. */
export function lakeFolderParts(c: LakehouseContent, present: ReadonlySet<string>): LiveParts {
  const part = (folders: readonly string[]) => [...new Set(folders.map(folderPath).filter((f) => present.has(f)))].sort().join('\n');
  return {
    'table folders': part(c.tables.map((t) => t.folder)),
    ...(c.files?.length ? { 'file folders': part(c.files) } : {}),
  };
}

/** A column as the catalog names its type (DATA_TYPE: the base type, lower case). */
const columnLine = (name: string, sqlType: string) => `${name} ${sqlType.toLowerCase().replace(/\s*\(.*$/, '')}`;

/**
 * `table dbo.<name>`: the external table's columns, one a line. Without `live`, as provisioning creates them; with it,
 * the content's tables the database holds, as INFORMATION_SCHEMA.COLUMNS lists them.
 */
export function lakeParts(c: LakehouseContent, live?: ReadonlyMap<string, string[]>): LiveParts {
  const parts: LiveParts = {};
  for (const t of c.tables) {
    const columns = live ? live.get(t.name.toLowerCase()) : t.columns.map((col) => columnLine(col.name, sqlTypeOf(col.type)));
    if (columns) parts[`table dbo.${t.name}`] = columns.join('\n');
  }
  return parts;
}

/** A value as a CSV field: booleans as 1/0 (what a bit column reads), quoted when it holds a comma, quote or line break. */
function field(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table's seed rows as CSV with a header row (the file format skips it: FIRST_ROW = 2). */
export function seedCsv(t: LakehouseContent['tables'][number]): string {
  return [t.columns.map((c) => field(c.name)), ...(t.seedRows ?? []).map((r) => r.map(field))].map((r) => `${r.join(',')}\n`).join('');
}
