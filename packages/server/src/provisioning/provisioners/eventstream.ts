import { part } from '../../backends/data-platform.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart } from './platform-item.js';

/** eventstream: POST /workspaces/{ws}/eventstreams, then update definition with its source, stream and destination. */
export const provisionEventstream: Provisioner = async (ctx) => {
  const c = ctx.content;
  const dest = c.destination as { database?: string; lakehouse?: string; table?: string; customEndpoint?: string };
  const destKey = dest.database ?? dest.lakehouse;
  const destItem = destKey ? ctx.app.items.find((i) => i.key === destKey) : undefined;
  const destResult = destKey ? ctx.dependency(destKey) : undefined;
  const destination = dest.database
    ? { name: 'kql-destination', type: 'Eventhouse', properties: { dataIngestionMode: 'ProcessedIngestion', workspaceId: ctx.target.platformWorkspaceId, itemId: destResult?.resourceId, databaseName: ctx.contentOf(dest.database)?.database ?? destItem?.displayName, tableName: dest.table, inputSerialization: { type: 'Json', properties: { encoding: 'UTF8' } } }, inputNodes: [{ name: 'main-stream' }] }
    : dest.lakehouse
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
  const { item, created } = await ensurePlatformItem(ctx, { type: 'Eventstream', collection: 'eventstreams', definition });
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! } };
};
