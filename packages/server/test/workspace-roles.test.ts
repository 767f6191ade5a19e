import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { build, type TestApp } from './helpers.js';

type Auth = { authorization: string };

/** A small API caller over inject: method, url, auth, body → status and JSON. */
function api(h: TestApp) {
  return async (method: string, url: string, auth: Auth, payload?: object) => {
    const r = await h.app.inject({ method: method as 'GET', url, headers: auth, ...(payload ? { payload } : {}) });
    return { status: r.statusCode, body: r.json() };
  };
}

/** Asserts a refusal for a role too low, naming the role needed and the one held. */
function refusedForRole(r: { status: number; body: any }, needed: string, held: string) {
  assert.equal(r.status, 403, JSON.stringify(r.body));
  assert.equal(r.body.error.code, 'workspace_role_required');
  assert.equal(r.body.error.message, `This operation needs the ${needed} role on the workspace (yours is ${held})`);
}

async function setup(t: Parameters<typeof build>[0]) {
  const h = await build(t);
  const call = api(h);
  const tenant = await h.tenant();
  // The owner creates workspaces without the admin scope: its role there comes from being the creator.
  const owner = await tenant.user('Olive Owner');
  const ws = (await call('POST', '/api/workspaces', owner.auth, { name: 'Shared' })).body.workspace;
  const assign = async (auth: Auth, workspaceId: string, principal: { type: string; id: string }, role: string) =>
    call('POST', `/api/workspaces/${workspaceId}/role-assignments`, auth, { principal, role });
  return { h, call, tenant, owner, ws, assign };
}

test('the creator is Admin; a user without a role gets 404 on the workspace and everything reached through it', async (t) => {
  const { h, call, tenant, owner, ws } = await setup(t);
  assert.equal(ws.role, 'Admin');
  assert.equal(ws.roleSource, 'user');
  const list = (await call('GET', `/api/workspaces/${ws.id}/role-assignments`, owner.auth)).body.roleAssignments;
  assert.deepEqual(
    list.map((a: any) => [a.principal.type, a.principal.id, a.principal.displayName, a.role, a.createdBy]),
    [['User', owner.userId, 'Olive Owner', 'Admin', owner.userId]],
  );
  const item = (await call('POST', `/api/workspaces/${ws.id}/items`, owner.auth, { itemType: 'notebook', displayName: 'N' })).body.item;
  const appId = (await call('GET', '/api/apps', owner.auth)).body.apps[0].id;
  const job = await call('POST', `/api/apps/${appId}/install`, owner.auth, { workspaceId: ws.id, deploy: false });
  assert.equal(job.status, 202, JSON.stringify(job.body));

  const stranger = await tenant.user('Sam Stranger');
  for (const url of [
    `/api/workspaces/${ws.id}`,
    `/api/workspaces/${ws.id}/items`,
    `/api/workspaces/${ws.id}/items/${item.id}`,
    `/api/workspaces/${ws.id}/jobs`,
    `/api/workspaces/${ws.id}/thread/edges`,
    `/api/workspaces/${ws.id}/apps`,
    `/api/workspaces/${ws.id}/role-assignments`,
    `/api/items/paginated-report?workspaceId=${ws.id}`,
    `/api/apps/install-jobs?workspaceId=${ws.id}`,
    `/api/jobs/${job.body.jobId}`,
    `/api/apps/install-jobs/${job.body.jobId}`,
  ]) {
    const r = await call('GET', url, stranger.auth);
    assert.equal(r.status, 404, `${url}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, 'not_found');
  }
  const del = await call('DELETE', `/api/workspaces/${ws.id}/items/${item.id}`, stranger.auth);
  assert.equal(del.status, 404);
  assert.deepEqual((await call('GET', '/api/workspaces', stranger.auth)).body.workspaces, []);
  assert.deepEqual((await call('GET', '/api/apps/install-jobs', stranger.auth)).body.jobs, [], 'no job of an invisible workspace');
  assert.equal((await call('GET', '/api/apps/install-jobs', owner.auth)).body.jobs.length, 1);
  assert.equal((await call('GET', `/api/workspaces/${ws.id}/items`, owner.auth)).body.items.length >= 1, true, 'nothing deleted');
  assert.ok(await h.store.db.selectFrom('items').select('id').where('id', '=', item.id).executeTakeFirst(), 'the item is kept');
});

test('Viewer reads but cannot change; Contributor creates items; refusals change nothing', async (t) => {
  const { call, tenant, owner, ws, assign } = await setup(t);
  const viewer = await tenant.user('Vic Viewer');
  const contributor = await tenant.user('Cora Contributor');
  assert.equal((await assign(owner.auth, ws.id, { type: 'User', id: viewer.userId }, 'Viewer')).status, 201);
  assert.equal((await assign(owner.auth, ws.id, { type: 'User', id: contributor.userId }, 'Contributor')).status, 201);

  const seen = await call('GET', `/api/workspaces/${ws.id}`, viewer.auth);
  assert.equal(seen.status, 200);
  assert.equal(seen.body.workspace.role, 'Viewer');
  assert.deepEqual(
    (await call('GET', '/api/workspaces', viewer.auth)).body.workspaces.map((w: any) => [w.id, w.role, w.roleSource]),
    [[ws.id, 'Viewer', 'user']],
  );
  assert.equal((await call('GET', `/api/workspaces/${ws.id}/items`, viewer.auth)).status, 200);
  refusedForRole(
    await call('POST', `/api/workspaces/${ws.id}/items`, viewer.auth, { itemType: 'notebook', displayName: 'V' }),
    'Contributor',
    'Viewer',
  );
  const appId = (await call('GET', '/api/apps', viewer.auth)).body.apps[0].id;
  refusedForRole(
    await call('POST', `/api/apps/${appId}/install`, viewer.auth, { workspaceId: ws.id, deploy: false }),
    'Contributor',
    'Viewer',
  );
  refusedForRole(await call('DELETE', `/api/workspaces/${ws.id}`, viewer.auth), 'Admin', 'Viewer');
  refusedForRole(await call('PATCH', `/api/workspaces/${ws.id}`, viewer.auth, { name: 'Renamed' }), 'Admin', 'Viewer');
  assert.equal((await call('GET', `/api/workspaces/${ws.id}/items`, owner.auth)).body.items.length, 0, 'no item created');
  assert.equal((await call('GET', `/api/workspaces/${ws.id}`, owner.auth)).body.workspace.name, 'Shared');
  assert.equal((await call('GET', `/api/workspaces/${ws.id}/jobs`, owner.auth)).body.jobs.length, 0, 'no install accepted');

  const made = await call('POST', `/api/workspaces/${ws.id}/items`, contributor.auth, { itemType: 'notebook', displayName: 'C' });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  refusedForRole(await assign(contributor.auth, ws.id, { type: 'User', id: viewer.userId }, 'Viewer'), 'Member', 'Contributor');
  refusedForRole(await call('DELETE', `/api/workspaces/${ws.id}`, contributor.auth), 'Admin', 'Contributor');
  // Scopes still come first: a Contributor's read-only token cannot write.
  const readOnly = await tenant.user('Rita Reader', ['read']);
  await assign(owner.auth, ws.id, { type: 'User', id: readOnly.userId }, 'Admin');
  const r = await call('POST', `/api/workspaces/${ws.id}/items`, readOnly.auth, { itemType: 'notebook', displayName: 'R' });
  assert.equal(r.status, 403);
  assert.equal(r.body.error.code, 'missing_scope');
});

test('Member manages Contributors and Viewers only; Admin every role; the last Admin stays', async (t) => {
  const { call, tenant, owner, ws, assign } = await setup(t);
  const member = await tenant.user('Mel Member');
  const a = await tenant.user('Abe');
  const b = await tenant.user('Bea');
  const m = (await assign(owner.auth, ws.id, { type: 'User', id: member.userId }, 'Member')).body.roleAssignment;
  const toA = await assign(member.auth, ws.id, { type: 'User', id: a.userId }, 'Contributor');
  assert.equal(toA.status, 201, JSON.stringify(toA.body));
  assert.equal(toA.body.roleAssignment.principal.displayName, 'Abe');
  assert.equal((await assign(member.auth, ws.id, { type: 'User', id: b.userId }, 'Viewer')).status, 201);
  const dup = await assign(member.auth, ws.id, { type: 'User', id: b.userId }, 'Contributor');
  assert.equal(dup.status, 409);
  assert.equal(dup.body.error.code, 'conflict');
  const other = await tenant.user('Cy');
  refusedForRole(await assign(member.auth, ws.id, { type: 'User', id: other.userId }, 'Member'), 'Admin', 'Member');
  refusedForRole(await assign(member.auth, ws.id, { type: 'User', id: other.userId }, 'Admin'), 'Admin', 'Member');
  const aId = toA.body.roleAssignment.id;
  refusedForRole(
    await call('PATCH', `/api/workspaces/${ws.id}/role-assignments/${aId}`, member.auth, { role: 'Member' }),
    'Admin',
    'Member',
  );
  const changed = await call('PATCH', `/api/workspaces/${ws.id}/role-assignments/${aId}`, member.auth, { role: 'Viewer' });
  assert.equal(changed.body.roleAssignment.role, 'Viewer');
  refusedForRole(await call('DELETE', `/api/workspaces/${ws.id}/role-assignments/${m.id}`, member.auth), 'Admin', 'Member');

  // Input: an unknown user, a group id that is not a GUID, a role that does not exist.
  const unknownUser = await assign(owner.auth, ws.id, { type: 'User', id: randomUUID() }, 'Viewer');
  assert.equal(unknownUser.status, 400);
  assert.equal(unknownUser.body.error.field, 'principal.id');
  const badGroup = await assign(owner.auth, ws.id, { type: 'Group', id: 'analysts' }, 'Viewer');
  assert.equal(badGroup.status, 400);
  assert.equal(badGroup.body.error.field, 'principal.id');
  assert.equal((await assign(owner.auth, ws.id, { type: 'User', id: other.userId }, 'Owner')).status, 400);

  // Admin changes every role, but never leaves the workspace without an Admin.
  assert.equal((await call('PATCH', `/api/workspaces/${ws.id}/role-assignments/${m.id}`, owner.auth, { role: 'Admin' })).status, 200);
  assert.equal((await call('PATCH', `/api/workspaces/${ws.id}/role-assignments/${m.id}`, owner.auth, { role: 'Contributor' })).status, 200);
  const list = (await call('GET', `/api/workspaces/${ws.id}/role-assignments`, owner.auth)).body.roleAssignments;
  const mine = list.find((x: any) => x.principal.id === owner.userId);
  const demote = await call('PATCH', `/api/workspaces/${ws.id}/role-assignments/${mine.id}`, owner.auth, { role: 'Member' });
  assert.equal(demote.status, 409);
  assert.equal(demote.body.error.code, 'last_admin');
  const remove = await call('DELETE', `/api/workspaces/${ws.id}/role-assignments/${mine.id}`, owner.auth);
  assert.equal(remove.status, 409);
  assert.equal(remove.body.error.code, 'last_admin');
  // A tenant admin (admin scope, no assignment) can still remove the last Admin's peers and manage roles.
  const admin = await call('GET', `/api/workspaces/${ws.id}`, tenant.auth);
  assert.deepEqual([admin.body.workspace.role, admin.body.workspace.roleSource], ['Admin', 'tenant-admin']);
  assert.equal((await call('PATCH', `/api/workspaces/${ws.id}/role-assignments/${m.id}`, tenant.auth, { role: 'Admin' })).status, 200);
  assert.equal((await call('DELETE', `/api/workspaces/${ws.id}/role-assignments/${mine.id}`, owner.auth)).status, 200);
  assert.equal((await call('GET', `/api/workspaces/${ws.id}`, owner.auth)).status, 404, 'the old owner no longer sees it');
});

test('a tenant admin sees every workspace; a workspace-limited token answers 404 elsewhere and cannot create one', async (t) => {
  const { h, call, tenant, owner, ws } = await setup(t);
  const second = (await call('POST', '/api/workspaces', owner.auth, { name: 'Second' })).body.workspace;
  const all = (await call('GET', '/api/workspaces', tenant.auth)).body.workspaces;
  assert.deepEqual(
    all.map((w: any) => [w.id, w.role, w.roleSource]),
    [
      [ws.id, 'Admin', 'tenant-admin'],
      [second.id, 'Admin', 'tenant-admin'],
    ],
  );
  const made = await call('POST', '/api/tokens', owner.auth, {
    name: 'limited',
    scopes: ['read', 'write', 'tokens'],
    workspaceIds: [ws.id],
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.deepEqual(made.body.token.workspaceIds, [ws.id]);
  const limited = { authorization: `Bearer ${made.body.secret}` };
  assert.deepEqual(
    (await call('GET', '/api/workspaces', limited)).body.workspaces.map((w: any) => w.id),
    [ws.id],
  );
  assert.equal((await call('GET', `/api/workspaces/${second.id}`, limited)).status, 404);
  assert.equal((await call('GET', `/api/workspaces/${second.id}/items`, limited)).status, 404);
  const create = await call('POST', '/api/workspaces', limited, { name: 'Nope' });
  assert.equal(create.status, 403);
  assert.equal(create.body.error.code, 'workspace_limited_token');
  // A child of a limited token stays within its list.
  const child = await call('POST', '/api/tokens', limited, { name: 'child', scopes: ['read'], workspaceIds: [second.id] });
  assert.equal(child.status, 404);
  const inherit = await call('POST', '/api/tokens', limited, { name: 'child', scopes: ['read'] });
  assert.deepEqual(inherit.body.token.workspaceIds, [ws.id]);
  const listed = (await call('GET', '/api/tokens', owner.auth)).body.tokens;
  assert.deepEqual(
    listed.map((x: any) => x.workspaceIds),
    [null, [ws.id], [ws.id]],
  );
  // Ids the caller cannot see, and malformed ones.
  const stranger = await tenant.user('Sam');
  assert.equal((await call('POST', '/api/tokens', stranger.auth, { name: 'x', scopes: ['read'], workspaceIds: [ws.id] })).status, 404);
  const bad = await call('POST', '/api/tokens', owner.auth, { name: 'x', scopes: ['read'], workspaceIds: ['a/b'] });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.field, /^workspaceIds/);
  // A session opened with the limited token keeps the limit.
  const opened = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: made.body.secret } });
  const cookie = opened.headers['set-cookie']!.toString().split(';')[0]!;
  const me = (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } })).json();
  assert.deepEqual(me.workspaceIds, [ws.id]);
  const elsewhere = await h.app.inject({ method: 'GET', url: `/api/workspaces/${second.id}`, headers: { cookie } });
  assert.equal(elsewhere.statusCode, 404);
});

test('another tenant’s workspace answers 404 on the role-assignment routes; principals list the tenant’s users', async (t) => {
  const { h, call, owner, ws } = await setup(t);
  const other = await h.tenant();
  for (const [method, url, payload] of [
    ['GET', `/api/workspaces/${ws.id}/role-assignments`, undefined],
    ['POST', `/api/workspaces/${ws.id}/role-assignments`, { principal: { type: 'User', id: other.userId }, role: 'Admin' }],
    ['PATCH', `/api/workspaces/${ws.id}/role-assignments/x1`, { role: 'Viewer' }],
    ['DELETE', `/api/workspaces/${ws.id}/role-assignments/x1`, undefined],
  ] as const) {
    const r = await call(method, url, other.auth, payload);
    assert.equal(r.status, 404, `${method} ${url}: ${JSON.stringify(r.body)}`);
  }
  const found = (await call('GET', '/api/principals?search=olive', owner.auth)).body.principals;
  assert.deepEqual(
    found.map((p: any) => [p.type, p.id, p.displayName]),
    [['User', owner.userId, 'Olive Owner']],
  );
  assert.deepEqual((await call('GET', '/api/principals?search=olive', other.auth)).body.principals, []);
});

test('every workspace-scoped operation declares its role in the document; identity and tenant-wide ones do not', async (t) => {
  const h = await build(t);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      if (!op?.operationId) continue;
      const body = op.requestBody?.content?.['application/json']?.schema;
      const scoped =
        !path.startsWith('/api/admin/') &&
        (path.includes('{workspaceId}') ||
          path.includes('{jobId}') ||
          (op.parameters ?? []).some((p: any) => p.in === 'query' && p.name === 'workspaceId') ||
          Boolean(body?.properties?.workspaceId));
      if (scoped && !op['x-required-role']) missing.push(op.operationId);
      if (!scoped && op['x-required-role']) extra.push(op.operationId);
    }
  }
  assert.deepEqual(missing, []);
  assert.deepEqual(extra, []);
});

test('a job whose workspace is gone stays readable by the user who started it and by tenant admins only', async (t) => {
  const { h, call, tenant, owner, ws, assign } = await setup(t);
  const viewer = await tenant.user('Vic Viewer');
  await assign(owner.auth, ws.id, { type: 'User', id: viewer.userId }, 'Viewer');
  const appId = (await call('GET', '/api/apps', owner.auth)).body.apps[0].id;
  const { jobId } = (await call('POST', `/api/apps/${appId}/install`, owner.auth, { workspaceId: ws.id, deploy: false })).body;
  assert.equal((await call('GET', `/api/jobs/${jobId}`, viewer.auth)).status, 200);
  // As the end of a forced workspace delete leaves it: the workspace (and its assignments) gone, the job kept.
  await h.store.db.deleteFrom('workspaces').where('id', '=', ws.id).execute();
  assert.equal((await call('GET', `/api/jobs/${jobId}`, owner.auth)).status, 200);
  assert.equal((await call('GET', `/api/jobs/${jobId}`, tenant.auth)).status, 200);
  const gone = await call('GET', `/api/jobs/${jobId}`, viewer.auth);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.message, `Job '${jobId}' was not found`);
  assert.equal((await call('POST', `/api/jobs/${jobId}/steps/0/retry`, owner.auth)).status, 404, 'nothing to change in it');
});
