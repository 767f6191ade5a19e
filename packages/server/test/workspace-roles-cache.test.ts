// Workspace roles are kept per caller and workspace (AccessService), so a known caller's request reads no role from the
// store; a role assignment's change or a workspace's deletion applies at once in the writing process and, through the
// store's change feed, in every other process sharing the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type TestApp } from './helpers.js';

type Auth = { authorization: string };

function api(h: TestApp) {
  return async (method: string, url: string, auth: Auth, payload?: object) => {
    const r = await h.app.inject({ method: method as 'GET', url, headers: auth, ...(payload ? { payload } : {}) });
    return { status: r.statusCode, body: r.json() };
  };
}

async function setup(h: TestApp) {
  const call = api(h);
  const tenant = await h.tenant();
  const owner = await tenant.user('Olive Owner');
  const reader = await tenant.user('Rita Reader');
  const ws = (await call('POST', '/api/workspaces', owner.auth, { name: `cache-${Date.now()}` })).body.workspace.id as string;
  const assigned = await call('POST', `/api/workspaces/${ws}/role-assignments`, owner.auth, {
    principal: { type: 'User', id: reader.userId },
    role: 'Viewer',
  });
  assert.equal(assigned.status, 201, JSON.stringify(assigned.body));
  return { call, owner, reader, ws, assignment: assigned.body.roleAssignment.id as string };
}

/**
 * Store statements sent while a read repeats 50 times (the store's counter: each one a round trip). The install worker
 * may poll the store meanwhile (rarely: QUIET), so a kept role shows as a handful at most rather than none.
 */
async function statementsOf(h: TestApp, run: () => Promise<unknown>) {
  const before = h.store.versions.statements;
  for (let i = 0; i < 50; i++) await run();
  return h.store.versions.statements - before;
}

const KEPT = 5;
const QUIET = { SVC_WORKER_POLL_MS: '600000' };

test('a known caller’s repeated read costs no store statement (but the worker’s polls); role changes and removal apply to its next request', async (t) => {
  const h = await build(t, QUIET);
  const { call, owner, reader, ws, assignment } = await setup(h);
  const items = `/api/workspaces/${ws}/items`;
  const create = (displayName: string) => call('POST', items, reader.auth, { itemType: 'notebook', displayName });
  assert.equal((await call('GET', items, reader.auth)).status, 200);
  const listed = await statementsOf(h, () => call('GET', items, reader.auth));
  assert.ok(listed < KEPT, `token, role and listing all kept: ${listed} statements for 50 reads`);

  const refused = await create('Too early');
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  assert.equal(refused.body.error.code, 'workspace_role_required');
  const promoted = await call('PATCH', `/api/workspaces/${ws}/role-assignments/${assignment}`, owner.auth, { role: 'Contributor' });
  assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
  assert.equal((await create('Now allowed')).status, 201, 'the higher role applies to the very next request');

  const demoted = await call('PATCH', `/api/workspaces/${ws}/role-assignments/${assignment}`, owner.auth, { role: 'Viewer' });
  assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
  assert.equal((await create('Again too early')).status, 403, 'and so does the lower one');
  assert.equal((await call('GET', items, reader.auth)).status, 200);

  const removed = await call('DELETE', `/api/workspaces/${ws}/role-assignments/${assignment}`, owner.auth);
  assert.equal(removed.status, 200, JSON.stringify(removed.body));
  const gone = await call('GET', items, reader.auth);
  assert.equal(gone.status, 404, 'no role left: the workspace is not there for the reader');

  // A write that does not go through the routes (the store directly) is seen on this process's connection.
  await h.store.db
    .insertInto('workspace_role_assignments')
    .values({
      id: `a-${Date.now()}`,
      tenant_id: (await tenantOf(h, ws))!,
      workspace_id: ws,
      principal_type: 'User',
      principal_id: reader.userId,
      role: 'Viewer',
      created_by: owner.userId,
    })
    .execute();
  assert.equal((await call('GET', items, reader.auth)).status, 200);
  assert.equal((await call('GET', items, owner.auth)).status, 200, 'the owner’s role is kept too');
  assert.equal((await call('DELETE', `/api/workspaces/${ws}`, owner.auth)).status, 200);
  for (const who of [owner, reader]) assert.equal((await call('GET', items, who.auth)).status, 404, 'a deleted workspace keeps no role');
});

const tenantOf = async (h: TestApp, ws: string) =>
  (await h.store.db.selectFrom('workspaces').select('tenant_id').where('id', '=', ws).executeTakeFirst())?.tenant_id;

test('a role removed in another process stops this process’s cached role through the change feed', async (t) => {
  const h = await build(t, QUIET);
  const { call, owner, reader, ws, assignment } = await setup(h);
  const items = `/api/workspaces/${ws}/items`;
  assert.equal((await call('GET', items, reader.auth)).status, 200);
  const listed = await statementsOf(h, () => call('GET', items, reader.auth));
  assert.ok(listed < KEPT, `the reader’s role is kept: ${listed} statements for 50 reads`);
  const feed: string[] = [];
  await h.store.listen('svc_table_changed', (table) => feed.push(table));
  const before = h.store.versions.version('workspace_role_assignments');
  if (h.store.kind === 'postgres') {
    // A second process: its own store and app on the same database; this one learns of the removal only from NOTIFY.
    const other = await build(t, { ...QUIET, SVC_DATA_DIR: h.dataDir });
    const r = await other.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${ws}/role-assignments/${assignment}`,
      headers: owner.auth,
    });
    assert.equal(r.statusCode, 200, r.body);
  } else {
    // PGlite has one process: what another process would hear is the trigger's notification of this write.
    await h.store.db.deleteFrom('workspace_role_assignments').where('id', '=', assignment).execute();
  }
  const heard = () => feed.includes('workspace_role_assignments') && h.store.versions.version('workspace_role_assignments') > before;
  for (let i = 0; i < 250 && !heard(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(feed.includes('workspace_role_assignments'), 'the trigger announces the commit on svc_table_changed');
  const r = await call('GET', items, reader.auth);
  assert.equal(r.status, 404, JSON.stringify(r.body));
});

test('an operation into a second workspace needs the role there too, whether the first one’s role is kept or not', async (t) => {
  const h = await build(t, QUIET);
  const { call, owner, reader, ws } = await setup(h);
  const other = (await call('POST', '/api/workspaces', owner.auth, { name: `target-${Date.now()}` })).body.workspace.id as string;
  const grant = (workspaceId: string, role: string) =>
    call('POST', `/api/workspaces/${workspaceId}/role-assignments`, owner.auth, { principal: { type: 'User', id: reader.userId }, role });
  const list = await call('GET', `/api/workspaces/${ws}/role-assignments`, owner.auth);
  const mine = list.body.roleAssignments.find((a: { principal: { id: string } }) => a.principal.id === reader.userId).id;
  await call('PATCH', `/api/workspaces/${ws}/role-assignments/${mine}`, owner.auth, { role: 'Contributor' });
  const clone = () =>
    call('POST', `/api/items/paginated-report/r-1/clone?workspaceId=${ws}`, reader.auth, { name: 'Copy', targetWorkspaceId: other });
  for (const kept of [false, true]) {
    if (kept) assert.equal((await call('GET', `/api/workspaces/${ws}/items`, reader.auth)).status, 200); // keeps the role on ws
    const none = await clone();
    assert.equal(none.status, 404, JSON.stringify(none.body));
    assert.match(none.body.error.message, new RegExp(other), 'the target workspace is what is not there');
  }
  assert.equal((await grant(other, 'Viewer')).status, 201);
  for (let i = 0; i < 2; i++) {
    const low = await clone(); // read from the store, then kept
    assert.equal(low.status, 403, JSON.stringify(low.body));
    assert.equal(low.body.error.code, 'workspace_role_required');
  }
});
