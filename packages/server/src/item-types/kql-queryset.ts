import { Type, type Static } from '@sinclair/typebox';
import { validateKqlQueries } from '../catalog/validate-consumers.js';
import { DATABASE_CALLS, ensureDatabase, ident, kqlString, mgmt } from '../provisioning/kql.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { KqlDatabaseContent } from './kql-database.js';

/** KQL queryset content: saved queries over a KQL database of the app. */
export const KqlQuerysetContent = Type.Object({
  database: Key,
  queries: Type.Array(Type.Object({ name: Name, text: Name }), { minItems: 1 }),
});
export type KqlQuerysetContent = Static<typeof KqlQuerysetContent>;

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
    ...DATABASE_CALLS,
    { service: 'kql', method: 'POST', path: '/v1/rest/mgmt', command: '.show functions' },
    {
      service: 'kql',
      method: 'POST',
      path: '/v1/rest/mgmt',
      command: '.create-or-alter function with (folder=…)',
      times: c.queries.length,
    },
  ],
  async provision(ctx) {
    const parent = ctx.contentOf(ctx.content.database, KqlDatabaseContent)!;
    const database = ctx.target.kqlDatabase ?? parent.database;
    const db = await ensureDatabase(ctx, database);
    const folder = kqlString(`querysets/${ctx.item.displayName}`);
    let created = db.created;
    const existing = new Set((await mgmt(ctx, db.uri, database, '.show functions')).map((r) => String(r[0])));
    for (const q of ctx.content.queries) {
      const name = q.name.replace(/[^A-Za-z0-9_]/g, '_');
      if (!existing.has(name)) created = true;
      await mgmt(ctx, db.uri, database, `.create-or-alter function with (folder=${folder}) ${ident(name)}() { ${q.text} }`);
      ctx.log(`saved query ${q.name}`);
    }
    return {
      status: created ? 'created' : 'exists',
      resourceId: `${db.id}/querysets/${ctx.item.displayName}`,
      secondaryIds: { clusterUri: db.uri, database },
    };
  },
};
