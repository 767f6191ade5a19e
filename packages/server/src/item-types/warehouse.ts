import { Type, type Static } from '@sinclair/typebox';
import type { CatalogItem } from '../catalog/types.js';
import { validateWarehouse } from '../catalog/validate-stores.js';
import type { ProvisionOutcome, StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { classifyDdl, guardedBatch, quoteName, seedStatements, type ColumnType } from '../provisioning/dbt/tsql.js';
import { endpointOf, open, run } from '../provisioning/warehouse-session.js';
import { SqlError } from '../backends/sql.js';
import type { PlannedCall } from './calls.js';
import { Key, Name, Row } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { lakeSources, modelsOf, provisionExternal, provisionViews } from './warehouse-objects.js';
import { removeWarehouse, warehouseRemoveCalls } from './warehouse-remove.js';
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

const SEED_ROWS_PER_BATCH = 100;

const key = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();

/** The bundle's DDL, keyed seed rows, lakehouse sources (external tables) and dbt models (as views) over T-SQL. */
async function provisionWarehouse(ctx: TypedProvisionContext<WarehouseContent>): Promise<ProvisionOutcome> {
  const { server, database } = endpointOf(ctx);
  const content = ctx.content;
  const modelSchema = content.modelSchema ?? 'dbo';
  const models = modelsOf(ctx);
  const sources = lakeSources(ctx);
  const session = await open(ctx, server, database);
  let created = false;
  try {
    const listed = await run(ctx, session, 'SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES');
    const existing = new Set(listed.rows.map((r) => key(String(r[0]), String(r[1]))));
    const schemas = new Set(
      (await run(ctx, session, 'SELECT SCHEMA_NAME FROM INFORMATION_SCHEMA.SCHEMATA')).rows.map((r) => String(r[0]).toLowerCase()),
    );
    const tables = new Map<string, { schema: string; name: string; columns: ColumnType[] }>();
    const ddl = content.ddl.map(classifyDdl);
    if (
      models.length &&
      !schemas.has(modelSchema.toLowerCase()) &&
      !ddl.some((d) => d.kind === 'schema' && d.name.toLowerCase() === modelSchema.toLowerCase())
    ) {
      ddl.push(classifyDdl(`CREATE SCHEMA ${quoteName(modelSchema)}`));
    }
    for (const [i, d] of ddl.entries()) {
      await run(ctx, session, guardedBatch(d));
      const label = `ddl ${i + 1}/${ddl.length}`;
      if (d.kind === 'schema') {
        const isNew = !schemas.has(d.name.toLowerCase());
        created ||= isNew;
        if (isNew) schemas.add(d.name.toLowerCase());
        ctx.log(`${label}: schema ${d.name} ${isNew ? 'created' : 'exists'}`);
      } else if (d.kind === 'table') {
        tables.set(key(d.schema, d.name), d);
        const isNew = !existing.has(key(d.schema, d.name));
        created ||= isNew;
        ctx.log(`${label}: table ${d.schema}.${d.name} ${isNew ? 'created' : 'exists'} (${d.columns.length} columns)`);
      } else if (d.kind === 'constraint') ctx.log(`${label}: constraint ${d.name} on ${d.schema}.${d.table} (guarded by OBJECT_ID)`);
      else if (d.kind === 'view') ctx.log(`${label}: view ${d.schema}.${d.name} (guarded by OBJECT_ID)`);
      else ctx.log(`${label}: ran as written (not a statement the provisioner guards): ${d.sql.slice(0, 60)}`);
    }
    for (const seed of content.seeds ?? []) {
      const [schema, name] = seed.table.includes('.') ? (seed.table.split('.') as [string, string]) : ['dbo', seed.table];
      const table = tables.get(key(schema, name));
      if (!table) throw new Error(`seed rows for ${seed.table}: the warehouse's DDL declares no such table`);
      const statements = seedStatements(table.schema, table.name, table.columns, seed.key, seed.rows);
      let inserted = 0;
      for (let i = 0; i < statements.length; i += SEED_ROWS_PER_BATCH) {
        inserted += await seedBatch(ctx, session, statements.slice(i, i + SEED_ROWS_PER_BATCH).join('\n'));
      }
      created ||= inserted > 0;
      ctx.log(
        `seed ${seed.table}: ${inserted} of ${statements.length} rows inserted${inserted < statements.length ? `, ${statements.length - inserted} already present (key ${seed.key.join(', ')})` : ''}`,
      );
    }
    const send = (sql: string) => run(ctx, session, sql);
    if (sources.length) created = (await provisionExternal(ctx, send, sources, existing, schemas)) || created;
    if (models.length) created = (await provisionViews(ctx, send, models)) || created;
  } finally {
    session.close();
  }
  const { host, port } = session.endpoint;
  const sqlEndpoint = port === 1433 ? host : `${host},${port}`;
  return {
    status: created ? 'created' : 'exists',
    resourceId: `${server}/${database}`,
    secondaryIds: { sqlEndpoint, sqlEndpointId: database, server, database },
  };
}

/** Duplicate-key errors: a concurrent install inserted a row between this batch's key check and its INSERT. */
const DUPLICATE_KEY = new Set([2627, 2601]);

/**
 * One batch of guarded seed INSERTs. Two installs seeding one table at once can both pass a row's key check; the
 * second then fails with a duplicate key. The row is present, which is what the guard wanted, so the batch runs again
 * (its rows already present are skipped by their guards) up to three times before the error stands.
 */
async function seedBatch(ctx: StepContext, session: Parameters<typeof run>[1], sql: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await run(ctx, session, sql)).rowCount;
    } catch (err) {
      if (!(err instanceof SqlError && DUPLICATE_KEY.has(err.number)) || attempt >= 3) throw err;
      ctx.log(`seed batch met a row another install inserted at the same time (${err.number}); running it again`);
    }
  }
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
    batch('SELECT … FROM INFORMATION_SCHEMA.TABLES'),
    batch('SELECT … FROM INFORMATION_SCHEMA.SCHEMATA'),
    batch('DDL statement, existence-guarded', c.ddl.length),
    ...(c.models?.length ? [batch(`CREATE SCHEMA ${c.modelSchema ?? 'dbo'}`, undefined, 'missing')] : []),
    ...(c.seeds ?? []).map((s) => batch(`key-guarded INSERT of ${s.table} seed rows`, Math.ceil(s.rows.length / SEED_ROWS_PER_BATCH))),
    ...(lakeTables(c)
      ? [
          batch('SELECT … FROM sys.external_data_sources UNION ALL … sys.external_file_formats'),
          batch("CREATE EXTERNAL DATA SOURCE (OneLake per workspace, or the lake's container)", undefined, 'missing'),
          batch('CREATE EXTERNAL FILE FORMAT (Parquet, or delimited text for a lakehouse on the lake)', undefined, 'missing'),
          batch("CREATE SCHEMA for the lakehouse's external tables", undefined, 'missing'),
          batch('CREATE EXTERNAL TABLE (a lakehouse source table)', lakeTables(c), 'missing'),
        ]
      : []),
    ...(c.models?.length
      ? [
          batch('SELECT … FROM sys.sql_modules'),
          batch('CREATE VIEW (a dbt model)', c.models.length, 'missing'),
          batch('DROP VIEW, then CREATE VIEW (a dbt model whose definition changed)', undefined, 'changed'),
        ]
      : []),
  ],
  provision: provisionWarehouse,
  desired: async (ctx) => warehouseParts(ctx),
  readLive: readWarehouse,
  readCalls: warehouseReadCalls,
  remove: removeWarehouse,
  removeCalls: warehouseRemoveCalls,
  holdsData: true,
};
