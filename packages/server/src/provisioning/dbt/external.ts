import { nstring, quoteName } from './tsql.js';

/** A lakehouse table as the lakehouse item declares it: its folder under the item and its Spark columns. */
export interface LakeTable {
  name: string;
  folder: string;
  columns: Array<{ name: string; type: string }>;
}

/**
 * Where a lakehouse's files are: the OneLake host, the platform workspace (the container) and the lakehouse item; or,
 * for a lakehouse on the lake (issue 20), the storage account's DFS host, the container and the lakehouse's folder,
 * whose tables are CSV files (`format: 'csv'`).
 */
export interface LakeLocation {
  host: string;
  workspaceId: string;
  itemId: string;
  format?: 'parquet' | 'csv';
}

/** One lakehouse source of the warehouse, resolved: where, which tables, and the warehouse schema its external tables go to. */
export interface LakeSource {
  schema: string;
  location: LakeLocation;
  tables: LakeTable[];
}

/** What a dedicated SQL pool reads the lake through: data sources, a file format and external tables, each with its T-SQL. */
export interface ExternalPlan {
  dataSources: Array<{ name: string; sql: string }>;
  fileFormat: { name: string; sql: string };
  /** Every file format the tables name: Parquet (OneLake's Delta tables), delimited text (a lake lakehouse's seed files). */
  fileFormats: Array<{ name: string; sql: string; what: string }>;
  schemas: string[];
  tables: Array<{ schema: string; name: string; sql: string }>;
}

/** The file format of Delta tables' data files (a dedicated pool reads the Parquet files; it has no DELTA format). */
export const FILE_FORMAT = 'lake_parquet';

/** Spark (Delta) column types → the SQL types a dedicated pool's external table declares for Parquet. */
export function sqlTypeOf(spark: string): string {
  const t = spark.trim().toLowerCase();
  const decimal = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  const types: Record<string, string> = {
    string: 'nvarchar(4000)',
    int: 'int',
    integer: 'int',
    long: 'bigint',
    bigint: 'bigint',
    short: 'smallint',
    byte: 'tinyint',
    double: 'float',
    float: 'real',
    boolean: 'bit',
    date: 'date',
    timestamp: 'datetime2(7)',
    timestamp_ntz: 'datetime2(7)',
    binary: 'varbinary(8000)',
  };
  return types[t] ?? 'nvarchar(4000)';
}

/** The schema the external tables of a lakehouse source go to: the lakehouse's name (with the source schema unless dbo). */
export function externalSchema(lakehouseName: string, sourceSchema: string): string {
  return sourceSchema.toLowerCase() === 'dbo' ? lakehouseName : `${lakehouseName}_${sourceSchema}`;
}

/** The file format of a lake lakehouse's tables: CSV with a header row. */
export const CSV_FILE_FORMAT = 'lake_csv';

/** A data source per lake account and container: OneLake's host and the platform workspace, or a storage account's container. */
const dataSourceName = (l: LakeLocation) =>
  l.format === 'csv'
    ? `lake_${l.host.split('.')[0]!.replace(/[^A-Za-z0-9]/g, '')}_${l.workspaceId.replace(/[^A-Za-z0-9]/g, '')}`
    : `onelake_${l.workspaceId.replace(/[^A-Za-z0-9]/g, '')}`;

const FORMATS = {
  parquet: {
    name: FILE_FORMAT,
    sql: `CREATE EXTERNAL FILE FORMAT ${quoteName(FILE_FORMAT)} WITH (FORMAT_TYPE = PARQUET)`,
    what: 'Parquet',
  },
  csv: {
    name: CSV_FILE_FORMAT,
    sql: `CREATE EXTERNAL FILE FORMAT ${quoteName(CSV_FILE_FORMAT)} WITH (FORMAT_TYPE = DELIMITEDTEXT, FORMAT_OPTIONS (FIELD_TERMINATOR = ',', STRING_DELIMITER = '"', FIRST_ROW = 2))`,
    what: 'delimited text',
  },
};

/** The T-SQL that reads the lakehouse sources as external tables (CREATE EXTERNAL DATA SOURCE / FILE FORMAT / TABLE). */
export function externalPlan(sources: LakeSource[]): ExternalPlan {
  const dataSources = new Map<string, string>();
  const tables: ExternalPlan['tables'] = [];
  for (const s of sources) {
    const ds = dataSourceName(s.location);
    dataSources.set(
      ds,
      `CREATE EXTERNAL DATA SOURCE ${quoteName(ds)} WITH (TYPE = HADOOP, LOCATION = ${nstring(`abfss://${s.location.workspaceId}@${s.location.host}`).slice(1)})`,
    );
    for (const t of s.tables) {
      const columns = t.columns.map((c) => `${quoteName(c.name)} ${sqlTypeOf(c.type)} NULL`).join(', ');
      const location = `/${s.location.itemId}/${t.folder.replace(/^\/+|\/+$/g, '')}/`;
      tables.push({
        schema: s.schema,
        name: t.name,
        sql: `CREATE EXTERNAL TABLE ${quoteName(s.schema)}.${quoteName(t.name)} (${columns})\nWITH (LOCATION = ${nstring(location).slice(1)}, DATA_SOURCE = ${quoteName(ds)}, FILE_FORMAT = ${quoteName(FORMATS[s.location.format ?? 'parquet'].name)})`,
      });
    }
  }
  return {
    dataSources: [...dataSources].map(([name, sql]) => ({ name, sql })),
    fileFormat: FORMATS.parquet,
    fileFormats: [...new Set(sources.map((s) => s.location.format ?? 'parquet'))].map((f) => FORMATS[f]),
    schemas: [...new Set(sources.map((s) => s.schema))],
    tables,
  };
}
