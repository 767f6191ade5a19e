import { Type, type Static } from '@sinclair/typebox';
import { part, type PlatformItem } from '../backends/data-platform.js';
import { validateEventstream } from '../catalog/validate-flows.js';
import { StepRefused, type TypedProvisionContext } from '../provisioning/context.js';
import { raiseGate } from '../backends/failures.js';
import { jobLists } from '../provisioning/job-lists.js';
import {
  definitionParts,
  ensurePlatformItem,
  listCall,
  platformItemCalls,
  platformPart,
  platformWorkspace,
  stableGuid,
  type PlatformKind,
} from '../provisioning/platform-item.js';
import { platformReadCalls, readPlatformItem } from '../provisioning/platform-read.js';
import { Column, Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { KqlDatabaseContent } from './kql-database.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { eventstreamEventHubs } from './eventstream-event-hubs.js';

type Destination = { name: string; type: string; properties: Record<string, unknown> };

/** Eventstream content: the source, the event schema and where events land. */
export const EventstreamContent = Type.Object({
  source: Type.Object({ type: Type.Union([Type.Literal('CustomEndpoint'), Type.Literal('SampleData')]) }, { additionalProperties: true }),
  eventSchema: Type.Optional(Type.Array(Column)),
  destination: Type.Union([
    Type.Object({ database: Key, table: Name }),
    Type.Object({ lakehouse: Key, table: Name }),
    Type.Object({ customEndpoint: Name }),
  ]),
  retentionDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })),
});
export type EventstreamContent = Static<typeof EventstreamContent>;

const PLATFORM: PlatformKind = { type: 'Eventstream', collection: 'eventstreams' };
const KQL_DATABASES = listCall('KQLDatabase');

/**
 * The destination node. An Eventhouse destination names the KQL database's data-platform item id and workspace (the
 * published definition schema's itemId is that GUID, not the resource manager's id): the database the KQL step reported
 * is found among the workspace's KQLDatabase items. Undefined when it is not one (a database outside the platform).
 */
async function destinationOf(ctx: TypedProvisionContext<EventstreamContent>, ws: string): Promise<Destination | undefined> {
  const dest = ctx.content.destination;
  if ('customEndpoint' in dest) return { name: dest.customEndpoint, type: 'CustomEndpoint', properties: {} };
  if ('lakehouse' in dest)
    return {
      name: 'lakehouse-destination',
      type: 'Lakehouse',
      properties: { workspaceId: ws, itemId: ctx.dependency(dest.lakehouse)?.resourceId, deltaTable: dest.table },
    };
  const database = ctx.dependency(dest.database)?.secondaryIds?.database ?? ctx.contentOf(dest.database, KqlDatabaseContent)?.database;
  if (!database) return undefined;
  let item: PlatformItem | undefined;
  try {
    // The job's list of KQL databases; one not in it may have come since that list was taken, so it is listed again.
    const lists = jobLists(ctx);
    item = (await lists.find(ws, 'KQLDatabase', database)) ?? (await lists.find(ws, 'KQLDatabase', database, { fresh: true }));
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
  if (!item) return undefined;
  ctx.log(`KQL database ${database}: data-platform item ${item.id}`);
  const properties = {
    dataIngestionMode: 'ProcessedIngestion',
    workspaceId: item.workspaceId ?? ws,
    itemId: item.id,
    databaseName: database,
    tableName: dest.table,
    inputSerialization: { type: 'Json', properties: { encoding: 'UTF8' } },
  };
  return { name: 'kql-destination', type: 'Eventhouse', properties };
}

/** The definition an eventstream's provisioning sends: its source, stream and destination, each node with a stable id. */
async function definitionOf(ctx: TypedProvisionContext<EventstreamContent>) {
  const c = ctx.content;
  const destination = await destinationOf(ctx, platformWorkspace(ctx));
  if (!destination) {
    throw new StepRefused(
      'destination_not_platform_item',
      "The destination KQL database is not a data-platform KQL database (an eventhouse database) of the platform workspace: an eventstream writes only to an eventhouse's KQL database, named by its item id",
    );
  }
  // Every node carries a stable id (the published topology's nodes have one), so a re-run sends the same definition.
  const id = (node: string) => stableGuid(`${ctx.app.id}/${ctx.item.key}/${node}`);
  const { type, name, description: _description, ...sourceProperties } = c.source as Record<string, unknown>;
  const sourceName = typeof name === 'string' && name ? name : 'source';
  const eventstream = {
    sources: [{ id: id('source'), name: sourceName, type, properties: sourceProperties }],
    destinations: [{ id: id('destination'), ...destination, inputNodes: [{ name: 'main-stream' }] }],
    streams: [{ id: id('main-stream'), name: 'main-stream', type: 'DefaultStream', properties: {}, inputNodes: [{ name: sourceName }] }],
    operators: [],
    compatibilityLevel: '1.0',
  };
  const props = { retentionTimeInDays: c.retentionDays ?? 1, eventThroughputLevel: 'Low' };
  return {
    parts: [
      part('eventstream.json', JSON.stringify(eventstream, null, 2)),
      part('eventstreamProperties.json', JSON.stringify(props)),
      platformPart(ctx, 'Eventstream'),
    ],
  };
}

/** eventstream: POST /workspaces/{ws}/eventstreams with its definition: its source, stream and destination. */
export const eventstream: LiveItemType<'eventstream', typeof EventstreamContent> = {
  id: 'eventstream',
  displayName: 'Eventstream',
  description: 'a stream landing events in a KQL table',
  icon: 'ArrowSync',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  content: EventstreamContent,
  validate: validateEventstream,
  validatesAfter: ['kql-database', 'eventhouse', 'lakehouse'],
  edges: { from: ['feeds'], to: ['reads-from', 'triggers-on'] },
  alternatives: [eventstreamEventHubs],
  dependsOn: (c) => [
    'database' in c.destination ? c.destination.database : 'lakehouse' in c.destination ? c.destination.lakehouse : undefined,
  ],
  calls: (c) => [...('database' in c.destination ? [KQL_DATABASES] : []), ...platformItemCalls(PLATFORM, true)],
  desired: async (ctx) => definitionParts(await definitionOf(ctx)),
  readLive: (ctx) => readPlatformItem(ctx, PLATFORM),
  readCalls: (c) => platformReadCalls(PLATFORM, 'database' in c.destination ? [KQL_DATABASES] : []),
  async provision(ctx) {
    const ws = platformWorkspace(ctx);
    const definition = await definitionOf(ctx);
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition });
    return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ws } };
  },
};
