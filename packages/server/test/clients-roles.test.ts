// The TypeScript client's workspace access calls (roles, principals, workspace-limited tokens) against a running
// service: the one scripts/test-clients.mjs started (a second user signs in through its sandbox identity provider), or
// the real app built here on a loopback port (a second user of the test tenant).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { SCOPES } from '../src/auth/scopes.js';
import { build } from './helpers.js';
import {
  createSvcClient,
  SvcBadRequestError,
  SvcConflictError,
  SvcForbiddenError,
  SvcNotFoundError,
  type SvcApiError,
} from '../../client/src/index.js';
import { signIn } from './oidc-sign-in.js';

interface Other {
  userId: string;
  token: string;
  name: string;
}

/** Signs `user` in through the sandbox identity provider the service uses, and mints a token with the session. */
async function signedIn(baseUrl: string, user: string): Promise<Other> {
  const cookie = await signIn(baseUrl, user);
  const me = await createSvcClient({ baseUrl, cookie }).whoami();
  const { secret } = await createSvcClient({ baseUrl, cookie, csrfToken: me.csrfToken }).tokens.create({
    name: 'roles test',
    scopes: ['read', 'write'],
  });
  return { userId: me.userId, token: secret, name: me.userName };
}

/** The service, its admin token, and another user of the same tenant with a token of its own (no role anywhere yet). */
async function service(t: TestContext): Promise<{ baseUrl: string; token: string; other: () => Promise<Other> }> {
  const { SVC_BASE_URL: baseUrl, SVC_TOKEN: token } = process.env;
  if (baseUrl && token) return { baseUrl, token, other: () => signedIn(baseUrl, 'ari') };
  const h = await build(t);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const tenant = await h.tenant([...SCOPES]);
  const other = async () => ({ ...(await tenant.user('Pat Analyst', ['read', 'write'])), name: 'Pat Analyst' });
  return { baseUrl: `http://127.0.0.1:${port}`, token: tenant.token, other };
}

const refusal = (err: unknown) => err as SvcApiError;

test('roles: an admin adds a Viewer, who reads but cannot change; promoted, it can; removed, the workspace is gone for it', async (t) => {
  const { baseUrl, token, other } = await service(t);
  const admin = createSvcClient({ baseUrl, token });
  const me = await admin.whoami();
  const ws = await admin.workspaces.create({ name: `roles ${Math.random().toString(36).slice(2, 8)}` });
  const initial = await admin.roles.list(ws.id);
  assert.deepEqual(
    initial.map((a) => [a.principal.id, a.principal.type, a.role]),
    [[me.userId, 'User', 'Admin']],
    'the creator is the workspace’s Admin',
  );

  const pat = await other();
  const found = await admin.principals.search(pat.name);
  assert.ok(
    found.some((p) => p.id === pat.userId && p.type === 'User'),
    `principals.search finds ${pat.name}`,
  );
  const viewerClient = createSvcClient({ baseUrl, token: pat.token });
  await assert.rejects(viewerClient.workspaces.get(ws.id), SvcNotFoundError, 'no role: the workspace is not there');

  const added = await admin.roles.add(ws.id, { principal: { type: 'User', id: pat.userId }, role: 'Viewer' });
  assert.equal(added.role, 'Viewer');
  assert.equal(added.workspaceId, ws.id);
  assert.deepEqual([added.principal.id, added.principal.displayName], [pat.userId, pat.name]);
  await assert.rejects(admin.roles.add(ws.id, { principal: { type: 'User', id: pat.userId }, role: 'Contributor' }), SvcConflictError);
  await assert.rejects(admin.roles.add(ws.id, { principal: { type: 'User', id: 'no-such-user' }, role: 'Viewer' }), (err) => {
    assert.ok(err instanceof SvcBadRequestError);
    assert.equal(refusal(err).field, 'principal.id');
    return true;
  });

  const seen = (await viewerClient.workspaces.list()).find((w) => w.id === ws.id);
  assert.deepEqual([seen?.role, seen?.roleSource], ['Viewer', 'user']);
  assert.equal((await viewerClient.roles.list(ws.id)).length, 2, 'a Viewer reads the assignments');
  await assert.rejects(viewerClient.items.create(ws.id, { itemType: 'notebook', displayName: 'not mine' }), (err) => {
    assert.ok(err instanceof SvcForbiddenError);
    assert.equal(refusal(err).code, 'workspace_role_required');
    assert.match(refusal(err).message, /This operation needs the Contributor role on the workspace \(yours is Viewer\)/);
    return true;
  });

  const promoted = await admin.roles.update(ws.id, added.id, 'Contributor');
  assert.equal(promoted.role, 'Contributor');
  assert.equal((await viewerClient.items.create(ws.id, { itemType: 'notebook', displayName: 'mine' })).workspaceId, ws.id);
  await assert.rejects(admin.roles.remove(ws.id, initial[0]?.id ?? ''), (err) => {
    assert.ok(err instanceof SvcConflictError);
    assert.equal(refusal(err).code, 'last_admin');
    return true;
  });

  assert.equal(await admin.roles.remove(ws.id, added.id), true);
  await assert.rejects(viewerClient.workspaces.get(ws.id), SvcNotFoundError);
  assert.deepEqual(
    (await admin.roles.list(ws.id)).map((a) => a.role),
    ['Admin'],
  );
});

test('tokens limited to workspaces: created with workspaceIds, they list and reach only those', async (t) => {
  const { baseUrl, token } = await service(t);
  const admin = createSvcClient({ baseUrl, token });
  const name = () => `limited ${Math.random().toString(36).slice(2, 8)}`;
  const [inside, outside] = [await admin.workspaces.create({ name: name() }), await admin.workspaces.create({ name: name() })];
  const created = await admin.tokens.create({ name: 'limited', scopes: ['read', 'write'], workspaceIds: [inside.id] });
  assert.deepEqual(created.token.workspaceIds, [inside.id]);
  const listed = (await admin.tokens.list({ limit: 200 })).find((x) => x.id === created.token.id);
  assert.deepEqual(listed?.workspaceIds, [inside.id]);
  const own = (await admin.whoami()).tokenId;
  assert.equal((await admin.tokens.list({ limit: 200 })).find((x) => x.id === own)?.workspaceIds, null, 'an unlimited token shows null');

  const limited = createSvcClient({ baseUrl, token: created.secret });
  assert.deepEqual(
    (await limited.workspaces.list()).map((w) => w.id),
    [inside.id],
  );
  assert.equal((await limited.workspaces.get(inside.id)).id, inside.id);
  await assert.rejects(limited.workspaces.get(outside.id), SvcNotFoundError);
  await assert.rejects(limited.workspaces.create({ name: name() }), (err) => {
    assert.ok(err instanceof SvcForbiddenError);
    assert.equal(refusal(err).code, 'workspace_limited_token');
    return true;
  });
  await assert.rejects(admin.tokens.create({ name: 'nowhere', scopes: ['read'], workspaceIds: ['no-such-workspace'] }), SvcNotFoundError);
});
