// Activators without the data platform: per trigger a scheduled query rule over the KQL table (an adx() query from the
// alert scope's Log Analytics workspace) and per activator an action group, on the sandbox's resource manager. Created,
// re-run as exists, planned, checked for drift, uninstalled; gated on a missing role or setting; tenants kept apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '@svc/sandbox';
import { validate } from '../../sandbox/src/conformance/validate.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { callMatches } from '../src/item-types/calls.js';
import { activatorMonitor } from '../src/item-types/activator-monitor.js';
import type { ActivatorContent } from '../src/item-types/activator.js';
import { buildWithSandbox, install, OPERATOR, retryStep, type Sandbox, workspace } from './install-helpers.js';
import { appItem, call, followJob } from './lifecycle-helpers.js';
import { appOf, contextOf, targetOf } from './remove-helpers.js';
import { StepRefused, type TypedProvisionContext } from '../src/provisioning/context.js';
import type { TestApp, TestTenant } from './helpers.js';

const CATALOG_DIR = fileURLToPath(new URL('./fixtures/catalog-monitor', import.meta.url));
const APP = 'app-line-watch';
const app = loadCatalog(CATALOG_DIR).get(APP)!;
const contentOf = (key: string) => app.items.find((i) => i.key === key)!.content as ActivatorContent;
const ACTIVATORS = ['line-alerts', 'shift-alerts'];
/** The trigger count of the two activators, and so the rules an install makes. */
const RULE_COUNT = ACTIVATORS.reduce((n, k) => n + contentOf(k).triggers.length, 0);

type Request = { seq: number; service: string; method: string; path: string; status: number; body?: { json?: any } };

/** A service without the data platform on a fresh sandbox, built on the fixture catalog. */
async function setup(t: Parameters<typeof buildWithSandbox>[0], env: Record<string, string> = {}, catalogDir: string | null = CATALOG_DIR) {
  const sb = await startSandbox({ dataPlatform: false });
  t.after(() => sb.stop());
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  const built = await buildWithSandbox(t, { ...(catalogDir ? { SVC_CATALOG_DIR: catalogDir } : {}), ...env }, sb);
  return { ...built, sb };
}

const monitorState = async (sb: Sandbox) => (await sb.admin.state()).arm.monitor;
const insights = (r: Request) => r.service === 'arm' && /\/providers\/Microsoft\.Insights\//.test(r.path);
const since = async (sb: Sandbox) => (await sb.admin.requests()).at(-1)?.seq ?? 0;
const requestsSince = async (sb: Sandbox, seq: number) => ((await sb.admin.requests({ since: seq })) as Request[]).filter(insights);
const stepsOf = (job: any) => job.provision.steps.filter((s: any) => s.itemType === 'activator');

/** Each Insights request the install made is one the activators declare, and the fidelity gate finds it described and sound. */
function heldAgainstDeclared(made: Request[], sb: Sandbox) {
  const base = new URL(sb.env.SVC_ARM_URL!).pathname.replace(/\/$/, '');
  for (const r of made) {
    const request = { method: r.method, path: r.path.slice(base.length) };
    const declared = ACTIVATORS.some((k) => activatorMonitor.calls(contentOf(k)).some((c) => callMatches(c, request)));
    assert.ok(declared, `${r.method} ${r.path}: no activator declares it`);
    const v = validate(r as never);
    assert.deepEqual([v.kind, v.problems], ['described', []], `${r.method} ${r.path}: ${JSON.stringify(v)}`);
  }
}

async function installApp(h: TestApp, tenant: TestTenant, name: string) {
  const ws = await workspace(h, tenant, name);
  return { ws, job: await install(h, tenant, APP, { workspaceId: ws }) };
}

test('monitor: an install creates a rule per trigger and an action group per activator, as declared; a re-run is exists with nothing duplicated', async (t) => {
  const { h, sb, tenant } = await setup(t);
  const from = await since(sb);
  const { job } = await installApp(h, tenant, 'first');
  assert.equal(job.status, 'done');
  assert.equal(job.provision.outcome, 'all-created', JSON.stringify(job.provision.steps));
  for (const s of stepsOf(job)) {
    assert.deepEqual([s.result.status, s.result.backend], ['created', 'monitor'], JSON.stringify(s.result));
    assert.match(s.result.resourceId, /\/providers\/Microsoft\.Insights\/actionGroups\/w[0-9a-f]{12}-/);
  }
  const made = await requestsSince(sb, from);
  assert.equal(made.filter((r) => /scheduledQueryRules/.test(r.path)).length, RULE_COUNT);
  assert.equal(made.filter((r) => /actionGroups/.test(r.path)).length, ACTIVATORS.length);
  heldAgainstDeclared(made, sb);

  const state = await monitorState(sb);
  const prefix = `w${sb.ids.platformWorkspaceId.replace(/-/g, '').slice(0, 12)}-`;
  assert.ok(
    [...state.scheduledQueryRules, ...state.actionGroups].every((r) => r.name.startsWith(prefix)),
    'every name under the tenant',
  );
  const hot = state.scheduledQueryRules.find((r) => r.name === `${prefix}line-alerts-motor-hot`);
  assert.ok(hot, JSON.stringify(state.scheduledQueryRules.map((r) => r.name)));
  assert.deepEqual(hot.properties.scopes, [sb.env.SVC_ALERT_SCOPE]);
  const cond = hot.properties.criteria.allOf[0];
  assert.equal(
    cond.query,
    `adx('${sb.env.SVC_KQL_CLUSTER_URI}/LineWatch').['Readings'] | where ['MotorTempC'] > 85 | where ingestion_time() > ago(5m)`,
  );
  assert.deepEqual([cond.timeAggregation, cond.operator, cond.threshold], ['Count', 'GreaterThan', 0]);
  assert.deepEqual(hot.properties.actions.actionGroups, [stepsOf(job).find((s: any) => s.displayName === 'Line Alerts').result.resourceId]);
  const stopped = state.scheduledQueryRules.find((r) => r.name === `${prefix}line-alerts-line-stopped`)!;
  assert.match(stopped.properties.criteria.allOf[0].query, /where \['State'\] == 'Stopped'/);
  const group = state.actionGroups.find((g) => g.name === `${prefix}line-alerts`)!;
  assert.deepEqual(
    group.properties.emailReceivers.map((r: any) => r.emailAddress),
    ['maintenance@example.gov', 'shift-lead@example.gov'],
    'the teams receiver that is an address is an email receiver',
  );

  const again = await installApp(h, tenant, 'second');
  for (const s of stepsOf(again.job)) assert.equal(s.result.status, 'exists', JSON.stringify(s.result));
  const after = await monitorState(sb);
  assert.equal(after.scheduledQueryRules.length, RULE_COUNT, 'no rule duplicated');
  assert.equal(after.actionGroups.length, ACTIVATORS.length, 'no action group duplicated');
});

test('monitor: plan, drift and uninstall — no-change after the install, a rule changed outside shows drifted, uninstall deletes rules then groups', async (t) => {
  const { h, sb, tenant } = await setup(t);
  const { ws, job } = await installApp(h, tenant, 'lifecycle');
  assert.equal(job.provision.outcome, 'all-created', JSON.stringify(job.provision.steps));
  const from = await since(sb);
  const { plan } = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws });
  for (const k of ACTIVATORS) {
    const item = plan.items.find((i: any) => i.key === k);
    assert.deepEqual([item.action, item.backend], ['no-change', 'monitor'], `${k}: ${item.diff ?? JSON.stringify(item)}`);
  }
  const base = new URL(sb.env.SVC_ARM_URL!).pathname.replace(/\/$/, '');
  const reads = await requestsSince(sb, from);
  assert.equal(reads.length, ACTIVATORS.length + RULE_COUNT, 'the plan reads each group and each rule');
  for (const r of reads) {
    const request = { method: r.method, path: r.path.slice(base.length) };
    assert.ok(
      ACTIVATORS.some((k) => activatorMonitor.readCalls(contentOf(k)).some((c) => callMatches(c, request))),
      `the plan made ${r.method} ${r.path}, which no activator's readCalls names`,
    );
  }

  // Another client lowers a rule's threshold column condition: drift shows the rule's query changed.
  const prefix = `w${sb.ids.platformWorkspaceId.replace(/-/g, '').slice(0, 12)}-`;
  const url = `${sb.urls.arm}${sb.env.SVC_ALERT_RESOURCE_GROUP}/providers/Microsoft.Insights/scheduledQueryRules/${prefix}line-alerts-motor-hot?api-version=2023-12-01`;
  const token = await sb.admin.token({ audience: 'arm' });
  const live = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json();
  live.properties.criteria.allOf[0].query = live.properties.criteria.allOf[0].query.replace('> 85', '> 60');
  const { id: _id, name: _n, type: _t, systemData: _s, etag: _e, ...body } = live;
  const put = await fetch(url, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(put.status, 200, await put.text());
  const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
  assert.equal((await followJob(h, tenant, started.job.id)).status, 'done');
  const drift = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items as any[];
  const line = drift.find((i) => i.key === 'line-alerts');
  assert.equal(line.status, 'drifted', JSON.stringify(line));
  assert.match(line.diff, /^-query: .*> 60/m);
  assert.match(line.diff, /^\+query: .*> 85/m);
  assert.equal(drift.find((i) => i.key === 'shift-alerts').status, 'in-sync');

  // Apply puts the stored rule back (a PUT over the changed one); the drift is gone.
  const item = await appItem(h, tenant, ws, APP, 'line-alerts');
  const applied = await followJob(
    h,
    tenant,
    (await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${item.itemId}/apply`, 202)).job.id,
  );
  assert.equal(applied.steps[0].result.status, 'updated', JSON.stringify(applied.steps));
  const hot = (await monitorState(sb)).scheduledQueryRules.find((r) => r.name === `${prefix}line-alerts-motor-hot`)!;
  assert.match(hot.properties.criteria.allOf[0].query, /> 85 /);
  const recheck = await followJob(h, tenant, (await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202)).job.id);
  assert.equal(recheck.status, 'done');
  const items = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items as any[];
  for (const i of items.filter((x) => ACTIVATORS.includes(x.key))) assert.equal(i.status, 'in-sync', i.diff);

  // Uninstall: the rules first, then the action group; nothing of the app is left in the alert resource group.
  const un = await call(h, tenant, 'POST', `/api/apps/${APP}/plan`, 200, { workspaceId: ws, operation: 'uninstall' });
  assert.equal(un.plan.items.find((i: any) => i.key === 'line-alerts').action, 'delete');
  const removing = await since(sb);
  const gone = await followJob(h, tenant, (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${APP}`, 202)).job.id);
  assert.equal(gone.status, 'done', JSON.stringify(gone.steps));
  for (const k of ACTIVATORS) assert.equal(gone.steps.find((s: any) => s.key === k).result.status, 'deleted');
  const deletes = (await requestsSince(sb, removing)).filter((r) => r.method === 'DELETE');
  const lineDeletes = deletes
    .filter((r) => r.path.includes(`${prefix}line-alerts`))
    .map((r) => (/actionGroups/.test(r.path) ? 'group' : 'rule'));
  assert.deepEqual(lineDeletes, ['rule', 'rule', 'group'], 'the rules name the group: they go first');
  const state = await monitorState(sb);
  assert.deepEqual([state.scheduledQueryRules.length, state.actionGroups.length], [0, 0]);
  // A second removal finds nothing: removed:false, never an error.
  const ctx = contextOf(h, app, app.items.find((i) => i.key === 'line-alerts')!, await targetOf(h, tenant), new Map());
  const again = await activatorMonitor.remove(ctx as unknown as TypedProvisionContext<ActivatorContent>, '');
  assert.deepEqual(again, { removed: false });
});

test('monitor: without Monitoring Contributor the activator steps meet the monitor-auth gate; after the grant a retry creates', async (t) => {
  const { h, sb, tenant } = await setup(t);
  await sb.admin.revoke({ service: 'arm', role: 'Monitoring Contributor' });
  const { job } = await installApp(h, tenant, 'gated');
  const gated = stepsOf(job);
  assert.equal(gated.length, ACTIVATORS.length);
  for (const s of gated) {
    assert.equal(s.result.status, 'remediation', JSON.stringify(s.result));
    assert.equal(s.result.gate.reason, 'Azure Monitor 401/403 from resource manager');
    assert.match(s.result.gate.remediation, /Monitoring Contributor on the alert resource group/);
    assert.match(s.result.error, /"code":"AuthorizationFailed"/, "the resource manager's answer is passed on unmodified");
  }
  assert.equal(job.provision.outcome, 'partial');
  await sb.admin.grant({ service: 'arm', role: 'Monitoring Contributor' });
  let last = job;
  for (const s of gated) last = await retryStep(h, tenant, job.id, s.stepIndex);
  for (const s of stepsOf(last)) assert.equal(s.result.status, 'created', JSON.stringify(s.result));
  assert.equal(last.provision.outcome, 'all-created');
});

test('monitor: without SVC_ALERT_RESOURCE_GROUP the activator steps meet the alert-not-configured gate and call nothing', async (t) => {
  const { h, sb, tenant } = await setup(t, { SVC_ALERT_RESOURCE_GROUP: '' });
  const from = await since(sb);
  const { job } = await installApp(h, tenant, 'unset');
  for (const s of stepsOf(job)) {
    assert.equal(s.result.status, 'remediation', JSON.stringify(s.result));
    assert.equal(s.result.gate.reason, 'activator alerts not configured');
    assert.match(s.result.gate.remediation, /SVC_ALERT_RESOURCE_GROUP.*SVC_ALERT_SCOPE/);
  }
  assert.deepEqual(await requestsSince(sb, from), []);
});

test('monitor: two tenants — each one’s rules and groups under its own platform workspace; one’s uninstall leaves the other’s', async (t) => {
  const { h, sb, tenant } = await setup(t);
  const first = await installApp(h, tenant, 'tenant-a');
  assert.equal(first.job.provision.outcome, 'all-created', JSON.stringify(first.job.provision.steps));
  // The second tenant: its own platform workspace (an id is all a cloud without the data platform needs) and the
  // sandbox's KQL cluster, which an operator moves to it.
  const other = await h.tenant();
  const otherWs = '3f0c2a9e-6d1b-4c8e-9a57-1b2c3d4e5f60';
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, other.tenantId, otherWs);
  await h.store.db.deleteFrom('tenant_resources').where('kind', '=', 'kql-cluster').execute();
  await h.services.tenancy.assignTarget(OPERATOR, other.tenantId, {
    kind: 'kql-cluster',
    address: sb.env.SVC_KQL_CLUSTER_URI!,
    resourceId: sb.env.SVC_KQL_CLUSTER_NAME,
    location: sb.env.SVC_KQL_LOCATION,
  });
  const second = await installApp(h, other, 'tenant-b');
  for (const s of stepsOf(second.job))
    assert.equal(s.result.status, 'created', `the other tenant's rules are its own: ${JSON.stringify(s.result)}`);
  const prefixA = `w${sb.ids.platformWorkspaceId.replace(/-/g, '').slice(0, 12)}-`;
  const prefixB = `w${otherWs.replace(/-/g, '').slice(0, 12)}-`;
  const names = async () => {
    const s = await monitorState(sb);
    return [...s.scheduledQueryRules, ...s.actionGroups].map((r) => r.name);
  };
  const both = await names();
  assert.equal(both.filter((n) => n.startsWith(prefixA)).length, RULE_COUNT + ACTIVATORS.length);
  assert.equal(both.filter((n) => n.startsWith(prefixB)).length, RULE_COUNT + ACTIVATORS.length);
  // The other tenant sees neither the first one's workspace nor its rules through the service.
  await call(h, other, 'GET', `/api/workspaces/${first.ws}/apps/${APP}`, 404);
  const gone = await followJob(h, other, (await call(h, other, 'DELETE', `/api/workspaces/${second.ws}/apps/${APP}`, 202)).job.id);
  assert.equal(gone.status, 'done', JSON.stringify(gone.steps));
  const left = await names();
  assert.ok(
    left.every((n) => n.startsWith(prefixA)),
    JSON.stringify(left),
  );
  assert.equal(left.length, RULE_COUNT + ACTIVATORS.length, 'the first tenant keeps all of its own');
});

test('monitor: a Teams receiver without its address is refused before any call; an activator over a table Monitor cannot read is stored, and the plan says why', async (t) => {
  const { h, sb, tenant } = await setup(t, {}, null);
  const target = await targetOf(h, tenant);
  // The shipped casino app gives each Teams channel its address; without it, the rule has no one to notify.
  const casino = appOf('app-casino-analytics');
  const item = casino.items.find((i) => i.key === 'health-activator')!;
  const content = structuredClone(item.content) as ActivatorContent;
  for (const trig of content.triggers) delete trig.action.address;
  const a = { ...casino, items: casino.items.map((i) => (i.key === item.key ? { ...i, content } : i)) };
  const ctx = contextOf(h, a, { ...item, content }, target, new Map()) as unknown as TypedProvisionContext<ActivatorContent>;
  const from = await since(sb);
  const err = await activatorMonitor.provision(ctx).then(
    () => assert.fail('provisioned without an address'),
    (e: unknown) => e,
  );
  assert.deepEqual(await requestsSince(sb, from), [], 'refused before any call');
  assert.ok(err instanceof StepRefused, String(err));
  assert.equal(err.code, 'activator_receiver_not_address');
  assert.match(err.message, /Trigger 'Cabinet door open' notifies teams receiver 'Casino Operations \/ Floor Security'/);

  // The shipped plans: the casino's activators become rules; the FedRAMP tracker's watch a lakehouse and are stored.
  const ws = await workspace(h, tenant, 'casino-plan');
  const { plan } = await call(h, tenant, 'POST', '/api/apps/app-casino-analytics/plan', 200, { workspaceId: ws });
  for (const key of ['health-activator', 'jackpot-activator']) {
    const p = plan.items.find((i: any) => i.key === key);
    assert.deepEqual([p.action, p.backend], ['create', 'monitor'], JSON.stringify(p));
  }
  const fed = (await call(h, tenant, 'POST', '/api/apps/app-fedramp-tracker/plan', 200, { workspaceId: ws })).plan;
  for (const key of ['poam-activator', 'ato-activator', 'assessment-activator']) {
    const p = fed.items.find((i: any) => i.key === key);
    assert.deepEqual([p.action, p.backend], ['stored', 'stored'], JSON.stringify(p));
    assert.match(p.message, /watches a lakehouse \(controls-lakehouse\).*KQL tables only/);
  }
});
