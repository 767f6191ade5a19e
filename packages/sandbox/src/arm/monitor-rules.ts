import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import type { Caller } from '../identity/caller.js';
import { authorizationFailed, canonicalGroup, mayPerform, monitorRequest, ruleError, systemData } from './monitor-access.js';
import { checkRuleQuery } from './monitor-query.js';
import { MonitorStore, type MonitorResource } from './monitor-store.js';

const RG_PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Insights/scheduledQueryRules';
const SUB_PATH = '/subscriptions/:sub/providers/Microsoft.Insights/scheduledQueryRules';

/** ISO 8601 durations (PnYnMnWnDTnHnMnS). */
const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
/** The evaluation frequencies a log search alert takes (1 minute to 1 day). */
const MIN_MINUTES = 1;
const MAX_MINUTES = 1440;
const AGGREGATIONS = ['Count', 'Average', 'Minimum', 'Maximum', 'Total'];
const OPERATORS = ['Equals', 'GreaterThan', 'GreaterThanOrEqual', 'LessThan', 'LessThanOrEqual'];
const KINDS = ['LogAlert', 'LogToMetric'];
const IDENTITY_TYPES = ['SystemAssigned', 'UserAssigned', 'None'];

const bad = (message: string, code = 'BadRequest') => ruleError(400, code, message);

/** Minutes of an ISO 8601 duration of days, hours, minutes and seconds; undefined for years, months or weeks. */
function minutesOf(d: string): number | undefined {
  const m = DURATION.exec(d);
  if (!m || m[1] || m[2] || m[3]) return undefined;
  const n = (s: string | undefined) => (s ? Number.parseFloat(s) : 0);
  return n(m[4]) * 1440 + n(m[6]) * 60 + n(m[7]) + n(m[8]) / 60;
}

/** A duration property: present (when required), an ISO 8601 duration, within the service's range. */
function checkDuration(props: Record<string, unknown>, key: string, required: boolean): void {
  const v = props[key];
  if (v === undefined || v === null) {
    if (required) throw bad(`The property '${key}' is required for a log search alert rule.`);
    return;
  }
  if (typeof v !== 'string' || !DURATION.test(v))
    throw bad(`The value '${String(v)}' of property '${key}' is not a valid ISO 8601 duration (for example PT5M).`, 'InvalidParameter');
  const min = minutesOf(v);
  if (min === undefined || min < MIN_MINUTES || min > (key === 'evaluationFrequency' ? MAX_MINUTES : 2 * MAX_MINUTES))
    throw bad(
      `The value '${v}' of property '${key}' is out of range: use a duration from PT1M to ${key === 'evaluationFrequency' ? 'P1D' : 'P2D'}.`,
      'InvalidParameter',
    );
}

/** The rule's criteria: each condition with its query, aggregation, operator and threshold; the query must compile. */
function checkCriteria(core: SandboxCore, props: Record<string, any>, kind: string): void {
  const allOf = props.criteria?.allOf;
  if (!Array.isArray(allOf) || allOf.length === 0)
    throw bad("The property 'criteria.allOf' is required and must hold at least one condition.");
  for (const [i, c] of allOf.entries()) {
    const at = `criteria.allOf[${i}]`;
    if (!c || typeof c !== 'object') throw bad(`The condition '${at}' must be an object.`);
    if (typeof c.query !== 'string' || !c.query.trim()) throw bad(`The property '${at}.query' is required.`);
    if (kind === 'LogAlert') {
      if (!AGGREGATIONS.includes(c.timeAggregation))
        throw bad(`The property '${at}.timeAggregation' is required and must be one of ${AGGREGATIONS.join(', ')}.`);
      if (c.timeAggregation !== 'Count' && typeof c.metricMeasureColumn !== 'string')
        throw bad(`The property '${at}.metricMeasureColumn' is required when timeAggregation is '${c.timeAggregation}'.`);
      if (!OPERATORS.includes(c.operator))
        throw bad(`The property '${at}.operator' is required and must be one of ${OPERATORS.join(', ')}.`);
      if (typeof c.threshold !== 'number' || !Number.isFinite(c.threshold))
        throw bad(`The property '${at}.threshold' is required and must be a number.`);
    }
    if (props.skipQueryValidation !== true) checkRuleQuery(core, c.query, at);
  }
}

/** The rule's scopes: known resources the caller may read (linked authorization). */
function checkScopes(core: SandboxCore, caller: Caller, props: Record<string, any>): void {
  const scopes = props.scopes;
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((s) => typeof s !== 'string'))
    throw bad("The property 'scopes' is required and must list at least one resource id.");
  const known = core.arm.monitor.scopeResources().map((s) => s.toLowerCase());
  for (const s of scopes as string[]) {
    if (!known.includes(s.replace(/\/+$/, '').toLowerCase()))
      throw bad(`The scope '${s}' is not a resource that exists: the resource could not be found.`, 'ScopeNotFound');
    const action = s.toLowerCase().includes('/microsoft.operationalinsights/')
      ? 'Microsoft.OperationalInsights/workspaces/read'
      : 'Microsoft.Kusto/clusters/read';
    if (!mayPerform(core, caller, action, s)) throw authorizationFailed(caller, action, s, 'LinkedAuthorizationFailed');
  }
}

/** The rule's actions: action group ids that exist (case-insensitively, as the resource manager compares ids). */
function checkActions(core: SandboxCore, props: Record<string, any>): void {
  const groups = props.actions?.actionGroups;
  if (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string'))
    throw bad("The property 'actions.actionGroups' is required and must list action group ids.");
  const store = core.arm.monitor;
  const ids = [...store.actionGroups.values()].map((g) => store.idOf('actionGroups', g).toLowerCase());
  for (const g of groups as string[])
    if (!ids.includes(g.toLowerCase())) throw bad(`The action group '${g}' could not be found.`, 'ActionGroupNotFound');
}

/** The ScheduledQueryRuleResource body. */
function ruleJson(core: SandboxCore, r: MonitorResource) {
  const identity =
    r.identity?.type === 'SystemAssigned'
      ? { ...r.identity, principalId: core.ids.serviceIdentity.objectId, tenantId: core.ids.tenantId }
      : r.identity;
  return {
    id: core.arm.monitor.idOf('scheduledQueryRules', r),
    name: r.name,
    type: 'Microsoft.Insights/scheduledQueryRules',
    location: r.location,
    ...(r.kind ? { kind: r.kind } : {}),
    ...(r.tags ? { tags: r.tags } : {}),
    ...(identity ? { identity } : {}),
    etag: r.etag,
    systemData: systemData(r.createdBy, r.createdAt, r.updatedAt),
    properties: { ...structuredClone(r.properties), isWorkspaceAlertsStorageConfigured: false, isLegacyLogAnalyticsRule: false },
  };
}

async function put(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  const { caller, rg, name, apiVersion } = await monitorRequest(core, ctx, 'scheduledQueryRules', 'write');
  const body = await ctx.json((d) => bad(`The request content was invalid and could not be deserialized: ${d}`, 'InvalidRequestContent'));
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('The request body must be a scheduled query rule resource.');
  if (typeof body.location !== 'string' || !body.location.trim())
    throw bad("The 'location' property is required for this definition.", 'LocationRequired');
  const props = body.properties;
  if (!props || typeof props !== 'object') throw bad("The property 'properties' is required.");
  const kind = body.kind ?? 'LogAlert';
  if (!KINDS.includes(kind)) throw bad(`The kind '${kind}' is not supported; use ${KINDS.join(' or ')}.`);
  if (body.identity !== undefined && !IDENTITY_TYPES.includes(body.identity?.type))
    throw bad(`The property 'identity.type' must be one of ${IDENTITY_TYPES.join(', ')}.`);
  if (kind === 'LogAlert' && !(Number.isInteger(props.severity) && props.severity >= 0 && props.severity <= 4))
    throw bad("The property 'severity' is required for a log search alert rule and must be 0, 1, 2, 3 or 4.");
  checkScopes(core, caller, props);
  checkDuration(props, 'evaluationFrequency', kind === 'LogAlert');
  checkDuration(props, 'windowSize', kind === 'LogAlert');
  checkDuration(props, 'muteActionsDuration', false);
  checkDuration(props, 'overrideQueryTimeRange', false);
  checkCriteria(core, props, kind);
  if (kind === 'LogAlert') checkActions(core, props);
  const store = core.arm.monitor;
  const key = MonitorStore.key(rg, name!);
  const existing = store.rules.get(key);
  const now = new Date().toISOString();
  const rule: MonitorResource = {
    resourceGroup: canonicalGroup(core, rg),
    name: existing?.name ?? name!,
    location: body.location,
    ...(body.tags ? { tags: body.tags } : {}),
    kind,
    ...(body.identity ? { identity: { type: body.identity.type } } : {}),
    properties: {
      enabled: true,
      ...structuredClone(props),
      createdWithApiVersion: existing?.properties.createdWithApiVersion ?? apiVersion,
    },
    createdAt: existing?.createdAt ?? now,
    createdBy: existing?.createdBy ?? (caller.appId || caller.objectId),
    updatedAt: now,
    etag: `"${core.idSource.next('monitor-etag')}"`,
  };
  store.rules.set(key, rule);
  return { status: existing ? 200 : 201, body: ruleJson(core, rule) };
}

function notFound(rg: string, name: string) {
  return ruleError(
    404,
    'ResourceNotFound',
    `The Resource 'Microsoft.Insights/scheduledQueryRules/${name}' under resource group '${rg}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
  );
}

/** The scheduled query rules routes (log search alerts): PUT, GET, DELETE, and lists by resource group and subscription. */
export function scheduledQueryRuleRoutes(core: SandboxCore, router: Router): void {
  router.put(`${RG_PATH}/:name`, (ctx) => put(core, ctx));
  router.get(`${RG_PATH}/:name`, async (ctx) => {
    const { rg, name } = await monitorRequest(core, ctx, 'scheduledQueryRules', 'read');
    const r = core.arm.monitor.rules.get(MonitorStore.key(rg, name!));
    if (!r) throw notFound(rg, name!);
    return { status: 200, body: ruleJson(core, r) };
  });
  router.delete(`${RG_PATH}/:name`, async (ctx) => {
    const { rg, name } = await monitorRequest(core, ctx, 'scheduledQueryRules', 'delete');
    return { status: core.arm.monitor.rules.delete(MonitorStore.key(rg, name!)) ? 200 : 204 };
  });
  const list = async (ctx: RequestContext): Promise<Reply> => {
    const { caller, rg } = await monitorRequest(core, ctx, 'scheduledQueryRules', 'read');
    const store = core.arm.monitor;
    const value = [...store.rules.values()]
      .filter((r) => !rg || r.resourceGroup.toLowerCase() === rg.toLowerCase())
      .filter((r) => mayPerform(core, caller, 'Microsoft.Insights/scheduledQueryRules/read', store.idOf('scheduledQueryRules', r)))
      .map((r) => ruleJson(core, r));
    return { status: 200, body: { value } };
  };
  router.get(RG_PATH, list);
  router.get(SUB_PATH, list);
}
