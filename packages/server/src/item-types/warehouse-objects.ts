import type { BatchResult } from '../backends/sql.js';
import type { CatalogItem } from '../catalog/types.js';
import type { StepContext, TypedProvisionContext } from '../provisioning/context.js';
import { compileModels } from '../provisioning/dbt/compile.js';
import { externalPlan, externalSchema, type LakeSource } from '../provisioning/dbt/external.js';
import { classifyDdl, guardedBatch, quoteName } from '../provisioning/dbt/tsql.js';
import { LakehouseContent } from './lakehouse.js';
import type { WarehouseContent } from './warehouse.js';

/** Runs one batch on the step's session (permission errors already turned into the T-SQL gate). */
type Send = (sql: string) => Promise<BatchResult>;

const key = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();

/** The lakehouse sources of the content, resolved to their lakehouse's tables and OneLake location (the lakehouse step ran first). */
export function lakeSources(ctx: TypedProvisionContext<WarehouseContent>): LakeSource[] {
  const host = ctx.backends.oneLake.host;
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
    const ids = step.secondaryIds ?? {};
    // A lakehouse on the lake (issue 20) names its storage account, container and folder; its tables are CSV files.
    if (ids.lakeFolder && ids.lakeHost && ids.lakeContainer)
      return [
        {
          schema: externalSchema(item.displayName, s.schema),
          location: { host: ids.lakeHost, workspaceId: ids.lakeContainer, itemId: ids.lakeFolder, format: 'csv' as const },
          tables,
        },
      ];
    const workspaceId = ids.platformWorkspaceId ?? ctx.target.platformWorkspaceId!;
    return [{ schema: externalSchema(item.displayName, s.schema), location: { host, workspaceId, itemId: step.resourceId }, tables }];
  });
}

/**
 * Lakehouse sources as external tables over OneLake (a dedicated SQL pool reads no other database): the data source,
 * file format, schema and external tables that do not exist yet are created, each in its own batch.
 */
export async function provisionExternal(
  ctx: StepContext,
  run: Send,
  sources: LakeSource[],
  existing: Set<string>,
  schemas: Set<string>,
): Promise<boolean> {
  const plan = externalPlan(sources);
  const listed = await run(
    "SELECT name, N'source' FROM sys.external_data_sources UNION ALL SELECT name, N'format' FROM sys.external_file_formats",
  );
  const have = new Set(listed.rows.map((r) => `${String(r[1])}:${String(r[0]).toLowerCase()}`));
  let created = false;
  const ensure = async (exists: boolean, sql: string, what: string) => {
    if (!exists) await run(sql);
    created ||= !exists;
    ctx.log(`${what} ${exists ? 'exists' : 'created'}`);
  };
  for (const d of plan.dataSources) await ensure(have.has(`source:${d.name.toLowerCase()}`), d.sql, `external data source ${d.name}`);
  for (const f of plan.fileFormats)
    await ensure(have.has(`format:${f.name.toLowerCase()}`), f.sql, `external file format ${f.name} (${f.what})`);
  for (const schema of plan.schemas)
    await ensure(schemas.has(schema.toLowerCase()), guardedBatch(classifyDdl(`CREATE SCHEMA ${quoteName(schema)}`)), `schema ${schema}`);
  for (const t of plan.tables) await ensure(existing.has(key(t.schema, t.name)), t.sql, `external table ${t.schema}.${t.name}`);
  return created;
}

/** The CREATE VIEW of a compiled model, as provisioning runs it and sys.sql_modules keeps it. */
export const viewSql = (m: { schema: string; name: string; select: string }) =>
  `CREATE VIEW ${quoteName(m.schema)}.${quoteName(m.name)} AS\n${m.select}`;

/**
 * The dbt models as views, in dependency order. A dedicated SQL pool has CREATE VIEW and DROP VIEW only: a missing view
 * is created, a view whose stored definition differs is dropped and created again (each in its own batch, as CREATE
 * VIEW must start its batch), an unchanged one is left alone. Returns whether a view was created.
 */
export async function provisionViews(ctx: StepContext, run: Send, models: ReturnType<typeof compileModels>): Promise<boolean> {
  const stored = await run('SELECT OBJECT_SCHEMA_NAME(object_id), OBJECT_NAME(object_id), definition FROM sys.sql_modules');
  const definitions = new Map(stored.rows.map((r) => [key(String(r[0]), String(r[1])), String(r[2] ?? '')]));
  let created = false;
  for (const m of models) {
    const name = `${quoteName(m.schema)}.${quoteName(m.name)}`;
    const sql = viewSql(m);
    const current = definitions.get(key(m.schema, m.name));
    if (current === undefined) {
      await run(sql);
      created = true;
      ctx.log(`dbt model ${m.name}: view ${m.schema}.${m.name} created (CREATE VIEW)`);
    } else if (current.trim() !== sql.trim()) {
      await run(`DROP VIEW ${name}`);
      await run(sql);
      ctx.log(`dbt model ${m.name}: view ${m.schema}.${m.name} changed: dropped and created again (DROP VIEW, CREATE VIEW)`);
    } else ctx.log(`dbt model ${m.name}: view ${m.schema}.${m.name} unchanged`);
  }
  return created;
}

/** The dbt models compiled to the views provisioning creates (lakehouse sources read through their external tables' schema). */
export function modelsOf(ctx: TypedProvisionContext<WarehouseContent>) {
  const content = ctx.content;
  const lakehouses = new Map(ctx.app.items.map((i: CatalogItem) => [i.key, i]));
  return compileModels(content.models ?? [], {
    modelSchema: content.modelSchema ?? 'dbo',
    sources: content.sources ?? {},
    lakehouseSchema: (k, schema) => {
      const lh = lakehouses.get(k);
      return lh && externalSchema(lh.displayName, schema);
    },
  });
}
