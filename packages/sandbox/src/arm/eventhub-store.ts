import type { SandboxIds } from '../ids.js';

/** A consumer group of an event hub. */
export interface ConsumerGroup {
  name: string;
  userMetadata?: string;
  createdAt: string;
  updatedAt: string;
}

/** An event hub of the seeded namespace, with its consumer groups ($Default always among them). */
export interface EventHub {
  name: string;
  partitionCount: number;
  messageRetentionInDays: number;
  status: 'Active' | 'Disabled' | 'SendDisabled' | 'ReceiveDisabled';
  userMetadata?: string;
  createdAt: string;
  updatedAt: string;
  consumerGroups: Map<string, ConsumerGroup>;
}

/** A Kusto data connection of kind EventHub, under a database of the seeded cluster. */
export interface DataConnection {
  database: string;
  name: string;
  location: string;
  eventHubResourceId: string;
  consumerGroup: string;
  tableName?: string;
  mappingRuleName?: string;
  dataFormat?: string;
  compression: string;
  databaseRouting: string;
  eventSystemProperties: string[];
  readyAt: number;
  deleting?: { at: number };
  operationId?: string;
}

const DEFAULT_GROUP = '$Default';

/** The Event Hubs namespace (Standard tier) and the KQL cluster's Event Hub data connections. */
export class EventHubStore {
  readonly hubs = new Map<string, EventHub>();
  readonly dataConnections = new Map<string, DataConnection>();

  constructor(readonly ids: SandboxIds) {}

  /** A new event hub: the service gives every hub the $Default consumer group. */
  createHub(name: string, partitionCount: number, messageRetentionInDays: number, userMetadata?: string): EventHub {
    const now = new Date().toISOString();
    const hub: EventHub = {
      name,
      partitionCount,
      messageRetentionInDays,
      status: 'Active',
      userMetadata,
      createdAt: now,
      updatedAt: now,
      consumerGroups: new Map([[DEFAULT_GROUP.toLowerCase(), { name: DEFAULT_GROUP, createdAt: now, updatedAt: now }]]),
    };
    this.hubs.set(name.toLowerCase(), hub);
    return hub;
  }

  hub(name: string): EventHub | undefined {
    return this.hubs.get(name.toLowerCase());
  }

  /** The event hub an ARM id names, when it is one of this namespace's (ids compare case-insensitively, as ARM's do). */
  hubById(id: string): EventHub | undefined {
    const prefix = `${this.ids.eventHubNamespaceId}/eventhubs/`.toLowerCase();
    const lower = id.toLowerCase();
    if (!lower.startsWith(prefix)) return undefined;
    const name = id.slice(prefix.length);
    return name.includes('/') ? undefined : this.hub(name);
  }

  /** Deleting an event hub deletes its consumer groups with it. */
  deleteHub(name: string): boolean {
    return this.hubs.delete(name.toLowerCase());
  }

  connectionKey(database: string, name: string): string {
    return `${database}/${name}`.toLowerCase();
  }

  view() {
    return {
      eventHubs: [...this.hubs.values()].map((h) => ({
        name: h.name,
        partitionCount: h.partitionCount,
        messageRetentionInDays: h.messageRetentionInDays,
        consumerGroups: [...h.consumerGroups.values()].map((g) => g.name),
      })),
      dataConnections: [...this.dataConnections.values()].map((d) => ({
        database: d.database,
        name: d.name,
        eventHubResourceId: d.eventHubResourceId,
        consumerGroup: d.consumerGroup,
        tableName: d.tableName,
        dataFormat: d.dataFormat,
        provisioningState: d.deleting ? 'Deleting' : Date.now() >= d.readyAt ? 'Succeeded' : 'Creating',
      })),
    };
  }
}
