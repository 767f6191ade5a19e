import { backingPath, type BackingPipeline } from './http-pipeline.js';
import { ARM_API_VERSION } from './kql.js';
import { followArmOperation } from './lro.js';

/** Microsoft.EventHub's api-version (the newest stable one the published descriptions hold, specs/eventhub-arm). */
export const EVENTHUB_API_VERSION = '2024-01-01';

/** An event hub as the resource manager answers it. */
export interface EventHubResource {
  id: string;
  name: string;
  properties: { partitionCount?: number; messageRetentionInDays?: number; status?: string };
}

/** A Kusto Event Hub data connection as the resource manager answers it. */
export interface DataConnectionResource {
  id: string;
  kind: string;
  properties: { eventHubResourceId?: string; consumerGroup?: string; tableName?: string; dataFormat?: string; mappingRuleName?: string };
}

/** What a data connection is created with (EventHubConnectionProperties of kusto.json). */
export interface DataConnectionSpec {
  location: string;
  eventHubResourceId: string;
  consumerGroup: string;
  tableName: string;
  dataFormat: string;
  mappingRuleName?: string;
}

const NAMESPACE_ID = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.EventHub\/namespaces\/[^/]+$/i;

/** Whether an id is an Event Hubs namespace's resource manager id (the shape SVC_EVENTHUB_NAMESPACE must have). */
export const isNamespaceId = (id: string) => NAMESPACE_ID.test(id) && !id.split('/').some((s) => s === '.' || s === '..');

/**
 * The resource manager's Event Hubs calls (event hubs and consumer groups of a namespace) and the KQL cluster's Event Hub
 * data connections, which ingest an event hub into a database table.
 */
export class EventHubsClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly armUrl: string,
    private readonly armAudience: string,
  ) {}

  private hubUrl(namespaceId: string, hub: string, rest = ''): string {
    // The namespace's id is a path of its own (a setting checked with isNamespaceId); the names are encoded segments.
    return `${this.armUrl}${namespaceId}${backingPath`/eventhubs/${hub}`}${rest}?api-version=${EVENTHUB_API_VERSION}`;
  }

  private connectionUrl(clusterResourceId: string, database: string, name: string): string {
    return `${this.armUrl}${clusterResourceId}${backingPath`/databases/${database}/dataConnections/${name}`}?api-version=${ARM_API_VERSION}`;
  }

  private async get<T>(url: string): Promise<T | undefined> {
    const res = await this.pipeline.send({ service: 'arm', method: 'GET', url, audience: this.armAudience, accept: [404] });
    return res.status === 404 ? undefined : res.json<T>();
  }

  /** The event hub, or undefined when the namespace has none of that name (404). */
  getEventHub(namespaceId: string, hub: string): Promise<EventHubResource | undefined> {
    return this.get(this.hubUrl(namespaceId, hub));
  }

  /** Creates or updates an event hub (the provider answers 200 to both). */
  async putEventHub(
    namespaceId: string,
    hub: string,
    properties: { partitionCount: number; messageRetentionInDays: number },
  ): Promise<EventHubResource> {
    const res = await this.pipeline.send({
      service: 'arm',
      method: 'PUT',
      url: this.hubUrl(namespaceId, hub),
      audience: this.armAudience,
      json: { properties },
    });
    return res.json<EventHubResource>();
  }

  /** Deletes an event hub with its consumer groups; false when there was none (204). */
  async deleteEventHub(namespaceId: string, hub: string): Promise<boolean> {
    const res = await this.pipeline.send({
      service: 'arm',
      method: 'DELETE',
      url: this.hubUrl(namespaceId, hub),
      audience: this.armAudience,
    });
    return res.status !== 204;
  }

  /** A consumer group of the event hub, or undefined when there is none (404, also when the event hub is gone). */
  getConsumerGroup(namespaceId: string, hub: string, group: string): Promise<{ id: string; name: string } | undefined> {
    return this.get(this.hubUrl(namespaceId, hub, backingPath`/consumergroups/${group}`));
  }

  /** Creates or updates a consumer group (200 either way). */
  async putConsumerGroup(namespaceId: string, hub: string, group: string, userMetadata: string): Promise<void> {
    await this.pipeline.send({
      service: 'arm',
      method: 'PUT',
      url: this.hubUrl(namespaceId, hub, backingPath`/consumergroups/${group}`),
      audience: this.armAudience,
      json: { properties: { userMetadata } },
    });
  }

  /** The data connection under a database of the cluster, or undefined when there is none (404). */
  getDataConnection(clusterResourceId: string, database: string, name: string): Promise<DataConnectionResource | undefined> {
    return this.get(this.connectionUrl(clusterResourceId, database, name));
  }

  /** Creates or updates an Event Hub data connection, following its long-running operation; answers whether it was new. */
  async putDataConnection(clusterResourceId: string, database: string, name: string, spec: DataConnectionSpec): Promise<boolean> {
    const { location, ...properties } = spec;
    const res = await this.pipeline.send({
      service: 'arm',
      method: 'PUT',
      url: this.connectionUrl(clusterResourceId, database, name),
      audience: this.armAudience,
      json: { kind: 'EventHub', location, properties },
    });
    if (res.status === 202 || (res.status === 201 && res.headers.get('azure-asyncoperation')))
      await followArmOperation(this.pipeline, this.armAudience, res);
    return res.status === 201 || res.status === 202;
  }

  /** Deletes a data connection (200, or 202 followed to its end); false when there was none (204, or 404: its database is gone). */
  async deleteDataConnection(clusterResourceId: string, database: string, name: string): Promise<boolean> {
    const res = await this.pipeline.send({
      service: 'arm',
      method: 'DELETE',
      url: this.connectionUrl(clusterResourceId, database, name),
      audience: this.armAudience,
      accept: [404],
    });
    if (res.status === 204 || res.status === 404) return false;
    if (res.status === 202) await followArmOperation(this.pipeline, this.armAudience, res);
    return true;
  }
}
