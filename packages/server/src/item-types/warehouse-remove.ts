import type { TypedProvisionContext } from '../provisioning/context.js';
import { externalSchema } from '../provisioning/dbt/external.js';
import { classifyDdl, quoteName } from '../provisioning/dbt/tsql.js';
import { endpointOf, open, run } from '../provisioning/warehouse-session.js';
import type { PlannedCall } from './calls.js';
import type { RemoveOutcome } from './descriptor.js';
import type { WarehouseContent } from './warehouse.js';
import { lakehouseNames, modelsOf } from './warehouse-objects.js';

// A warehouse is not a platform item: its tables and views live in the install target's dedicated SQL pool (the
// shared set's, or targetOverrides' warehouse), which is not the app's to delete. Removing the item drops the objects
// its content creates there: views first (they read the tables), then tables, then the external tables over
// lakehouse folders. Schemas, external data sources and file formats are left: other apps' objects may use them.

type SqlObject = { kind: 'VIEW' | 'TABLE' | 'EXTERNAL TABLE'; schema: string; name: string };

/**
 * The objects the content creates, in the order they are dropped. An external table's schema is its lakehouse's name as
 * the install used it (its live record's, else the app's item's); `unknown` names the lakehouse sources with neither
 * (a record written before it named them, the lakehouse's item gone since), whose external tables cannot be named.
 */
export function warehouseObjects(ctx: TypedProvisionContext<WarehouseContent>): { objects: SqlObject[]; unknown: string[] } {
  const ddl = ctx.content.ddl.map(classifyDdl);
  const names = lakehouseNames(ctx, true);
  const sources = Object.entries(ctx.content.sources ?? {}).filter(([, s]) => s.lakehouse);
  const unknown = sources.filter(([, s]) => !names.has(s.lakehouse!));
  const modelSchema = ctx.content.modelSchema ?? 'dbo';
  // Without a lakehouse's name the models reading it do not compile; their views are named all the same.
  const models = unknown.length ? (ctx.content.models ?? []).map((m) => ({ schema: modelSchema, name: m.name })) : modelsOf(ctx, names);
  const views: SqlObject[] = [
    ...models.reverse().map((m) => ({ kind: 'VIEW' as const, schema: m.schema, name: m.name })),
    ...ddl.flatMap((d) => (d.kind === 'view' ? [{ kind: 'VIEW' as const, schema: d.schema, name: d.name }] : [])).reverse(),
  ];
  const tables = ddl.flatMap((d) => (d.kind === 'table' ? [{ kind: 'TABLE' as const, schema: d.schema, name: d.name }] : [])).reverse();
  const external = sources.flatMap(([, s]) => {
    const name = names.get(s.lakehouse!);
    return name ? s.tables.map((t) => ({ kind: 'EXTERNAL TABLE' as const, schema: externalSchema(name, s.schema), name: t })) : [];
  });
  return {
    objects: [...views, ...tables, ...external],
    unknown: unknown.map(([source, s]) => `source '${source}' (lakehouse '${s.lakehouse}': ${s.tables.join(', ')})`),
  };
}

const key = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();
const LISTED = 'SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES';

/** Drops the content's views, tables and external tables that the pool holds; removed:false when it holds none of them. */
export async function removeWarehouse(ctx: TypedProvisionContext<WarehouseContent>, _resourceId: string): Promise<RemoveOutcome> {
  const { server, database } = endpointOf(ctx);
  const { objects: wanted, unknown } = warehouseObjects(ctx);
  const session = await open(ctx, server, database);
  try {
    const present = new Set((await run(ctx, session, LISTED)).rows.map((r) => key(String(r[0]), String(r[1]))));
    let removed = false;
    for (const o of wanted.filter((w) => present.has(key(w.schema, w.name)))) {
      // Each DROP in its own batch: a failure names the object, and what was dropped before it stays dropped.
      await run(ctx, session, `DROP ${o.kind} ${quoteName(o.schema)}.${quoteName(o.name)}`);
      ctx.log(`dropped ${o.kind.toLowerCase()} ${o.schema}.${o.name}`);
      removed = true;
    }
    if (!removed) ctx.log(`none of the ${wanted.length} views and tables of the content is in ${database}: nothing to drop`);
    if (!unknown.length) return { removed };
    // Not left silently: the step says which external tables it could not name (their lakehouse's item went earlier).
    const keptFor = `the external tables of ${unknown.join('; ')} could not be named (the lakehouse's item is gone and this warehouse's live record, written before it named its lakehouses, does not name it): drop them from ${database} by hand`;
    ctx.log(keptFor);
    return { removed, keptFor };
  } finally {
    session.close();
  }
}

/**
 * The warehouse's id when the pool holds any object of the content's own names (what a step that failed midway made),
 * read without compiling its models: their lakehouses' items may be gone (an earlier, partial uninstall removed them).
 */
export async function findWarehouse(ctx: TypedProvisionContext<WarehouseContent>): Promise<string | undefined> {
  const { server, database } = endpointOf(ctx);
  const { objects } = warehouseObjects(ctx);
  const session = await open(ctx, server, database);
  try {
    const present = new Set((await run(ctx, session, LISTED)).rows.map((r) => key(String(r[0]), String(r[1]))));
    return objects.some((o) => present.has(key(o.schema, o.name))) ? `${server}/${database}` : undefined;
  } finally {
    session.close();
  }
}

/** The calls findWarehouse makes: the sign-in and the list of tables and views. */
export const warehouseFindCalls = (): PlannedCall[] => [
  { service: 'sql', method: 'LOGIN', path: '/{database}' },
  { service: 'sql', method: 'BATCH', path: '/{database}/batch/{sql*}', command: 'SELECT … FROM INFORMATION_SCHEMA.TABLES' },
];

const batch = (command: string, times?: number): PlannedCall => ({
  service: 'sql',
  method: 'BATCH',
  path: '/{database}/batch/{sql*}',
  command,
  when: 'existing',
  ...(times === undefined ? {} : { times }),
});

/** The calls removeWarehouse makes: the sign-in, the list of tables and views, then each DROP of one that exists. */
export function warehouseRemoveCalls(c: WarehouseContent): PlannedCall[] {
  const ddl = c.ddl.map(classifyDdl);
  const views = (c.models?.length ?? 0) + ddl.filter((d) => d.kind === 'view').length;
  const tables = ddl.filter((d) => d.kind === 'table').length;
  const external = Object.values(c.sources ?? {}).reduce((n, s) => n + (s.lakehouse ? s.tables.length : 0), 0);
  return [
    ...warehouseFindCalls(),
    ...(views ? [batch('DROP VIEW (a dbt model or a view of the DDL)', views)] : []),
    ...(tables ? [batch('DROP TABLE (a table of the DDL)', tables)] : []),
    ...(external ? [batch('DROP EXTERNAL TABLE (a lakehouse source table)', external)] : []),
  ];
}
