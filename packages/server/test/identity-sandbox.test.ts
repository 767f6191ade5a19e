// Identity operations against the sandbox: diagnosis of each identity-provider and HTTP symptom, token claims,
// probes before and after a fix, firewall and role rollbacks, expiry alerts, rotation, severity, incident closing.
import { randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '@svc/sandbox';
import { buildWithSandbox, OPERATOR, type Sandbox } from './install-helpers.js';
import { tenantContext } from '../src/tenancy/tenant-context.js';

const DAY = 86_400_000;

/** The app on a sandbox that also serves the application-credential API and the secret vault. */
async function setup(t: TestContext) {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  const { h, tenant } = await buildWithSandbox(t, {}, sb);
  const call = (method: string, url: string, payload?: unknown) =>
    h.app.inject({ method: method as 'GET', url, headers: tenant.auth, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const ci = sb.ids.servicePrincipals.find((s) => s.name === 'ci-deployer')!;
  const ws = sb.ids.platformWorkspaceId;
  return { sb, h, tenant, call, ci, ws };
}

const probeAs = (ci: { appId: string; secret: string }, ws: string, extra: Record<string, unknown> = {}) => ({
  identity: { kind: 'client-credentials', clientId: ci.appId, clientSecret: ci.secret },
  workspaceId: ws,
  ...extra,
});

/** The service identity's role on the platform workspace, as the sandbox holds it. */
async function roleOfService(sb: Sandbox): Promise<string | undefined> {
  const ws = (await sb.admin.state()).dataPlatform.workspaces.find((w: { id: string }) => w.id === sb.ids.platformWorkspaceId)!;
  return ws.roleAssignments.find((r: { principal: { id: string } }) => r.principal.id === sb.ids.serviceIdentity.objectId)?.role;
}

test('each AADSTS code and HTTP symptom from the sandbox diagnoses to SPEC.md’s cause', async (t) => {
  const { sb, call, ci, ws } = await setup(t);
  await sb.admin.grant({ service: 'dataPlatform', role: 'Contributor', principal: ci.appId });
  const expected: Record<string, string> = {
    AADSTS50076: 'AADSTS50076',
    AADSTS700016: 'AADSTS700016',
    AADSTS7000215: 'AADSTS700016',
    AADSTS50105: 'AADSTS50105',
    AADSTS53003: 'AADSTS53003',
    AADSTS500011: 'AADSTS500011',
  };
  const symptomOf = async (probe: unknown, check: string) => {
    const r = await call('POST', '/api/admin/identity/probes', probe);
    assert.equal(r.statusCode, 200, r.body);
    const failed = r.json().results.find((x: { check: string }) => x.check === check);
    assert.equal(failed.ok, false, r.body);
    const link = /\((\/api\/admin\/identity\/diagnose\?[^)]+)\)/.exec(failed.diagnosis)![1]!;
    const d = await call('GET', link);
    assert.equal(d.statusCode, 200, d.body);
    return { code: failed.code, symptom: d.json().diagnosis.symptom.id, diagnosis: d.json().diagnosis };
  };
  for (const [code, symptom] of Object.entries(expected)) {
    await sb.admin.setSwitch('identity.failure', { code, principal: ci.appId });
    const got = await symptomOf(probeAs(ci, ws), 'token');
    assert.equal(got.code, code);
    assert.equal(got.symptom, symptom, code);
  }
  await sb.admin.setSwitch('identity.failure', null);
  // The natural failures too: an unknown client id, a wrong secret.
  assert.equal(
    (await symptomOf(probeAs({ appId: '00000000-0000-4000-8000-000000000001', secret: 'x' }, ws), 'token')).code,
    'AADSTS700016',
  );
  assert.equal((await symptomOf(probeAs({ ...ci, secret: 'wrong' }, ws), 'token')).code, 'AADSTS7000215');
  // HTTP 401 (expired token) and 403 (no role) from the data platform.
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', -60);
  const expired = await symptomOf(probeAs(ci, ws), 'workspace-read');
  assert.deepEqual([expired.code, expired.symptom], ['TokenExpired', 'http-401']);
  // The link names no call: the grant lists the role each call needs, the workspace read's among them.
  assert.match(expired.diagnosis.requiredGrant, /Viewer for reading the workspace.*Contributor for creating and updating items/);
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', 3599);
  await sb.admin.revoke({ service: 'dataPlatform', role: 'Contributor', principal: ci.appId });
  assert.equal((await symptomOf(probeAs(ci, ws), 'workspace-read')).symptom, 'http-403-authorization-failed');
  // expired_token from the token endpoint and "client IP not allowed" from the platform.
  await sb.admin.addFault({
    service: 'identity',
    method: 'POST',
    path: '/oauth2/v2.0/token',
    status: 400,
    count: 1,
    body: JSON.stringify({ error: 'expired_token', error_description: 'The refresh token has expired.' }),
  });
  assert.equal((await symptomOf(probeAs(ci, ws), 'token')).symptom, 'expired_token');
  await sb.admin.addFault({
    service: 'dataPlatform',
    method: 'GET',
    path: `/v1/workspaces/${ws}$`,
    status: 403,
    errorCode: 'ClientIpNotAllowed',
    message: 'Client IP not allowed: 198.51.100.7 is outside the workspace firewall',
    count: 1,
  });
  assert.equal((await symptomOf(probeAs(ci, ws), 'workspace-read')).symptom, 'client-ip-not-allowed');
  // Every refusal became a signal: principal, service, code, time; never a secret.
  const signals = (await call('GET', `/api/admin/identity/signals?principal=${ci.appId}`)).json().signals;
  assert.ok(signals.length >= 10, `${signals.length} signals`);
  assert.ok(signals.some((s: { code?: string }) => s.code === 'AADSTS53003'));
  assert.ok(!JSON.stringify(signals).includes(ci.secret));
});

test('the service’s own 401/403 is recorded by the pipeline hook', async (t) => {
  const { sb, call, ws } = await setup(t);
  await sb.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  const r = await call('POST', '/api/admin/identity/probes', { identity: { kind: 'service' }, workspaceId: ws });
  assert.equal(r.json().passed, false);
  const signals = (await call('GET', '/api/admin/identity/signals')).json().signals;
  assert.ok(
    signals.some(
      (s: { service: string; status: number; principal: string }) =>
        s.service === 'data-platform' && s.status === 403 && s.principal.startsWith('managed'),
    ),
    JSON.stringify(signals),
  );
});

test('POST /api/admin/identity/diagnose knows each name the API reports for a backing service and answers its grant', async (t) => {
  const { call } = await setup(t);
  // The names of BackingService (signals, install step links), the catalog's `backing`, and the sandbox's spelling.
  const names: Record<string, RegExp> = {
    'data-platform': /Admin for reading and changing the workspace firewall rules/,
    dataPlatform: /Admin for reading and changing the workspace firewall rules/,
    arm: /Contributor on the cluster/,
    kql: /AllDatabasesAdmin/,
    search: /Search Service Contributor/,
    sql: /db_owner/,
    warehouse: /db_owner/,
    reporting: /reporting APIs/,
    storage: /OneLake/,
    oneLake: /OneLake/,
    identity: /valid credential/,
  };
  for (const [service, grant] of Object.entries(names)) {
    const r = await call('POST', '/api/admin/identity/diagnose', { status: 403, service });
    assert.equal(r.statusCode, 200, `${service}: ${r.body}`);
    assert.match(r.json().diagnosis.requiredGrant ?? '(none)', grant, service);
    const q = await call('GET', `/api/admin/identity/diagnose?status=401&service=${encodeURIComponent(service)}`);
    assert.match(q.json().diagnosis.requiredGrant ?? '(none)', grant, `GET ${service}`);
  }
  const unknown = await call('POST', '/api/admin/identity/diagnose', { status: 403, service: 'lakehouse' });
  assert.equal(unknown.statusCode, 400, unknown.body);
  assert.deepEqual([unknown.json().error.code, unknown.json().error.field], ['invalid_request', 'service']);
  assert.match(unknown.json().error.message, /dataPlatform/);
});

test('a probe as the service identity names the role each check needs, and carries the gate of its own 403', async (t) => {
  const { sb, call, ci, ws } = await setup(t);
  await sb.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  assert.equal(await roleOfService(sb), undefined);
  const r = (await call('POST', '/api/admin/identity/probes', { identity: { kind: 'service' }, workspaceId: ws })).json();
  const read = r.results.find((x: { check: string }) => x.check === 'workspace-read');
  assert.deepEqual([read.ok, read.status, read.code], [false, 403, 'InsufficientPrivileges']);
  assert.match(read.diagnosis, /required: the identity holds Viewer or higher on the workspace \(reading the workspace needs it\)/);
  assert.match(read.gate.reason, /not Viewer on the workspace/);
  assert.match(read.gate.remediation, new RegExp(`grant the service identity Viewer on the platform workspace ${ws}`));
  // Another identity's probe: the same role named, no gate (the gate is the service identity's own).
  const other = (await call('POST', '/api/admin/identity/probes', probeAs(ci, ws)))
    .json()
    .results.find((x: { check: string }) => x.check === 'workspace-read');
  assert.match(other.diagnosis, /required: the identity holds Viewer or higher/);
  assert.equal(other.gate, undefined);
});

test('token inspection: a good token passes, a bad one names each wrong claim with the expected value', async (t) => {
  const { sb, call, ci } = await setup(t);
  const expect = {
    expectedAppId: ci.appId,
    expectedObjectId: ci.objectId,
    expectedTenantId: sb.ids.tenantId,
    expectedRoles: ['Tenant.Read.All'],
  };
  const good = await sb.admin.token({ principal: ci.appId, audience: 'dataPlatform' });
  const r = await call('POST', '/api/admin/identity/inspect-token', { token: good, ...expect });
  assert.equal(r.statusCode, 200, r.body);
  assert.equal(r.json().valid, true, r.body);
  await sb.admin.setSwitch('identity.tokenLifetimeSeconds', -30);
  const other = sb.ids.servicePrincipals.find((s) => s.name === 'legacy-etl')!;
  const bad = await sb.admin.token({ principal: other.appId, audience: 'arm' });
  const b = (await call('POST', '/api/admin/identity/inspect-token', { token: bad, ...expect })).json();
  assert.equal(b.valid, false);
  const by = Object.fromEntries(b.checks.map((c: { claim: string }) => [c.claim, c]));
  assert.equal(by.aud.status, 'wrong');
  assert.deepEqual(by.aud.expected, ['https://analysis.windows.net/powerbi/api']);
  assert.deepEqual([by.appid.status, by.appid.expected], ['wrong', ci.appId]);
  assert.deepEqual([by.oid.status, by.oid.expected], ['wrong', ci.objectId]);
  assert.equal(by.tid.status, 'ok');
  assert.equal(by.roles.status, 'wrong');
  assert.equal(by.exp.status, 'wrong');
  assert.equal((await call('POST', '/api/admin/identity/inspect-token', { token: 'a.b.c' })).statusCode, 400);
});

test('a probe fails, passes after a role grant, and fails again once the grant is rolled back', async (t) => {
  const { sb, call, ci, ws } = await setup(t);
  const first = (await call('POST', '/api/admin/identity/probes', probeAs(ci, ws))).json();
  assert.equal(first.passed, false);
  assert.deepEqual(
    first.results.map((r: { check: string; ok: boolean }) => [r.check, r.ok]),
    [
      ['token', true],
      ['workspace-read', false],
    ],
  );
  assert.equal(first.results[1].status, 403);
  assert.ok(first.results.every((r: { at: string; ms: number }) => Date.parse(r.at) > 0 && r.ms >= 0));
  const before = (await sb.admin.state()).dataPlatform;
  const g = await call('POST', `/api/admin/identity/workspaces/${ws}/role-assignments`, { principalId: ci.objectId, role: 'Contributor' });
  assert.equal(g.statusCode, 201, g.body);
  const { change } = g.json();
  assert.deepEqual(change.inverse, { kind: 'delete-role-assignment', workspaceId: ws, assignmentId: ci.objectId });
  const second = (await call('POST', '/api/admin/identity/probes', probeAs(ci, ws))).json();
  assert.equal(second.passed, true, JSON.stringify(second));
  const rb = await call('POST', `/api/admin/identity/changes/${change.id}/rollback`);
  assert.equal(rb.statusCode, 200, rb.body);
  assert.equal(rb.json().change.state, 'rolled-back');
  assert.deepEqual((await sb.admin.state()).dataPlatform, before, 'the sandbox is back as before the grant');
  assert.equal((await call('POST', `/api/admin/identity/changes/${change.id}/rollback`)).statusCode, 409);
  assert.equal((await call('POST', '/api/admin/identity/probes', probeAs(ci, ws))).json().passed, false);
});

test('add a firewall rule, check an egress address, roll it back: the sandbox is as before', async (t) => {
  const { sb, call, ws } = await setup(t);
  const rulesOf = async () => (await sb.admin.state()).dataPlatform.workspaces.find((w: { id: string }) => w.id === ws)!.firewallRules;
  const before = structuredClone(await rulesOf());
  assert.equal((await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-check?ip=203.0.113.10`)).json().allowed, false);
  const add = await call('POST', `/api/admin/identity/workspaces/${ws}/firewall-rules`, {
    name: 'ci-egress',
    startIpAddress: '203.0.113.0',
    endIpAddress: '203.0.113.255',
  });
  assert.equal(add.statusCode, 201, add.body);
  assert.equal((await rulesOf()).length, before.length + 1);
  const check = (await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-check?ip=203.0.113.10`)).json();
  assert.deepEqual([check.allowed, check.allowingRules[0].name], [true, 'ci-egress']);
  assert.equal((await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`)).json().rules.length, before.length + 1);
  const rb = await call('POST', `/api/admin/identity/changes/${add.json().change.id}/rollback`);
  assert.equal(rb.statusCode, 200, rb.body);
  assert.deepEqual(await rulesOf(), before);
  const journal = (await call('GET', '/api/admin/identity/changes')).json().changes;
  assert.equal(journal[0].state, 'rolled-back');
});

test('with the sandbox’s default grants (npm start) the service identity is workspace Admin: firewall rules list and add work', async (t) => {
  const { sb, call, ws } = await setup(t);
  assert.equal(await roleOfService(sb), 'Admin', 'the grant the README documents for identity operations');
  const listed = await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`);
  assert.equal(listed.statusCode, 200, listed.body);
  const added = await call('POST', `/api/admin/identity/workspaces/${ws}/firewall-rules`, {
    name: 'office',
    startIpAddress: '198.51.100.1',
    endIpAddress: '198.51.100.9',
  });
  assert.equal(added.statusCode, 201, added.body);
  assert.deepEqual(
    (await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`)).json().rules.map((r: { name: string }) => r.name),
    [...listed.json().rules.map((r: { name: string }) => r.name), 'office'],
  );
  assert.equal((await call('GET', `/api/admin/identity/workspaces/${ws}/role-assignments`)).statusCode, 200);
});

test('a service-identity 401/403 on an identity operation is a 424 gate naming the role or tenant setting; other refusals keep the backing text', async (t) => {
  const { sb, call, ci, ws, h, tenant } = await setup(t);
  const gated = (r: { statusCode: number; body: string; json(): any }, reason: RegExp, remediation: RegExp, backingCode: string) => {
    assert.equal(r.statusCode, 424, r.body);
    const { error } = r.json();
    assert.equal(error.code, 'deployment_gate');
    assert.match(error.gate.reason, reason);
    assert.match(error.gate.remediation, remediation);
    assert.equal(error.hint, error.gate.remediation);
    // The message is the data platform's own answer, unmodified.
    assert.equal(JSON.parse(error.message).errorCode, backingCode, error.message);
  };
  // Reduced to what provisioning needs: firewall rules (Admin) are refused, role assignments can still be read (Viewer).
  await sb.admin.grant({ service: 'dataPlatform', role: 'Contributor' });
  const notAdmin = /not Admin on the workspace/;
  const grantAdmin = new RegExp(
    `grant the service identity Admin on the platform workspace ${ws}: reading and changing the workspace firewall rules needs Admin`,
  );
  gated(await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`), notAdmin, grantAdmin, 'InsufficientWorkspaceRole');
  gated(
    await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-check?ip=203.0.113.10`),
    notAdmin,
    grantAdmin,
    'InsufficientWorkspaceRole',
  );
  gated(
    await call('POST', `/api/admin/identity/workspaces/${ws}/firewall-rules`, {
      name: 'ci-egress',
      startIpAddress: '203.0.113.0',
      endIpAddress: '203.0.113.255',
    }),
    notAdmin,
    grantAdmin,
    'InsufficientWorkspaceRole',
  );
  assert.deepEqual((await call('GET', '/api/admin/identity/changes')).json().changes, [], 'a refused fix is not journaled');
  assert.equal(
    (await call('GET', `/api/admin/identity/workspaces/${ws}/role-assignments`)).statusCode,
    200,
    'a Contributor lists role assignments',
  );
  gated(
    await call('POST', `/api/admin/identity/workspaces/${ws}/role-assignments`, { principalId: ci.objectId, role: 'Contributor' }),
    /not Member on the workspace/,
    /Member on the platform workspace .*granting a workspace role/,
    'InsufficientWorkspaceRole',
  );
  await sb.admin.grant({ service: 'dataPlatform', role: 'Member' });
  gated(
    await call('POST', `/api/admin/identity/workspaces/${ws}/role-assignments`, { principalId: ci.objectId, role: 'Admin' }),
    notAdmin,
    /grant the service identity Admin/,
    'InsufficientWorkspaceRole',
  );

  // A rollback the service identity may no longer perform: the gate, and the change stays applied.
  await sb.admin.grant({ service: 'dataPlatform', role: 'Admin' });
  const added = await call('POST', `/api/admin/identity/workspaces/${ws}/firewall-rules`, {
    name: 'office',
    startIpAddress: '198.51.100.1',
    endIpAddress: '198.51.100.9',
  });
  assert.equal(added.statusCode, 201, added.body);
  await sb.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  gated(
    await call('POST', `/api/admin/identity/changes/${added.json().change.id}/rollback`),
    notAdmin,
    grantAdmin,
    'InsufficientPrivileges',
  );
  assert.equal((await call('GET', `/api/admin/identity/changes/${added.json().change.id}`)).json().change.state, 'applied');

  // The tenant setting off: 401 from the platform, a gate naming the setting.
  await sb.admin.grant({ service: 'dataPlatform', role: 'Admin' });
  await sb.admin.setSwitch('dataPlatform.servicePrincipalsEnabled', false);
  gated(
    await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`),
    /may not use the platform APIs/,
    /"Service principals can use Fabric APIs".*needs Admin/,
    'Unauthorized',
  );
  await sb.admin.setSwitch('dataPlatform.servicePrincipalsEnabled', true);

  // Other refusals are no gate: the backing service's text is passed on unmodified, with its status where it is the caller's.
  const raw = JSON.stringify({
    requestId: '00000000-0000-0000-0000-000000000007',
    errorCode: 'ClientIpNotAllowed',
    message: 'Client IP not allowed (custom text 7)',
  });
  await sb.admin.addFault({ service: 'dataPlatform', method: 'GET', path: '/firewallRules', status: 403, body: raw, count: 1 });
  const ip = await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`);
  assert.equal(ip.statusCode, 502, ip.body);
  assert.deepEqual([ip.json().error.code, ip.json().error.message], ['backing_refused', raw]);
  assert.equal(ip.json().error.gate, undefined);
  // A platform workspace the operator assigned to the tenant that the data platform does not know: its 404 and text.
  const missing = randomUUID();
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, tenant.tenantId, missing);
  const unknown = await call('GET', `/api/admin/identity/workspaces/${missing}/firewall-rules`);
  assert.deepEqual([unknown.statusCode, unknown.json().error.code], [404, 'backing_refused']);
  assert.equal(JSON.parse(unknown.json().error.message).errorCode, 'WorkspaceNotFound');
  assert.equal(
    (await call('GET', `/api/admin/identity/workspaces/${ws}/firewall-rules`)).statusCode,
    200,
    'Admin again: the rules are listed',
  );
});

test('expiry alerts at 91, 30 and 6 days before expiry: API, /metrics and the banner feed', async (t) => {
  const { h, tenant, call } = await setup(t);
  const expiresAt = new Date(Date.now() + 200 * DAY);
  const clientId = randomUUID();
  await h.services.tenancy.assignApplication(OPERATOR, tenant.tenantId, { clientId });
  const reg = await call('POST', '/api/admin/identity/credentials', {
    displayName: 'ci-deployer',
    clientId,
    keyId: 'k1',
    expiresAt: expiresAt.toISOString(),
  });
  assert.equal(reg.statusCode, 201, reg.body);
  assert.ok(!('secret' in reg.json().credential));
  const at = (days: number) => h.services.identity.setClock(() => new Date(expiresAt.getTime() - days * DAY));
  const alerts = async () => (await call('GET', '/api/admin/identity/alerts')).json().alerts;
  // The gauges count every tenant's secrets (on a shared PostgreSQL run, other tests' too): this one shows as the
  // difference between each scrape and the same scrape once it is removed. A scrape never names it.
  const scraper = (await tenant.token2(['metrics'])).auth;
  const gauges = async () => {
    const body = (await h.app.inject({ method: 'GET', url: '/metrics', headers: scraper })).body;
    assert.ok(!body.includes(clientId), 'a scrape names the secret’s client');
    const n = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(body)?.[1]);
    return {
      notice: n('svc_identity_secret_expiry_alerts{threshold="90",level="notice"}'),
      warning: n('svc_identity_secret_expiry_alerts{threshold="30",level="warning"}'),
      critical: n('svc_identity_secret_expiry_alerts{threshold="7",level="critical"}'),
      registered: n('svc_identity_secrets_registered'),
    };
  };
  const seen: Record<number, Awaited<ReturnType<typeof gauges>>> = {};
  at(91);
  assert.deepEqual(await alerts(), []);
  seen[91] = await gauges();
  at(30);
  assert.deepEqual(
    (await alerts()).map((a: { threshold: number }) => a.threshold),
    [30],
  );
  seen[30] = await gauges();
  at(6);
  const [a] = await alerts();
  assert.deepEqual([a.threshold, a.level, a.daysRemaining], [7, 'critical', 6]);
  assert.match(a.message, /expires in 6 days/);
  seen[6] = await gauges();
  assert.equal((await call('DELETE', `/api/admin/identity/credentials/${reg.json().credential.id}`)).statusCode, 200);
  const delta = async (days: number) => {
    at(days);
    const without = await gauges();
    return Object.fromEntries(Object.entries(seen[days]!).map(([k, v]) => [k, v - without[k as keyof typeof without]]));
  };
  assert.deepEqual(await delta(91), { notice: 0, warning: 0, critical: 0, registered: 1 });
  assert.deepEqual(await delta(30), { notice: 0, warning: 1, critical: 0, registered: 1 });
  assert.deepEqual(await delta(6), { notice: 0, warning: 0, critical: 1, registered: 1 });
});

test('a rotation keeps the old secret until verified and 24 hours have passed', async (t) => {
  const { sb, h, call, ci, ws } = await setup(t);
  await sb.admin.grant({ service: 'dataPlatform', role: 'Contributor', principal: ci.appId });
  const oldKey = (await sb.admin.state()).identity.principals.find((p: { appId?: string }) => p.appId === ci.appId)!.secrets![0]!.keyId;
  const cred = (
    await call('POST', '/api/admin/identity/credentials', {
      displayName: 'ci-deployer',
      clientId: ci.appId,
      keyId: oldKey,
      expiresAt: ci.secretExpiresAt,
      vaultSecretName: 'ci-deployer-secret',
      consumers: ['ci-runner'],
    })
  ).json().credential;
  const t0 = Date.now();
  h.services.identity.setClock(() => new Date(t0));
  const start = await call('POST', `/api/admin/identity/credentials/${cred.id}/rotations`, {});
  assert.equal(start.statusCode, 201, start.body);
  const rot = start.json().rotation;
  assert.equal(rot.nextStep, 'restart-consumers');
  assert.ok(rot.newKeyId && rot.vaultVersion);
  assert.ok(!JSON.stringify(rot).includes('~'), 'no secret value in the rotation');
  const keys = async () =>
    (await sb.admin.state()).identity.principals
      .find((p: { appId?: string }) => p.appId === ci.appId)!
      .secrets!.map((s: { keyId: string }) => s.keyId);
  assert.deepEqual((await keys()).sort(), [oldKey, rot.newKeyId].sort(), 'both secrets are valid');
  assert.equal((await call('POST', '/api/admin/identity/probes', probeAs(ci, ws))).json().passed, true, 'the old secret still works');
  const step = (name: string) => call('POST', `/api/admin/identity/rotations/${rot.id}/steps/${name}`, {});
  const early = await step('delete-old-secret');
  assert.equal(early.statusCode, 409);
  assert.match(early.json().error.message, /restart-consumers comes first/);
  assert.equal((await step('restart-consumers')).statusCode, 200);
  assert.match((await step('delete-old-secret')).json().error.message, /verify comes first/);
  const verified = await step('verify');
  assert.equal(verified.statusCode, 200, verified.body);
  h.services.identity.setClock(() => new Date(t0 + 23 * 3_600_000));
  const refused = await step('delete-old-secret');
  assert.equal(refused.statusCode, 409);
  assert.equal(refused.json().error.code, 'overlap_not_over');
  assert.match(refused.json().error.message, /24 hours/);
  assert.deepEqual((await keys()).length, 2);
  h.services.identity.setClock(() => new Date(t0 + 24 * 3_600_000 + 1000));
  const done = await step('delete-old-secret');
  assert.equal(done.statusCode, 200, done.body);
  assert.equal(done.json().rotation.state, 'completed');
  const listed = (await call('GET', `/api/admin/identity/rotations?credentialId=${cred.id}`)).json().rotations;
  assert.deepEqual(
    listed.map((r: { id: string; state: string }) => [r.id, r.state]),
    [[rot.id, 'completed']],
  );
  assert.deepEqual(await keys(), [rot.newKeyId]);
  const old = (await call('POST', '/api/admin/identity/probes', probeAs(ci, ws))).json();
  assert.equal(old.results[0].code, 'AADSTS7000215', 'the old secret is gone');
  assert.equal((await call('GET', '/api/admin/identity/credentials')).json().credentials[0].keyId, rot.newKeyId);
});

test('a rotation rolled back removes the new secret and restores the vault', async (t) => {
  const { sb, call, ci } = await setup(t);
  const cred = (
    await call('POST', '/api/admin/identity/credentials', {
      displayName: 'ci',
      clientId: ci.appId,
      keyId: 'old',
      expiresAt: ci.secretExpiresAt,
      vaultSecretName: 'ci-deployer-secret',
    })
  ).json().credential;
  const rot = (await call('POST', `/api/admin/identity/credentials/${cred.id}/rotations`, {})).json().rotation;
  const rb = await call('POST', `/api/admin/identity/rotations/${rot.id}/rollback`);
  assert.equal(rb.statusCode, 200, rb.body);
  assert.equal(rb.json().rotation.state, 'rolled-back');
  const keys = (await sb.admin.state()).identity.principals
    .find((p: { appId?: string }) => p.appId === ci.appId)!
    .secrets!.map((s: { keyId: string }) => s.keyId);
  assert.ok(!keys.includes(rot.newKeyId));
});

test('SEV1 from 11 principals failing within 5 minutes; SEV3 from one user’s 403', async (t) => {
  const { h, sb, call, tenant } = await setup(t);
  const signals = h.services.identity.signals;
  const now = Date.now();
  // Signals are the tenant's whose work recorded them (a probe it ran, a call of its install): recorded as its work here.
  const record = (f: Parameters<typeof signals.record>[0]) => tenantContext.run(tenant.tenantId, () => signals.record(f));
  for (let i = 0; i < 11; i++)
    record({
      service: 'identity',
      status: 400,
      code: 'AADSTS53003',
      principal: `user${i}@${sb.ids.tenantDomain}`,
      at: new Date(now - 4 * 60_000 + i * 20_000),
    });
  const sev1 = await call('POST', '/api/admin/identity/incidents', {
    title: 'Conditional access blocks sign-ins',
    identityType: 'conditional-access',
  });
  assert.equal(sev1.statusCode, 201, sev1.body);
  assert.equal(sev1.json().incident.severity, 'SEV1');
  assert.match(sev1.json().incident.severityReasons[0], /11 distinct principals/);
  const ari = sb.ids.users.find((u) => u.upn.startsWith('ari@'))!.upn;
  record({ service: 'data-platform', status: 403, code: 'InsufficientPrivileges', principal: ari });
  const sev3 = await call('POST', '/api/admin/identity/incidents', {
    title: 'Ari cannot open the workspace',
    identityType: 'user',
    principals: [ari],
  });
  assert.equal(sev3.json().incident.severity, 'SEV3');
  // Verbal approval only for SEV1, tracked with a change request due in 24 hours; a conditional-access change needs approval and snapshot.
  const id3 = sev3.json().incident.id;
  assert.equal(
    (
      await call('POST', `/api/admin/identity/incidents/${id3}/approvals`, {
        changeKind: 'conditional-access',
        approver: 'on-call lead',
        verbal: true,
      })
    ).statusCode,
    409,
  );
  const id1 = sev1.json().incident.id;
  const change = { kind: 'conditional-access', summary: 'exclude the break-glass group from policy CA-07', policy: 'CA-07' };
  assert.match((await call('POST', `/api/admin/identity/incidents/${id1}/changes`, change)).json().error.message, /needs an approval/);
  const approved = (
    await call('POST', `/api/admin/identity/incidents/${id1}/approvals`, {
      changeKind: 'conditional-access',
      approver: 'on-call identity lead',
      verbal: true,
    })
  ).json().incident;
  assert.equal(approved.changeRequests.length, 1);
  assert.equal(Date.parse(approved.changeRequests[0].dueAt) - Date.parse(approved.approvals[0].at), DAY);
  assert.match((await call('POST', `/api/admin/identity/incidents/${id1}/changes`, change)).json().error.message, /snapshot/);
  assert.equal(
    (
      await call('POST', `/api/admin/identity/incidents/${id1}/snapshots`, {
        policy: 'CA-07',
        snapshot: { state: 'enabled', excludeGroups: [] },
      })
    ).statusCode,
    201,
  );
  const made = await call('POST', `/api/admin/identity/incidents/${id1}/changes`, change);
  assert.equal(made.statusCode, 201, made.body);
  assert.deepEqual(made.json().change.inverse, {
    kind: 'restore-policy-snapshot',
    policy: 'CA-07',
    snapshot: { state: 'enabled', excludeGroups: [] },
  });
  const filed = (
    await call('POST', `/api/admin/identity/incidents/${id1}/approvals/${approved.approvals[0].id}/change-request`, {
      changeRequestId: 'CHG-1042',
    })
  ).json().incident;
  assert.deepEqual(filed.changeRequests, []);
});

test('an incident cannot close before monitoring for twice its duration', async (t) => {
  const { sb, h, call, ci, ws } = await setup(t);
  const miToken = await sb.admin.token({ audience: 'dataPlatform' });
  const pipe = await fetch(`${sb.urls.dataPlatform}/v1/workspaces/${ws}/dataPipelines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${miToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ displayName: 'nightly_load' }),
  });
  assert.ok(pipe.status === 201 || pipe.status === 202, await pipe.clone().text());
  await new Promise((r) => setTimeout(r, 400));
  const pipelineId =
    pipe.status === 201
      ? (await pipe.json()).id
      : (
          await (
            await fetch(`${sb.urls.dataPlatform}/v1/workspaces/${ws}/items?type=DataPipeline`, {
              headers: { authorization: `Bearer ${miToken}` },
            })
          ).json()
        ).value[0].id;
  const t0 = Date.now();
  h.services.identity.setClock(() => new Date(t0));
  const opened = (
    await call('POST', '/api/admin/identity/incidents', {
      title: 'CI deployer 403',
      identityType: 'service-principal',
      principals: [ci.appId],
      startedAt: new Date(t0 - 3_600_000).toISOString(),
    })
  ).json().incident;
  const verify = () => call('POST', `/api/admin/identity/incidents/${opened.id}/verify`, { ...probeAs(ci, ws), pipelineId });
  const failing = (await verify()).json().incident;
  assert.equal(failing.status, 'open');
  assert.equal(failing.verification.passed, false);
  assert.equal((await call('POST', `/api/admin/identity/incidents/${opened.id}/close`)).statusCode, 409);
  const fix = await call('POST', `/api/admin/identity/workspaces/${ws}/role-assignments`, {
    principalId: ci.objectId,
    role: 'Contributor',
    incidentId: opened.id,
  });
  assert.equal(fix.statusCode, 201, fix.body);
  h.services.identity.setClock(() => new Date(t0 + 1000));
  const passed = (await verify()).json().incident;
  assert.equal(passed.verification.passed, true, JSON.stringify(passed.verification));
  assert.deepEqual(
    passed.verification.checks.map((c: { check: string }) => c.check),
    ['token', 'workspace-read', 'pipeline-run', 'sign-ins'],
  );
  assert.equal(passed.status, 'monitoring');
  assert.equal(passed.changes.length, 1);
  // Duration one hour (and a second): monitoring lasts two hours after the fix was verified.
  assert.equal(Date.parse(passed.monitoringUntil) - Date.parse(passed.verifiedAt), 2 * (3_600_000 + 1000));
  h.services.identity.setClock(() => new Date(t0 + 3_600_000));
  const refused = await call('POST', `/api/admin/identity/incidents/${opened.id}/close`);
  assert.equal(refused.statusCode, 409);
  assert.match(refused.json().error.message, /twice the incident’s duration/);
  h.services.identity.setClock(() => new Date(Date.parse(passed.monitoringUntil)));
  const closed = await call('POST', `/api/admin/identity/incidents/${opened.id}/close`);
  assert.equal(closed.statusCode, 200, closed.body);
  assert.equal(closed.json().incident.status, 'closed');
  const kinds = (await call('GET', `/api/admin/identity/incidents/${opened.id}/events`)).json().events.map((e: { kind: string }) => e.kind);
  assert.deepEqual(kinds, ['opened', 'verification', 'verification', 'closed']);
});

test('identity operations need the admin scope', async (t) => {
  const { h, tenant } = await setup(t);
  const reader = await tenant.token2(['read']);
  const r = await h.app.inject({ method: 'GET', url: '/api/admin/identity/alerts', headers: reader.auth });
  assert.equal(r.statusCode, 403);
  assert.equal(r.json().error.code, 'missing_scope');
});
