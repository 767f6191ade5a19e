import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import { canonicalGroup, groupError, mayPerform, monitorRequest } from './monitor-access.js';
import { MonitorStore, type MonitorResource } from './monitor-store.js';

const RG_PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Insights/actionGroups';
const SUB_PATH = '/subscriptions/:sub/providers/Microsoft.Insights/actionGroups';

/** An email address as the service accepts it. */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** The receiver lists of an action group, each with the properties every receiver of the list requires. */
const RECEIVERS: Record<string, string[]> = {
  emailReceivers: ['name', 'emailAddress'],
  smsReceivers: ['name', 'countryCode', 'phoneNumber'],
  webhookReceivers: ['name', 'serviceUri'],
  azureAppPushReceivers: ['name', 'emailAddress'],
  voiceReceivers: ['name', 'countryCode', 'phoneNumber'],
  armRoleReceivers: ['name', 'roleId'],
};
/** Receiver lists the sandbox does not model: they need resources it does not have (ITSM, runbooks, functions, logic apps, event hubs). */
const UNSERVED = ['itsmReceivers', 'automationRunbookReceivers', 'logicAppReceivers', 'azureFunctionReceivers', 'eventHubReceivers'];

const bad = (message: string, code = 'BadRequest') => groupError(400, code, message);

/** The action group's properties: groupShortName (1 to 12 characters), enabled, and well-formed receivers with unique names. */
function checkGroup(props: Record<string, any>): void {
  if (typeof props.groupShortName !== 'string' || !props.groupShortName.trim()) throw bad("The property 'groupShortName' is required.");
  if (props.groupShortName.length > 12)
    throw bad(`The groupShortName '${props.groupShortName}' is longer than 12 characters.`, 'GroupShortNameTooLong');
  if (typeof props.enabled !== 'boolean') throw bad("The property 'enabled' is required and must be true or false.");
  const names = new Set<string>();
  for (const [list, required] of Object.entries(RECEIVERS)) {
    const receivers = props[list];
    if (receivers === undefined) continue;
    if (!Array.isArray(receivers)) throw bad(`The property '${list}' must be an array.`);
    for (const [i, r] of receivers.entries()) {
      for (const key of required)
        if (typeof r?.[key] !== 'string' || !r[key].trim()) throw bad(`The property '${list}[${i}].${key}' is required.`);
      if ('emailAddress' in r && !EMAIL.test(r.emailAddress))
        throw bad(`The email address '${r.emailAddress}' of receiver '${r.name}' is not valid.`, 'InvalidEmailAddress');
      if (list === 'webhookReceivers' && !/^https:\/\//i.test(r.serviceUri))
        throw bad(`The serviceUri of webhook receiver '${r.name}' must be an https URL.`);
      if (names.has(r.name.toLowerCase())) throw bad(`The receiver name '${r.name}' is used more than once.`, 'DuplicateReceiverName');
      names.add(r.name.toLowerCase());
    }
  }
  for (const list of UNSERVED)
    if (Array.isArray(props[list]) && props[list].length)
      throw bad(`The sandbox does not serve ${list}: their target resources do not exist here.`, 'ReceiverNotSupported');
}

/** The ActionGroupResource body: receivers carry their status. */
function groupJson(core: SandboxCore, g: MonitorResource) {
  const properties = structuredClone(g.properties);
  for (const list of Object.keys(RECEIVERS))
    if (Array.isArray(properties[list]))
      properties[list] = properties[list].map((r: object) =>
        list === 'emailReceivers' || list === 'smsReceivers' ? { ...r, status: 'Enabled' } : r,
      );
  return {
    id: core.arm.monitor.idOf('actionGroups', g),
    name: g.name,
    type: 'Microsoft.Insights/ActionGroups',
    location: g.location,
    ...(g.tags ? { tags: g.tags } : {}),
    properties,
  };
}

async function put(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const { caller, rg, name } = await monitorRequest(core, ctx, 'actionGroups', 'write');
  const body = await ctx.json((d) => bad(`The request content was invalid and could not be deserialized: ${d}`, 'InvalidRequestContent'));
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('The request body must be an action group resource.');
  if (typeof body.location !== 'string' || !body.location.trim())
    throw bad("The 'location' property is required for this definition.", 'LocationRequired');
  if (!body.properties || typeof body.properties !== 'object') throw bad("The property 'properties' is required.");
  checkGroup(body.properties);
  const store = core.arm.monitor;
  const key = MonitorStore.key(rg, name!);
  const existing = store.actionGroups.get(key);
  const now = new Date().toISOString();
  const group: MonitorResource = {
    resourceGroup: canonicalGroup(core, rg),
    name: existing?.name ?? name!,
    location: body.location,
    ...(body.tags ? { tags: body.tags } : {}),
    properties: structuredClone(body.properties),
    createdAt: existing?.createdAt ?? now,
    createdBy: existing?.createdBy ?? (caller.appId || caller.objectId),
    updatedAt: now,
    etag: `"${core.idSource.next('monitor-etag')}"`,
  };
  store.actionGroups.set(key, group);
  return { status: existing ? 200 : 201, body: groupJson(core, group) };
}

/** The action group routes: PUT, GET, DELETE, and lists by resource group and subscription. */
export function actionGroupRoutes(core: SandboxCore, router: Router): void {
  router.put(`${RG_PATH}/:name`, (ctx) => put(core, ctx));
  router.get(`${RG_PATH}/:name`, async (ctx) => {
    const { rg, name } = await monitorRequest(core, ctx, 'actionGroups', 'read');
    const g = core.arm.monitor.actionGroups.get(MonitorStore.key(rg, name!));
    if (!g)
      throw groupError(
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Insights/actionGroups/${name}' under resource group '${rg}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
      );
    return { status: 200, body: groupJson(core, g) };
  });
  router.delete(`${RG_PATH}/:name`, async (ctx) => {
    const { rg, name } = await monitorRequest(core, ctx, 'actionGroups', 'delete');
    return { status: core.arm.monitor.actionGroups.delete(MonitorStore.key(rg, name!)) ? 200 : 204 };
  });
  const list = async (ctx: RequestContext): Promise<Reply> => {
    const { caller, rg } = await monitorRequest(core, ctx, 'actionGroups', 'read');
    const store = core.arm.monitor;
    const value = [...store.actionGroups.values()]
      .filter((g) => !rg || g.resourceGroup.toLowerCase() === rg.toLowerCase())
      .filter((g) => mayPerform(core, caller, 'Microsoft.Insights/actionGroups/read', store.idOf('actionGroups', g)))
      .map((g) => groupJson(core, g));
    return { status: 200, body: { value } };
  };
  router.get(RG_PATH, list);
  router.get(SUB_PATH, list);
}
