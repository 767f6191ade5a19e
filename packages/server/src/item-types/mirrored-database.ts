import { Type, type Static } from '@sinclair/typebox';
import { part, type PlatformConnection } from '../backends/data-platform.js';
import { validateMirroredDatabase } from '../catalog/validate-stores.js';
import { raiseGate } from '../backends/failures.js';
import { GateError } from '../errors.js';
import { gate } from '../provisioning/gates.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { jobLists } from '../provisioning/job-lists.js';
import {
  ensurePlatformItem,
  platformItemCalls,
  platformPart,
  platformWorkspace,
  type PlatformKind,
} from '../provisioning/platform-item.js';
import { platformLifecycle } from '../provisioning/platform-read.js';
import { Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { mirroredDatabaseSynapse } from './mirrored-database-synapse.js';

/** Source types a mirroring.json may name. */
export const MIRROR_SOURCE_TYPES = [
  'Snowflake',
  'AzureSqlDatabase',
  'AzureSqlMI',
  'AzurePostgreSql',
  'CosmosDb',
  'SqlServer2025',
  'MSSQL',
  'GenericMirror',
] as const;
/**
 * Mirrored database content: the connection it mirrors through (by display name) and mirroring.json, whose source names
 * that connection as `${connection.id}` (or by its display name, or its id).
 */
export const MirroredDatabaseContent = Type.Object({
  connection: Type.Optional(Type.Object({ name: Name, server: Name, database: Name, authentication: Name })),
  mirroring: Type.Object({
    properties: Type.Object({
      source: Type.Object({
        type: Type.Union(MIRROR_SOURCE_TYPES.map((t) => Type.Literal(t))),
        typeProperties: Type.Object({ connection: Name, database: Name }),
      }),
      target: Type.Object({
        type: Type.Literal('MountedRelationalDatabase'),
        typeProperties: Type.Object({ defaultSchema: Name, format: Type.Literal('Delta') }),
      }),
      mountedTables: Type.Optional(
        Type.Array(Type.Object({ source: Type.Object({ typeProperties: Type.Object({ schemaName: Name, tableName: Name }) }) })),
      ),
    }),
  }),
});
export type MirroredDatabaseContent = Static<typeof MirroredDatabaseContent>;

const PLATFORM: PlatformKind = { type: 'MirroredDatabase', collection: 'mirroredDatabases' };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONNECTION_ID = '${connection.id}';

/**
 * The id of the connection mirroring.json names, resolved through the connections API (GET /v1/connections): the
 * content's connection by display name for `${connection.id}`, else the name or id written there. A connection the
 * platform does not have raises the gate naming it; an unresolved token is never sent.
 */
async function connectionId(ctx: TypedProvisionContext<MirroredDatabaseContent>): Promise<string> {
  const written = ctx.content.mirroring.properties.source.typeProperties.connection;
  const wanted = written === CONNECTION_ID ? ctx.content.connection?.name : written;
  if (!wanted) throw new GateError(gate('mirror-connection-missing', ctx.profile, { connection: CONNECTION_ID }));
  let connections: PlatformConnection[];
  try {
    connections = await jobLists(ctx).connections();
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
  const found = connections.find(
    (c) => (GUID.test(wanted) && c.id.toLowerCase() === wanted.toLowerCase()) || c.displayName?.toLowerCase() === wanted.toLowerCase(),
  );
  if (!found) {
    ctx.log(`connection '${wanted}': not among the ${connections.length} connection(s) the service identity may use`);
    throw new GateError(gate('mirror-connection-missing', ctx.profile, { connection: wanted }));
  }
  ctx.log(`connection '${wanted}' → ${found.id}`);
  return found.id;
}

/** mirroring.json as provisioning sends it: the content's, naming the resolved connection. */
async function mirroringOf(ctx: TypedProvisionContext<MirroredDatabaseContent>) {
  const m = ctx.content.mirroring;
  const source = { ...m.properties.source, typeProperties: { ...m.properties.source.typeProperties, connection: await connectionId(ctx) } };
  return { ...m, properties: { ...m.properties, source } };
}

/** The definition a mirrored database's provisioning sends: mirroring.json and the .platform part. */
const definitionOf = (ctx: TypedProvisionContext<MirroredDatabaseContent>, mirroring: MirroredDatabaseContent['mirroring']) => ({
  parts: [part('mirroring.json', JSON.stringify(mirroring, null, 2)), platformPart(ctx, 'MirroredDatabase')],
});

const CONNECTIONS = { service: 'data-platform', method: 'GET', path: '/connections', once: true } as const;

/** mirrored-database: GET /v1/connections to resolve its connection, then POST /workspaces/{ws}/mirroredDatabases with mirroring.json (required). */
export const mirroredDatabase: LiveItemType<'mirrored-database', typeof MirroredDatabaseContent> = {
  id: 'mirrored-database',
  displayName: 'Mirrored database',
  description: 'a database mirrored into the platform',
  icon: 'Database',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  holdsData: true,
  content: MirroredDatabaseContent,
  validate: validateMirroredDatabase,
  edges: { from: ['feeds'], to: ['feeds', 'reads-from'] },
  calls: () => [CONNECTIONS, ...platformItemCalls(PLATFORM, true)],
  ...platformLifecycle(PLATFORM, async (ctx: TypedProvisionContext<MirroredDatabaseContent>) => definitionOf(ctx, await mirroringOf(ctx)), [
    CONNECTIONS,
  ]),
  async provision(ctx) {
    const ws = platformWorkspace(ctx);
    const mirroring = await mirroringOf(ctx);
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition: definitionOf(ctx, mirroring) });
    return {
      status: created ? 'created' : 'exists',
      resourceId: item.id,
      secondaryIds: { platformWorkspaceId: ws, connectionId: mirroring.properties.source.typeProperties.connection },
    };
  },
  alternatives: [mirroredDatabaseSynapse],
};
