import { raiseGate } from '../backends/failures.js';
import { ACTION_GROUPS_API_VERSION, RESOURCE_GROUP_ID, RULES_API_VERSION, type InsightsResource } from '../backends/monitor.js';
import { GateError } from '../errors.js';
import { StepRefused, type TypedProvisionContext } from '../provisioning/context.js';
import { gate } from '../provisioning/gates.js';
import { nativeName, nativeSettingGate } from '../provisioning/native-scope.js';
import type { ActivatorContent } from './activator.js';
import type { LiveBackend, LiveParts } from './descriptor.js';
import type { CuratedApp } from '../catalog/types.js';
import { EventstreamContent } from './eventstream.js';
import { KqlDatabaseContent } from './kql-database.js';

// An activator on Azure Monitor: per trigger a log search alert (a scheduled query rule) and per activator an action
// group that notifies the receivers. The rule watches the KQL table with a cross-service query from the Log Analytics
// workspace of SVC_ALERT_SCOPE — "Create an alert based on a cross-service query from your Log Analytics workspace ...
// selecting your Log Analytics workspace, on the Scope tab" (learn.microsoft.com/azure/azure-monitor/logs/
// azure-monitor-data-explorer-proxy), the query reading `adx('<cluster>/<database>').<table>`. That page also says the
// time filter is not passed to the cluster, so the query filters on ingestion_time() itself.

type Ctx = TypedProvisionContext<ActivatorContent>;
type Trigger = ActivatorContent['triggers'][number];

/** How often a rule runs and the window it looks back over (the query's ingestion_time() filter matches it). */
const FREQUENCY = 'PT5M';
const WINDOW_MINUTES = 5;
/** Severity 3 (informational): an activator notifies, it does not page. */
const SEVERITY = 3;
const OPERATORS: Record<Trigger['condition']['operator'], string> = { '>': '>', '<': '<', '==': '==', '!=': '!=', '>=': '>=', '<=': '<=' };
const EMAIL = /^[^@\s/]+@[^@\s/]+\.[^@\s/]+$/;

const RULE_PATH = `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Insights/scheduledQueryRules/{rule}?api-version=${RULES_API_VERSION}`;
const GROUP_PATH = `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Insights/actionGroups/{name}?api-version=${ACTION_GROUPS_API_VERSION}`;

/** A name the resource manager accepts: letters, digits, '-', '_' and '.', the rest folded to '-'. */
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|[-.]$/g, '');

/** The tenant's rule name of a trigger: `w<12 hex>-<activator>-<trigger>`. */
export const ruleName = (ctx: Ctx, t: Trigger) => nativeName(ctx, slug(`${ctx.item.key}-${t.name}`), '-');
/** The tenant's action group of the activator: `w<12 hex>-<activator>`. */
export const groupName = (ctx: Ctx) => nativeName(ctx, slug(ctx.item.key), '-');

/** The alert resource group and scope, or the gate that says to set them. */
function alertTarget(ctx: Ctx): { group: string; scope: string } {
  const group = ctx.target.alertResourceGroup;
  const scope = ctx.target.alertScope;
  if (!group || !scope || !RESOURCE_GROUP_ID.test(group)) throw nativeSettingGate(ctx, 'alert-not-configured');
  return { group, scope };
}

/** The KQL cluster and database the watched table is in: the source database's, or the database an eventstream writes to. */
function watchedDatabase(ctx: Ctx): { clusterUri: string; database: string } {
  const c = ctx.content;
  const source = ctx.app.items.find((i) => i.key === c.source);
  let dbKey: string | undefined;
  if (source?.itemType === 'kql-database' || source?.itemType === 'eventhouse') dbKey = c.source;
  else if (source?.itemType === 'eventstream') {
    const dest = ctx.contentOf(c.source, EventstreamContent)?.destination;
    dbKey = dest && 'database' in dest ? dest.database : undefined;
  }
  if (!dbKey)
    throw new StepRefused(
      'activator_source_not_kql',
      `The activator watches '${c.source}' (${source?.itemType ?? 'unknown'}); on Azure Monitor a rule reads a KQL table only (a KQL database, an eventhouse, or an eventstream into one)`,
    );
  const step = ctx.dependency(dbKey)?.secondaryIds;
  const database = step?.database ?? ctx.target.kqlDatabase ?? ctx.contentOf(dbKey, KqlDatabaseContent)?.database;
  const clusterUri = step?.clusterUri ?? ctx.target.kqlClusterUri;
  if (!clusterUri) throw new GateError(gate('kql-not-configured', ctx.profile));
  if (!database) throw new StepRefused('activator_source_not_kql', `The KQL database of '${dbKey}' is not known`);
  return { clusterUri: clusterUri.replace(/\/+$/, ''), database };
}

/** A KQL literal of a condition value. */
function literal(v: string | number | boolean): string {
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return String(v);
}

/** The rule's query: the table's rows that meet the condition, ingested within the window (the rule counts them, > 0). */
export function ruleQuery(db: { clusterUri: string; database: string }, table: string, t: Trigger): string {
  const quote = (name: string) => `['${name.replace(/'/g, "\\'")}']`;
  const { column, operator, value } = t.condition;
  return `adx('${db.clusterUri}/${db.database}').${quote(table)} | where ${quote(column)} ${OPERATORS[operator]} ${literal(value)} | where ingestion_time() > ago(${WINDOW_MINUTES}m)`;
}

/** The receivers: an email receiver per distinct address; a receiver that is not an address is refused (no webhook URL is known). */
function receivers(ctx: Ctx) {
  const out = new Map<string, { name: string; emailAddress: string; useCommonAlertSchema: boolean }>();
  for (const t of ctx.content.triggers) {
    const address = (t.action.address ?? t.action.receiver).trim();
    if (!EMAIL.test(address))
      throw new StepRefused(
        'activator_receiver_not_address',
        `Trigger '${t.name}' notifies ${t.action.kind} receiver '${address}': an Azure Monitor action group reaches an email address (a Teams channel through its email address); a ${t.action.kind === 'teams' ? "Teams channel is reached through its email address: give it as the action's address" : 'receiver that is not an address cannot be notified'}`,
      );
    const key = address.toLowerCase();
    if (!out.has(key))
      out.set(key, {
        name: `r${out.size + 1}-${slug(address.split('@')[0]!)}`.slice(0, 60),
        emailAddress: address,
        useCommonAlertSchema: true,
      });
  }
  return [...out.values()];
}

/** The action group's body: enabled, a short name of at most 12 characters (shown in notifications), its receivers. */
function groupBody(ctx: Ctx) {
  const short =
    slug(ctx.item.key)
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 12) || 'activator';
  return { location: 'Global', properties: { groupShortName: short, enabled: true, emailReceivers: receivers(ctx) } };
}

/** The rule's body for a trigger. */
function ruleBody(ctx: Ctx, t: Trigger, scope: string, groupId: string, db: { clusterUri: string; database: string }) {
  return {
    location: ctx.target.kqlLocation,
    kind: 'LogAlert',
    // A cross-service (adx()) query runs as the rule's managed identity, which needs Viewer on the database.
    identity: { type: 'SystemAssigned' },
    properties: {
      displayName: `${ctx.item.displayName}: ${t.name}`,
      ...(t.action.message ? { description: t.action.message } : {}),
      severity: SEVERITY,
      enabled: true,
      scopes: [scope],
      evaluationFrequency: FREQUENCY,
      windowSize: FREQUENCY,
      criteria: {
        allOf: [
          {
            query: ruleQuery(db, ctx.content.table, t),
            timeAggregation: 'Count',
            operator: 'GreaterThan',
            threshold: 0,
            failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 },
          },
        ],
      },
      autoMitigate: false,
      actions: { actionGroups: [groupId] },
    },
  };
}

/** The id the resource manager gives a resource in the alert group. */
const idOf = (group: string, type: string, name: string) => `${group}/providers/Microsoft.Insights/${type}/${name}`;

/** A rule as the plan compares it: what it watches, when, and whom it notifies (the group by name). */
function ruleText(r: { properties: Record<string, any> }): string {
  const p = r.properties;
  const c = p.criteria?.allOf?.[0] ?? {};
  const groups = (p.actions?.actionGroups ?? []).map((g: string) => g.split('/').at(-1)?.toLowerCase());
  return [
    `query: ${c.query}`,
    `condition: ${c.timeAggregation} ${c.operator} ${c.threshold}`,
    `every ${p.evaluationFrequency} over ${p.windowSize}, severity ${p.severity}, ${p.enabled === false ? 'disabled' : 'enabled'}`,
    `scopes: ${(p.scopes ?? []).map((s: string) => s.toLowerCase()).join(', ')}`,
    `action groups: ${groups.join(', ')}`,
  ].join('\n');
}

/** An action group as the plan compares it: its short name and receivers' addresses. */
function groupText(g: { properties: Record<string, any> }): string {
  const p = g.properties;
  const emails = (p.emailReceivers ?? []).map((r: { emailAddress: string }) => r.emailAddress.toLowerCase()).sort();
  return [`short name: ${p.groupShortName}`, `${p.enabled === false ? 'disabled' : 'enabled'}`, `email: ${emails.join(', ')}`].join('\n');
}

/** The parts of the activator as provisioning would send them. */
function desiredParts(ctx: Ctx): LiveParts {
  const { group, scope } = alertTarget(ctx);
  const db = watchedDatabase(ctx);
  const groupId = idOf(group, 'actionGroups', groupName(ctx));
  const parts: LiveParts = { [`action group ${groupName(ctx)}`]: groupText(groupBody(ctx)) };
  for (const t of ctx.content.triggers) parts[`rule ${ruleName(ctx, t)}`] = ruleText(ruleBody(ctx, t, scope, groupId, db));
  return parts;
}

/**
 * What the content asks that a rule cannot do, refused before any call: a source that is not a KQL table, a receiver
 * that is not an address, two triggers that fold to one rule name (they would overwrite each other). The plan's read
 * checks it too, so an item the install would refuse is never planned as a create.
 */
function servable(ctx: Ctx): void {
  watchedDatabase(ctx);
  receivers(ctx);
  const seen = new Map<string, string>();
  for (const t of ctx.content.triggers) {
    const name = ruleName(ctx, t);
    const other = seen.get(name);
    if (other) throw new StepRefused('activator_rule_names_collide', `Triggers '${other}' and '${t.name}' both become the rule '${name}'`);
    seen.set(name, t.name);
  }
}

const gates = (ctx: Ctx) => ({ profile: ctx.profile, gates: { auth: 'monitor-auth' as const } });

/** The item types whose tables a rule can read: KQL databases, and eventstreams into one. */
const KQL_SOURCES = new Set(['kql-database', 'eventhouse']);

/**
 * An activator watching a table Azure Monitor cannot read (a lakehouse's, a search index's) has no Azure-native
 * equivalent: a log search alert reads Log Analytics and, through adx(), KQL tables only. Such an item is stored.
 */
function unsupported(c: ActivatorContent, app: CuratedApp): string | undefined {
  const source = app.items.find((i) => i.key === c.source);
  if (!source || KQL_SOURCES.has(source.itemType)) return undefined;
  if (source.itemType === 'eventstream') {
    const dest = (source.content as { destination?: Record<string, unknown> } | undefined)?.destination;
    if (dest && 'database' in dest) return undefined;
  }
  return `kept in the service only: it watches a ${source.itemType} (${source.key}), and Azure Monitor's log search alerts, the rules of this cloud, read KQL tables only (a KQL database, or an eventstream into one)`;
}

/** activator on Azure Monitor: PUT of the action group, then a PUT of a scheduled query rule per trigger. */
export const activatorMonitor: LiveBackend<ActivatorContent> = {
  backing: 'monitor',
  unsupported,
  dependsOn: (c) => [c.source],
  calls: (c) => [
    { service: 'arm', method: 'PUT', path: GROUP_PATH },
    { service: 'arm', method: 'PUT', path: RULE_PATH, times: c.triggers.length },
  ],
  async provision(ctx) {
    const name = groupName(ctx);
    const { group, scope } = alertTarget(ctx);
    servable(ctx);
    const db = watchedDatabase(ctx);
    const body = groupBody(ctx);
    try {
      const g = await ctx.backends.monitor.put(group, 'actionGroups', name, body);
      ctx.log(`action group ${name}: ${g.created ? 'created' : 'updated'} (${body.properties.emailReceivers.length} email receiver(s))`);
      let created = g.created;
      const secondaryIds: Record<string, string> = { resourceGroup: group, actionGroup: g.resource.id };
      for (const t of ctx.content.triggers) {
        const rule = ruleName(ctx, t);
        const r = await ctx.backends.monitor.put(group, 'scheduledQueryRules', rule, ruleBody(ctx, t, scope, g.resource.id, db));
        ctx.log(`rule ${rule} (${t.name}): ${r.created ? 'created' : 'updated'}`);
        created ||= r.created;
        secondaryIds[t.name] = r.resource.id;
      }
      return { status: created ? 'created' : 'exists', resourceId: g.resource.id, secondaryIds };
    } catch (err) {
      raiseGate(err, gates(ctx));
    }
  },
  desired: async (ctx) => desiredParts(ctx),
  async readLive(ctx) {
    const { group } = alertTarget(ctx);
    servable(ctx);
    const name = groupName(ctx);
    try {
      const g = await ctx.backends.monitor.get(group, 'actionGroups', name);
      if (!g) return undefined;
      const parts: LiveParts = { [`action group ${name}`]: groupText(g) };
      const secondaryIds: Record<string, string> = { resourceGroup: group, actionGroup: g.id };
      for (const t of ctx.content.triggers) {
        const rule: InsightsResource | undefined = await ctx.backends.monitor.get(group, 'scheduledQueryRules', ruleName(ctx, t));
        if (!rule) continue;
        parts[`rule ${ruleName(ctx, t)}`] = ruleText(rule);
        secondaryIds[t.name] = rule.id;
      }
      return { resourceId: g.id, secondaryIds, parts };
    } catch (err) {
      raiseGate(err, gates(ctx));
    }
  },
  readCalls: (c) => [
    { service: 'arm', method: 'GET', path: GROUP_PATH },
    { service: 'arm', method: 'GET', path: RULE_PATH, times: c.triggers.length, when: 'existing' },
  ],
  /** The action group of the activator's own name (its rules are made after it), read without the watched database. */
  async find(ctx) {
    const { group } = alertTarget(ctx);
    try {
      return (await ctx.backends.monitor.get(group, 'actionGroups', groupName(ctx)))?.id;
    } catch (err) {
      raiseGate(err, gates(ctx));
    }
  },
  findCalls: () => [{ service: 'arm', method: 'GET', path: GROUP_PATH }],
  /** The rules first (they name the group), then the action group; removed:false when none of them was there. */
  async remove(ctx) {
    const { group } = alertTarget(ctx);
    try {
      let removed = false;
      for (const t of ctx.content.triggers) {
        const rule = ruleName(ctx, t);
        const gone = await ctx.backends.monitor.delete(group, 'scheduledQueryRules', rule);
        ctx.log(gone ? `rule ${rule} deleted` : `rule ${rule} was already gone (204)`);
        removed ||= gone;
      }
      const name = groupName(ctx);
      const gone = await ctx.backends.monitor.delete(group, 'actionGroups', name);
      ctx.log(gone ? `action group ${name} deleted` : `action group ${name} was already gone (204)`);
      return { removed: removed || gone };
    } catch (err) {
      raiseGate(err, gates(ctx));
    }
  },
  removeCalls: (c) => [
    { service: 'arm', method: 'DELETE', path: RULE_PATH, times: c.triggers.length },
    { service: 'arm', method: 'DELETE', path: GROUP_PATH },
  ],
};
