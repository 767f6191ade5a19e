import { randomUUID } from 'node:crypto';
import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { ServiceError } from '../http/errors.js';
import type { Caller } from '../identity/caller.js';
import { armAuthorize, armCaller } from './auth.js';
import { armError } from './errors.js';
import type { ConsumerGroup, EventHub } from './eventhub-store.js';

// What the Event Hubs routes share: the provider's api-versions, errors, name rules and Standard-tier limits, the
// namespace check in the resource manager's order, and the resource bodies.
/** Microsoft.EventHub's api-versions the emulator answers (2024-01-01 is the newest stable one in specs/eventhub-arm). */
export const EVENTHUB_API_VERSIONS = [
  '2024-01-01',
  '2024-05-01-preview',
  '2023-01-01-preview',
  '2022-10-01-preview',
  '2021-11-01',
  '2017-04-01',
];

export const NAMESPACE_PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.EventHub/namespaces/:ns';

/** Event hub and consumer group names: letters, digits, periods, hyphens and underscores, starting and ending with a letter or digit. */
const ENTITY_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** The Standard tier's limits (Event Hubs quotas): partitions per event hub, retention days, consumer groups per event hub. */
export const MAX_PARTITIONS = 32;
export const MAX_RETENTION_DAYS = 7;
export const MAX_CONSUMER_GROUPS = 20;

/** An Event Hubs resource provider error: its message carries the tracking suffix the real provider appends. */
export function ehError(core: SandboxCore, status: number, code: string, message: string, entity = ''): ServiceError {
  const tracker = `${core.ids.eventHubNamespace}.servicebus.windows.net${entity ? `:${entity}` : ''}`;
  return armError(
    status,
    code,
    `${message} To know more visit https://aka.ms/sbResourceMgrExceptions. TrackingId:${randomUUID()}_G1, SystemTracker:${tracker}, Timestamp:${new Date().toISOString().slice(0, 19)}`,
  );
}

/** Checks subscription, authorization, resource group and namespace of a namespace-scoped path, in the resource manager's order. */
export async function resolveNamespace(core: SandboxCore, ctx: RequestContext, action: string, suffix = ''): Promise<Caller> {
  const caller = await armCaller(core, ctx, 'namespaces', EVENTHUB_API_VERSIONS);
  const { sub, rg, ns } = ctx.params;
  if (sub!.toLowerCase() !== core.ids.subscriptionId)
    throw armError(404, 'SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
  armAuthorize(core, caller, action, `/subscriptions/${sub}/resourceGroups/${rg}/providers/Microsoft.EventHub/namespaces/${ns}${suffix}`);
  if (rg!.toLowerCase() !== core.ids.resourceGroup.toLowerCase())
    throw armError(404, 'ResourceGroupNotFound', `Resource group '${rg}' could not be found.`);
  if (ns!.toLowerCase() !== core.ids.eventHubNamespace.toLowerCase())
    throw armError(
      404,
      'ResourceNotFound',
      `The Resource 'Microsoft.EventHub/namespaces/${ns}' under resource group '${rg}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
    );
  return caller;
}

/** Refuses a name outside the provider's rules (400 BadRequest). */
export function checkName(core: SandboxCore, name: string, what: 'event hub' | 'consumer group', max: number): void {
  if (name.length > max || !ENTITY_NAME.test(name))
    throw ehError(
      core,
      400,
      'BadRequest',
      `The ${what} name '${name}' is invalid. It can contain only letters, numbers, periods, hyphens and underscores, must start and end with a letter or number, and can be 1 to ${max} characters long.`,
    );
}

/** The event hub of that name, or the provider's 404 NotFound. */
export function hubOrNotFound(core: SandboxCore, name: string): EventHub {
  const hub = core.arm.eventHubs.hub(name);
  if (!hub)
    throw ehError(core, 404, 'NotFound', `The messaging entity '${core.ids.eventHubNamespace}:eventhub:${name}' could not be found.`, name);
  return hub;
}

/** The seeded namespace's resource manager id. */
export const namespaceId = (core: SandboxCore) => core.ids.eventHubNamespaceId;

/** The Eventhub resource body. */
export function hubJson(core: SandboxCore, h: EventHub) {
  return {
    id: `${namespaceId(core)}/eventhubs/${h.name}`,
    name: h.name,
    type: 'Microsoft.EventHub/namespaces/eventhubs',
    location: core.ids.kqlLocation,
    properties: {
      partitionIds: Array.from({ length: h.partitionCount }, (_, i) => String(i)),
      createdAt: h.createdAt,
      updatedAt: h.updatedAt,
      messageRetentionInDays: h.messageRetentionInDays,
      partitionCount: h.partitionCount,
      status: h.status,
      ...(h.userMetadata !== undefined ? { userMetadata: h.userMetadata } : {}),
      retentionDescription: { cleanupPolicy: 'Delete', retentionTimeInHours: h.messageRetentionInDays * 24 },
    },
  };
}

/** The ConsumerGroup resource body. */
export function groupJson(core: SandboxCore, h: EventHub, g: ConsumerGroup) {
  return {
    id: `${namespaceId(core)}/eventhubs/${h.name}/consumergroups/${g.name}`,
    name: g.name,
    type: 'Microsoft.EventHub/namespaces/eventhubs/consumergroups',
    location: core.ids.kqlLocation,
    properties: {
      createdAt: g.createdAt,
      updatedAt: g.updatedAt,
      ...(g.userMetadata !== undefined ? { userMetadata: g.userMetadata } : {}),
    },
  };
}

/** A page of a listing: $skip and $top (0-1000 and 1-1000), with a nextLink while more remain. */
export function page<T>(core: SandboxCore, ctx: RequestContext, all: T[]): { value: T[]; nextLink?: string } {
  const num = (name: string, min: number) => {
    const raw = ctx.queryCi(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > 1000)
      throw ehError(
        core,
        400,
        'BadRequest',
        `The value '${raw}' of query parameter '${name}' is invalid: use an integer from ${min} to 1000.`,
      );
    return n;
  };
  const skip = num('$skip', 0) ?? 0;
  const top = num('$top', 1);
  const value = all.slice(skip, top === undefined ? undefined : skip + top);
  if (top === undefined || skip + top >= all.length) return { value };
  const next = new URL(ctx.url, core.urls.arm);
  next.searchParams.set('$skip', String(skip + top));
  return { value, nextLink: next.toString() };
}
