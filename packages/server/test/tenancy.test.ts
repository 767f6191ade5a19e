// The tenant boundary in the backing services: a deployment operator assigns platform workspaces (and their reporting
// groups) and install targets to tenants, and every path that reaches a backing service with the service's identity
// resolves through the caller's tenant. Each reproduction of the security review is one subtest here; the sandbox's
// request log shows that nothing a refused call named was sent.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ensureTenant } from '../src/auth/token-service.js';
import { SCOPES } from '../src/auth/scopes.js';
import { TenancyService } from '../src/tenancy/tenancy-service.js';
import { loadConfig } from '../src/config.js';
import { NATIVE } from '../src/config/native.js';
import { buildWithSandbox, install, newPlatformWorkspace, workspace, type Sandbox } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';

type Auth = { authorization: string };

async function setup(t: TestContext) {
  const { h, sandbox, tenant: a } = await buildWithSandbox(t);
  const call = (method: string, url: string, auth: Auth, payload?: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: method as 'GET',
      url,
      headers: { ...auth, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  // The operator: the deployment's bootstrap token holds every scope, operator among them.
  const { userId } = await ensureTenant(h.store.db, 'default', 'Default tenant', { displayName: 'Administrator' });
  const minted = await h.services.tokens.issue(
    { tenantId: 'default', userId, userName: 'Administrator', method: 'token', scopes: [...SCOPES] },
    { name: 'operator', scopes: [...SCOPES] },
  );
  const operator = { authorization: `Bearer ${minted.secret}` };
  // Tenant B, made through the operator API, with its own platform workspace.
  const bId = `tb-${randomUUID().slice(0, 8)}`;
  assert.equal((await call('POST', '/api/operator/tenants', operator, { id: bId, name: 'Tenant B' })).statusCode, 201);
  const bAdmin = await call('POST', `/api/operator/tenants/${bId}/admin-tokens`, operator, {});
  assert.equal(bAdmin.statusCode, 201, bAdmin.body);
  const b = { authorization: `Bearer ${bAdmin.json().secret}` };
  const bUser = {
    authorization: `Bearer ${(await call('POST', '/api/tokens', b, { name: 'b-user', scopes: ['read', 'write', 'install', 'reports', 'tokens'] })).json().secret}`,
  };
  const aPws = sandbox.ids.platformWorkspaceId;
  const bPws = await newPlatformWorkspace(h, sandbox, `Tenant B platform ${bId}`);
  return { h, sandbox, a, b, bUser, bId, operator, call, aPws, bPws };
}

/** Requests the sandbox received since `since` that name a given id anywhere in their path. */
/** The request log's last sequence number: `requests({ since })` takes a sequence number (or an ISO time), not Date.now(). */
const lastSeq = async (sandbox: Sandbox) => (await sandbox.admin.requests()).at(-1)?.seq ?? 0;

async function sentTo(sandbox: Sandbox, since: number, id: string) {
  return (await sandbox.admin.requests({ since })).filter((r) => r.path.toLowerCase().includes(id.toLowerCase()));
}

test('two tenants: platform workspaces, reports, bindings, installs and identity operations stay with their tenant', async (t) => {
  const s = await setup(t);
  const { h, sandbox, a, b, bUser, bId, operator, call, aPws, bPws } = s;
  const aWs = await workspace(h, a as TestTenant);
  const bWs = (await call('POST', '/api/workspaces', b, { name: 'B analytics' })).json().workspace.id as string;
  const aReports = (await call('GET', `/api/items/paginated-report?workspaceId=${aWs}`, a.auth)).json().reports as Array<{
    id: string;
    name: string;
  }>;
  assert.ok(aReports.length > 0, 'the sandbox seeds reports in A’s platform workspace');

  await t.test('only the operator manages tenants; a tenant admin is refused', async () => {
    for (const auth of [a.auth, b]) {
      const r = await call('GET', '/api/operator/tenants', auth);
      assert.equal(r.statusCode, 403, r.body);
      assert.equal(r.json().error.code, 'missing_scope');
    }
    const minting = await call('POST', '/api/tokens', b, { name: 'escalate', scopes: ['operator'] });
    assert.equal(minting.statusCode, 403, 'a tenant admin cannot mint the operator scope');
    // Every page: on a shared PostgreSQL database the suite's earlier tests leave hundreds of tenants before B.
    const seen: string[] = [];
    for (let cursor: string | undefined, pages = 0; pages === 0 || cursor; pages++) {
      const page = (
        await call('GET', `/api/operator/tenants?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, operator)
      ).json();
      seen.push(...(page.tenants as Array<{ id: string }>).map((x) => x.id));
      cursor = page.nextCursor;
      assert.ok(pages < 1000, 'the cursor ends');
    }
    assert.ok(seen.includes(bId));
  });

  await t.test('a tenant without a platform workspace gets the gate, never the default one or another tenant’s', async () => {
    const since = await lastSeq(sandbox);
    const r = await call('GET', `/api/items/paginated-report?workspaceId=${bWs}`, b);
    assert.equal(r.statusCode, 424, r.body);
    assert.equal(r.json().error.gate.reason, 'no bound platform workspace');
    assert.deepEqual(await sentTo(sandbox, since, aPws), []);
  });

  await t.test('binding another tenant’s platform workspace is 404; the operator assigns it one of its own', async () => {
    const since = await lastSeq(sandbox);
    const steal = await call('PATCH', `/api/workspaces/${bWs}`, b, { platformWorkspaceId: aPws });
    assert.equal(steal.statusCode, 404, steal.body);
    assert.equal((await call('GET', `/api/workspaces/${bWs}`, b)).json().workspace.platformWorkspaceId, null, 'nothing changed');
    const unknown = await call('PATCH', `/api/workspaces/${bWs}`, b, { platformWorkspaceId: randomUUID() });
    assert.equal(unknown.statusCode, 404);
    assert.equal((await call('PATCH', `/api/workspaces/${bWs}`, b, { platformWorkspaceId: '../../evil' })).statusCode, 400);
    // A's platform workspace cannot be assigned to B while A holds it.
    const taken = await call('POST', `/api/operator/tenants/${bId}/platform-workspaces`, operator, { platformWorkspaceId: aPws });
    assert.equal(taken.statusCode, 409, taken.body);
    assert.equal(taken.json().error.code, 'resource_assigned');
    const assigned = await call('POST', `/api/operator/tenants/${bId}/platform-workspaces`, operator, { platformWorkspaceId: bPws });
    assert.equal(assigned.statusCode, 201, assigned.body);
    assert.equal(assigned.json().assignment.isDefault, true);
    assert.equal(
      (await call('POST', `/api/operator/tenants/${bId}/platform-workspaces`, operator, { platformWorkspaceId: bPws.toUpperCase() }))
        .statusCode,
      200,
      'assigning again is a no-op',
    );
    const bound = await call('PATCH', `/api/workspaces/${bWs}`, b, { platformWorkspaceId: bPws });
    assert.equal(bound.statusCode, 200, bound.body);
    assert.deepEqual(await sentTo(sandbox, since, aPws), []);
  });

  await t.test('B lists, reads and deletes only its own group’s reports: A’s report ids are 404', async () => {
    const since = await lastSeq(sandbox);
    const list = await call('GET', `/api/items/paginated-report?workspaceId=${bWs}`, b);
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(list.json().reports, [], 'B’s new group has no report yet');
    for (const r of aReports.slice(0, 2)) {
      assert.equal((await call('GET', `/api/items/paginated-report/${r.id}?workspaceId=${bWs}`, b)).statusCode, 404);
      assert.equal((await call('GET', `/api/items/paginated-report/${r.id}/definition?workspaceId=${bWs}`, b)).statusCode, 404);
      assert.equal((await call('DELETE', `/api/items/paginated-report/${r.id}?workspaceId=${bWs}`, b)).statusCode, 404);
      assert.equal(
        (await call('POST', `/api/items/paginated-report/${r.id}/exports?workspaceId=${bWs}`, b, { format: 'PDF' })).statusCode,
        404,
      );
    }
    // Aimed at A's service workspace, B's calls are 404 before anything is sent.
    assert.equal((await call('GET', `/api/items/paginated-report?workspaceId=${aWs}`, b)).statusCode, 404);
    const after = (await call('GET', `/api/items/paginated-report?workspaceId=${aWs}`, a.auth)).json().reports;
    assert.deepEqual(
      after.map((r: { id: string }) => r.id),
      aReports.map((r) => r.id),
      'A’s reports are all still there',
    );
    assert.deepEqual(
      (await sentTo(sandbox, since, aPws)).filter((r) => r.method !== 'GET' || r.identity === undefined),
      [],
      'nothing was sent to A’s group by B',
    );
  });

  await t.test('dedicated installs: admin only, targetOverrides required, every target the tenant’s, identifiers validated', async () => {
    const since = await lastSeq(sandbox);
    const appId = (await call('GET', '/api/apps', b)).json().apps[0].id;
    const start = (auth: Auth, body: Record<string, unknown>) =>
      call('POST', `/api/apps/${appId}/install`, auth, { workspaceId: bWs, ...body });
    const nonAdmin = await start(bUser, { mode: 'dedicated', targetOverrides: { platformWorkspaceId: bPws } });
    assert.equal(nonAdmin.statusCode, 403, nonAdmin.body);
    assert.equal(nonAdmin.json().error.code, 'missing_scope');
    const stolen = await start(b, { mode: 'dedicated', targetOverrides: { platformWorkspaceId: aPws } });
    assert.equal(stolen.statusCode, 404, stolen.body);
    for (const evil of ['../../evil', `${bPws}/roleAssignments#`, `${bPws}/../${aPws}`, '%2e%2e']) {
      const r = await start(b, { mode: 'dedicated', targetOverrides: { platformWorkspaceId: evil } });
      assert.equal(r.statusCode, 400, `${evil}: ${r.body}`);
      assert.match(r.json().error.message, /platformWorkspaceId/);
    }
    const noOverrides = await start(b, { mode: 'dedicated' });
    assert.equal(noOverrides.statusCode, 400, noOverrides.body);
    assert.equal(noOverrides.json().error.field, 'targetOverrides');
    assert.equal((await start(b, { mode: 'dedicated', targetOverrides: {} })).statusCode, 400);
    // A's KQL cluster and search service (the sandbox's shared set is A's here) are not B's targets.
    const kql = await start(b, {
      mode: 'dedicated',
      targetOverrides: { platformWorkspaceId: bPws, kqlClusterUri: sandbox.env.SVC_KQL_CLUSTER_URI },
    });
    assert.equal(kql.statusCode, 404, kql.body);
    assert.match(kql.json().error.message, /KQL cluster/);
    const search = await start(b, {
      mode: 'dedicated',
      targetOverrides: { platformWorkspaceId: bPws, searchService: sandbox.env.SVC_SEARCH_SERVICE },
    });
    assert.equal(search.statusCode, 404, search.body);
    const path = await start(b, {
      mode: 'dedicated',
      targetOverrides: { platformWorkspaceId: bPws, kqlClusterUri: `${sandbox.env.SVC_KQL_CLUSTER_URI}/v1/rest/mgmt` },
    });
    assert.equal(path.statusCode, 400, path.body);
    assert.equal(path.json().error.field, 'targetOverrides.kqlClusterUri');
    assert.equal(
      (await call('GET', `/api/apps/install-jobs?workspaceId=${bWs}`, b)).json().jobs.length,
      0,
      'no refused install left a job',
    );
    assert.deepEqual(
      (await sandbox.admin.requests({ since })).filter((r) => r.service !== 'identity'),
      [],
      'a refused install sends nothing',
    );
  });

  await t.test('a shared install of B provisions only into B’s platform workspace; targets it lacks are gates', async () => {
    const since = await lastSeq(sandbox);
    const job = await install(h, { auth: b } as TestTenant, 'app-casino-analytics', { workspaceId: bWs });
    const steps = job.provision.steps as Array<{
      itemType: string;
      result: { status: string; gate?: { reason: string }; secondaryIds?: Record<string, string> };
    }>;
    for (const step of steps) {
      assert.ok(['created', 'exists', 'remediation'].includes(step.result.status), `${step.itemType}: ${JSON.stringify(step.result)}`);
      if (step.result.secondaryIds?.platformWorkspaceId) assert.equal(step.result.secondaryIds.platformWorkspaceId, bPws);
    }
    const kqlSteps = steps.filter((x) => x.itemType === 'kql-database');
    assert.ok(
      kqlSteps.length > 0 && kqlSteps.every((x) => x.result.gate?.reason === 'KQL cluster not configured'),
      'B has no KQL cluster: the gate, not A’s cluster',
    );
    assert.equal(job.provision.target.platformWorkspaceId, bPws);
    // The log since holds B's install (the checks below look at something), and none of it names A's platform workspace.
    assert.ok((await sentTo(sandbox, since, bPws)).length > 0, 'B’s install reached B’s platform workspace');
    assert.deepEqual(await sentTo(sandbox, since, aPws), [], 'nothing of B’s install went to A’s platform workspace');
    const kqlCalls = (await sandbox.admin.requests({ since })).filter((r) => r.service === 'kql' || r.service === 'search');
    assert.deepEqual(kqlCalls, [], 'nor to A’s KQL cluster or search service');
  });

  await t.test('identity operations on another tenant’s platform workspace are 404 and send nothing; signals are per tenant', async () => {
    const since = await lastSeq(sandbox);
    const guest = sandbox.ids.users.find((u) => u.kind === 'guest')!;
    const base = `/api/admin/identity/workspaces/${aPws}`;
    const refused = [
      await call('POST', `${base}/role-assignments`, b, { principalId: guest.objectId, role: 'Admin', principalType: 'User' }),
      await call('GET', `${base}/role-assignments`, b),
      await call('POST', `${base}/firewall-rules`, b, { name: 'b-rule', startIpAddress: '10.0.0.1', endIpAddress: '10.0.0.2' }),
      await call('GET', `${base}/firewall-rules`, b),
      await call('GET', `${base}/firewall-check?ip=10.0.0.1`, b),
      await call('DELETE', `${base}/firewall-rules/rule-1`, b),
      await call('POST', '/api/admin/identity/probes', b, { identity: { kind: 'service' }, workspaceId: aPws }),
    ];
    for (const r of refused) assert.equal(r.statusCode, 404, r.body);
    assert.deepEqual(await sentTo(sandbox, since, aPws), [], 'no identity operation reached A’s platform workspace');
    // B's own platform workspace works.
    assert.equal((await call('GET', `/api/admin/identity/workspaces/${bPws}/role-assignments`, b)).statusCode, 200);
    // A refusal in A's work is A's signal: B does not see it, the operator does.
    await sandbox.admin.setSwitch('reporting.servicePrincipalsEnabled', false);
    assert.equal((await call('GET', `/api/items/paginated-report?workspaceId=${aWs}`, a.auth)).statusCode, 424);
    await sandbox.admin.setSwitch('reporting.servicePrincipalsEnabled', true);
    const signalsOf = async (auth: Auth) =>
      (await call('GET', `/api/admin/identity/signals?since=${new Date(since).toISOString()}`, auth)).json().signals as Array<{
        service: string;
      }>;
    assert.ok(
      (await signalsOf(a.auth)).some((x) => x.service === 'reporting'),
      'A sees its signal',
    );
    assert.deepEqual(await signalsOf(b), [], 'B sees none of A’s');
    assert.ok(
      (await signalsOf(operator)).some((x) => x.service === 'reporting'),
      'the operator sees every tenant’s',
    );
  });

  await t.test('secrets: B registers and rotates only app registrations and vault secrets assigned to it', async () => {
    const since = await lastSeq(sandbox);
    const ci = sandbox.ids.servicePrincipals.find((x) => x.name === 'ci-deployer')!;
    const register = (auth: Auth, clientId: string, vaultSecretName: string) =>
      call('POST', '/api/admin/identity/credentials', auth, {
        displayName: 'ci',
        clientId,
        keyId: 'k1',
        expiresAt: ci.secretExpiresAt,
        vaultSecretName,
      });
    // A's app registration (assigned to A), and A's vault secret named on an app of B's: 404, nothing sent.
    assert.equal((await register(b, ci.appId, 'ci-deployer-secret')).statusCode, 404);
    const other = sandbox.ids.servicePrincipals.find((x) => x.name === 'legacy-etl')!;
    await h.store.db
      .deleteFrom('tenant_resources')
      .where('kind', '=', 'application')
      .where('resource', '=', other.appId.toLowerCase())
      .execute();
    const stolenSecret = await call('POST', `/api/operator/tenants/${bId}/applications`, operator, {
      clientId: other.appId,
      vaultSecretName: 'ci-deployer-secret',
    });
    assert.equal(stolenSecret.statusCode, 409, stolenSecret.body);
    assert.equal(
      (
        await call('POST', `/api/operator/tenants/${bId}/applications`, operator, {
          clientId: other.appId,
          vaultSecretName: `${bId}-etl-secret`,
        })
      ).statusCode,
      201,
    );
    assert.equal((await register(b, other.appId, 'ci-deployer-secret')).statusCode, 404, 'a vault secret of A’s');
    const own = await register(b, other.appId, `${bId}-etl-secret`);
    assert.equal(own.statusCode, 201, own.body);
    // A rotation that names A's vault secret instead of the registered one is refused before the identity provider is called.
    const rotation = await call('POST', `/api/admin/identity/credentials/${own.json().credential.id}/rotations`, b, {
      vaultSecretName: 'ci-deployer-secret',
    });
    assert.equal(rotation.statusCode, 404, rotation.body);
    assert.deepEqual(
      (await sandbox.admin.requests({ since })).filter((r) => /addPassword|removePassword|\/secrets\//.test(r.path)),
      [],
      'no application or vault call',
    );
    assert.deepEqual(
      (await call('GET', `/api/operator/tenants/${bId}/applications`, operator))
        .json()
        .applications.map((x: { resource: string; settings: { vaultSecretName?: string } }) => [x.resource, x.settings.vaultSecretName]),
      [[other.appId.toLowerCase(), `${bId}-etl-secret`]],
    );
  });

  await t.test('unassigning a platform workspace unbinds it; B is back to the gate', async () => {
    const r = await call('DELETE', `/api/operator/tenants/${bId}/platform-workspaces/${bPws}`, operator);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().unboundWorkspaces, 1);
    assert.equal((await call('GET', `/api/workspaces/${bWs}`, b)).json().workspace.platformWorkspaceId, null);
    assert.equal((await call('GET', `/api/items/paginated-report?workspaceId=${bWs}`, b)).statusCode, 424);
    assert.equal((await call('DELETE', `/api/operator/tenants/${bId}/platform-workspaces/${bPws}`, operator)).statusCode, 404);
  });
});

test('the SVC_* shared set is the default tenant’s: reserved at start, its default platform workspace and targets', async (t) => {
  const { h, sandbox } = await buildWithSandbox(t);
  // Give the sandbox's resources back to the default tenant as a fresh start would (they are a test tenant's here).
  for (const kind of ['platform-workspace', 'kql-cluster', 'search-service', 'warehouse'] as const) {
    await h.store.db.deleteFrom('tenant_resources').where('kind', '=', kind).where('tenant_id', '<>', 'default').execute();
  }
  await ensureTenant(h.store.db, 'default', 'Default tenant', { displayName: 'Administrator' });
  await h.services.tenancy.reserveDefaults();
  const set = await h.services.tenancy.sharedSet('default');
  assert.equal(set.platformWorkspaceId, sandbox.ids.platformWorkspaceId);
  assert.equal(set.kqlClusterUri, sandbox.env.SVC_KQL_CLUSTER_URI);
  assert.equal(set.warehouseWorkspace, sandbox.env.SVC_WAREHOUSE_WORKSPACE);
  const other = await h.tenant();
  // The deployment's Azure-native services (config/native.ts) are every tenant's: each names its resources there under
  // its own prefix (provisioning/native-scope.ts).
  const native = new Set(Object.keys(NATIVE));
  assert.deepEqual(
    Object.entries(await h.services.tenancy.sharedSet(other.tenantId))
      .filter(([k, v]) => v !== undefined && !native.has(k))
      .map(([, v]) => v),
    [],
    'another tenant has nothing of it',
  );
  const pws = await h.services.tenancy.assignments('default', ['platform-workspace']);
  assert.ok(
    pws.some((p) => p.resource === sandbox.ids.platformWorkspaceId.toLowerCase() && p.isDefault && p.assignedBy === 'SVC_* settings'),
  );
  // A later start with another KQL cluster releases the one the settings reserved before, and reserves the new one.
  const restarted = TenancyService.create({
    db: h.store.db,
    profile: h.services.profile,
    sharedSet: loadConfig({ ...sandbox.env, SVC_KQL_CLUSTER_URI: 'http://127.0.0.1:9' }).sharedSet,
    tokens: h.services.tokens,
  });
  await restarted.reserveDefaults();
  const kql = (await restarted.assignments('default', ['kql-cluster']))
    .filter((x) => x.assignedBy === 'SVC_* settings')
    .map((x) => x.resource);
  assert.ok(kql.includes('127.0.0.1:9') && !kql.includes(new URL(sandbox.env.SVC_KQL_CLUSTER_URI!).host), kql.join());
  assert.equal((await restarted.sharedSet('default')).kqlClusterUri, 'http://127.0.0.1:9');
});
