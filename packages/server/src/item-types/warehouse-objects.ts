import type { CatalogItem } from '../catalog/types.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { compileModels } from '../provisioning/dbt/compile.js';
import { externalPlan, externalSchema, type LakeSource } from '../provisioning/dbt/external.js';
import { classifyDdl, dynamic, guardedStatement, nstring, quoteName } from '../provisioning/dbt/tsql.js';
import { createWhen, type ScriptStatement, type StatementOutcome } from '../provisioning/tsql-script.js';
import { LakehouseContent } from './lakehouse.js';
import type { WarehouseContent } from './warehouse.js';

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

/** A statement of the warehouse's script with its step log line, or a log line alone (nothing to send). */
export interface ScriptEntry {
  sql?: ScriptStatement;
  log: (o: StatementOutcome) => string;
  /** Whether, having run so, it created something. */
  created?: (o: StatementOutcome) => boolean;
  /** The read found what the statement makes (it would do nothing): it is not sent, and logs as run without a mark. */
  present?: boolean;
}

/** A statement created something when it selected its mark. */
const marked = (o: StatementOutcome) => o.marks > 0;

/** A statement that runs `create` when `missing` (a T-SQL condition) holds, and reports it with its mark. */
const ensure =
  (missing: string, create: string): ScriptStatement =>
  (mark) =>
    `IF ${missing} BEGIN ${dynamic(create)}; ${mark} END`;

/** What the read found of the pool's objects: tables, schemas, external data sources and file formats, view definitions. */
export interface PoolObjects {
  tables: Set<string>;
  schemas: Set<string>;
  /** `source:<name>` and `format:<name>`, lower case. */
  external: Set<string>;
  views: Map<string, string>;
  /** Constraints and views by `schema.name`, lower case, when the read listed them (sys.objects). */
  objects?: Set<string>;
}

/**
 * Lakehouse sources as external tables over OneLake (a dedicated SQL pool reads no other database): the data source,
 * file format, schema and external tables the read did not find, each guarded by its existence (another install may
 * have made it since).
 */
export function externalEntries(sources: LakeSource[], have: PoolObjects): ScriptEntry[] {
  const plan = externalPlan(sources);
  const entry = (exists: boolean, what: string, sql: ScriptStatement): ScriptEntry =>
    exists ? { log: () => `${what} exists` } : { sql, log: (o) => `${what} ${o.marks ? 'created' : 'exists'}`, created: marked };
  return [
    ...plan.dataSources.map((d) =>
      entry(
        have.external.has(`source:${d.name.toLowerCase()}`),
        `external data source ${d.name}`,
        createWhen(`NOT EXISTS (SELECT 1 FROM sys.external_data_sources WHERE name = ${nstring(d.name)})`, d.sql),
      ),
    ),
    ...plan.fileFormats.map((f) =>
      entry(
        have.external.has(`format:${f.name.toLowerCase()}`),
        `external file format ${f.name} (${f.what})`,
        createWhen(`NOT EXISTS (SELECT 1 FROM sys.external_file_formats WHERE name = ${nstring(f.name)})`, f.sql),
      ),
    ),
    ...plan.schemas.map((schema) =>
      entry(have.schemas.has(schema.toLowerCase()), `schema ${schema}`, (mark) =>
        guardedStatement(classifyDdl(`CREATE SCHEMA ${quoteName(schema)}`), mark),
      ),
    ),
    ...plan.tables.map((t) =>
      entry(
        have.tables.has(key(t.schema, t.name)),
        `external table ${t.schema}.${t.name}`,
        createWhen(`OBJECT_ID(${nstring(`${quoteName(t.schema)}.${quoteName(t.name)}`)}) IS NULL`, t.sql),
      ),
    ),
  ];
}

/** The CREATE VIEW of a compiled model, as provisioning runs it and sys.sql_modules keeps it. */
export const viewSql = (m: { schema: string; name: string; select: string }) =>
  `CREATE VIEW ${quoteName(m.schema)}.${quoteName(m.name)} AS\n${m.select}`;

/**
 * The dbt models as views, in dependency order. A dedicated SQL pool has CREATE VIEW and DROP VIEW only: a missing view
 * is created, a view whose stored definition differs is dropped and created again (CREATE VIEW through EXEC, as it
 * must start its batch), an unchanged one is left alone.
 */
export function viewEntries(models: ReturnType<typeof compileModels>, have: PoolObjects): ScriptEntry[] {
  return models.map((m) => {
    const name = `${quoteName(m.schema)}.${quoteName(m.name)}`;
    const sql = viewSql(m);
    const current = have.views.get(key(m.schema, m.name));
    const what = `dbt model ${m.name}: view ${m.schema}.${m.name}`;
    if (current === undefined)
      return {
        sql: createWhen(`OBJECT_ID(${nstring(name)}, N'V') IS NULL`, sql),
        log: (o) => `${what} ${o.marks ? 'created (CREATE VIEW)' : 'exists'}`,
        created: marked,
      };
    if (current.trim() === sql.trim()) return { log: () => `${what} unchanged` };
    return {
      sql: () => `IF OBJECT_ID(${nstring(name)}, N'V') IS NOT NULL DROP VIEW ${name};\n${dynamic(sql)}`,
      log: () => `${what} changed: dropped and created again (DROP VIEW, CREATE VIEW)`,
    };
  });
}

/** The key of a warehouse's live record that holds the name of a lakehouse it reads. */
const recordedName = (lakehouse: string) => `lakehouse:${lakehouse}`;

/**
 * The name of each lakehouse the sources read, by key, which names its external tables' schema: the app's item's (what
 * provisioning uses); with `recorded`, first the one the warehouse's own install used (its live record), which stays
 * known after an earlier, partial uninstall deleted the lakehouse's item or detached it from the app.
 */
export function lakehouseNames(ctx: TypedProvisionContext<WarehouseContent>, recorded = false): Map<string, string> {
  const names = new Map<string, string>();
  for (const { lakehouse } of Object.values(ctx.content.sources ?? {})) {
    if (!lakehouse || names.has(lakehouse)) continue;
    const name =
      (recorded ? ctx.recordedIds?.[recordedName(lakehouse)] : undefined) ??
      ctx.app.items.find((i: CatalogItem) => i.key === lakehouse)?.displayName;
    if (name) names.set(lakehouse, name);
  }
  return names;
}

/** What the warehouse's live record keeps of the lakehouses it reads: their names, as lakehouseNames reads them back. */
export const lakehouseIds = (ctx: TypedProvisionContext<WarehouseContent>): Record<string, string> =>
  Object.fromEntries([...lakehouseNames(ctx)].map(([k, name]) => [recordedName(k), name]));

/** The dbt models compiled to the views provisioning creates (lakehouse sources read through their external tables' schema). */
export function modelsOf(ctx: TypedProvisionContext<WarehouseContent>, lakehouses = lakehouseNames(ctx)) {
  const content = ctx.content;
  return compileModels(content.models ?? [], {
    modelSchema: content.modelSchema ?? 'dbo',
    sources: content.sources ?? {},
    lakehouseSchema: (k, schema) => {
      const name = lakehouses.get(k);
      return name && externalSchema(name, schema);
    },
  });
}
