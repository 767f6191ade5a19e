import { Type, type Static } from '@sinclair/typebox';
import { validateKqlQueries } from '../catalog/validate-consumers.js';
import { StepRefused, type TypedProvisionContext } from '../provisioning/context.js';
import { DATABASE_CALLS, ensureDatabase, ident, kqlString, scriptCommand } from '../provisioning/kql.js';
import { mgmt, runKqlCommands } from '../provisioning/kql-script.js';
import { dropKqlObjects, kqlDropCalls } from '../provisioning/remove.js';
import { kqlParts, kqlReadCalls, readDatabase, readKqlObjects } from '../provisioning/kql-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType, LiveState } from './descriptor.js';
import { KqlDatabaseContent } from './kql-database.js';

/** KQL queryset content: saved queries over a KQL database of the app. */
export const KqlQuerysetContent = Type.Object({
  database: Key,
  queries: Type.Array(Type.Object({ name: Name, text: Name }), { minItems: 1 }),
});
export type KqlQuerysetContent = Static<typeof KqlQuerysetContent>;

/** The saved queries as the functions provisioning creates: a KQL name, no parameters, in the queryset's folder. */
function functionsOf(ctx: TypedProvisionContext<KqlQuerysetContent>) {
  const folder = `querysets/${ctx.item.displayName}`;
  return ctx.content.queries.map((q) => ({
    name: q.name.replace(/[^A-Za-z0-9_]/g, '_'),
    parameters: '()',
    body: q.text,
    folder,
    query: q.name,
  }));
}

/** The database the queryset's parent names (or the dedicated target's); undefined when its parent is no item of the app. */
const parentDatabase = (ctx: TypedProvisionContext<KqlQuerysetContent>) =>
  ctx.target.kqlDatabase ?? ctx.contentOf(ctx.content.database, KqlDatabaseContent)?.database;

/** The database the queryset's parent names, or a refusal naming the parent that is not there. */
function databaseOf(ctx: TypedProvisionContext<KqlQuerysetContent>): string {
  const database = parentDatabase(ctx);
  if (!database)
    throw new StepRefused('queryset_database_unknown', `The queryset's database '${ctx.content.database}' is no KQL database of the app`);
  return database;
}

/** The saved queries' functions as the database holds them: none (or no database) reads as undefined. */
async function readQueryset(ctx: TypedProvisionContext<KqlQuerysetContent>, database: string): Promise<LiveState | undefined> {
  const db = await readDatabase(ctx, database);
  if (!db) return undefined;
  const parts = await readKqlObjects(ctx, db.uri, database, { tables: [], functions: functionsOf(ctx).map((f) => f.name) });
  if (!Object.keys(parts).length) return undefined;
  return { resourceId: `${db.id}/querysets/${ctx.item.displayName}`, secondaryIds: { clusterUri: db.uri, database }, parts };
}

/** kql-queryset: shares its parent database; saved queries become functions in a 'querysets' folder. */
export const kqlQueryset: LiveItemType<'kql-queryset', typeof KqlQuerysetContent> = {
  id: 'kql-queryset',
  displayName: 'KQL queryset',
  description: 'saved KQL queries over a KQL database',
  icon: 'DatabaseSearch',
  editor: 'kql-schema',
  backing: 'kql',
  content: KqlQuerysetContent,
  validate: validateKqlQueries,
  validatesAfter: ['kql-database', 'eventhouse'],
  edges: { from: ['reads-from'], to: ['reads-from', 'visualizes'] },
  dependsOn: (c) => [c.database],
  calls: (c) => [
    ...DATABASE_CALLS.map((call) => ({ ...call, when: 'unreported' as const })),
    { service: 'kql', method: 'POST', path: '/v1/rest/mgmt', command: '.show functions' },
    {
      service: 'kql',
      method: 'POST',
      path: '/v1/rest/mgmt',
      command: scriptCommand([['.create-or-alter function with (folder=…)', c.queries.length]]),
    },
  ],
  desired: async (ctx) => kqlParts([], functionsOf(ctx)),
  readLive: (ctx) => readQueryset(ctx, databaseOf(ctx)),
  readCalls: () => kqlReadCalls(0, 1),
  // Without a record or the parent's item (an earlier, partial uninstall removed it) the database is not known: a
  // database that uninstall deleted took the functions with it; one it kept is not searched (its name is not known).
  async find(ctx) {
    const database = ctx.recordedIds?.database ?? parentDatabase(ctx);
    if (database) return (await readQueryset(ctx, database))?.resourceId;
    ctx.log(`its database '${ctx.content.database}' is no longer an item of the app: its saved queries cannot be looked up`);
    return undefined;
  },
  // The queryset lives in its parent's database as functions: removing it drops them and leaves the database. The
  // database is the one it was made in (its recorded ids), which stays known after the parent's item went.
  remove: (ctx) => dropKqlObjects(ctx, ctx.recordedIds?.database ?? databaseOf(ctx), [], functionsOf(ctx)),
  removeCalls: (c) => kqlDropCalls(0, c.queries.length, true),
  async provision(ctx) {
    const database = databaseOf(ctx);
    // The parent database's step (this job's, or the one recorded) made or found the database: its PUT is not repeated.
    const parent = ctx.dependency(ctx.content.database);
    const uri = parent?.secondaryIds?.database === database ? parent.secondaryIds.clusterUri : undefined;
    const db = parent?.resourceId && uri ? { id: parent.resourceId, uri, created: false } : await ensureDatabase(ctx, database);
    const existing = new Set((await mgmt(ctx, db.uri, database, '.show functions')).map((r) => String(r[0])));
    const functions = functionsOf(ctx);
    await runKqlCommands(
      ctx,
      db.uri,
      database,
      functions.map((f) => ({
        csl: `.create-or-alter function with (folder=${kqlString(f.folder)}) ${ident(f.name)}() { ${f.body} }`,
        done: `saved query ${f.query}`,
      })),
    );
    return {
      status: db.created || functions.some((f) => !existing.has(f.name)) ? 'created' : 'exists',
      resourceId: `${db.id}/querysets/${ctx.item.displayName}`,
      secondaryIds: { clusterUri: db.uri, database },
    };
  },
};
