import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { startSandbox } from '@svc/sandbox';
import { build, type TestApp, type TestTenant, userMaker } from './helpers.js';
import { DEFAULT_TENANT, ensureTenant } from '../src/auth/token-service.js';
import { TENANT_SCOPES, type Scope } from '../src/auth/scopes.js';
import type { ResourceKind } from '../src/tenancy/resources.js';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** The real app wired to a fresh sandbox over sockets (the service's identity is the sandbox's managed identity). */
export async function buildWithSandbox(
  t: TestContext,
  env: Record<string, string> = {},
  sandbox?: Sandbox,
  options: Parameters<typeof build>[2] = {},
): Promise<{ h: TestApp; sandbox: Sandbox; tenant: TestTenant }> {
  const sb = sandbox ?? (await startSandbox({}));
  if (!sandbox) t.after(() => sb.stop());
  process.env.IDENTITY_ENDPOINT = sb.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sb.env.IDENTITY_HEADER;
  const h = await build(t, { ...sb.env, SVC_WORKER_POLL_MS: '100', ...env }, options);
  const tenant = await h.tenant();
  await giveSandbox(h, tenant.tenantId, sb);
  return { h, sandbox: sb, tenant };
}

/** The operator a test acts as when it assigns resources. */
export const OPERATOR = {
  tenantId: 'default',
  userId: 'test-operator',
  userName: 'Test operator',
  method: 'token' as const,
  scopes: ['operator' as const],
};

/**
 * A new platform workspace in the sandbox, made by the service identity (which is then its Admin). The sandbox's ids
 * are the same in every run, so on a store other test files share, an earlier file's assignment of it is dropped.
 */
export async function newPlatformWorkspace(h: TestApp, sb: Sandbox, name: string): Promise<string> {
  const token = await h.services.backends.pipeline.credential.getToken(h.services.profile.dataPlatformAudience);
  const res = await fetch(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ displayName: name, capacityId: sb.ids.capacityId }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const id = (await res.json()).id as string;
  await h.store.db
    .deleteFrom('tenant_resources')
    .where('kind', '=', 'platform-workspace')
    .where('resource', '=', id.toLowerCase())
    .execute();
  return id;
}

/** The sandbox's platform workspace and shared-set targets, as an operator assigns them. */
function sandboxTargets(sb: Sandbox) {
  return [
    {
      kind: 'kql-cluster' as const,
      address: sb.env.SVC_KQL_CLUSTER_URI!,
      resourceId: sb.env.SVC_KQL_CLUSTER_NAME,
      location: sb.env.SVC_KQL_LOCATION,
    },
    { kind: 'search-service' as const, address: sb.env.SVC_SEARCH_SERVICE! },
    {
      kind: 'warehouse' as const,
      address: sb.env.SVC_WAREHOUSE_SERVER!,
      workspace: sb.env.SVC_WAREHOUSE_WORKSPACE,
      database: sb.env.SVC_WAREHOUSE_DEDICATED_POOL,
    },
    // The lake: its account name, which the tenancy keeps as the account's DFS host (tenancy/resources.ts lakeAddressOf).
    ...(sb.env.SVC_LAKE_ACCOUNT ? [{ kind: 'lake' as const, address: sb.env.SVC_LAKE_ACCOUNT, container: sb.env.SVC_LAKE_CONTAINER }] : []),
  ];
}

/** The key a target is kept under in the tenancy: the address's host; a lake's, its account's DFS host (commercial suffix). */
const targetKey = (t: { kind: string; address: string }) =>
  t.kind === 'lake' && !t.address.includes('.')
    ? `${t.address}.dfs.core.windows.net`
    : new URL(/^[a-z]+:\/\//.test(t.address) ? t.address : `https://${t.address}`).host;

/** Takes the sandbox's resources from whichever tenant holds them (test files share a PostgreSQL store). */
async function takeSandbox(h: TestApp, sb: Sandbox, what: { platformWorkspace: boolean }): Promise<void> {
  const drop = (kind: ResourceKind, resource: string) =>
    h.store.db.deleteFrom('tenant_resources').where('kind', '=', kind).where('resource', '=', resource.toLowerCase()).execute();
  if (what.platformWorkspace) await drop('platform-workspace', sb.ids.platformWorkspaceId);
  for (const t of sandboxTargets(sb)) await drop(t.kind, targetKey(t));
}

/**
 * Assigns the sandbox's platform workspace (unless told not to) and its shared-set targets (KQL cluster, search
 * service, warehouse, lake) to the tenant, as an operator would.
 */
export async function giveSandbox(h: TestApp, tenantId: string, sb: Sandbox, what = { platformWorkspace: true }): Promise<void> {
  await takeSandbox(h, sb, what);
  if (what.platformWorkspace) await h.services.tenancy.assignPlatformWorkspace(OPERATOR, tenantId, sb.ids.platformWorkspaceId);
  for (const target of sandboxTargets(sb)) await h.services.tenancy.assignTarget(OPERATOR, tenantId, target);
  await giveSandboxApplications(h, tenantId, sb);
}

/** The sandbox's service principals, each with the vault secret `<name>-secret`, as the tenant's to rotate. */
export async function giveSandboxApplications(h: TestApp, tenantId: string, sb: Sandbox): Promise<void> {
  for (const sp of sb.ids.servicePrincipals) {
    const secret = `${sp.name}-secret`;
    await h.store.db
      .deleteFrom('tenant_resources')
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'application'), eb('resource', '=', sp.appId.toLowerCase())]),
          eb.and([eb('kind', '=', 'vault-secret'), eb('resource', '=', secret)]),
        ]),
      )
      .execute();
    await h.services.tenancy.assignApplication(OPERATOR, tenantId, { clientId: sp.appId, vaultSecretName: secret });
  }
}

/**
 * The default tenant with a new admin token, as a start of the service leaves it: its SVC_* settings (the sandbox's
 * shared set) reserved for it, taken back from test tenants that held them.
 */
export async function defaultTenant(h: TestApp, sb: Sandbox): Promise<TestTenant> {
  const { userId } = await ensureTenant(h.store.db, DEFAULT_TENANT, 'Default tenant', { displayName: 'Administrator' });
  await takeSandbox(h, sb, { platformWorkspace: true });
  await h.services.tenancy.reserveDefaults();
  const admin = { tenantId: DEFAULT_TENANT, userId, userName: 'Administrator', method: 'token' as const, scopes: [...TENANT_SCOPES] };
  const mint = async (scopes: Scope[]) => {
    const { secret, token } = await h.services.tokens.issue(admin, { name: 'test', scopes });
    return { token: secret, auth: { authorization: `Bearer ${secret}` }, id: token.id };
  };
  const first = await mint([...TENANT_SCOPES]);
  return { tenantId: DEFAULT_TENANT, userId, token: first.token, auth: first.auth, token2: mint, user: userMaker(h, DEFAULT_TENANT) };
}
/** Creates a workspace and returns its id. */
export async function workspace(h: TestApp, tenant: TestTenant, name = `ws-${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const r = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: tenant.auth, payload: { name } });
  assert.equal(r.statusCode, 201, r.body);
  return r.json().workspace.id;
}

/** Starts an install (202): its job id and item count. */
export async function startInstall(h: TestApp, tenant: TestTenant, appId: string, body: Record<string, unknown>) {
  const start = await h.app.inject({ method: 'POST', url: `/api/apps/${appId}/install`, headers: tenant.auth, payload: body });
  assert.equal(start.statusCode, 202, start.body);
  return start.json() as { jobId: string; totalItems: number };
}

/** Starts an install and polls it to the end, checking phases stay in order and progress never goes down. */
export async function install(h: TestApp, tenant: TestTenant, appId: string, body: Record<string, unknown>, timeoutMs = 120_000) {
  const { jobId, totalItems } = await startInstall(h, tenant, appId, body);
  const job = await follow(h, tenant, jobId, timeoutMs);
  assert.equal(job.totalItems, totalItems);
  return job;
}

/** POSTs a step retry as the console's Retry does: 202 with the job running again, its report absent until the worker ends. */
export async function startRetry(h: TestApp, tenant: TestTenant, jobId: string, stepIndex: number) {
  const r = await h.app.inject({ method: 'POST', url: `/api/apps/install-jobs/${jobId}/steps/${stepIndex}/retry`, headers: tenant.auth });
  assert.equal(r.statusCode, 202, r.body);
  const job = r.json().job;
  assert.deepEqual(
    [job.status, job.phase, job.provision, job.finishedAt],
    ['running', 'provisioning', undefined, null],
    'the step is re-opened for the worker',
  );
  return job;
}

/** Retries a step and polls the job until the worker has run it. */
export async function retryStep(h: TestApp, tenant: TestTenant, jobId: string, stepIndex: number, timeoutMs = 120_000) {
  await startRetry(h, tenant, jobId, stepIndex);
  return follow(h, tenant, jobId, timeoutMs);
}

/** Polls a job to the end, checking phases stay in order, progress never goes down and the report waits for the end. */
export async function follow(h: TestApp, tenant: TestTenant, jobId: string, timeoutMs = 120_000) {
  const order = ['creating-items', 'provisioning', 'finalizing', 'done'];
  let lastPhase = 0;
  let lastPercent = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${jobId}`, headers: tenant.auth });
    assert.equal(r.statusCode, 200, r.body);
    const job = r.json().job;
    const phase = order.indexOf(job.phase);
    assert.ok(phase >= lastPhase, `phase went back from ${order[lastPhase]} to ${job.phase}`);
    assert.ok(job.percentComplete >= lastPercent, `percent went down from ${lastPercent} to ${job.percentComplete}`);
    lastPhase = phase;
    lastPercent = job.percentComplete;
    if (job.status !== 'running') {
      assert.equal(job.phase, 'done');
      assert.equal(job.percentComplete, 100);
      assert.ok(job.finishedAt, 'a finished job names when');
      return job;
    }
    assert.equal(job.provision, undefined, 'provision is absent while the job runs');
    if (Date.now() > deadline) throw new Error(`job ${jobId} still running after ${timeoutMs} ms: ${r.body}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The step of a report for an item type (and optionally a display name). */
export function stepOf(job: any, itemType: string, displayName?: string) {
  const s = job.provision.steps.find((x: any) => x.itemType === itemType && (!displayName || x.displayName === displayName));
  assert.ok(s, `no ${itemType} step in ${JSON.stringify(job.provision.steps.map((x: any) => x.itemType))}`);
  return s;
}
