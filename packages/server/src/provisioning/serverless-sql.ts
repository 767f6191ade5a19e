import { nativeSettingGate } from './native-scope.js';
import { raiseGate } from '../backends/failures.js';
import { openWarehouse, type BatchResult, type SqlSession } from '../backends/sql.js';
import type { StepContext } from './context.js';
import { nstring, quoteName } from './dbt/tsql.js';
import { sqlTypeOf, type LakeTable } from './dbt/external.js';

// A lakehouse's SQL endpoint without the data platform: a database on the Synapse workspace's serverless SQL pool with
// external tables over the lakehouse's folders in the lake (Learn, "Transact-SQL features supported in Azure Synapse
// SQL": a serverless pool has CREATE DATABASE, external data sources, file formats, external tables and views).

const GATES = { auth: 'serverless-sql-auth' } as const;

/** The data source and file format every lakehouse database names (one database per lakehouse, so fixed names). */
export const SERVERLESS_SOURCE = 'lakehouse_folder';
export const SERVERLESS_FORMAT = 'lakehouse_csv';

/** The serverless pool: SVC_SYNAPSE_SERVERLESS_SERVER, else `<workspace>-ondemand` under the cloud's Synapse SQL suffix. */
export function serverlessServerOf(ctx: StepContext): string {
  if (ctx.target.serverlessServer) return ctx.target.serverlessServer;
  const ws = ctx.target.warehouseWorkspace;
  if (!ws) throw nativeSettingGate(ctx, 'serverless-sql-not-configured');
  const synapse = ctx.profile.sqlSuffixes.find((s) => s.includes('azuresynapse')) ?? ctx.profile.sqlSuffixes[0]!;
  return `${ws}-ondemand${synapse}`;
}

/** The endpoint as a SQL connection string names it: `host` on 1433, else `host,port` (as the warehouse reports it). */
export function endpointText(session: SqlSession): string {
  const { host, port } = session.endpoint;
  return port === 1433 ? host : `${host},${port}`;
}

/** Runs `fn` on a session in `database`; a refused login or permission error is the serverless T-SQL gate. */
export async function onServerless<T>(
  ctx: StepContext,
  server: string,
  database: string,
  fn: (run: (sql: string) => Promise<BatchResult>, session: SqlSession) => Promise<T>,
): Promise<T> {
  const session = await openWarehouse(ctx.profile, ctx.backends.pipeline.credential, server, database).catch((err) =>
    raiseGate(err, { profile: ctx.profile, gates: GATES }),
  );
  try {
    return await fn((sql) => session.batch(sql).catch((err) => raiseGate(err, { profile: ctx.profile, gates: GATES })), session);
  } finally {
    session.close();
  }
}

/** Whether the pool holds a database (read in master). */
export async function databaseExists(run: (sql: string) => Promise<BatchResult>, database: string): Promise<boolean> {
  return (await run(`SELECT name FROM sys.databases WHERE name = ${nstring(database)}`)).rows.length > 0;
}

/** CREATE DATABASE with the UTF-8 collation serverless pools read delimited text with. */
export const createDatabaseSql = (database: string) => `CREATE DATABASE ${quoteName(database)} COLLATE Latin1_General_100_BIN2_UTF8`;

/** The data source over the lakehouse's folder: `abfss://<container>@<account host>/<folder>`. */
export const dataSourceSql = (location: string) =>
  `CREATE EXTERNAL DATA SOURCE ${quoteName(SERVERLESS_SOURCE)} WITH (LOCATION = ${nstring(location).slice(1)})`;

/** The file format of the seed files: comma-separated, double-quoted strings, a header row. */
export const fileFormatSql = () =>
  `CREATE EXTERNAL FILE FORMAT ${quoteName(SERVERLESS_FORMAT)} WITH (FORMAT_TYPE = DELIMITEDTEXT, FORMAT_OPTIONS (FIELD_TERMINATOR = ',', STRING_DELIMITER = '"', FIRST_ROW = 2))`;

/** An external table `dbo.<table>` over the table's folder (relative to the data source), its columns as declared. */
export function externalTableSql(t: LakeTable): string {
  const columns = t.columns.map((c) => `${quoteName(c.name)} ${sqlTypeOf(c.type)} NULL`).join(', ');
  return `CREATE EXTERNAL TABLE [dbo].${quoteName(t.name)} (${columns})\nWITH (LOCATION = ${nstring(`${t.folder.replace(/^\/+|\/+$/g, '')}/`).slice(1)}, DATA_SOURCE = ${quoteName(SERVERLESS_SOURCE)}, FILE_FORMAT = ${quoteName(SERVERLESS_FORMAT)})`;
}

/** The external tables the database holds, with their columns in order (INFORMATION_SCHEMA.COLUMNS of schema dbo), in one batch. */
export async function externalTables(run: (sql: string) => Promise<BatchResult>): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  const { rows } = await run(
    [
      "SELECT N'table', name FROM sys.external_tables",
      "SELECT N'column', TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = N'dbo'",
    ].join(';\n'),
  );
  for (const r of rows) if (r[0] === 'table') tables.set(String(r[1]).toLowerCase(), []);
  for (const r of rows.filter((x) => x[0] === 'column').sort((a, b) => Number(a[3]) - Number(b[3])))
    tables.get(String(r[1]).toLowerCase())?.push(`${String(r[2])} ${String(r[4]).toLowerCase()}`);
  return tables;
}

/**
 * Whether the database holds the data source, the file format and an object of each table's name in dbo (what the
 * script's guarded statements look for), in one batch of reads.
 */
export async function serverlessObjectsPresent(run: (sql: string) => Promise<BatchResult>, tables: LakeTable[]): Promise<boolean> {
  const { rows } = await run(
    [
      `SELECT N'source', name FROM sys.external_data_sources WHERE name = ${nstring(SERVERLESS_SOURCE)}`,
      `SELECT N'format', name FROM sys.external_file_formats WHERE name = ${nstring(SERVERLESS_FORMAT)}`,
      "SELECT N'table', TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = N'dbo'",
    ].join(';\n'),
  );
  const found = new Set(rows.map((r) => `${String(r[0])}:${String(r[1]).toLowerCase()}`));
  return (
    found.has(`source:${SERVERLESS_SOURCE}`) &&
    found.has(`format:${SERVERLESS_FORMAT}`) &&
    tables.every((t) => found.has(`table:${t.name.toLowerCase()}`))
  );
}
