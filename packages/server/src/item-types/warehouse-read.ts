import type { CatalogItem } from '../catalog/types.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { externalSchema, sqlTypeOf } from '../provisioning/dbt/external.js';
import { classifyDdl } from '../provisioning/dbt/tsql.js';
import type { PlannedCall } from './calls.js';
import type { LiveParts, LiveState } from './descriptor.js';
import { LakehouseContent } from './lakehouse.js';
import { endpointOf, open, run } from '../provisioning/warehouse-session.js';
import type { WarehouseContent } from './warehouse.js';
import { lakehouseIds, modelsOf, viewSql } from './warehouse-objects.js';

// The warehouse's plan: its tables (the DDL's and the lakehouse sources' external tables) and dbt views, as provisioning
// creates them and as the pool's catalog holds them (INFORMATION_SCHEMA.COLUMNS, sys.sql_modules: SELECTs only).

type Column = { name: string; type: string };

/** A column type as the catalog names it (DATA_TYPE): the base type, lower case, without length or precision. */
const baseType = (t: string) =>
  t
    .trim()
    .toLowerCase()
    .replace(/\s*\(.*$/, '');
const tablePart = (columns: readonly Column[]) => columns.map((c) => `${c.name} ${baseType(c.type)}`).join('\n');
const objectKey = (kind: 'table' | 'view', schema: string, name: string) => `${kind} ${schema}.${name}`;

/** What provisioning creates, as parts: `table <schema>.<name>` (columns, one a line) and `view <schema>.<name>` (its CREATE VIEW). */
export function warehouseParts(ctx: TypedProvisionContext<WarehouseContent>): LiveParts {
  const parts: LiveParts = {};
  for (const d of ctx.content.ddl.map(classifyDdl))
    if (d.kind === 'table') parts[objectKey('table', d.schema, d.name)] = tablePart(d.columns);
  for (const [, s] of Object.entries(ctx.content.sources ?? {})) {
    if (!s.lakehouse) continue;
    const item = ctx.app.items.find((i: CatalogItem) => i.key === s.lakehouse);
    const lake = ctx.contentOf(s.lakehouse, LakehouseContent);
    if (!item || !lake) continue;
    for (const t of lake.tables.filter((x) => s.tables.includes(x.name)))
      parts[objectKey('table', externalSchema(item.displayName, s.schema), t.name)] = tablePart(
        t.columns.map((c) => ({ name: c.name, type: sqlTypeOf(c.type) })),
      );
  }
  for (const m of modelsOf(ctx)) parts[objectKey('view', m.schema, m.name)] = viewSql(m);
  return parts;
}

/** The columns of every table and the definition of every view, in one batch (each row tagged with what it lists). */
const READ = [
  "SELECT N'column', TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS",
  "SELECT N'view', OBJECT_SCHEMA_NAME(object_id), OBJECT_NAME(object_id), definition FROM sys.sql_modules",
].join(';\n');

/**
 * The objects the content names as the pool holds them now; undefined when it holds none of them (an install would
 * create them all). Names compare case-insensitively, as the pool's collation does.
 */
export async function readWarehouse(ctx: TypedProvisionContext<WarehouseContent>): Promise<LiveState | undefined> {
  const { server, database } = endpointOf(ctx);
  const wanted = new Map(Object.keys(warehouseParts(ctx)).map((k) => [k.toLowerCase(), k]));
  const session = await open(ctx, server, database);
  const parts: LiveParts = {};
  try {
    const tables = new Map<string, Array<Column & { at: number }>>();
    for (const [tag, ...r] of (await run(ctx, session, READ)).rows) {
      const k = wanted.get(objectKey(tag === 'view' ? 'view' : 'table', String(r[0]), String(r[1])).toLowerCase());
      if (!k) continue;
      if (tag === 'view') parts[k] = String(r[2] ?? '').trim();
      else tables.set(k, [...(tables.get(k) ?? []), { name: String(r[2]), type: String(r[4] ?? ''), at: Number(r[3]) }]);
    }
    for (const [k, cols] of tables) parts[k] = tablePart(cols.sort((a, b) => a.at - b.at));
  } finally {
    session.close();
  }
  if (!Object.keys(parts).length) return undefined;
  const { host, port } = session.endpoint;
  const sqlEndpoint = port === 1433 ? host : `${host},${port}`;
  return {
    resourceId: `${server}/${database}`,
    secondaryIds: { sqlEndpoint, sqlEndpointId: database, server, database, ...lakehouseIds(ctx) },
    parts,
  };
}

const select = (command: string): PlannedCall => ({ service: 'sql', method: 'BATCH', path: '/{database}/batch/{sql*}', command });

/** The reads readWarehouse makes: the sign-in, then the columns of every table and the definitions of every view in one batch. */
export const warehouseReadCalls = (): PlannedCall[] => [
  { service: 'sql', method: 'LOGIN', path: '/{database}' },
  select('SELECT … FROM INFORMATION_SCHEMA.COLUMNS; … FROM sys.sql_modules'),
];
