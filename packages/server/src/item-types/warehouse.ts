import { Type, type Static } from '@sinclair/typebox';
import { openWarehouse, SqlError, type SqlSession } from '../backends/sql.js';
import type { CatalogItem } from '../catalog/types.js';
import { validateWarehouse } from '../catalog/validate-stores.js';
import type { ProvisionOutcome, StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { compileModels } from '../provisioning/dbt/compile.js';
import { externalPlan, externalSchema, type LakeSource } from '../provisioning/dbt/external.js';
import { classifyDdl, guardedBatch, nstring, quoteName, seedStatements, type ColumnType } from '../provisioning/dbt/tsql.js';
import { gate, GateRaised } from '../provisioning/gates.js';
import type { PlannedCall } from './calls.js';
import { Key, Name, Row } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { LakehouseContent } from './lakehouse.js';

/** Warehouse content: DDL, keyed seeds, dbt sources and models. */
export const WarehouseContent = Type.Object({
  ddl: Type.Array(Name, { minItems: 1 }),
  seeds: Type.Optional(Type.Array(Type.Object({ table: Name, key: Type.Array(Name, { minItems: 1 }), rows: Type.Array(Row, { minItems: 1 }) }))),
  modelSchema: Type.Optional(Name),
  models: Type.Optional(Type.Array(Type.Object({ name: Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), sql: Name }))),
  sources: Type.Optional(Type.Record(Type.String(), Type.Object({ schema: Name, lakehouse: Type.Optional(Key), tables: Type.Array(Name, { minItems: 1 }) }))),
});
export type WarehouseContent = Static<typeof WarehouseContent>;

/** How long a paused or resuming pool is waited for (the spec's resume takes 1 to 3 minutes). */
export const RESUME_BOUND_MS = 4 * 60_000;
/** Login errors of a pool that is paused, resuming or warming up. */
const RESUMING = new Set([40613, 42108, 42109]);
/** Login failed, object permission denied, CREATE permission denied: the identity is not a database user with rights. */
const NOT_AUTHORIZED = new Set([18456, 229, 262]);
const SEED_ROWS_PER_BATCH = 100;

/** The warehouse server and database of the install: SVC_WAREHOUSE_* (shared) or targetOverrides (dedicated). */
function endpointOf(ctx: StepContext): { server: string; database: string } {
  const t = ctx.target;
  const database = t.warehouseDatabase ?? t.warehousePool;
  if (!t.warehouseWorkspace || !database) throw new GateRaised(gate('warehouse-not-configured', ctx.profile));
  const synapse = ctx.profile.sqlSuffixes.find((s) => s.includes('azuresynapse')) ?? ctx.profile.sqlSuffixes[0]!;
  return { server: t.warehouseServer ?? `${t.warehouseWorkspace}${synapse}`, database };
}

/** The display name Entra gives the identity (what CREATE USER names), read from its own SQL token. */
async function principalName(ctx: StepContext): Promise<string> {
  try {
    const token = await ctx.backends.pipeline.credential.getToken(ctx.profile.sqlAudience);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, string>;
    const mi = claims.xms_mirid?.split('/').pop();
    return mi || claims.app_displayname || claims.name || claims.appid || claims.oid || ctx.backends.pipeline.credential.principal;
  } catch {
    return ctx.backends.pipeline.credential.principal;
  }
}

/** The "warehouse T-SQL not authorized" gate with the exact T-SQL an admin of the database runs. */
async function authGate(ctx: StepContext, err: SqlError, server: string, database: string): Promise<never> {
  const name = await principalName(ctx);
  const sql = [
    `-- As an Entra admin of ${server}, in database ${quoteName(database)}:`,
    `CREATE USER ${quoteName(name)} FROM EXTERNAL PROVIDER;`,
    `EXEC sp_addrolemember 'db_owner', ${nstring(name).slice(1)};`,
  ].join('\n');
  throw new GateRaised(gate('warehouse-tsql-auth', ctx.profile, { sql }), err);
}

/** Connects as the service identity, waiting within RESUME_BOUND_MS while the pool resumes. */
async function open(ctx: StepContext, server: string, database: string): Promise<SqlSession> {
  const deadline = Date.now() + RESUME_BOUND_MS;
  for (let attempt = 1, delay = 1_000; ; attempt++, delay = Math.min(delay * 2, 15_000)) {
    try {
      const session = await openWarehouse(ctx.profile, ctx.backends.pipeline.credential, server, database);
      ctx.log(`connected to ${server}, database ${database} (${session.endpoint.encrypt ? 'TLS' : 'loopback sandbox, no TLS'})${attempt > 1 ? ` after ${attempt} attempts` : ''}`);
      return session;
    } catch (err) {
      if (err instanceof SqlError && NOT_AUTHORIZED.has(err.number)) return authGate(ctx, err, server, database);
      if (!(err instanceof SqlError && RESUMING.has(err.number)) || Date.now() + delay > deadline) throw err;
      ctx.log(`pool ${database} is not available yet (${err.number}: paused or resuming); retrying in ${delay / 1000} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** Runs one batch, turning 229/262 into the T-SQL gate; other server errors fail the step with the server's text. */
async function run(ctx: StepContext, session: SqlSession, sql: string) {
  try {
    return await session.batch(sql);
  } catch (err) {
    if (err instanceof SqlError && NOT_AUTHORIZED.has(err.number)) return authGate(ctx, err, session.endpoint.host, session.endpoint.database);
    throw err;
  }
}

const key = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();

/** The lakehouse sources of the content, resolved to their lakehouse's tables and OneLake location (the lakehouse step ran first). */
function lakeSources(ctx: TypedProvisionContext<WarehouseContent>): LakeSource[] {
  const host = new URL(ctx.target.oneLakeUrl).host;
  return Object.entries(ctx.content.sources ?? {}).flatMap(([name, s]) => {
    if (!s.lakehouse) return [];
    const item = ctx.app.items.find((i: CatalogItem) => i.key === s.lakehouse);
    const lake = ctx.contentOf(s.lakehouse, LakehouseContent);
    const step = ctx.dependency(s.lakehouse);
    if (!item || !lake) throw new Error(`source '${name}' reads lakehouse '${s.lakehouse}', which is not an item of this app`);
    if (!step?.resourceId) throw new Error(`source '${name}' reads lakehouse '${s.lakehouse}', whose step has no live id`);
    const tables = s.tables.map((t) => {
      const table = lake.tables.find((x) => x.name === t);
      if (!table) throw new Error(`source '${name}' names table '${t}', which lakehouse '${s.lakehouse}' does not declare`);
      return table;
    });
    const workspaceId = step.secondaryIds?.platformWorkspaceId ?? ctx.target.platformWorkspaceId!;
    return [{ schema: externalSchema(item.displayName, s.schema), location: { host, workspaceId, itemId: step.resourceId }, tables }];
  });
}

/**
 * Lakehouse sources as external tables over OneLake (a dedicated SQL pool reads no other database): the data source,
 * file format, schema and external tables that do not exist yet are created, each in its own batch.
 */
async function provisionExternal(ctx: StepContext, session: SqlSession, sources: LakeSource[], existing: Set<string>, schemas: Set<string>): Promise<boolean> {
  const plan = externalPlan(sources);
  const listed = await run(ctx, session, "SELECT name, N'source' FROM sys.external_data_sources UNION ALL SELECT name, N'format' FROM sys.external_file_formats");
  const have = new Set(listed.rows.map((r) => `${String(r[1])}:${String(r[0]).toLowerCase()}`));
  let created = false;
  const ensure = async (exists: boolean, sql: string, what: string) => {
    if (!exists) await run(ctx, session, sql);
    created ||= !exists;
    ctx.log(`${what} ${exists ? 'exists' : 'created'}`);
  };
  for (const d of plan.dataSources) await ensure(have.has(`source:${d.name.toLowerCase()}`), d.sql, `external data source ${d.name}`);
  await ensure(have.has(`format:${plan.fileFormat.name.toLowerCase()}`), plan.fileFormat.sql, `external file format ${plan.fileFormat.name} (Parquet)`);
  for (const schema of plan.schemas) await ensure(schemas.has(schema.toLowerCase()), guardedBatch(classifyDdl(`CREATE SCHEMA ${quoteName(schema)}`)), `schema ${schema}`);
  for (const t of plan.tables) await ensure(existing.has(key(t.schema, t.name)), t.sql, `external table ${t.schema}.${t.name}`);
  return created;
}

/** The bundle's DDL, keyed seed rows, lakehouse sources (external tables) and dbt models (as views) over T-SQL. */
async function provisionWarehouse(ctx: TypedProvisionContext<WarehouseContent>): Promise<ProvisionOutcome> {
  const { server, database } = endpointOf(ctx);
  const content = ctx.content;
  const modelSchema = content.modelSchema ?? 'dbo';
  const lakehouses = new Map(ctx.app.items.map((i: CatalogItem) => [i.key, i]));
  const models = compileModels(content.models ?? [], {
    modelSchema,
    sources: content.sources ?? {},
    lakehouseSchema: (k, schema) => { const lh = lakehouses.get(k); return lh && externalSchema(lh.displayName, schema); },
  });
  const sources = lakeSources(ctx);
  const session = await open(ctx, server, database);
  let created = false;
  try {
    const listed = await run(ctx, session, 'SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES');
    const existing = new Set(listed.rows.map((r) => key(String(r[0]), String(r[1]))));
    const schemas = new Set((await run(ctx, session, 'SELECT SCHEMA_NAME FROM INFORMATION_SCHEMA.SCHEMATA')).rows.map((r) => String(r[0]).toLowerCase()));
    const tables = new Map<string, { schema: string; name: string; columns: ColumnType[] }>();
    const ddl = content.ddl.map(classifyDdl);
    if (models.length && !schemas.has(modelSchema.toLowerCase()) && !ddl.some((d) => d.kind === 'schema' && d.name.toLowerCase() === modelSchema.toLowerCase())) {
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
      const [schema, name] = seed.table.includes('.') ? seed.table.split('.') as [string, string] : ['dbo', seed.table];
      const table = tables.get(key(schema, name));
      if (!table) throw new Error(`seed rows for ${seed.table}: the warehouse's DDL declares no such table`);
      const statements = seedStatements(table.schema, table.name, table.columns, seed.key, seed.rows);
      let inserted = 0;
      for (let i = 0; i < statements.length; i += SEED_ROWS_PER_BATCH) {
        inserted += (await run(ctx, session, statements.slice(i, i + SEED_ROWS_PER_BATCH).join('\n'))).rowCount;
      }
      created ||= inserted > 0;
      ctx.log(`seed ${seed.table}: ${inserted} of ${statements.length} rows inserted${inserted < statements.length ? `, ${statements.length - inserted} already present (key ${seed.key.join(', ')})` : ''}`);
    }
    if (sources.length) created = (await provisionExternal(ctx, session, sources, existing, schemas)) || created;
    if (models.length) created = (await provisionViews(ctx, session, models)) || created;
  } finally {
    session.close();
  }
  const { host, port } = session.endpoint;
  const sqlEndpoint = port === 1433 ? host : `${host},${port}`;
  return { status: created ? 'created' : 'exists', resourceId: `${server}/${database}`, secondaryIds: { sqlEndpoint, sqlEndpointId: database, server, database } };
}

/**
 * The dbt models as views, in dependency order. A dedicated SQL pool has CREATE VIEW and DROP VIEW only: a missing view
 * is created, a view whose stored definition differs is dropped and created again (each in its own batch, as CREATE
 * VIEW must start its batch), an unchanged one is left alone. Returns whether a view was created.
 */
async function provisionViews(ctx: StepContext, session: SqlSession, models: ReturnType<typeof compileModels>): Promise<boolean> {
  const stored = await run(ctx, session, 'SELECT OBJECT_SCHEMA_NAME(object_id), OBJECT_NAME(object_id), definition FROM sys.sql_modules');
  const definitions = new Map(stored.rows.map((r) => [key(String(r[0]), String(r[1])), String(r[2] ?? '')]));
  let created = false;
  for (const m of models) {
    const name = `${quoteName(m.schema)}.${quoteName(m.name)}`;
    const sql = `CREATE VIEW ${name} AS\n${m.select}`;
    const current = definitions.get(key(m.schema, m.name));
    if (current === undefined) {
      await run(ctx, session, sql);
      created = true;
      ctx.log(`dbt model ${m.name}: view ${m.schema}.${m.name} created (CREATE VIEW)`);
    } else if (current.trim() !== sql.trim()) {
      await run(ctx, session, `DROP VIEW ${name}`);
      await run(ctx, session, sql);
      ctx.log(`dbt model ${m.name}: view ${m.schema}.${m.name} changed: dropped and created again (DROP VIEW, CREATE VIEW)`);
    } else ctx.log(`dbt model ${m.name}: view ${m.schema}.${m.name} unchanged`);
  }
  return created;
}

/** How many lakehouse tables the content reads (each an external table). */
const lakeTables = (c: WarehouseContent) => Object.values(c.sources ?? {}).reduce((n, s) => n + (s.lakehouse ? s.tables.length : 0), 0);

const batch = (command: string, times?: number, when?: PlannedCall['when']): PlannedCall => ({ service: 'sql', method: 'BATCH', path: '/{database}/batch/{sql*}', command, ...(times === undefined ? {} : { times }), ...(when ? { when } : {}) });

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
    ...(lakeTables(c) ? [
      batch('SELECT … FROM sys.external_data_sources UNION ALL … sys.external_file_formats'),
      batch('CREATE EXTERNAL DATA SOURCE (OneLake, per workspace)', undefined, 'missing'),
      batch('CREATE EXTERNAL FILE FORMAT (Parquet)', undefined, 'missing'),
      batch('CREATE SCHEMA for the lakehouse\'s external tables', undefined, 'missing'),
      batch('CREATE EXTERNAL TABLE (a lakehouse source table)', lakeTables(c), 'missing'),
    ] : []),
    ...(c.models?.length ? [
      batch('SELECT … FROM sys.sql_modules'),
      batch('CREATE VIEW (a dbt model)', c.models.length, 'missing'),
      batch('DROP VIEW, then CREATE VIEW (a dbt model whose definition changed)', undefined, 'changed'),
    ] : []),
  ],
  provision: provisionWarehouse,
};
