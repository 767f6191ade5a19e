import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { validateMirroredDatabase } from '../catalog/validate-stores.js';
import { ensurePlatformItem, platformItemCalls, platformPart, type PlatformKind } from '../provisioning/platform-item.js';
import { Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';

/** Source types a mirroring.json may name. */
export const MIRROR_SOURCE_TYPES = ['Snowflake', 'AzureSqlDatabase', 'AzureSqlMI', 'AzurePostgreSql', 'CosmosDb', 'SqlServer2025', 'MSSQL', 'GenericMirror'] as const;
/** Mirrored database content: the connection to create and mirroring.json. */
export const MirroredDatabaseContent = Type.Object({
  connection: Type.Optional(Type.Object({ name: Name, server: Name, database: Name, authentication: Name })),
  mirroring: Type.Object({
    properties: Type.Object({
      source: Type.Object({ type: Type.Union(MIRROR_SOURCE_TYPES.map((t) => Type.Literal(t))), typeProperties: Type.Object({ connection: Name, database: Name }) }),
      target: Type.Object({ type: Type.Literal('MountedRelationalDatabase'), typeProperties: Type.Object({ defaultSchema: Name, format: Type.Literal('Delta') }) }),
      mountedTables: Type.Optional(Type.Array(Type.Object({ source: Type.Object({ typeProperties: Type.Object({ schemaName: Name, tableName: Name }) }) }))),
    }),
  }),
});
export type MirroredDatabaseContent = Static<typeof MirroredDatabaseContent>;

const PLATFORM: PlatformKind = { type: 'MirroredDatabase', collection: 'mirroredDatabases', definitionAtCreate: true };

/** mirrored-database: the platform's existing call, POST /workspaces/{ws}/mirroredDatabases with mirroring.json (required). */
export const mirroredDatabase: LiveItemType<'mirrored-database', typeof MirroredDatabaseContent> = {
  id: 'mirrored-database',
  displayName: 'Mirrored database',
  description: 'a database mirrored into the platform',
  icon: 'Database',
  editor: 'json',
  backing: 'data-platform',
  content: MirroredDatabaseContent,
  validate: validateMirroredDatabase,
  edges: { from: ['feeds'], to: ['feeds', 'reads-from'] },
  calls: () => platformItemCalls(PLATFORM, true),
  async provision(ctx) {
    const definition = { parts: [part('mirroring.json', JSON.stringify(ctx.content.mirroring, null, 2)), platformPart(ctx, 'MirroredDatabase')] };
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition });
    return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! } };
  },
};
