import { Type, type Static } from '@sinclair/typebox';
import { validateKqlQueries } from '../catalog/validate-consumers.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { DATABASE_CALLS, ensureDatabase, ident, kqlString, scriptCommand } from '../provisioning/kql.js';
import { mgmt, runKqlCommands } from '../provisioning/kql-script.js';
import { dropKqlObjects, kqlDropCalls } from '../provisioning/remove.js';
import { kqlParts, kqlReadCalls, readDatabase, readKqlObjects } from '../provisioning/kql-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
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

/** The database the queryset's parent names (or the dedicated target's). */
const databaseOf = (ctx: TypedProvisionContext<KqlQuerysetContent>) =>
  ctx.target.kqlDatabase ?? ctx.contentOf(ctx.content.database, KqlDatabaseContent)!.database;

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
  async readLive(ctx) {
    const database = databaseOf(ctx);
    const db = await readDatabase(ctx, database);
    if (!db) return undefined;
    const parts = await readKqlObjects(ctx, db.uri, database, { tables: [], functions: functionsOf(ctx).map((f) => f.name) });
    if (!Object.keys(parts).length) return undefined;
    return { resourceId: `${db.id}/querysets/${ctx.item.displayName}`, secondaryIds: { clusterUri: db.uri, database }, parts };
  },
  readCalls: () => kqlReadCalls(0, 1),
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
