// The resource manager's Microsoft.Insights emulator: scheduled query rules (log search alerts) and action groups, held
// against their published descriptions (specs/monitor-arm), refusing what the real service refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';
import { assertConforms } from './spec-shapes.js';
import type { Sandbox } from '../src/index.js';

const RULES = 'monitor-arm/resource-manager/Microsoft.Insights/stable/2023-12-01/scheduledQueryRule_API.json';
const GROUPS = 'monitor-arm/resource-manager/Microsoft.Insights/stable/2023-01-01/actionGroups_API.json';
const RULE_T =
  '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Insights/scheduledQueryRules/{ruleName}';
const RULES_T = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Insights/scheduledQueryRules';
const GROUP_T =
  '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Insights/actionGroups/{actionGroupName}';

const ruleUrl = (sb: Sandbox, name: string, v = '2023-12-01') =>
  `${sb.urls.arm}${sb.env.SVC_ALERT_RESOURCE_GROUP}/providers/Microsoft.Insights/scheduledQueryRules/${encodeURIComponent(name)}?api-version=${v}`;
const groupUrl = (sb: Sandbox, name: string, v = '2023-01-01') =>
  `${sb.urls.arm}${sb.env.SVC_ALERT_RESOURCE_GROUP}/providers/Microsoft.Insights/actionGroups/${encodeURIComponent(name)}?api-version=${v}`;
const groupBody = (short = 'ops') => ({
  location: 'Global',
  properties: {
    groupShortName: short,
    enabled: true,
    emailReceivers: [{ name: 'ops', emailAddress: 'ops@example.gov', useCommonAlertSchema: true }],
  },
});
const ruleBody = (sb: Sandbox, group: string, query: string, over: Record<string, unknown> = {}) => ({
  location: 'eastus',
  kind: 'LogAlert',
  properties: {
    displayName: 'Hot',
    severity: 3,
    enabled: true,
    scopes: [sb.env.SVC_ALERT_SCOPE],
    evaluationFrequency: 'PT5M',
    windowSize: 'PT5M',
    criteria: {
      allOf: [
        {
          query,
          timeAggregation: 'Count',
          operator: 'GreaterThan',
          threshold: 0,
          failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 },
        },
      ],
    },
    actions: { actionGroups: [group] },
    ...over,
  },
});

/** A sandbox with a KQL database `Ops` holding table `Readings (Device:string, Temp:real)`. */
async function withTable(t: Parameters<typeof sandbox>[0]) {
  const sb = await sandbox(t);
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  await sb.admin.setSwitch('arm.lroMs', 0);
  const arm = await sb.admin.token({ audience: 'arm' });
  const db = `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Ops?api-version=2024-04-13`;
  assert.equal((await call(db, { method: 'PUT', token: arm, json: { kind: 'ReadWrite', location: 'eastus' } })).status, 201);
  const kql = await sb.admin.token({ audience: 'kql' });
  const made = await call(`${sb.urls.kql}/v1/rest/mgmt`, {
    token: kql,
    json: { db: 'Ops', csl: '.create table Readings (Device:string, Temp:real)' },
  });
  assert.equal(made.status, 200, made.text);
  const adx = (rest = '| where Temp > 85') => `adx('${sb.env.SVC_KQL_CLUSTER_URI}/Ops').Readings ${rest}`;
  return { sb, arm, adx };
}

test('monitor: the seeded scope, the environment, and an action group PUT/GET/list/DELETE as described', async (t) => {
  const { sb, arm } = await withTable(t);
  assert.match(sb.env.SVC_ALERT_RESOURCE_GROUP!, /^\/subscriptions\/[0-9a-f-]{36}\/resourceGroups\/[^/]+$/);
  assert.match(sb.env.SVC_ALERT_SCOPE!, /\/providers\/Microsoft\.OperationalInsights\/workspaces\/[^/]+$/);
  const created = await call(groupUrl(sb, 'w1_ops'), { method: 'PUT', token: arm, json: groupBody() });
  assert.equal(created.status, 201, created.text);
  assertConforms(GROUPS, GROUP_T, 'PUT', created);
  assert.equal(created.body.properties.emailReceivers[0].status, 'Enabled');
  const again = await call(groupUrl(sb, 'w1_ops'), { method: 'PUT', token: arm, json: groupBody('ops2') });
  assert.equal(again.status, 200, 'an update answers 200');
  const read = await call(groupUrl(sb, 'W1_OPS'), { token: arm });
  assert.equal(read.status, 200, 'names are case-insensitive');
  assert.equal(read.body.properties.groupShortName, 'ops2');
  const list = await call(
    `${sb.urls.arm}${sb.env.SVC_ALERT_RESOURCE_GROUP}/providers/Microsoft.Insights/actionGroups?api-version=2023-01-01`,
    { token: arm },
  );
  assert.deepEqual(
    list.body.value.map((g: { name: string }) => g.name),
    ['w1_ops'],
  );
  assert.equal((await call(groupUrl(sb, 'w1_ops'), { method: 'DELETE', token: arm })).status, 200);
  assert.equal((await call(groupUrl(sb, 'w1_ops'), { method: 'DELETE', token: arm })).status, 204, 'already gone');
  const missing = await call(groupUrl(sb, 'w1_ops'), { token: arm });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.code, 'ResourceNotFound', 'action groups answer their ErrorResponse: a bare {code, message}');
  assertConforms(GROUPS, GROUP_T, 'GET', missing);
});

test('monitor: action groups refuse a groupShortName over 12 characters, a missing enabled, a bad address, a wrong api-version', async (t) => {
  const { sb, arm } = await withTable(t);
  const long = await call(groupUrl(sb, 'g'), { method: 'PUT', token: arm, json: groupBody('thirteen-char') });
  assert.equal(long.status, 400);
  assert.equal(long.body.code, 'GroupShortNameTooLong');
  const noEnabled = await call(groupUrl(sb, 'g'), {
    method: 'PUT',
    token: arm,
    json: { location: 'Global', properties: { groupShortName: 'x' } },
  });
  assert.equal(noEnabled.status, 400);
  assert.match(noEnabled.body.message, /enabled/);
  const badMail = groupBody();
  badMail.properties.emailReceivers[0]!.emailAddress = 'Casino Operations / Floor';
  assert.equal((await call(groupUrl(sb, 'g'), { method: 'PUT', token: arm, json: badMail })).body.code, 'InvalidEmailAddress');
  const version = await call(groupUrl(sb, 'g', '2024-04-13'), { method: 'PUT', token: arm, json: groupBody() });
  assert.equal(version.status, 400);
  assert.equal(version.body.error.code, 'NoRegisteredProviderFound');
  assert.equal((await sb.admin.state()).arm.monitor.actionGroups.length, 0, 'nothing refused was stored');
});

test('monitor: a scheduled query rule over an adx() query is created (201), updated (200), read, listed and deleted', async (t) => {
  const { sb, arm, adx } = await withTable(t);
  const group = (await call(groupUrl(sb, 'w1_ops'), { method: 'PUT', token: arm, json: groupBody() })).body.id as string;
  for (const v of ['2023-12-01', '2026-03-01']) {
    const created = await call(ruleUrl(sb, `w1-hot-${v}`, v), { method: 'PUT', token: arm, json: ruleBody(sb, group, adx()) });
    assert.equal(created.status, 201, created.text);
    assertConforms(RULES, RULE_T, 'PUT', created);
    assert.equal(created.body.properties.createdWithApiVersion, v);
    assert.equal(created.body.properties.criteria.allOf[0].query, adx());
  }
  const updated = await call(ruleUrl(sb, 'w1-hot-2023-12-01'), {
    method: 'PUT',
    token: arm,
    json: ruleBody(sb, group, adx('| where Temp > 90')),
  });
  assert.equal(updated.status, 200);
  const read = await call(ruleUrl(sb, 'w1-hot-2023-12-01'), { token: arm });
  assertConforms(RULES, RULE_T, 'GET', read);
  assert.match(read.body.properties.criteria.allOf[0].query, /Temp > 90/);
  const list = await call(
    `${sb.urls.arm}${sb.env.SVC_ALERT_RESOURCE_GROUP}/providers/Microsoft.Insights/scheduledQueryRules?api-version=2023-12-01`,
    { token: arm },
  );
  assertConforms(RULES, RULES_T, 'GET', list);
  assert.equal(list.body.value.length, 2);
  assert.equal((await call(ruleUrl(sb, 'w1-hot-2023-12-01'), { method: 'DELETE', token: arm })).status, 200);
  assert.equal((await call(ruleUrl(sb, 'w1-hot-2023-12-01'), { method: 'DELETE', token: arm })).status, 204);
  const gone = await call(ruleUrl(sb, 'w1-hot-2023-12-01'), { token: arm });
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'ResourceNotFound', 'rules answer ErrorContract: {error: {code, message}}');
  assertConforms(RULES, RULE_T, 'GET', gone);
});

test('monitor: a rule is refused for a missing property, a bad duration, an unknown scope or action group, and a query that does not compile', async (t) => {
  const { sb, arm, adx } = await withTable(t);
  const group = (await call(groupUrl(sb, 'w1_ops'), { method: 'PUT', token: arm, json: groupBody() })).body.id as string;
  const refused = async (body: unknown, pattern: RegExp, code = 'BadRequest') => {
    const res = await call(ruleUrl(sb, 'w1-bad'), { method: 'PUT', token: arm, json: body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, code, res.text);
    assert.match(res.body.error.message, pattern);
    assertConforms(RULES, RULE_T, 'PUT', res);
  };
  const base = ruleBody(sb, group, adx());
  await refused({ ...base, properties: { ...base.properties, severity: undefined } }, /severity/);
  await refused({ ...base, properties: { ...base.properties, scopes: [] } }, /scopes/);
  await refused({ ...base, properties: { ...base.properties, evaluationFrequency: undefined } }, /evaluationFrequency/);
  await refused({ ...base, properties: { ...base.properties, windowSize: '5 minutes' } }, /ISO 8601/, 'InvalidParameter');
  await refused({ ...base, properties: { ...base.properties, evaluationFrequency: 'P7D' } }, /out of range/, 'InvalidParameter');
  await refused({ ...base, properties: { ...base.properties, actions: {} } }, /actionGroups/);
  await refused({ ...base, properties: { ...base.properties, criteria: { allOf: [] } } }, /criteria\.allOf/);
  const cond = base.properties.criteria.allOf[0]!;
  await refused({ ...base, properties: { ...base.properties, criteria: { allOf: [{ ...cond, operator: 'Bigger' }] } } }, /operator/);
  await refused({ ...base, properties: { ...base.properties, criteria: { allOf: [{ ...cond, threshold: '0' }] } } }, /threshold/);
  await refused(
    { ...base, properties: { ...base.properties, scopes: [`${sb.env.SVC_ALERT_SCOPE}x`] } },
    /could not be found/,
    'ScopeNotFound',
  );
  await refused(
    { ...base, properties: { ...base.properties, actions: { actionGroups: [`${group}x`] } } },
    /could not be found/,
    'ActionGroupNotFound',
  );
  const withQuery = (query: string) => ruleBody(sb, group, query);
  await refused(withQuery(adx('| where Temp >')), /Syntax error/);
  await refused(withQuery(adx('| where Pressure > 3')), /Failed to resolve/);
  await refused(withQuery(`adx('${sb.env.SVC_KQL_CLUSTER_URI}/Ops').Missing | count`), /Missing/);
  await refused(withQuery(`adx('${sb.env.SVC_KQL_CLUSTER_URI}/Nope').Readings`), /Nope/);
  await refused(withQuery('Readings | where Temp > 85'), /has no such table/);
  await refused({ ...base, location: undefined }, /location/, 'LocationRequired');
  assert.equal((await sb.admin.state()).arm.monitor.scheduledQueryRules.length, 0, 'nothing refused was stored');
});

test('monitor: without Monitoring Contributor on the resource group the service identity gets 403 AuthorizationFailed; a token for another audience 401', async (t) => {
  const { sb, arm, adx } = await withTable(t);
  const group = (await call(groupUrl(sb, 'w1_ops'), { method: 'PUT', token: arm, json: groupBody() })).body.id as string;
  assert.equal((await sb.admin.revoke({ service: 'arm', role: 'Monitoring Contributor' })).changed, true);
  const denied = await call(ruleUrl(sb, 'w1-hot'), { method: 'PUT', token: arm, json: ruleBody(sb, group, adx()) });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'AuthorizationFailed');
  assert.match(denied.body.error.message, /Microsoft\.Insights\/scheduledQueryRules\/write/);
  assertConforms(RULES, RULE_T, 'PUT', denied);
  assert.equal((await call(groupUrl(sb, 'w1_ops'), { method: 'DELETE', token: arm })).status, 403);
  const empty = await call(
    `${sb.urls.arm}${sb.env.SVC_ALERT_RESOURCE_GROUP}/providers/Microsoft.Insights/actionGroups?api-version=2023-01-01`,
    { token: arm },
  );
  assert.deepEqual(empty.body.value, [], 'a listing shows only what the caller may read');
  assert.equal((await sb.admin.grant({ service: 'arm', role: 'Monitoring Contributor' })).changed, true);
  assert.equal((await call(ruleUrl(sb, 'w1-hot'), { method: 'PUT', token: arm, json: ruleBody(sb, group, adx()) })).status, 201);
  const wrong = await call(ruleUrl(sb, 'w1-hot'), { token: await sb.admin.token({ audience: 'kql' }) });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.error.code, 'InvalidAuthenticationTokenAudience');
  const otherRg = await call(ruleUrl(sb, 'w1-hot').replace('rg-analytics-alerts', 'rg-missing'), { token: arm });
  assert.equal(otherRg.status, 403, 'no role there: authorization is checked before the resource group');
});
