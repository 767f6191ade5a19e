import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { validateEventstream } from '../catalog/validate-flows.js';
import { ensurePlatformItem, platformItemCalls, platformPart, type PlatformKind } from '../provisioning/platform-item.js';
import { Column, Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { KqlDatabaseContent } from './kql-database.js';

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

/** eventstream: POST /workspaces/{ws}/eventstreams, then update definition with its source, stream and destination. */
export const eventstream: LiveItemType<'eventstream', typeof EventstreamContent> = {
  id: 'eventstream',
  displayName: 'Eventstream',
  description: 'a stream landing events in a KQL table',
  icon: 'ArrowSync',
  editor: 'json',
  backing: 'data-platform',
  content: EventstreamContent,
  validate: validateEventstream,
  validatesAfter: ['kql-database', 'eventhouse', 'lakehouse'],
  edges: { from: ['feeds'], to: ['reads-from', 'triggers-on'] },
  dependsOn: (c) => ['database' in c.destination ? c.destination.database : 'lakehouse' in c.destination ? c.destination.lakehouse : undefined],
  calls: () => platformItemCalls(PLATFORM, true),
  async provision(ctx) {
    const c = ctx.content;
    const dest = c.destination;
    const destKey = 'database' in dest ? dest.database : 'lakehouse' in dest ? dest.lakehouse : undefined;
    const destItem = destKey ? ctx.app.items.find((i) => i.key === destKey) : undefined;
    const destResult = destKey ? ctx.dependency(destKey) : undefined;
    const destination = 'database' in dest
      ? { name: 'kql-destination', type: 'Eventhouse', properties: { dataIngestionMode: 'ProcessedIngestion', workspaceId: ctx.target.platformWorkspaceId, itemId: destResult?.resourceId, databaseName: ctx.contentOf(dest.database, KqlDatabaseContent)?.database ?? destItem?.displayName, tableName: dest.table, inputSerialization: { type: 'Json', properties: { encoding: 'UTF8' } } }, inputNodes: [{ name: 'main-stream' }] }
      : 'lakehouse' in dest
        ? { name: 'lakehouse-destination', type: 'Lakehouse', properties: { workspaceId: ctx.target.platformWorkspaceId, itemId: destResult?.resourceId, deltaTable: dest.table }, inputNodes: [{ name: 'main-stream' }] }
        : { name: 'custom-destination', type: 'CustomEndpoint', properties: {}, inputNodes: [{ name: 'main-stream' }] };
    const eventstream = {
      sources: [{ name: 'source', type: c.source.type, properties: { ...c.source, type: undefined } }],
      destinations: [destination],
      streams: [{ name: 'main-stream', type: 'DefaultStream', properties: {}, inputNodes: [{ name: 'source' }] }],
      operators: [],
    };
    const props = { retentionTimeInDays: c.retentionDays ?? 1, eventThroughputLevel: 'Low' };
    const definition = { parts: [part('eventstream.json', JSON.stringify(eventstream, null, 2)), part('eventstreamProperties.json', JSON.stringify(props)), platformPart(ctx, 'Eventstream')] };
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition });
    return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! } };
  },
};
