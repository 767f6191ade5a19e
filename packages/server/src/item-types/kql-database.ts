import { Type, type Static } from '@sinclair/typebox';
import { validateKqlDatabase } from '../catalog/validate-stores.js';
import type { ProvisionOutcome, TypedProvisionContext } from '../provisioning/context.js';
import { applyKqlContent, ensureDatabase, kqlContentCalls } from '../provisioning/kql.js';
import { KQL_DATABASE_REMOVE_CALLS, removeKqlDatabase } from '../provisioning/remove.js';
import { kqlParts, kqlReadCalls, readDatabase, readKqlObjects } from '../provisioning/kql-read.js';
import { Column, Key, Name, Row } from './content-parts.js';
import type { LiveItemType, LiveState } from './descriptor.js';

/** A KQL table: columns and seed rows. */
export const KqlTable = Type.Object({ name: Name, columns: Type.Array(Column, { minItems: 1 }), seedRows: Type.Optional(Type.Array(Row)) });
/** KQL database or eventhouse content: the database, its tables and functions. */
export const KqlDatabaseContent = Type.Object({
  database: Type.String({ pattern: '^[A-Za-z0-9_.-]+$' }),
  eventhouse: Type.Optional(Key),
  tables: Type.Array(KqlTable, { minItems: 1 }),
  functions: Type.Optional(
    Type.Array(
      Type.Object({ name: Name, parameters: Type.String({ pattern: '^\\(.*\\)$' }), body: Name, docstring: Type.Optional(Type.String()) }),
    ),
  ),
});
export type KqlDatabaseContent = Static<typeof KqlDatabaseContent>;

/** The resource manager's PUT of the database, then .create table, functions and inline .ingest (kql-database and eventhouse). */
export async function provisionKqlDatabase(ctx: TypedProvisionContext<KqlDatabaseContent>): Promise<ProvisionOutcome> {
  const database = ctx.target.kqlDatabase ?? ctx.content.database;
  const db = await ensureDatabase(ctx, database);
  const added = await applyKqlContent(ctx, db.uri, database, ctx.content);
  return { status: db.created || added ? 'created' : 'exists', resourceId: db.id, secondaryIds: { clusterUri: db.uri, database } };
}

/** The plan's members of a KQL database (and an eventhouse): its tables and functions, as sent and as the database holds them. */
export const kqlDatabaseLifecycle = {
  desired: async (ctx: TypedProvisionContext<KqlDatabaseContent>) => kqlParts(ctx.content.tables, ctx.content.functions ?? []),
  async readLive(ctx: TypedProvisionContext<KqlDatabaseContent>): Promise<LiveState | undefined> {
    const database = ctx.target.kqlDatabase ?? ctx.content.database;
    const db = await readDatabase(ctx, database);
    if (!db) return undefined;
    const wanted = { tables: ctx.content.tables.map((t) => t.name), functions: (ctx.content.functions ?? []).map((f) => f.name) };
    const parts = await readKqlObjects(ctx, db.uri, database, wanted);
    return { resourceId: db.id, secondaryIds: { clusterUri: db.uri, database }, parts };
  },
  readCalls: (c: KqlDatabaseContent) => kqlReadCalls(c.tables.length, c.functions?.length ?? 0),
  /** The database's delete (its tables, functions and rows go with it). */
  remove: (ctx: TypedProvisionContext<KqlDatabaseContent>, _resourceId: string) =>
    removeKqlDatabase(ctx, ctx.content.database, ctx.content.tables, ctx.content.functions ?? []),
  removeCalls: () => KQL_DATABASE_REMOVE_CALLS,
  holdsData: true,
};

/** kql-database: a database on the KQL cluster with its tables, functions and seed rows. */
export const kqlDatabase: LiveItemType<'kql-database', typeof KqlDatabaseContent> = {
  id: 'kql-database',
  displayName: 'KQL database',
  description: 'tables and functions on the KQL cluster',
  icon: 'DatabaseLightning',
  editor: 'kql-schema',
  backing: 'kql',
  content: KqlDatabaseContent,
  validate: validateKqlDatabase,
  edges: { from: ['feeds'], to: ['feeds', 'reads-from', 'visualizes', 'triggers-on'] },
  calls: kqlContentCalls,
  provision: provisionKqlDatabase,
  ...kqlDatabaseLifecycle,
};
