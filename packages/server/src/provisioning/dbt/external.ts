import { nstring, quoteName } from './tsql.js';

/** A lakehouse table as the lakehouse item declares it: its folder under the item and its Spark columns. */
export interface LakeTable {
  name: string;
  folder: string;
  columns: Array<{ name: string; type: string }>;
}

/** Where a lakehouse's files are: the OneLake host, the platform workspace (the container) and the lakehouse item. */
export interface LakeLocation {
  host: string;
  workspaceId: string;
  itemId: string;
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

/** A data source per lake account and container: OneLake's host and the platform workspace. */
const dataSourceName = (l: LakeLocation) => `onelake_${l.workspaceId.replace(/[^A-Za-z0-9]/g, '')}`;

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
        sql: `CREATE EXTERNAL TABLE ${quoteName(s.schema)}.${quoteName(t.name)} (${columns})\nWITH (LOCATION = ${nstring(location).slice(1)}, DATA_SOURCE = ${quoteName(ds)}, FILE_FORMAT = ${quoteName(FILE_FORMAT)})`,
      });
    }
  }
  return {
    dataSources: [...dataSources].map(([name, sql]) => ({ name, sql })),
    fileFormat: { name: FILE_FORMAT, sql: `CREATE EXTERNAL FILE FORMAT ${quoteName(FILE_FORMAT)} WITH (FORMAT_TYPE = PARQUET)` },
    schemas: [...new Set(sources.map((s) => s.schema))],
    tables,
  };
}
