import type { Stmt } from './ast.js';
import { SqlServerError, sqlError } from './errors.js';
import { newId, type ObjectRef, type SqlDatabase, type SqlTable } from './state.js';

/** Data source TYPEs a dedicated SQL pool takes (HADOOP for PolyBase reads, BLOB_STORAGE for bulk loads). */
const SOURCE_TYPES = new Set(['HADOOP', 'BLOB_STORAGE']);
/** File FORMAT_TYPEs a dedicated SQL pool takes. */
const FORMAT_TYPES = new Set(['PARQUET', 'DELIMITEDTEXT', 'RCFILE', 'ORC']);
/** Storage URL schemes a HADOOP data source takes in Azure (Data Lake Gen2, Blob, Data Lake Gen1). */
const LOCATION = /^(abfss?|wasbs?|adl):\/\/[^/\s]+/i;

/** What a serverless SQL pool takes: a data source without TYPE over https or abfss, Parquet, Delta or delimited text. */
const SERVERLESS_LOCATION = /^(abfss|https):\/\/[^/\s]+/i;
const SERVERLESS_FORMATS = new Set(['PARQUET', 'DELIMITEDTEXT', 'DELTA']);

/** A value the pool's grammar does not take: answered as the syntax error its parser raises near it. */
const badOption = (value: string) => sqlError.syntax(value);

/** CREATE EXTERNAL DATA SOURCE / FILE FORMAT: kept per database with its TYPE and LOCATION; a duplicate name is 2714. */
export function createExternal(db: SqlDatabase, s: Stmt & { t: 'createExternal' }, serverless = false): void {
  const map = s.kind === 'DATA SOURCE' ? db.dataSources : db.fileFormats;
  if (map.has(s.name.toLowerCase())) throw sqlError.objectExists(s.name);
  if (serverless) {
    // A serverless pool's data source names no TYPE (HADOOP is the dedicated pool's PolyBase).
    const location = s.options.LOCATION;
    if (s.kind === 'DATA SOURCE' && s.options.TYPE) throw badOption(s.options.TYPE);
    if (s.kind === 'DATA SOURCE' && (!location || !SERVERLESS_LOCATION.test(location))) throw badOption(location ?? 'LOCATION');
    const type = (s.options.FORMAT_TYPE ?? '').toUpperCase();
    if (s.kind === 'FILE FORMAT' && !SERVERLESS_FORMATS.has(type)) throw badOption(type || 'FORMAT_TYPE');
    map.set(
      s.name.toLowerCase(),
      s.kind === 'DATA SOURCE'
        ? { id: newId(), name: s.name, type: 'NONE', location }
        : { id: newId(), name: s.name, type, options: s.options.FORMAT_OPTIONS },
    );
    return;
  }
  if (s.kind === 'DATA SOURCE') {
    const type = (s.options.TYPE ?? 'HADOOP').toUpperCase();
    const location = s.options.LOCATION;
    if (!SOURCE_TYPES.has(type)) throw badOption(type);
    if (!location || !LOCATION.test(location)) throw badOption(location ?? 'LOCATION');
    map.set(s.name.toLowerCase(), { id: newId(), name: s.name, type, location });
    return;
  }
  const type = (s.options.FORMAT_TYPE ?? '').toUpperCase();
  if (!FORMAT_TYPES.has(type)) throw badOption(type);
  map.set(s.name.toLowerCase(), { id: newId(), name: s.name, type, options: s.options.FORMAT_OPTIONS });
}

/** CREATE EXTERNAL TABLE: its columns as declared, over a data source and file format that exist; no rows of its own. */
export function createExternalTable(db: SqlDatabase, ref: ObjectRef, s: Stmt & { t: 'createExternalTable' }): SqlTable {
  const schema = db.schemas.get(ref.schema.toLowerCase());
  if (!schema) throw sqlError.schemaMissing(ref.schema);
  if (schema.objects.has(ref.name.toLowerCase())) throw sqlError.objectExists(ref.name);
  const { LOCATION: location, DATA_SOURCE: dataSource, FILE_FORMAT: fileFormat } = s.options;
  if (!location) throw badOption('LOCATION');
  if (!dataSource || !db.dataSources.has(dataSource.toLowerCase())) throw sqlError.invalidObject(dataSource ?? '');
  if (!fileFormat || !db.fileFormats.has(fileFormat.toLowerCase())) throw sqlError.invalidObject(fileFormat ?? '');
  const table: SqlTable = {
    kind: 'table',
    id: newId(),
    schema: schema.name,
    name: ref.name,
    columns: s.columns,
    rows: [],
    external: { location, dataSource, fileFormat },
  };
  schema.objects.set(ref.name.toLowerCase(), table);
  return table;
}

/** DROP EXTERNAL DATA SOURCE / FILE FORMAT. */
export function dropExternal(
  db: SqlDatabase,
  kind: 'EXTERNAL DATA SOURCE' | 'EXTERNAL FILE FORMAT',
  name: string,
  ifExists: boolean,
): void {
  const map = kind === 'EXTERNAL DATA SOURCE' ? db.dataSources : db.fileFormats;
  if (!map.has(name.toLowerCase()) && !ifExists) {
    throw new SqlServerError(
      15151,
      1,
      16,
      `Cannot drop the ${kind.toLowerCase()} '${name}', because it does not exist or you do not have permission.`,
    );
  }
  map.delete(name.toLowerCase());
}
