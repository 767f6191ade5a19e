import type { SandboxCore } from '../core.js';
import type { RequestContext, Reply } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { ConsumerGroup } from './eventhub-store.js';
import {
  MAX_CONSUMER_GROUPS,
  MAX_PARTITIONS,
  MAX_RETENTION_DAYS,
  NAMESPACE_PATH,
  checkName,
  ehError,
  groupJson,
  hubJson,
  hubOrNotFound,
  namespaceId,
  page,
  resolveNamespace,
} from './eventhub-common.js';

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
