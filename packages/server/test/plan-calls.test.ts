// The plan an app page shows is what an install calls: every app is installed against the sandbox, and the sandbox's
// request log is held against the calls each item's plan names (method and path shape, the platform workspace and the
// item's own live id in place).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { callMatches, callText, type CallService, type PlannedCall } from '../src/item-types/calls.js';
import { buildWithSandbox, install, workspace, type Sandbox } from './install-helpers.js';
import { RAN_BESIDE } from '../src/provisioning/live-lock.js';
import { build, type TestApp, type TestTenant } from './helpers.js';

const catalog = loadCatalog();

type PlannedItem = { key: string; itemType: string; displayName: string; provisioning: string; calls: PlannedCall[]; action: string };
type Request = { seq: number; service: string; method: string; path: string };

/** The sandbox's services as the plans name them, each with the path its address starts with. */
function services(sandbox: Sandbox): Record<string, { service: CallService; base: string }> {
  const base = (url: string | undefined) => (url && /^[a-z]+:\/\//.test(url) ? new URL(url).pathname.replace(/\/$/, '') : '');
  return {
    dataPlatform: { service: 'data-platform', base: base(sandbox.env.SVC_DATA_PLATFORM_API_URL) },
    oneLake: { service: 'onelake', base: base(sandbox.env.SVC_ONELAKE_URL) },
    arm: { service: 'arm', base: base(sandbox.env.SVC_ARM_URL) },
    kql: { service: 'kql', base: base(sandbox.env.SVC_KQL_CLUSTER_URI) },
    search: { service: 'search', base: base(sandbox.env.SVC_SEARCH_SERVICE) },
    sql: { service: 'sql', base: '' },
    reporting: { service: 'reporting', base: base(sandbox.env.SVC_BI_API_URL) },
    synapse: { service: 'synapse', base: base(sandbox.env.SVC_SYNAPSE_DEV_URL) },
    // The lake is path-style in the sandbox: a call's path starts after the account (`{lake}` is the account's endpoint).
    lake: { service: 'storage', base: `${base(sandbox.env.SVC_LAKE_DFS_URL)}/${sandbox.env.SVC_LAKE_ACCOUNT}` },
    sqlServerless: { service: 'sql', base: '' },
  };
}

/**
 * Whether the step's outcome means the call must have been made: always, or under the condition the step reports (its
 * status, and whether it ran beside other installs of its resource or alone).
 */
const required = (c: PlannedCall, status: string, beside: boolean) =>
  !c.when ||
  (c.when === 'new' && status === 'created') ||
  (c.when === 'existing' && status === 'exists') ||
  (c.when === 'alone' && !beside) ||
  (c.when === 'beside' && beside) ||
  (c.when === 'existingAlone' && status === 'exists' && !beside);

/** Installs `appId` into a new workspace and checks the backing requests of that install against the app page's plan. */
async function installAndCompare(h: TestApp, sandbox: Sandbox, tenant: TestTenant, appId: string, expect: 'created' | 'exists') {
  const page = await h.app.inject({ method: 'GET', url: `/api/apps/${appId}`, headers: tenant.auth });
  assert.equal(page.statusCode, 200, page.body);
  const plan = page.json().app.items as PlannedItem[];
  for (const item of plan) {
    if (item.provisioning === 'stored') assert.deepEqual(item.calls, [], `${appId} ${item.key}: a stored item calls nothing`);
    else assert.ok(item.calls.length > 0, `${appId} ${item.key}: a live item names its calls`);
    // The text the page shows names every call, in order.
    let at = 0;
    for (const c of item.calls) {
      const found = item.action.indexOf(callText(c), at);
      assert.ok(found >= at, `${appId} ${item.key}: the plan text does not name ${callText(c)} in order: ${item.action}`);
      at = found;
    }
  }

  const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  const job = await install(h, tenant, appId, { workspaceId: await workspace(h, tenant, `${appId}-${expect}`) });
  assert.equal(job.status, 'done', `${appId}: ${JSON.stringify(job.provision)}`);
  const ws: string = job.provision.target.platformWorkspaceId;
  const byService = services(sandbox);
  const made = ((await sandbox.admin.requests({ since })) as Request[])
    .filter((r) => r.service !== 'identity')
    .map((r) => {
      const s = byService[r.service];
      assert.ok(s, `${appId}: a request to ${r.service}, a service no plan names: ${r.method} ${r.path}`);
      assert.ok(r.path.startsWith(s.base), `${appId}: ${r.service} ${r.method} ${r.path} is not under ${s.base}`);
      return { service: s.service, method: r.method, path: r.path.slice(s.base.length) };
    });

  // Each live item with its step: the platform workspace and its own live id fill the plan's {ws} and {id}.
  const live = plan
    .filter((i) => i.provisioning === 'live')
    .map((item) => {
      const step = job.provision.steps.find((s: any) => s.itemType === item.itemType && s.displayName === item.displayName);
      assert.ok(step, `${appId} ${item.key}: no step`);
      assert.equal(step.result.status, expect, `${appId} ${item.key}: ${JSON.stringify(step.result)}`);
      const beside = (step.result.steps as string[]).includes(RAN_BESIDE);
      // Installed again, every step's last run made its resource: it runs beside other installs of it.
      assert.equal(beside, expect === 'exists', `${appId} ${item.key}: ${step.result.steps.join('\n')}`);
      return { item, status: step.result.status as string, beside, bound: { ws, id: step.result.resourceId as string } };
    });

  // Every call the plan names for the step's outcome was made, as often as the content says.
  const wanted = new Map<string, { call: PlannedCall; bound: Record<string, string>; times: number; who: string[] }>();
  for (const { item, status, beside, bound } of live) {
    for (const c of item.calls.filter((x) => required(x, status, beside))) {
      const key = `${c.service} ${c.method} ${c.path.replace('{ws}', bound.ws).replace('{id}', bound.id)}`;
      const w = wanted.get(key) ?? { call: c, bound, times: 0, who: [] as string[] };
      // A call made once per job (a list the steps share) is wanted once however many items name it.
      w.times = c.once ? 1 : w.times + (c.times ?? 1);
      w.who.push(item.key);
      wanted.set(key, w);
    }
  }
  for (const [key, w] of wanted) {
    const n = made.filter((r) => r.service === w.call.service && callMatches(w.call, r, w.bound)).length;
    assert.ok(n >= w.times, `${appId}: the plan of ${w.who.join(', ')} names ${key} ${w.times} times; the install made it ${n} times`);
  }
  // Every call the install made is named by the plan of one of its items.
  for (const r of made) {
    const named = live.some(({ item, bound }) => item.calls.some((c) => c.service === r.service && callMatches(c, r, bound)));
    assert.ok(named, `${appId}: the install made ${r.service} ${r.method} ${r.path}, which no item's plan names`);
  }
  return made.length;
}

test(
  'every app: the calls its page plans are the calls its install makes, and the plan names every call made',
  { timeout: 300_000 },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    let calls = 0;
    for (const app of catalog.apps) calls += await installAndCompare(h, sandbox, tenant, app.id, 'created');
    assert.ok(calls > 200, `the installs made ${calls} backing calls`);
    // Installed again, the types that send their definition with the create update the existing item instead; each
    // step's last run made its resource, so each runs beside other installs (reads first).
    for (const appId of ['app-casino-analytics', 'app-mirror-onboard']) await installAndCompare(h, sandbox, tenant, appId, 'exists');
  },
);

test('the plans name the calls the provisioners make: a KQL dashboard is posted to kqlDashboards, a mirror is not started', async (t) => {
  const h = await build(t);
  const tenant = await h.tenant();
  const itemOf = async (appId: string, itemType: string) => {
    const r = await h.app.inject({ method: 'GET', url: `/api/apps/${appId}`, headers: tenant.auth });
    return (r.json().app.items as PlannedItem[]).find((i) => i.itemType === itemType)!;
  };
  const dashboard = await itemOf('app-iot-realtime', 'kql-dashboard');
  assert.match(dashboard.action, /POST \/workspaces\/\{ws\}\/kqlDashboards if new/);
  assert.doesNotMatch(dashboard.action, /\/items \(KQLDashboard\)/);
  const mirror = await itemOf('app-mirror-onboard', 'mirrored-database');
  assert.match(mirror.action, /POST \/workspaces\/\{ws\}\/mirroredDatabases if new/);
  assert.doesNotMatch(mirror.action, /startMirroring/);
});
