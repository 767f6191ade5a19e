import { BackingError } from '../backends/http-pipeline.js';
import { createHash } from 'node:crypto';
import { EVENTHUB_API_VERSION, isNamespaceId, type DataConnectionSpec } from '../backends/event-hubs.js';
import { raiseGate } from '../backends/failures.js';
import { ARM_API_VERSION } from '../backends/kql.js';
import { StepRefused, type ProvisionOutcome, type TypedProvisionContext } from '../provisioning/context.js';
import { cluster } from '../provisioning/kql.js';
import { nativeName, ownNativeName, nativeSettingGate } from '../provisioning/native-scope.js';
import type { PlannedCall } from './calls.js';
import type { LiveBackend, LiveParts, LiveState } from './descriptor.js';
import type { EventstreamContent } from './eventstream.js';
import { KqlDatabaseContent } from './kql-database.js';

// An eventstream in a cloud without the data platform (issue 20): an event hub in the deployment's Event Hubs namespace
// (SVC_EVENTHUB_NAMESPACE), named under the tenant's platform workspace; for a KQL-database destination also a consumer
// group and the KQL cluster's Event Hub data connection that ingests the hub into the destination table.

type Ctx = TypedProvisionContext<EventstreamContent>;

/** Partitions of every event hub an eventstream creates (a Standard namespace cannot change them later). */
const PARTITIONS = 2;
/** The longest retention of a Standard tier event hub, in days. */
const MAX_RETENTION_DAYS = 7;
/**
 * Messages are JSON events (the eventstream's event schema) whose fields are the table's columns: ingested by column name
 * (Kusto's identity mapping, used when no ingestion mapping is named), so no mapping is created.
 */
const DATA_FORMAT = 'JSON';

/** A name cut to `max` characters, keeping a hash of the whole so that two long names stay apart. */
function shorten(full: string, max: number): string {
  if (full.length <= max) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${full.slice(0, max - 9).replace(/[^A-Za-z0-9]+$/, '')}-${hash}`;
}

/**
 * A name under the tenant's prefix the providers take: letters, digits, periods, hyphens and underscores, starting and
 * ending with a letter or digit (any other run of characters becomes one hyphen), at most `max` characters.
 */
function entityName(ctx: Ctx, name: string, max: number): string {
  const clean = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || ctx.item.key;
  return shorten(nativeName(ctx, clean, '-'), max);
}

/** The data connection of an event hub: the hub's own name, cut to the 40 characters a data connection name may have. */
const connectionOf = (hub: string) => shorten(hub, 40);

/** The names of everything the backend creates for the item, all under the tenant's prefix. */
function namesOf(ctx: Ctx) {
  const namespace = ctx.target.eventHubNamespace;
  if (!namespace || !isNamespaceId(namespace)) throw nativeSettingGate(ctx, 'eventhub-not-configured');
  return {
    namespace,
    hub: entityName(ctx, ctx.item.displayName, 256),
    consumerGroup: entityName(ctx, 'kql', 50),
    connection: connectionOf(entityName(ctx, ctx.item.displayName, 256)),
  };
}

/** The destination's database as the KQL step reported it (or its content names); undefined when its item is not known. */
const destinationDatabase = (ctx: Ctx, key: string): string | undefined =>
  ctx.dependency(key)?.secondaryIds?.database ?? ctx.target.kqlDatabase ?? ctx.contentOf(key, KqlDatabaseContent)?.database;

/** The KQL destination: the cluster, the database the KQL step reported (or its content names) and the table. */
function kqlDestination(ctx: Ctx) {
  const dest = ctx.content.destination;
  if (!('database' in dest)) return undefined;
  const database = destinationDatabase(ctx, dest.database);
  if (!database)
    throw new StepRefused('destination_database_unknown', `The destination '${dest.database}' names no KQL database of the app`);
  return { ...cluster(ctx), database, table: dest.table };
}

const retentionOf = (c: EventstreamContent) => Math.min(c.retentionDays ?? 1, MAX_RETENTION_DAYS);

/** Runs a call of the Event Hubs provider, turning its 401/403 into the Event Hubs gate. */
async function eventHubsCall<T>(ctx: Ctx, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'eventhub-auth' } });
  }
}

/** Runs a call of the KQL cluster's resource manager (data connections), turning its 401/403 into the KQL gate. */
async function kustoCall<T>(ctx: Ctx, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'kql-arm-auth' } });
  }
}

/** What the backend holds for the item, as parts: the event hub, and for a KQL destination its consumer group and data connection. */
function parts(
  hub: { partitionCount?: number; messageRetentionInDays?: number },
  group?: string,
  connection?: Record<string, unknown>,
): LiveParts {
  const out: LiveParts = {
    'eventhub.json': JSON.stringify({ partitionCount: hub.partitionCount, messageRetentionInDays: hub.messageRetentionInDays }, null, 2),
  };
  if (group) out.consumerGroup = group;
  if (connection) out['dataConnection.json'] = JSON.stringify(connection, null, 2);
  return out;
}

/** The data connection's members the plan compares (the event hub by name: the namespace is the deployment's). */
const connectionPart = (hub: string, group: string, database: string, table: string | undefined, format: string | undefined) => ({
  eventHub: hub,
  consumerGroup: group,
  database,
  tableName: table,
  dataFormat: format,
});

/** What a dependant (an activator watching the stream) binds to: the table the events land in, and what feeds it. */
function kqlIds(n: ReturnType<typeof namesOf>, dest: NonNullable<ReturnType<typeof kqlDestination>>) {
  return { consumerGroup: n.consumerGroup, dataConnection: n.connection, clusterUri: dest.uri, database: dest.database, table: dest.table };
}

async function provision(ctx: Ctx): Promise<ProvisionOutcome> {
  const n = namesOf(ctx);
  const dest = kqlDestination(ctx);
  const api = ctx.backends.eventHubs;
  const days = retentionOf(ctx.content);
  if (days !== (ctx.content.retentionDays ?? 1))
    ctx.log(`retention ${ctx.content.retentionDays} days: ${MAX_RETENTION_DAYS} days, the most a Standard tier event hub keeps`);
  const before = await eventHubsCall(ctx, () => api.getEventHub(n.namespace, n.hub));
  const putHub = (partitions: number) =>
    eventHubsCall(ctx, () => api.putEventHub(n.namespace, n.hub, { partitionCount: partitions, messageRetentionInDays: days }));
  let hub = await putHub(before?.properties.partitionCount ?? PARTITIONS);
  ctx.log(`event hub ${n.hub}: ${before ? 'exists' : 'created'} (${hub.properties.partitionCount} partitions, ${days} days retention)`);
  const secondaryIds: Record<string, string> = { eventHubNamespace: n.namespace, eventHub: n.hub };
  let created = !before;
  const d = ctx.content.destination;
  if (dest) {
    const attach = async () => {
      await eventHubsCall(ctx, () =>
        api.putConsumerGroup(n.namespace, n.hub, n.consumerGroup, `KQL ingestion into ${dest.database}.${dest.table}`),
      );
      ctx.log(`consumer group ${n.consumerGroup} of ${n.hub}: for the KQL ingestion`);
      const spec: DataConnectionSpec = {
        location: ctx.target.kqlLocation,
        eventHubResourceId: hub.id,
        consumerGroup: n.consumerGroup,
        tableName: dest.table,
        dataFormat: DATA_FORMAT,
      };
      return kustoCall(ctx, () => api.putDataConnection(dest.resourceId, dest.database, n.connection, spec));
    };
    let isNew: boolean;
    try {
      isNew = await attach();
    } catch (err) {
      // The tenant's event hub is shared by its workspaces: another one's uninstall may delete it between the PUT above and
      // the ingestion's calls (which then answer 404, or 400 naming the missing hub). Found gone, it is made again, once.
      if (!(err instanceof BackingError) || ![400, 404].includes(err.status)) throw err;
      if (await eventHubsCall(ctx, () => api.getEventHub(n.namespace, n.hub))) throw err;
      ctx.log(`event hub ${n.hub} was deleted meanwhile (another workspace's uninstall): created again`);
      hub = await putHub(PARTITIONS);
      created = true;
      isNew = await attach();
    }
    ctx.log(
      `data connection ${n.connection}: ${isNew ? 'created' : 'exists'}, ingesting ${DATA_FORMAT} events into ${dest.database}.${dest.table}`,
    );
    created ||= isNew;
    Object.assign(secondaryIds, kqlIds(n, dest));
  } else if ('lakehouse' in d) {
    ctx.log(
      `lakehouse destination '${d.lakehouse}' (table ${d.table}): the event hub alone, nothing ingests it into the lake (a data connection feeds a KQL database only); a reader of ${n.hub} writes the table`,
    );
  } else if ('customEndpoint' in d) {
    ctx.log(
      `custom endpoint '${d.customEndpoint}': the event hub ${n.hub} is the endpoint senders publish to (Event Hubs or Kafka protocol)`,
    );
  }
  return { status: created ? 'created' : 'exists', resourceId: hub.id, secondaryIds };
}

async function desired(ctx: Ctx): Promise<LiveParts> {
  const n = namesOf(ctx);
  const dest = kqlDestination(ctx);
  const hub = { partitionCount: PARTITIONS, messageRetentionInDays: retentionOf(ctx.content) };
  if (!dest) return parts(hub);
  return parts(hub, n.consumerGroup, connectionPart(n.hub, n.consumerGroup, dest.database, dest.table, DATA_FORMAT));
}

async function readLive(ctx: Ctx): Promise<LiveState | undefined> {
  const n = namesOf(ctx);
  const dest = kqlDestination(ctx);
  const api = ctx.backends.eventHubs;
  const hub = await eventHubsCall(ctx, () => api.getEventHub(n.namespace, n.hub));
  if (!hub) return undefined;
  const secondaryIds: Record<string, string> = { eventHubNamespace: n.namespace, eventHub: n.hub };
  if (!dest) return { resourceId: hub.id, secondaryIds, parts: parts(hub.properties) };
  const group = await eventHubsCall(ctx, () => api.getConsumerGroup(n.namespace, n.hub, n.consumerGroup));
  const dc = await kustoCall(ctx, () => api.getDataConnection(dest.resourceId, dest.database, n.connection));
  const p = dc?.properties;
  const connection =
    p && connectionPart(p.eventHubResourceId?.split('/').at(-1) ?? '', p.consumerGroup ?? '', dest.database, p.tableName, p.dataFormat);
  return {
    resourceId: hub.id,
    secondaryIds: { ...secondaryIds, ...kqlIds(n, dest) },
    parts: parts(hub.properties, group?.name, connection),
  };
}

/** The event hub the item's own name leads to (what a step that failed midway made), read without its destination. */
async function find(ctx: Ctx): Promise<string | undefined> {
  const n = namesOf(ctx);
  return (await eventHubsCall(ctx, () => ctx.backends.eventHubs.getEventHub(n.namespace, n.hub)))?.id;
}

/**
 * The database whose data connection a removal deletes: the one the install bound it to (the item's recorded ids), else
 * the destination as the content names it now. The recorded one stays known after the destination's own item went (an
 * earlier uninstall that failed on this step deleted the database with purgeData, or kept it detached from the app).
 * Undefined for a destination that is not a KQL database, or one known neither way (see remove).
 */
function connectionDatabase(ctx: Ctx): { resourceId: string; database: string } | undefined {
  const dest = ctx.content.destination;
  const database = ctx.recordedIds?.database ?? ('database' in dest ? destinationDatabase(ctx, dest.database) : undefined);
  return database ? { resourceId: cluster(ctx).resourceId, database } : undefined;
}

/** Deletes the data connection (a KQL destination) and the event hub with its consumer groups; never a name outside the tenant's. */
async function remove(ctx: Ctx, resourceId: string): Promise<{ removed: boolean }> {
  const n = namesOf(ctx);
  // The hub the install created (its live id), which stays the item's even if its display name changed since.
  const prefix = `${n.namespace}/eventhubs/`;
  const hubName = resourceId.slice(prefix.length);
  if (!resourceId.toLowerCase().startsWith(prefix.toLowerCase()) || hubName.includes('/') || !ownNativeName(ctx, hubName, '-'))
    throw new StepRefused(
      'not_tenant_resource',
      `The event hub '${resourceId}' is not one of this tenant's in ${n.namespace}: not deleted`,
    );
  const dest = connectionDatabase(ctx);
  const api = ctx.backends.eventHubs;
  let removed = false;
  if (dest) {
    const connection = connectionOf(hubName);
    removed = await kustoCall(ctx, () => api.deleteDataConnection(dest.resourceId, dest.database, connection));
    ctx.log(`data connection ${connection}: ${removed ? 'deleted' : 'already gone'}`);
  } else if ('database' in ctx.content.destination)
    // A step that failed midway recorded no database, and the destination's item went in an earlier, partial uninstall:
    // a database it purged took its data connections with it; one it kept keeps a connection to the deleted hub, named
    // here rather than looked for in databases that are not known to be this item's.
    ctx.log(
      `data connection ${connectionOf(hubName)}: its database is not known (no record, and the destination '${ctx.content.destination.database}' is no longer an item of the app); a database deleted with it took it along, one kept still holds it`,
    );
  const hubRemoved = await eventHubsCall(ctx, () => api.deleteEventHub(n.namespace, hubName));
  ctx.log(`event hub ${hubName}: ${hubRemoved ? 'deleted with its consumer groups' : 'already gone'}`);
  return { removed: removed || hubRemoved };
}

const NS = '/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.EventHub/namespaces/{namespace}';
const HUB = `${NS}/eventhubs/{hub}?api-version=${EVENTHUB_API_VERSION}`;
const GROUP = `${NS}/eventhubs/{hub}/consumergroups/{consumerGroup}?api-version=${EVENTHUB_API_VERSION}`;
const CONNECTION = `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}/dataConnections/{connection}?api-version=${ARM_API_VERSION}`;
const OPERATION: PlannedCall = {
  service: 'arm',
  method: 'GET',
  path: '/subscriptions/{subscription}/providers/Microsoft.Kusto/locations/{location}/operationResults/{operation}',
  when: 'accepted',
};
const toKql = (c: EventstreamContent) => 'database' in c.destination;

/** eventstream → Event Hubs: an event hub, and for a KQL destination a consumer group and a Kusto data connection. */
export const eventstreamEventHubs: LiveBackend<EventstreamContent> = {
  backing: 'event-hubs',
  dependsOn: (c) => [
    'database' in c.destination ? c.destination.database : 'lakehouse' in c.destination ? c.destination.lakehouse : undefined,
  ],
  calls: (c) => [
    { service: 'arm', method: 'GET', path: HUB },
    { service: 'arm', method: 'PUT', path: HUB },
    ...(toKql(c)
      ? ([{ service: 'arm', method: 'PUT', path: GROUP }, { service: 'arm', method: 'PUT', path: CONNECTION }, OPERATION] as const)
      : []),
  ],
  provision,
  desired,
  readLive,
  find,
  findCalls: () => [{ service: 'arm', method: 'GET', path: HUB }],
  readCalls: (c) => [
    { service: 'arm', method: 'GET', path: HUB },
    ...(toKql(c)
      ? ([
          { service: 'arm', method: 'GET', path: GROUP },
          { service: 'arm', method: 'GET', path: CONNECTION },
        ] as const)
      : []),
  ],
  remove,
  removeCalls: (c) => [
    ...(toKql(c) ? ([{ service: 'arm', method: 'DELETE', path: CONNECTION }, OPERATION] as const) : []),
    { service: 'arm', method: 'DELETE', path: HUB },
  ],
};
