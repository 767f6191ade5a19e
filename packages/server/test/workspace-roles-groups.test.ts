import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox } from '@svc/sandbox';
import { build } from './helpers.js';
import { ensureTenant } from '../src/auth/token-service.js';
import { TENANT_SCOPES } from '../src/auth/scopes.js';
import { signIn } from './oidc-sign-in.js';

test('group assignments reach an OIDC session; the highest of direct and group roles wins; groups are principals', async (t) => {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  const tenantId = `t-${randomUUID()}`;
  const h = await build(t, { ...sb.env, SVC_OIDC_TENANTS: `${sb.ids.tenantId}=${tenantId}` });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  const { userId } = await ensureTenant(h.store.db, tenantId, 'Groups tenant', { displayName: 'Admin' });
  const admin = { tenantId, userId, userName: 'Admin', method: 'token' as const, scopes: [...TENANT_SCOPES] };
  const { secret } = await h.services.tokens.issue(admin, { name: 'admin', scopes: [...TENANT_SCOPES] });
  const adminAuth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const json = async (url: string, init: RequestInit = {}) => {
    const r = await fetch(`${base}${url}`, init);
    return { status: r.status, body: await r.json() };
  };
  const group = (name: string) => sb.ids.groups.find((g) => g.name === name)!.objectId;

  const cookie = await signIn(base, 'ari');
  const me = (await json('/api/whoami', { headers: { cookie } })).body;
  assert.deepEqual([...me.groups].sort(), [group('analysts'), group('reviewers')].sort(), 'ari is in analysts and reviewers');
  assert.deepEqual(me.workspaceIds, null);

  const create = async (name: string) =>
    (await json('/api/workspaces', { method: 'POST', headers: adminAuth, body: JSON.stringify({ name }) })).body.workspace.id;
  const assign = async (ws: string, type: string, id: string, role: string) => {
    const r = await json(`/api/workspaces/${ws}/role-assignments`, {
      method: 'POST',
      headers: adminAuth,
      body: JSON.stringify({ principal: { type, id }, role }),
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  };
  const [ws1, ws2, ws3] = [await create('One'), await create('Two'), await create('Three')];
  await assign(ws1, 'User', me.userId, 'Viewer');
  await assign(ws1, 'Group', group('analysts'), 'Contributor');
  await assign(ws2, 'User', me.userId, 'Member');
  await assign(ws2, 'Group', group('reviewers').toUpperCase(), 'Viewer');
  await assign(ws3, 'Group', group('admins'), 'Admin');

  const seen = (await json('/api/workspaces', { headers: { cookie } })).body.workspaces;
  assert.deepEqual(
    seen.map((w: any) => [w.id, w.role, w.roleSource]),
    [
      [ws1, 'Contributor', 'group'],
      [ws2, 'Member', 'user'],
    ],
  );
  assert.equal((await json(`/api/workspaces/${ws3}`, { headers: { cookie } })).status, 404, 'a group ari is not in gives nothing');
  const item = await json(`/api/workspaces/${ws1}/items`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': me.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ itemType: 'notebook', displayName: 'Through the group' }),
  });
  assert.equal(item.status, 201, JSON.stringify(item.body));

  // A token carries no groups: ari's token acts with the direct assignments only.
  const token = await json('/api/tokens', {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': me.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ari', scopes: ['read', 'write'] }),
  });
  const ariToken = { authorization: `Bearer ${token.body.secret}` };
  assert.equal((await json(`/api/workspaces/${ws1}`, { headers: ariToken })).body.workspace.role, 'Viewer');

  const groups = (await json('/api/principals?limit=50', { headers: adminAuth })).body.principals.filter((p: any) => p.type === 'Group');
  assert.deepEqual(groups.map((p: any) => p.id).sort(), [group('analysts'), group('reviewers')].sort(), 'the groups seen at sign-in');
  const rows = await h.store.db.selectFrom('directory_groups').select('id').where('tenant_id', '=', tenantId).execute();
  assert.equal(rows.length, 2);
});
