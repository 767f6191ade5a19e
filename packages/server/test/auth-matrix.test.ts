// The authorization matrix, generated from the OpenAPI document: every operation the service publishes is called with
// no credentials, malformed and forged tokens, a malformed session cookie, a revoked token, a token lacking the
// operation's scope (read from the document's x-required-scope), and a token of another tenant aimed at this tenant's
// resources. None of these may answer 2xx or leak the other tenant's data. Both tenants hold a platform workspace of
// their own (assigned by the operator), so that report, identity and install calls reach the backing services: the
// other tenant's workspace, report, export, job, item and platform workspace ids answer 404, and the sandbox's request
// log shows nothing was sent toward the first tenant's platform workspace or reports. New operations join the matrix by
// being in the document; an operation without a recorded scope, or a public one nobody listed below, fails the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { SCOPES, TENANT_SCOPES, type Scope } from '../src/auth/scopes.js';
import { buildWithSandbox, newPlatformWorkspace, OPERATOR } from './install-helpers.js';
import type { TestTenant } from './helpers.js';
import { deref, operations, type Operation, paramsOf, PUBLIC, requests } from './matrix-doc.js';
import { type Cell, cellsFor, misjudged, type Prepared, type Principal, rank, ROLES, roleRig, workspaceRows } from './role-matrix.js';

test('authorization matrix over every operation of the OpenAPI document', async (t) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  t.after(async () => {
    for (const c of cleanup) await c();
  }); // registered first: runs before the app and its store close
  const { h, sandbox, tenant: a } = await buildWithSandbox(t);
  const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
    h.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const doc = (await call('GET', '/api/openapi.json', {})).json();
  const ops = operations(doc);
  assert.ok(ops.length > 40, `the document lists ${ops.length} operations`);

  // ---- Tenant A's resources: one of each kind a path parameter can name. ----
  const marker = `matrix-${randomUUID()}`;
  const ok = async (method: string, url: string, payload: unknown, status: number) => {
    const r = await call(method, url, a.auth, payload);
    assert.equal(r.statusCode, status, `${method} ${url}: ${r.body}`);
    return r.json();
  };
  const ws = (await ok('POST', '/api/workspaces', { name: `${marker}-ws` }, 201)).workspace.id;
  const item = (await ok('POST', `/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: `${marker}-item` }, 201)).item.id;
  const item2 = (await ok('POST', `/api/workspaces/${ws}/items`, { itemType: 'lakehouse', displayName: `${marker}-lh` }, 201)).item.id;
  const edge = (await ok('POST', `/api/workspaces/${ws}/thread/edges`, { fromItemId: item2, toItemId: item, kind: 'feeds' }, 201)).edge.id;
  const apps = (await ok('GET', '/api/apps', undefined, 200)).apps;
  const appId = apps[0].id;
  const job = (await ok('POST', `/api/apps/${appId}/install`, { workspaceId: ws, deploy: false }, 202)).jobId;
  // The job ends before the matrix runs, so the workspace has the installed app its app id names.
  while ((await ok('GET', `/api/apps/install-jobs/${job}`, undefined, 200)).job.status === 'running')
    await new Promise((r) => setTimeout(r, 100));
  // A live notebook and a finished drift check of the workspace, so that A's own last drift check answers 200.
  const finished = async (jobId: string) => {
    while ((await ok('GET', `/api/jobs/${jobId}`, undefined, 200)).job.status === 'running') await new Promise((r) => setTimeout(r, 100));
  };
  const liveItem = {
    itemType: 'notebook',
    displayName: `${marker}-live`,
    content: { language: 'python', cells: [{ kind: 'code', source: 'print(1)' }] },
    deploy: true,
  };
  await finished((await ok('POST', `/api/workspaces/${ws}/items`, liveItem, 201)).item.provisioning.jobId);
  await finished((await ok('POST', `/api/workspaces/${ws}/drift`, undefined, 202)).job.id);
  const aToken = await a.token2(['read']);
  const incident = (await ok('POST', '/api/admin/identity/incidents', { title: `${marker}-incident` }, 201)).incident;
  const approved = (
    await ok(
      'POST',
      `/api/admin/identity/incidents/${incident.id}/approvals`,
      { changeKind: 'conditional-access', approver: `${marker}-lead` },
      201,
    )
  ).incident;
  const change = (
    await ok('POST', `/api/admin/identity/incidents/${incident.id}/changes`, { kind: 'note', summary: `${marker}-change` }, 201)
  ).change;
  const ci = sandbox.ids.servicePrincipals.find((s) => s.name === 'ci-deployer')!;
  const credential = (
    await ok(
      'POST',
      '/api/admin/identity/credentials',
      {
        displayName: `${marker}-cred`,
        clientId: ci.appId,
        keyId: 'old',
        expiresAt: ci.secretExpiresAt,
        vaultSecretName: 'ci-deployer-secret',
      },
      201,
    )
  ).credential;
  const rotation = (await ok('POST', `/api/admin/identity/credentials/${credential.id}/rotations`, {}, 201)).rotation;
  // A's platform workspace (the sandbox's, assigned to A) with its reporting group's reports, and an export of one.
  const aPws = sandbox.ids.platformWorkspaceId;
  const reports = (await ok('GET', `/api/items/paginated-report?workspaceId=${ws}`, undefined, 200)).reports as Array<{
    id: string;
    name: string;
  }>;
  const report = reports.find((r) => r.name === 'Sales by Region')!.id;
  const exported = (
    await ok(
      'POST',
      `/api/items/paginated-report/${report}/exports?workspaceId=${ws}`,
      { format: 'CSV', parameterValues: [{ name: 'Region', value: 'West' }] },
      202,
    )
  ).export.id as string;
  for (const deadline = Date.now() + 30_000; ; ) {
    const e = (
      await ok('GET', `/api/items/paginated-report/${report}/exports/${encodeURIComponent(exported)}?workspaceId=${ws}`, undefined, 200)
    ).export;
    if (e.status === 'Succeeded') break;
    assert.ok(e.status !== 'Failed' && Date.now() < deadline, `export ${JSON.stringify(e)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // Expiry alerts count every tenant's credentials: on a shared PostgreSQL run the ones this test registers (A's, and
  // B's from the matrix's own calls) must not outlive it.
  const forgetCredentials = (tenantId: string) =>
    cleanup.push(() =>
      h.store.db
        .deleteFrom('identity_credentials' as never)
        .where('tenant_id' as never, '=', tenantId as never)
        .execute(),
    );
  forgetCredentials(a.tenantId);

  // The install (items only) ends before the matrix starts, so that A's state is still while it runs.
  for (const deadline = Date.now() + 30_000; ; ) {
    const j = (await ok('GET', `/api/apps/install-jobs/${job}`, undefined, 200)).job;
    if (j.status !== 'running') break;
    assert.ok(Date.now() < deadline, `install ${job} still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const snapshotOfA = async () => ({
    workspace: (await ok('GET', `/api/workspaces/${ws}`, undefined, 200)).workspace,
    items: (await ok('GET', `/api/workspaces/${ws}/items?limit=200`, undefined, 200)).items,
    content: await ok('GET', `/api/workspaces/${ws}/items/${item}/content`, undefined, 200),
    edges: (await ok('GET', `/api/workspaces/${ws}/thread/edges`, undefined, 200)).edges,
    tokens: (await ok('GET', '/api/tokens?limit=200', undefined, 200)).tokens.map((x: { id: string; name: string; scopes: string[] }) => [
      x.id,
      x.name,
      x.scopes,
    ]),
    job: (await ok('GET', `/api/apps/install-jobs/${job}`, undefined, 200)).job,
    incident: (await ok('GET', `/api/admin/identity/incidents/${incident.id}`, undefined, 200)).incident,
    changes: (await ok('GET', '/api/admin/identity/changes', undefined, 200)).changes,
    credentials: (await ok('GET', '/api/admin/identity/credentials', undefined, 200)).credentials,
    rotation: (await ok('GET', `/api/admin/identity/rotations/${rotation.id}`, undefined, 200)).rotation,
    reports: (await ok('GET', `/api/items/paginated-report?workspaceId=${ws}`, undefined, 200)).reports,
    definition: (await ok('GET', `/api/items/paginated-report/${report}/definition?workspaceId=${ws}`, undefined, 200)).etag,
    roleAssignments: (await ok('GET', `/api/admin/identity/workspaces/${aPws}/role-assignments`, undefined, 200)).assignments,
    firewallRules: (await ok('GET', `/api/admin/identity/workspaces/${aPws}/firewall-rules`, undefined, 200)).rules,
  });

  /** Path parameters that name a resource tenant A owns, with its real id. */
  const owned: Record<string, string> = {
    workspaceId: ws,
    itemId: item,
    edgeId: edge,
    jobId: job,
    tokenId: aToken.id,
    incidentId: incident.id,
    approvalId: approved.approvals[0].id,
    changeId: change.id,
    credentialId: credential.id,
    rotationId: rotation.id,
    reportId: report,
    exportId: exported,
    platformWorkspaceId: aPws,
  };
  /** Values for the other path parameters (global or not tenant-owned). */
  const fixed: Record<string, string> = { appId, stepIndex: '0', step: 'verify', ruleId: 'matrix-rule' };
  const aIds = Object.values(owned);

  const { urlOf, headersOf, bodyOf, isOwned } = requests(doc, owned, fixed);
  const ownedRefs = (o: Operation) => {
    const inParams = paramsOf(o).some((p) => (p.in === 'path' || (p.in === 'query' && o.method !== 'GET')) && isOwned(p));
    const body = bodyOf(o);
    const inBody = body && typeof body === 'object' && Object.values(body).some((v) => aIds.includes(v as string));
    return inParams || Boolean(inBody);
  };
  /** A list filtered by one of A's ids (a GET's query): 404, exactly as for an unknown id (never an empty list). */
  const filtersOwned = (o: Operation) => o.method === 'GET' && paramsOf(o).some((p) => p.in === 'query' && isOwned(p));

  // ---- Every operation is either explicitly public or records the scope it needs. ----
  const isPublic = (o: Operation) => Array.isArray(o.op.security) && o.op.security.length === 0;
  for (const o of ops) {
    if (isPublic(o)) assert.ok(PUBLIC(o), `${o.method} ${o.path} (${o.id}) is public but not in the test's list of public operations`);
    else
      assert.ok(
        (SCOPES as readonly string[]).includes(o.op['x-required-scope']),
        `${o.method} ${o.path} (${o.id}) records no x-required-scope`,
      );
  }
  const guarded = ops.filter((o) => !isPublic(o));

  // ---- Credentials that must not pass. ----
  const revoked = await a.token2([...TENANT_SCOPES]);
  await ok('DELETE', `/api/tokens/${revoked.id}`, undefined, 200);
  const forged = `${a.token.slice(0, a.token.lastIndexOf('_') + 1)}${'A'.repeat(48)}`;
  const rows: Array<{ name: string; headers: Record<string, string> }> = [
    { name: 'no credentials', headers: {} },
    { name: 'a malformed bearer token', headers: { authorization: 'Bearer not-a-token' } },
    { name: 'a token with a forged secret', headers: { authorization: `Bearer ${forged}` } },
    { name: 'another scheme', headers: { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } },
    { name: 'a malformed session cookie', headers: { cookie: 'svc_session=forged-session-value' } },
    { name: 'a revoked token', headers: revoked.auth },
  ];
  // A token holding every scope except the one needed (and admin, which implies all).
  const lacking = new Map<string, TestTenant['auth']>();
  for (const scope of SCOPES) {
    const others = SCOPES.filter((s) => s !== scope && s !== 'admin' && !(scope === 'metrics' && s === 'operator')) as Scope[];
    lacking.set(scope, (await a.token2(others)).auth);
  }
  const failures: string[] = [];
  const before = await snapshotOfA();
  const leaks = (body: string, sent: string) => [marker, ...aIds].filter((m) => body.includes(m) && !sent.includes(m));

  for (const o of guarded) {
    const url = urlOf(o);
    const payload = bodyOf(o);
    for (const row of rows) {
      const r = await call(o.method, url, headersOf(o, row.headers), payload);
      if (r.statusCode !== 401) failures.push(`${o.id} with ${row.name}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      else if (r.json().ok !== false || typeof r.json().error?.code !== 'string')
        failures.push(`${o.id} with ${row.name}: 401 without the error envelope`);
    }
  }

  // ---- Each operation with a token lacking its scope. ----
  for (const o of guarded) {
    const scope = o.op['x-required-scope'] as string;
    const r = await call(o.method, urlOf(o), headersOf(o, lacking.get(scope)!), bodyOf(o));
    if (r.statusCode !== 403) failures.push(`${o.id} without '${scope}': ${r.statusCode} ${r.body.slice(0, 200)}`);
    else if (r.json().error?.code !== 'missing_scope') failures.push(`${o.id} without '${scope}': 403 with code ${r.json().error?.code}`);
  }

  // ---- Tenant A itself reads each owned resource (so the ids below are real, and a 404 for B means isolation). ----
  for (const o of guarded.filter((x) => x.method === 'GET' && ownedRefs(x))) {
    const r = await call('GET', urlOf(o), a.auth);
    if (o.id === 'streamInstallJobEvents') {
      if (r.statusCode !== 200) failures.push(`control: A's own ${o.id} answered ${r.statusCode}`);
      continue;
    }
    if (r.statusCode !== 200) failures.push(`control: A's own ${o.id} answered ${r.statusCode} ${r.body.slice(0, 200)}`);
  }

  // ---- Tenant B, with every scope, aimed at A's resources: 404, as for an unknown id. Elsewhere: never A's data. ----
  // B is a tenant of its own with its own platform workspace (made by the service identity, assigned by the operator).
  const b = await h.tenant();
  forgetCredentials(b.tenantId);
  const bPws = await newPlatformWorkspace(h, sandbox, `b-${randomUUID()}`);
  await h.services.tenancy.assignPlatformWorkspace(OPERATOR, b.tenantId, bPws);
  const bWs = (await call('POST', '/api/workspaces', b.auth, { name: 'B’s own workspace' })).json().workspace.id as string;
  assert.equal((await call('PATCH', `/api/workspaces/${bWs}`, b.auth, { platformWorkspaceId: bPws })).statusCode, 200);
  // The request log's last sequence number: requests({ since }) takes one (or an ISO time), not Date.now().
  const bPhase = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
  // The deployment's operations (tenants and what each may use) are not a tenant's: B, a tenant admin, is refused them.
  const deployment = (o: Operation) => ['operator', 'metrics'].includes(o.op['x-required-scope']);
  const crossTenant = guarded.filter((o) => ownedRefs(o) && !deployment(o));
  assert.ok(crossTenant.length >= 25, `only ${crossTenant.length} operations name a tenant-owned resource`);
  // Reads first, then changes, deletes last, so that a failed isolation shows up as itself and not as a knock-on.
  const order = (o: Operation) => (o.method === 'GET' ? 0 : o.method === 'DELETE' ? 2 : 1);
  for (const o of [...guarded].sort((x, y) => order(x) - order(y))) {
    const url = urlOf(o);
    const payload = bodyOf(o);
    const r = await call(o.method, url, headersOf(o, b.auth), payload);
    const sent = `${url} ${JSON.stringify(payload ?? '')}`;
    const leaked = leaks(r.body, sent);
    if (leaked.length) failures.push(`${o.id} by another tenant leaked ${leaked.join(', ')}: ${r.body.slice(0, 200)}`);
    if (filtersOwned(o) && !crossTenant.includes(o) && r.statusCode !== 404)
      failures.push(`${o.id} by another tenant on ${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
    if (crossTenant.includes(o) && r.statusCode !== 404)
      failures.push(`${o.id} by another tenant on ${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
    if (deployment(o) && (r.statusCode !== 403 || r.json().error?.code !== 'missing_scope'))
      failures.push(`${o.id} by a tenant admin: ${r.statusCode} ${r.body.slice(0, 200)}`);
  }

  // ---- B from its own workspace (its own reporting group) at A's report and export ids: 404 from its group. ----
  const reportOps = guarded.filter((o) => paramsOf(o).some((p) => p.in === 'path' && p.name === 'reportId'));
  assert.ok(reportOps.length >= 10, `only ${reportOps.length} report operations`);
  for (const o of reportOps) {
    const url = urlOf(o).replace(`workspaceId=${ws}`, `workspaceId=${bWs}`);
    const r = await call(o.method, url, headersOf(o, b.auth), bodyOf(o));
    if (r.statusCode !== 404)
      failures.push(`${o.id} by another tenant from its own workspace on ${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
    const leaked = leaks(r.body, url);
    if (leaked.length) failures.push(`${o.id} by another tenant from its own workspace leaked ${leaked.join(', ')}`);
  }
  // Nothing B sent reached A's platform workspace; what named A's report or export went to B's group and was refused.
  const sentByB = await sandbox.admin.requests({ since: bPhase });
  assert.ok(sentByB.length > 0, 'B’s calls reached the sandbox (the check below looks at something)');
  for (const r of sentByB) {
    const path = r.path.toLowerCase();
    if (path.includes(aPws.toLowerCase())) failures.push(`B's calls reached A's platform workspace: ${r.method} ${r.path} ${r.status}`);
    if ((path.includes(report.toLowerCase()) || r.path.includes(exported)) && (!path.includes(bPws.toLowerCase()) || r.status !== 404))
      failures.push(`B's call naming A's report: ${r.method} ${r.path} ${r.status}`);
  }

  assert.deepEqual(failures, [], `${failures.length} cells of the matrix failed:\n${failures.join('\n')}`);

  // A's resources are all still there and unchanged by the calls above.
  assert.deepEqual(await snapshotOfA(), before);
  assert.equal((await call('GET', '/api/whoami', aToken.auth)).statusCode, 200);
});

// The role dimension: every operation whose document entry records x-required-role is called on a workspace where
// the caller holds each role, directly (a user assignment) and through a group (an OIDC session of a sandbox user
// whose group holds the role), and by callers with no role there (a user, a session whose groups hold none, a
// workspace-limited token aimed at another workspace). Enough role: allowed (2xx or the operation's own 4xx); too
// little: 403 workspace_role_required naming the role; none: 404. A refusal leaves the workspace's rows as they were.
test('authorization matrix: the role dimension, directly and through a group, and workspace-limited tokens', async (t) => {
  const rig = await roleRig(t);
  const { h } = rig;
  const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
    h.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const ok = async (method: string, url: string, payload: unknown, status: number, auth: Record<string, string> = rig.admin) => {
    const r = await call(method, url, auth, payload);
    assert.equal(r.statusCode, status, `${method} ${url}: ${r.body}`);
    return r.json();
  };
  const doc = (await call('GET', '/api/openapi.json', {})).json();
  const ops = operations(doc);

  // Every workspace-scoped operation records the role it needs (the identity ones name platform workspaces; a
  // tenant-wide admin-scope one, such as the audit trail filtered by a workspace, is the tenant admin's, Admin on all).
  const bodyFields = (o: Operation) =>
    Object.keys(deref(doc, o.op.requestBody?.content?.['application/json']?.schema ?? {}).properties ?? {});
  const scoped = (o: Operation) =>
    !o.path.startsWith('/api/admin/identity/') &&
    o.op['x-required-scope'] !== 'admin' &&
    (o.path.includes('{workspaceId}') ||
      paramsOf(o).some((p) => p.name === 'workspaceId') ||
      bodyFields(o).includes('workspaceId') ||
      /^\/api\/(jobs|apps\/install-jobs)\/\{jobId\}/.test(o.path));
  const undeclared = ops.filter((o) => scoped(o) && !ROLES.includes(o.op['x-required-role']));
  assert.deepEqual(
    undeclared.map((o) => `${o.method} ${o.path} (${o.id})`),
    [],
    'workspace-scoped operations without x-required-role',
  );
  // With the admin scope a caller is Admin everywhere, so the roles of an admin-scoped operation cannot be told apart.
  const roleOps = ops.filter((o) => o.op['x-required-role'] !== undefined && o.op['x-required-scope'] !== 'admin');
  assert.ok(roleOps.length >= 40, `only ${roleOps.length} operations record a role`);

  const appId = (await ok('GET', '/api/apps', undefined, 200)).apps[0].id as string;
  const fixed = { appId, stepIndex: '0', step: 'verify', ruleId: 'matrix-rule' };
  const spare = { a: (await rig.user('Spare A')).id, b: (await rig.user('Spare B')).id, c: (await rig.user('Spare C')).id };
  const finished = async (jobId: string) => {
    while ((await ok('GET', `/api/apps/install-jobs/${jobId}`, undefined, 200)).job.status === 'running')
      await new Promise((r) => setTimeout(r, 100));
  };
  /** A workspace with an item of two kinds, an edge, an installed app and its job, a report of its own and an export. */
  const prepare = async (label: string): Promise<Prepared> => {
    const ws = (await ok('POST', '/api/workspaces', { name: `role matrix ${label}` }, 201)).workspace.id as string;
    const item = (await ok('POST', `/api/workspaces/${ws}/items`, { itemType: 'notebook', displayName: 'nb' }, 201)).item.id;
    const item2 = (await ok('POST', `/api/workspaces/${ws}/items`, { itemType: 'lakehouse', displayName: 'lh' }, 201)).item.id;
    const edge = (await ok('POST', `/api/workspaces/${ws}/thread/edges`, { fromItemId: item2, toItemId: item, kind: 'feeds' }, 201)).edge
      .id;
    const job = (await ok('POST', `/api/apps/${appId}/install`, { workspaceId: ws, deploy: false }, 202)).jobId as string;
    await finished(job);
    const reports = `/api/items/paginated-report`;
    const source = (await ok('GET', `${reports}?workspaceId=${ws}`, undefined, 200)).reports.find(
      (r: { name: string }) => r.name === 'Sales by Region',
    ).id;
    const name = `matrix ${label} ${randomUUID().slice(0, 8)}`;
    const report = (await ok('POST', `${reports}/${source}/clone?workspaceId=${ws}`, { name }, 201)).report.id as string;
    const exportBody = { format: 'CSV', parameterValues: [{ name: 'Region', value: 'West' }] };
    const exportId = (await ok('POST', `${reports}/${report}/exports?workspaceId=${ws}`, exportBody, 202)).export.id as string;
    const assignments = `/api/workspaces/${ws}/role-assignments`;
    const creator = (await ok('GET', assignments, undefined, 200)).roleAssignments.find(
      (a: { principal: { id: string } }) => a.principal.id === rig.adminId,
    );
    assert.equal(creator?.role, 'Admin', 'the creator is the workspace’s Admin');
    const b = (await ok('POST', assignments, { principal: { type: 'User', id: spare.b }, role: 'Viewer' }, 201)).roleAssignment.id;
    const owned = { workspaceId: ws, itemId: item, item2Id: item2, edgeId: edge, jobId: job, reportId: report, exportId, assignmentId: b };
    return { ws, owned, creatorAssignment: creator.id };
  };

  // Callers with no role: a user, a session whose groups hold none, a token limited to another workspace.
  const ari = await rig.session('ari');
  const ada = await rig.session('ada');
  const group = ari.groups[0] as string;
  assert.ok(!ada.groups.includes(group), 'ada is not in ari’s group');
  const elsewhere = (await ok('POST', '/api/workspaces', { name: 'role matrix elsewhere' }, 201)).workspace.id as string;
  const limitedBody = { name: 'limited', scopes: [...TENANT_SCOPES], workspaceIds: [elsewhere] };
  const limited = { authorization: `Bearer ${(await ok('POST', '/api/tokens', limitedBody, 201)).secret}` };
  assert.deepEqual(
    (await ok('GET', '/api/workspaces', undefined, 200, limited)).workspaces.map((w: { id: string }) => w.id),
    [elsewhere],
    'a limited token lists its workspaces only',
  );
  // A user who is Admin on every prepared workspace, with a token it limited to another one: the limit wins.
  const limitedUser = await rig.user('Limited user');
  const asAdmin = (ws: string) =>
    ok('POST', `/api/workspaces/${ws}/role-assignments`, { principal: { type: 'User', id: limitedUser.id }, role: 'Admin' }, 201);
  await asAdmin(elsewhere);
  const ownLimit = { name: 'own limit', scopes: TENANT_SCOPES.filter((x) => x !== 'admin'), workspaceIds: [elsewhere] };
  const limitedByUser = { authorization: `Bearer ${(await ok('POST', '/api/tokens', ownLimit, 201, limitedUser.auth)).secret}` };
  const outsiders: Principal[] = [
    { label: 'no role (user)', auth: (await rig.user('Nobody')).auth },
    { label: 'no role (group session)', auth: ada.auth },
    { label: 'a tenant admin’s token limited to another workspace', auth: limited },
    { label: 'an Admin’s token limited to another workspace', auth: limitedByUser },
  ];

  const failures: string[] = [];
  const allowedNot2xx: string[] = [];
  const send = async (c: Cell, p: Principal) => {
    const r = await call(c.o.method, c.url, c.headers(p.auth), c.body);
    const wrong = misjudged(c, p.role, r.statusCode, r.body);
    if (wrong) failures.push(`${c.label} as ${p.label}: ${wrong}, got ${r.statusCode} ${r.body.slice(0, 200)}`);
    else if (p.role && rank(p.role) >= rank(c.needed) && r.statusCode >= 300)
      allowedNot2xx.push(`${c.label} as ${p.label}: ${r.statusCode} ${r.json().error?.message ?? ''}`);
  };
  for (const via of ['user', 'group'] as const) {
    for (const role of ROLES) {
      const label = `${role} (${via === 'user' ? 'direct' : 'through a group'})`;
      const p = await prepare(label);
      const holder = via === 'user' ? await rig.user(`${role} user`) : { id: group, auth: ari.auth };
      const principal = { type: via === 'user' ? 'User' : 'Group', id: holder.id };
      await ok('POST', `/api/workspaces/${p.ws}/role-assignments`, { principal, role }, 201);
      await asAdmin(p.ws);
      const me = (await ok('GET', `/api/workspaces/${p.ws}`, undefined, 200, holder.auth)).workspace;
      assert.deepEqual([me.role, me.roleSource], [role, via], `${label} sees its role`);
      const caller: Principal = { label, role, auth: holder.auth };
      const cells = cellsFor(doc, roleOps, p, spare, fixed);

      const before = await workspaceRows(h, p.ws);
      for (const c of cells) for (const who of [...outsiders, ...(rank(role) < rank(c.needed) ? [caller] : [])]) await send(c, who);
      const after = await workspaceRows(h, p.ws);
      if (!isDeepStrictEqual(after, before)) failures.push(`the refusals on ${label}'s workspace changed its rows`);
      for (const c of cells.filter((x) => rank(role) >= rank(x.needed))) await send(c, caller);
    }
  }
  // The jobs the allowed calls started end before the app closes.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const running = await h.store.db
      .selectFrom('install_jobs')
      .select('id')
      .where('tenant_id', '=', rig.tenantId)
      .where('status', '=', 'running')
      .execute();
    if (running.length === 0) break;
  }
  t.diagnostic(`allowed, answered by the operation itself: ${allowedNot2xx.join('; ')}`);
  assert.deepEqual(failures, [], `${failures.length} cells of the role matrix failed:\n${failures.join('\n')}`);
});
