import { randomUUID } from 'node:crypto';
import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { Caller } from '../identity/caller.js';
import { armAuthorize, armCaller } from './auth.js';
import { armError } from './errors.js';
import type { ServiceError } from '../http/errors.js';
import type { ConsumerGroup, EventHub } from './eventhub-store.js';

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
const MAX_PARTITIONS = 32;
const MAX_RETENTION_DAYS = 7;
const MAX_CONSUMER_GROUPS = 20;

/** An Event Hubs resource provider error: its message carries the tracking suffix the real provider appends. */
function ehError(core: SandboxCore, status: number, code: string, message: string, entity = ''): ServiceError {
  const tracker = `${core.ids.eventHubNamespace}.servicebus.windows.net${entity ? `:${entity}` : ''}`;
  return armError(
    status,
    code,
    `${message} To know more visit https://aka.ms/sbResourceMgrExceptions. TrackingId:${randomUUID()}_G1, SystemTracker:${tracker}, Timestamp:${new Date().toISOString().slice(0, 19)}`,
  );
}

/** Checks subscription, authorization, resource group and namespace of a namespace-scoped path, in the resource manager's order. */
async function resolveNamespace(core: SandboxCore, ctx: RequestContext, action: string, suffix = ''): Promise<Caller> {
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

function checkName(core: SandboxCore, name: string, what: 'event hub' | 'consumer group', max: number): void {
  if (name.length > max || !ENTITY_NAME.test(name))
    throw ehError(
      core,
      400,
      'BadRequest',
      `The ${what} name '${name}' is invalid. It can contain only letters, numbers, periods, hyphens and underscores, must start and end with a letter or number, and can be 1 to ${max} characters long.`,
    );
}

function hubOrNotFound(core: SandboxCore, name: string): EventHub {
  const hub = core.arm.eventHubs.hub(name);
  if (!hub)
    throw ehError(core, 404, 'NotFound', `The messaging entity '${core.ids.eventHubNamespace}:eventhub:${name}' could not be found.`, name);
  return hub;
}

const namespaceId = (core: SandboxCore) => core.ids.eventHubNamespaceId;

function hubJson(core: SandboxCore, h: EventHub) {
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

function groupJson(core: SandboxCore, h: EventHub, g: ConsumerGroup) {
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
function page<T>(core: SandboxCore, ctx: RequestContext, all: T[]): { value: T[]; nextLink?: string } {
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

/** The integer property `key` of an event hub's properties, within [1, max], or its current value. */
function intProperty(core: SandboxCore, props: Record<string, unknown>, key: string, max: number, current: number, what: string): number {
  const v = props[key];
  if (v === undefined || v === null) return current;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
    throw ehError(
      core,
      400,
      'BadRequest',
      `The value '${JSON.stringify(v)}' of ${key} is invalid: ${what} must be from 1 to ${max} in a Standard tier namespace.`,
    );
  return v;
}

async function putHub(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const name = ctx.params.hub!;
  await resolveNamespace(core, ctx, 'Microsoft.EventHub/namespaces/eventhubs/write', `/eventhubs/${name}`);
  checkName(core, name, 'event hub', 256);
  const body = await ctx.json((d) =>
    ehError(core, 400, 'BadRequest', `The request content was invalid and could not be deserialized: ${d}`),
  );
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw ehError(core, 400, 'BadRequest', 'The request content must be an Eventhub resource object.');
  const props = (body.properties ?? {}) as Record<string, unknown>;
  if (typeof props !== 'object' || Array.isArray(props))
    throw ehError(core, 400, 'BadRequest', "The property 'properties' must be an object.");
  const retentionHours = (props.retentionDescription as { retentionTimeInHours?: unknown } | undefined)?.retentionTimeInHours;
  if ((props.retentionDescription as { cleanupPolicy?: string } | undefined)?.cleanupPolicy === 'Compact')
    throw ehError(
      core,
      400,
      'BadRequest',
      'Log compaction (cleanupPolicy Compact) is available only in Premium and Dedicated tier namespaces.',
    );
  const existing = core.arm.eventHubs.hub(name);
  const partitions = intProperty(core, props, 'partitionCount', MAX_PARTITIONS, existing?.partitionCount ?? 4, 'the partition count');
  let days = intProperty(core, props, 'messageRetentionInDays', MAX_RETENTION_DAYS, existing?.messageRetentionInDays ?? 1, 'the retention');
  if (retentionHours !== undefined) {
    if (
      typeof retentionHours !== 'number' ||
      !Number.isInteger(retentionHours) ||
      retentionHours < 1 ||
      retentionHours > MAX_RETENTION_DAYS * 24
    )
      throw ehError(
        core,
        400,
        'BadRequest',
        `The value '${JSON.stringify(retentionHours)}' of retentionTimeInHours is invalid: it must be from 1 to ${MAX_RETENTION_DAYS * 24} in a Standard tier namespace.`,
      );
    days = Math.ceil(retentionHours / 24);
  }
  if (props.userMetadata !== undefined && typeof props.userMetadata !== 'string')
    throw ehError(core, 400, 'BadRequest', "The property 'userMetadata' must be a string.");
  if (existing) {
    if (partitions !== existing.partitionCount)
      throw ehError(
        core,
        400,
        'BadRequest',
        `The partition count of event hub '${existing.name}' cannot be changed from ${existing.partitionCount} to ${partitions} in a Standard tier namespace.`,
        existing.name,
      );
    existing.messageRetentionInDays = days;
    if (props.userMetadata !== undefined) existing.userMetadata = props.userMetadata as string;
    existing.updatedAt = new Date().toISOString();
    return { status: 200, body: hubJson(core, existing) };
  }
  const hub = core.arm.eventHubs.createHub(name, partitions, days, props.userMetadata as string | undefined);
  return { status: 200, body: hubJson(core, hub) };
}

async function putGroup(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const { hub: hubName, cg } = ctx.params as { hub: string; cg: string };
  await resolveNamespace(
    core,
    ctx,
    'Microsoft.EventHub/namespaces/eventhubs/consumergroups/write',
    `/eventhubs/${hubName}/consumergroups/${cg}`,
  );
  checkName(core, cg, 'consumer group', 50);
  const body = await ctx.json((d) =>
    ehError(core, 400, 'BadRequest', `The request content was invalid and could not be deserialized: ${d}`),
  );
  const meta = body?.properties?.userMetadata;
  if (meta !== undefined && (typeof meta !== 'string' || meta.length > 1024))
    throw ehError(core, 400, 'BadRequest', "The property 'userMetadata' must be a string of at most 1024 characters.");
  const hub = hubOrNotFound(core, hubName);
  const now = new Date().toISOString();
  const existing = hub.consumerGroups.get(cg.toLowerCase());
  if (existing) {
    if (meta !== undefined) existing.userMetadata = meta;
    existing.updatedAt = now;
    return { status: 200, body: groupJson(core, hub, existing) };
  }
  if (hub.consumerGroups.size >= MAX_CONSUMER_GROUPS)
    throw ehError(
      core,
      400,
      'QuotaExceeded',
      `The event hub '${hub.name}' already has ${MAX_CONSUMER_GROUPS} consumer groups, the most a Standard tier event hub can have.`,
      hub.name,
    );
  const group: ConsumerGroup = { name: cg, userMetadata: meta, createdAt: now, updatedAt: now };
  hub.consumerGroups.set(cg.toLowerCase(), group);
  return { status: 200, body: groupJson(core, hub, group) };
}

/** The seeded namespace (GET), its event hubs (PUT, GET, list, DELETE) and their consumer groups (PUT, GET, list, DELETE). */
export function eventHubRoutes(core: SandboxCore, router: Router): void {
  router.get(NAMESPACE_PATH, async (ctx) => {
    await resolveNamespace(core, ctx, 'Microsoft.EventHub/namespaces/read');
    const name = core.ids.eventHubNamespace;
    return {
      status: 200,
      body: {
        id: namespaceId(core),
        name,
        type: 'Microsoft.EventHub/Namespaces',
        location: core.ids.kqlLocation,
        sku: { name: 'Standard', tier: 'Standard', capacity: 1 },
        properties: {
          provisioningState: 'Succeeded',
          status: 'Active',
          serviceBusEndpoint: `https://${name}.servicebus.windows.net:443/`,
          metricId: `${core.ids.subscriptionId}:${name}`,
          isAutoInflateEnabled: false,
          maximumThroughputUnits: 0,
          kafkaEnabled: true,
          zoneRedundant: false,
          disableLocalAuth: false,
          minimumTlsVersion: '1.2',
          publicNetworkAccess: 'Enabled',
        },
      },
    };
  });
  const hubs = `${NAMESPACE_PATH}/eventhubs`;
  router.get(hubs, async (ctx) => {
    await resolveNamespace(core, ctx, 'Microsoft.EventHub/namespaces/eventhubs/read');
    return {
      status: 200,
      body: page(
        core,
        ctx,
        [...core.arm.eventHubs.hubs.values()].map((h) => hubJson(core, h)),
      ),
    };
  });
  router.put(`${hubs}/:hub`, (ctx) => putHub(core, ctx));
  router.get(`${hubs}/:hub`, async (ctx) => {
    await resolveNamespace(core, ctx, 'Microsoft.EventHub/namespaces/eventhubs/read', `/eventhubs/${ctx.params.hub}`);
    return { status: 200, body: hubJson(core, hubOrNotFound(core, ctx.params.hub!)) };
  });
  router.delete(`${hubs}/:hub`, async (ctx) => {
    await resolveNamespace(core, ctx, 'Microsoft.EventHub/namespaces/eventhubs/delete', `/eventhubs/${ctx.params.hub}`);
    return { status: core.arm.eventHubs.deleteHub(ctx.params.hub!) ? 200 : 204 };
  });
  const groups = `${hubs}/:hub/consumergroups`;
  router.get(groups, async (ctx) => {
    await resolveNamespace(core, ctx, 'Microsoft.EventHub/namespaces/eventhubs/consumergroups/read', `/eventhubs/${ctx.params.hub}`);
    const hub = hubOrNotFound(core, ctx.params.hub!);
    return {
      status: 200,
      body: page(
        core,
        ctx,
        [...hub.consumerGroups.values()].map((g) => groupJson(core, hub, g)),
      ),
    };
  });
  router.put(`${groups}/:cg`, (ctx) => putGroup(core, ctx));
  router.get(`${groups}/:cg`, async (ctx) => {
    const { hub: hubName, cg } = ctx.params as { hub: string; cg: string };
    await resolveNamespace(
      core,
      ctx,
      'Microsoft.EventHub/namespaces/eventhubs/consumergroups/read',
      `/eventhubs/${hubName}/consumergroups/${cg}`,
    );
    const hub = hubOrNotFound(core, hubName);
    const group = hub.consumerGroups.get(cg.toLowerCase());
    if (!group)
      throw ehError(
        core,
        404,
        'NotFound',
        `The messaging entity '${core.ids.eventHubNamespace}:eventhub:${hub.name}/consumergroups/${cg}' could not be found.`,
        `${hub.name}/consumergroups/${cg}`,
      );
    return { status: 200, body: groupJson(core, hub, group) };
  });
  router.delete(`${groups}/:cg`, async (ctx) => {
    const { hub: hubName, cg } = ctx.params as { hub: string; cg: string };
    await resolveNamespace(
      core,
      ctx,
      'Microsoft.EventHub/namespaces/eventhubs/consumergroups/delete',
      `/eventhubs/${hubName}/consumergroups/${cg}`,
    );
    if (cg.toLowerCase() === '$default')
      throw ehError(core, 400, 'BadRequest', 'The $Default consumer group cannot be deleted.', `${hubName}/consumergroups/${cg}`);
    const hub = hubOrNotFound(core, hubName);
    return { status: hub.consumerGroups.delete(cg.toLowerCase()) ? 200 : 204 };
  });
}
