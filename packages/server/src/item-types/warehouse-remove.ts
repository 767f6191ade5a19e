import type { CatalogItem } from '../catalog/types.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { externalSchema } from '../provisioning/dbt/external.js';
import { classifyDdl, quoteName } from '../provisioning/dbt/tsql.js';
import { endpointOf, open, run } from '../provisioning/warehouse-session.js';
import type { PlannedCall } from './calls.js';
import type { RemoveOutcome } from './descriptor.js';
import type { WarehouseContent } from './warehouse.js';
import { modelsOf } from './warehouse-objects.js';

// A warehouse is not a platform item: its tables and views live in the install target's dedicated SQL pool (the
// shared set's, or targetOverrides' warehouse), which is not the app's to delete. Removing the item drops the objects
// its content creates there: views first (they read the tables), then tables, then the external tables over
// lakehouse folders. Schemas, external data sources and file formats are left: other apps' objects may use them.

type SqlObject = { kind: 'VIEW' | 'TABLE' | 'EXTERNAL TABLE'; schema: string; name: string };

/** The objects the content creates, in the order they are dropped. */
export function warehouseObjects(ctx: TypedProvisionContext<WarehouseContent>): SqlObject[] {
  const ddl = ctx.content.ddl.map(classifyDdl);
  const views: SqlObject[] = [
    ...modelsOf(ctx)
      .reverse()
      .map((m) => ({ kind: 'VIEW' as const, schema: m.schema, name: m.name })),
    ...ddl.flatMap((d) => (d.kind === 'view' ? [{ kind: 'VIEW' as const, schema: d.schema, name: d.name }] : [])).reverse(),
  ];
  const tables = ddl.flatMap((d) => (d.kind === 'table' ? [{ kind: 'TABLE' as const, schema: d.schema, name: d.name }] : [])).reverse();
  const external = Object.values(ctx.content.sources ?? {}).flatMap((s) => {
    const item = s.lakehouse ? ctx.app.items.find((i: CatalogItem) => i.key === s.lakehouse) : undefined;
    return item
      ? s.tables.map((t) => ({ kind: 'EXTERNAL TABLE' as const, schema: externalSchema(item.displayName, s.schema), name: t }))
      : [];
  });
  return [...views, ...tables, ...external];
}

const key = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();
const LISTED = 'SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES';

/** Drops the content's views and tables that the pool holds; removed:false when it holds none of them. */
export async function removeWarehouse(ctx: TypedProvisionContext<WarehouseContent>, _resourceId: string): Promise<RemoveOutcome> {
  const { server, database } = endpointOf(ctx);
  const wanted = warehouseObjects(ctx);
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
    return { removed };
  } finally {
    session.close();
  }
}

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
    { service: 'sql', method: 'LOGIN', path: '/{database}' },
    { service: 'sql', method: 'BATCH', path: '/{database}/batch/{sql*}', command: 'SELECT … FROM INFORMATION_SCHEMA.TABLES' },
    ...(views ? [batch('DROP VIEW (a dbt model or a view of the DDL)', views)] : []),
    ...(tables ? [batch('DROP TABLE (a table of the DDL)', tables)] : []),
    ...(external ? [batch('DROP EXTERNAL TABLE (a lakehouse source table)', external)] : []),
  ];
}
