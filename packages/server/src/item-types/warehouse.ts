import { Type, type Static } from '@sinclair/typebox';
import { validateWarehouse } from '../catalog/validate-stores.js';
import type { ProvisionOutcome, TypedProvisionContext } from '../provisioning/context.js';
import { underSharedAccess } from '../backends/shared-access.js';
import {
  classifyDdl,
  dynamic,
  guardedStatement,
  nstring,
  quoteName,
  seedKeyConditions,
  seedStatements,
  type ColumnType,
} from '../provisioning/dbt/tsql.js';
import { runScript, type Send, type StatementOutcome } from '../provisioning/tsql-script.js';
import { endpointOf, open, run } from '../provisioning/warehouse-session.js';
import type { PlannedCall } from './calls.js';
import { Key, Name, Row } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import {
  externalEntries,
  lakehouseIds,
  lakeSources,
  modelsOf,
  type PoolObjects,
  type ScriptEntry,
  viewEntries,
} from './warehouse-objects.js';
import { findWarehouse, removeWarehouse, warehouseFindCalls, warehouseRemoveCalls } from './warehouse-remove.js';
import { readWarehouse, warehouseParts, warehouseReadCalls } from './warehouse-read.js';

/** Warehouse content: DDL, keyed seeds, dbt sources and models. */
export const WarehouseContent = Type.Object({
  ddl: Type.Array(Name, { minItems: 1 }),
  seeds: Type.Optional(
    Type.Array(Type.Object({ table: Name, key: Type.Array(Name, { minItems: 1 }), rows: Type.Array(Row, { minItems: 1 }) })),
  ),
  modelSchema: Type.Optional(Name),
  models: Type.Optional(Type.Array(Type.Object({ name: Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), sql: Name }))),
  sources: Type.Optional(
    Type.Record(Type.String(), Type.Object({ schema: Name, lakehouse: Type.Optional(Key), tables: Type.Array(Name, { minItems: 1 }) })),
  ),
});
export type WarehouseContent = Static<typeof WarehouseContent>;

/** Seed rows per EXEC'd batch of guarded INSERTs. */
const SEED_ROWS_PER_BATCH = 100;

const key = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();

/**
 * What the pool holds of what the content names, in one batch of SELECTs (each row tagged with what it lists); with
 * `withObjects`, its constraints and views by name too (what the DDL's guarded statements look for).
 */
async function readPool(send: Send, withExternal: boolean, withViews: boolean, withObjects: boolean): Promise<PoolObjects> {
  const sql = [
    "SELECT N'table', TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES",
    "SELECT N'schema', SCHEMA_NAME FROM INFORMATION_SCHEMA.SCHEMATA",
    ...(withExternal
      ? ["SELECT N'source', name FROM sys.external_data_sources", "SELECT N'format', name FROM sys.external_file_formats"]
      : []),
    ...(withViews ? ["SELECT N'view', OBJECT_SCHEMA_NAME(object_id), OBJECT_NAME(object_id), definition FROM sys.sql_modules"] : []),
    ...(withObjects
      ? ["SELECT N'object', OBJECT_SCHEMA_NAME(object_id), name FROM sys.objects WHERE type IN (N'PK', N'UQ', N'F', N'C', N'D', N'V')"]
      : []),
  ].join(';\n');
  const have: PoolObjects = {
    tables: new Set(),
    schemas: new Set(),
    external: new Set(),
    views: new Map(),
    ...(withObjects ? { objects: new Set<string>() } : {}),
  };
  for (const r of (await send(sql)).rows) {
    const [tag, a, b, c] = r.map((v) => (v === null || v === undefined ? '' : String(v)));
    if (tag === 'table') have.tables.add(key(a!, b!));
    else if (tag === 'schema') have.schemas.add(a!.toLowerCase());
    else if (tag === 'source' || tag === 'format') have.external.add(`${tag}:${a!.toLowerCase()}`);
    else if (tag === 'view') have.views.set(key(a!, b!), c!);
    else if (tag === 'object') have.objects?.add(key(a!, b!));
  }
  return have;
}

/** The bundle's DDL with its step log lines (created or exists as the read found it); a schema the models need is added. */
function ddlEntries(content: WarehouseContent, modelSchema: string, hasModels: boolean, have: PoolObjects) {
  const ddl = content.ddl.map(classifyDdl);
  if (
    hasModels &&
    !have.schemas.has(modelSchema.toLowerCase()) &&
    !ddl.some((d) => d.kind === 'schema' && d.name.toLowerCase() === modelSchema.toLowerCase())
  )
    ddl.push(classifyDdl(`CREATE SCHEMA ${quoteName(modelSchema)}`));
  const tables = new Map<string, { schema: string; name: string; columns: ColumnType[] }>();
  const entries = ddl.map((d, i): ScriptEntry => {
    const label = `ddl ${i + 1}/${ddl.length}`;
    const sql = () => guardedStatement(d);
    if (d.kind === 'schema') {
      const isNew = !have.schemas.has(d.name.toLowerCase());
      return { sql, present: !isNew, created: () => isNew, log: () => `${label}: schema ${d.name} ${isNew ? 'created' : 'exists'}` };
    }
    if (d.kind === 'table') {
      tables.set(key(d.schema, d.name), d);
      const isNew = !have.tables.has(key(d.schema, d.name));
      return {
        sql,
        present: !isNew,
        created: () => isNew,
        log: () => `${label}: table ${d.schema}.${d.name} ${isNew ? 'created' : 'exists'} (${d.columns.length} columns)`,
      };
    }
    if (d.kind === 'constraint')
      return {
        sql,
        present: have.objects?.has(key(d.schema, d.name)) ?? false,
        log: () => `${label}: constraint ${d.name} on ${d.schema}.${d.table} (guarded by OBJECT_ID)`,
      };
    if (d.kind === 'view')
      return {
        sql,
        present: have.objects?.has(key(d.schema, d.name)) ?? false,
        log: () => `${label}: view ${d.schema}.${d.name} (guarded by OBJECT_ID)`,
      };
    return { sql, log: () => `${label}: ran as written (not a statement the provisioner guards): ${d.sql.slice(0, 60)}` };
  });
  return { entries, tables };
}

type Seed = NonNullable<WarehouseContent['seeds']>[number];
type DdlTables = ReturnType<typeof ddlEntries>['tables'];

/** The table a seed fills, as the DDL declares it. */
function seedTable(seed: Seed, tables: DdlTables) {
  const [schema, name] = seed.table.includes('.') ? (seed.table.split('.') as [string, string]) : ['dbo', seed.table];
  const table = tables.get(key(schema, name));
  if (!table) throw new Error(`seed rows for ${seed.table}: the warehouse's DDL declares no such table`);
  return table;
}

/**
 * Which seeds the pool holds every row of (by key, as the guarded INSERTs look for them), in one batch of reads: a row
 * for each seed row found. Only once every table is there (a read of a missing table fails its batch).
 */
async function completeSeeds(send: Send, content: WarehouseContent, tables: DdlTables): Promise<Set<string>> {
  const seeds = content.seeds ?? [];
  const reads = seeds.flatMap((seed) => {
    const table = seedTable(seed, tables);
    const target = `${quoteName(table.schema)}.${quoteName(table.name)}`;
    return seedKeyConditions(table.columns, seed.key, seed.rows).map(
      (where) => `IF EXISTS (SELECT 1 FROM ${target} WHERE ${where}) SELECT N'seed', ${nstring(seed.table)}`,
    );
  });
  if (!reads.length || reads.join('').length > SEED_READ_CHARS) return new Set();
  const found = new Map<string, number>();
  for (const [, table] of (await send(reads.join(';\n'))).rows) found.set(String(table), (found.get(String(table)) ?? 0) + 1);
  return new Set(seeds.filter((s) => found.get(s.table) === s.rows.length).map((s) => s.table));
}

/** Past this much T-SQL the seed rows are not read first (the script's guarded INSERTs look for them anyway). */
const SEED_READ_CHARS = 200_000;

/**
 * The seed rows as guarded INSERTs, each batch of them through EXEC (its table may be made earlier in the same batch);
 * those of a seed the pool holds every row of (`complete`) are not sent.
 */
function seedEntries(content: WarehouseContent, tables: DdlTables, complete = new Set<string>()): ScriptEntry[] {
  return (content.seeds ?? []).flatMap((seed) => {
    const table = seedTable(seed, tables);
    let inserted = 0;
    const chunks = Math.ceil(seed.rows.length / SEED_ROWS_PER_BATCH);
    return Array.from(
      { length: chunks },
      (_, n): ScriptEntry => ({
        sql: (mark) =>
          dynamic(
            seedStatements(
              table.schema,
              table.name,
              table.columns,
              seed.key,
              seed.rows.slice(n * SEED_ROWS_PER_BATCH, (n + 1) * SEED_ROWS_PER_BATCH),
              mark,
            ).join('\n'),
          ),
        created: (o) => o.marks > 0,
        present: complete.has(seed.table),
        log: (o) => {
          inserted += o.marks;
          if (n < chunks - 1) return '';
          const total = seed.rows.length;
          return `seed ${seed.table}: ${inserted} of ${total} rows inserted${inserted < total ? `, ${total - inserted} already present (key ${seed.key.join(', ')})` : ''}`;
        },
      }),
    );
  });
}

/** Duplicate-key errors: a concurrent install inserted a row between a statement's key check and its INSERT. */
const DUPLICATE_KEY = new Set([2627, 2601]);

/**
 * The bundle's DDL, keyed seed rows, lakehouse sources (external tables) and dbt models (as views) over T-SQL: one batch
 * reads what the pool holds, one batch (more only past its size bound) sends every statement that is needed, each one
 * guarded and reporting what it did, with SET XACT_ABORT ON so the first error ends it as separate batches stopped
 * at the first failing one. The step log keeps a line per statement.
 */
async function provisionWarehouse(ctx: TypedProvisionContext<WarehouseContent>): Promise<ProvisionOutcome> {
  const { server, database } = endpointOf(ctx);
  const content = ctx.content;
  const modelSchema = content.modelSchema ?? 'dbo';
  const models = modelsOf(ctx);
  const sources = lakeSources(ctx);
  const session = await open(ctx, server, database);
  let created = false;
  try {
    const send: Send = (sql) => run(ctx, session, sql);
    // The read lists the constraints and views the DDL makes too: a statement whose object is there is not sent. Beside
    // other installs of the warehouse (shared access) only reads are sent: the seed rows are read by key as well, and
    // when every object and row is there the script is not needed. Otherwise it is refused, and the step runs again alone.
    const beside = underSharedAccess();
    const guardedObjects = content.ddl.some((sql) => ['constraint', 'view'].includes(classifyDdl(sql).kind));
    const have = await readPool(send, sources.length > 0, models.length > 0, guardedObjects);
    const ddl = ddlEntries(content, modelSchema, models.length > 0, have);
    const after = [...(sources.length ? externalEntries(sources, have) : []), ...viewEntries(models, have)];
    const complete =
      beside && [...ddl.entries, ...after].every((e) => !e.sql || e.present) ? await completeSeeds(send, content, ddl.tables) : undefined;
    const entries = [...ddl.entries, ...seedEntries(content, ddl.tables, complete), ...after];
    const sendable = entries.filter((e) => e.sql && !e.present);
    const outcomes = new Map<ScriptEntry, StatementOutcome>();
    try {
      await runScript(
        send,
        sendable.map((e) => e.sql!),
        {
          xactAbort: true,
          retryOn: (err) => DUPLICATE_KEY.has(err.number),
          retrying: (err) =>
            ctx.log(
              `a seed statement met a row another install inserted at the same time (${err.number}); sending the script again from it`,
            ),
          ran: (i, o) => outcomes.set(sendable[i]!, o),
        },
      );
      ctx.log(
        sendable.length
          ? `T-SQL: ${sendable.length} statement(s) of ${entries.length} sent in one script`
          : `T-SQL: nothing sent: the reads found what all ${entries.length} statement(s) would make`,
      );
    } finally {
      // A line per statement in order, as far as the script ran (a failed statement's error is the step's).
      for (const e of entries) {
        const o = e.sql && !e.present ? outcomes.get(e) : { ran: true, marks: 0 };
        if (!o) break;
        const line = e.log(o);
        if (line) ctx.log(line);
        created ||= e.created?.(o) ?? false;
      }
    }
  } finally {
    session.close();
  }
  const { host, port } = session.endpoint;
  const sqlEndpoint = port === 1433 ? host : `${host},${port}`;
  return {
    status: created ? 'created' : 'exists',
    resourceId: `${server}/${database}`,
    secondaryIds: { sqlEndpoint, sqlEndpointId: database, server, database, ...lakehouseIds(ctx) },
  };
}

/** How many lakehouse tables the content reads (each an external table). */
const lakeTables = (c: WarehouseContent) => Object.values(c.sources ?? {}).reduce((n, s) => n + (s.lakehouse ? s.tables.length : 0), 0);

const batch = (command: string, times?: number, when?: PlannedCall['when']): PlannedCall => ({
  service: 'sql',
  method: 'BATCH',
  path: '/{database}/batch/{sql*}',
  command,
  ...(times === undefined ? {} : { times }),
  ...(when ? { when } : {}),
});

/** warehouse: T-SQL over the service's identity: bundled DDL and seed rows, lakehouse sources as external tables, and dbt models run as views. */
export const warehouse: LiveItemType<'warehouse', typeof WarehouseContent> = {
  id: 'warehouse',
  displayName: 'Warehouse',
  description: 'T-SQL tables and views',
  icon: 'Server',
  editor: 'sql',
  backing: 'warehouse',
  content: WarehouseContent,
  validate: validateWarehouse,
  validatesAfter: ['lakehouse'],
  edges: { from: ['feeds', 'reads-from'], to: ['feeds', 'reads-from', 'visualizes'] },
  // Its dbt views read lakehouse tables through external tables over the lakehouse's folders: the lakehouse must exist first.
  dependsOn: (c) => Object.values(c.sources ?? {}).map((s) => s.lakehouse),
  calls: (c) => [
    { service: 'sql', method: 'LOGIN', path: '/{database}' },
    batch(
      `SELECT … FROM INFORMATION_SCHEMA.TABLES; … INFORMATION_SCHEMA.SCHEMATA${lakeTables(c) ? '; … sys.external_data_sources; … sys.external_file_formats' : ''}${c.models?.length ? '; … sys.sql_modules' : ''}`,
    ),
    // Beside other installs of the warehouse (the live lock's shared mode), once the read found every object.
    ...(c.seeds?.length
      ? [batch('IF EXISTS (SELECT 1 FROM … WHERE <key>) SELECT … per seed row (beside other installs)', undefined, 'existing')]
      : []),
    batch(
      [
        'SET XACT_ABORT ON',
        `${c.ddl.length} DDL statement(s), existence-guarded`,
        ...(c.models?.length ? [`CREATE SCHEMA ${c.modelSchema ?? 'dbo'} when missing`] : []),
        ...(c.seeds ?? []).map((s) => `key-guarded INSERTs of ${s.table}'s ${s.rows.length} seed row(s)`),
        ...(lakeTables(c)
          ? [
              "CREATE EXTERNAL DATA SOURCE (OneLake per workspace, or the lake's container), FILE FORMAT and the lakehouse's schema when missing",
              `CREATE EXTERNAL TABLE of ${lakeTables(c)} lakehouse table(s) when missing`,
            ]
          : []),
        ...(c.models?.length
          ? [`CREATE VIEW of ${c.models.length} dbt model(s) when missing, DROP VIEW and CREATE VIEW when changed`]
          : []),
      ].join('; '),
      undefined,
      'alone',
    ),
  ],
  provision: provisionWarehouse,
  desired: async (ctx) => warehouseParts(ctx),
  readLive: readWarehouse,
  readCalls: warehouseReadCalls,
  find: findWarehouse,
  findCalls: warehouseFindCalls,
  remove: removeWarehouse,
  removeCalls: warehouseRemoveCalls,
  holdsData: true,
};
