import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { build, type TestApp } from './helpers.js';
import type { Scope } from '../src/auth/scopes.js';

/** Another (non-admin) user of the tenant, with a token of their own holding `scopes`. */
async function colleague(h: TestApp, tenantId: string, scopes: Scope[]) {
  const userId = `u-${randomUUID()}`;
  await h.store.db
    .insertInto('users')
    .values({ id: userId, tenant_id: tenantId, display_name: 'Colleague', email: null, oidc_subject: null, is_admin: false })
    .execute();
  const { secret, token } = await h.services.tokens.issue(
    { tenantId, userId, userName: 'Colleague', method: 'token', scopes },
    { name: 'colleague', scopes },
  );
  return { userId, id: token.id, auth: { authorization: `Bearer ${secret}` } };
}

const idsOf = (r: { json(): { tokens: Array<{ id: string }> } }) =>
  r
    .json()
    .tokens.map((x) => x.id)
    .sort();

test('token life cycle: create, use, list without secrets, revoke effective on the next request', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: admin.auth,
    payload: { name: 'ci', scopes: ['read'] },
  });
  assert.equal(created.statusCode, 201);
  const { secret, token } = created.json();
  assert.match(secret, /^svc_pat_[a-z0-9]{8,32}_[A-Za-z0-9]{32,64}$/);
  const days = (Date.parse(token.expiresAt) - Date.now()) / 86_400_000;
  assert.ok(days > 29.9 && days <= 30, `default expiry is 30 days, got ${days}`);

  const who = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${secret}` } });
  assert.equal(who.statusCode, 200);
  assert.equal(who.json().tokenId, token.id);
  assert.deepEqual(who.json().scopes, ['read']);

  const list = await h.app.inject({ method: 'GET', url: '/api/tokens', headers: admin.auth });
  assert.equal(list.statusCode, 200);
  assert.ok(list.json().tokens.some((x: { id: string }) => x.id === token.id));
  assert.ok(!list.body.includes(secret.split('_').at(-1)), 'the list never carries a secret');
  const row = await h.store.db.selectFrom('api_tokens').select('secret_hash').where('id', '=', token.id).executeTakeFirstOrThrow();
  assert.ok(!row.secret_hash.includes(secret.split('_').at(-1)!), 'only a hash is stored');

  const revoked = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: admin.auth });
  assert.equal(revoked.statusCode, 200);
  const after = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${secret}` } });
  assert.equal(after.statusCode, 401);
  assert.equal(after.json().error.code, 'token_revoked');
  const again = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: admin.auth });
  assert.equal(again.statusCode, 404);
});

test('a token this process verified and keeps is checked without the store: the same caller, the same refusals', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const { secret, token } = (
    await h.app.inject({ method: 'POST', url: '/api/tokens', headers: admin.auth, payload: { name: 'kept', scopes: ['read'] } })
  ).json();
  const tokens = h.services.tokens;
  assert.equal(tokens.verifyKept(secret), undefined, 'never read yet: the store decides');
  const read = await tokens.verify(secret);
  assert.deepEqual(tokens.verifyKept(secret), read, 'then kept: the caller the store gave');
  const code = (c: string) => (err: unknown) => (err as { code?: string }).code === c;
  assert.throws(() => tokens.verifyKept(`${secret.slice(0, -4)}AAAA`), code('invalid_token'), 'a wrong secret for a kept id');
  assert.throws(() => tokens.verifyKept('svc_pat_abc_def'), code('invalid_token'), 'not a token');
  // An authenticated request takes the same path and answers the same.
  const who = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${secret}` } });
  assert.equal(who.json().tokenId, token.id);
  // Revoked: no longer kept, so the store decides again, and refuses.
  assert.equal((await h.app.inject({ method: 'DELETE', url: `/api/tokens/${token.id}`, headers: admin.auth })).statusCode, 200);
  assert.equal(tokens.verifyKept(secret), undefined);
  await assert.rejects(tokens.verify(secret), code('token_revoked'));
});

test('expired, wrong-secret, malformed and missing credentials answer 401 with a code', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const { secret, token } = (
    await h.app.inject({ method: 'POST', url: '/api/tokens', headers: admin.auth, payload: { name: 'x', scopes: ['read'] } })
  ).json();
  await h.store.db
    .updateTable('api_tokens')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', token.id)
    .execute();
  const expired = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${secret}` } });
  assert.equal(expired.statusCode, 401);
  assert.equal(expired.json().error.code, 'token_expired');

  const wrong = admin.token.slice(0, -4) + 'AAAA';
  const bad = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${wrong}` } });
  assert.equal(bad.statusCode, 401);
  assert.equal(bad.json().error.code, 'invalid_token');

  for (const value of ['Bearer nope', 'Bearer svc_pat_abc_def', 'Basic abc', `Bearer ${admin.token}_x`]) {
    const r = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: value } });
    assert.equal(r.statusCode, 401, value);
    assert.equal(r.json().ok, false);
  }
  const none = await h.app.inject({ method: 'GET', url: '/api/whoami' });
  assert.equal(none.statusCode, 401);
  assert.equal(none.json().error.code, 'unauthenticated');
});

test('expiry is bounded to 90 days and a token cannot mint more scopes than it has', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const tooLong = await h.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: admin.auth,
    payload: { name: 'x', scopes: ['read'], expiresInDays: 91 },
  });
  assert.equal(tooLong.statusCode, 400);
  assert.equal(tooLong.json().error.field, 'expiresInDays');
  const ninety = await h.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: admin.auth,
    payload: { name: 'x', scopes: ['read'], expiresInDays: 90 },
  });
  assert.equal(ninety.statusCode, 201);

  const limited = await admin.token2(['tokens', 'read']);
  const escalate = await h.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: limited.auth,
    payload: { name: 'y', scopes: ['read', 'write'] },
  });
  assert.equal(escalate.statusCode, 403);
  assert.equal(escalate.json().error.code, 'scope_escalation');
  assert.match(escalate.json().error.message, /'write'/);
  const same = await h.app.inject({ method: 'POST', url: '/api/tokens', headers: limited.auth, payload: { name: 'y', scopes: ['read'] } });
  assert.equal(same.statusCode, 201);
  const unknown = await h.app.inject({ method: 'POST', url: '/api/tokens', headers: admin.auth, payload: { name: 'y', scopes: ['root'] } });
  assert.equal(unknown.statusCode, 400);
  assert.equal(unknown.json().error.field, 'scopes.0');
});

test('a missing scope answers 403 naming it', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const reader = await admin.token2(['read']);
  const r = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: reader.auth, payload: { name: 'W' } });
  assert.equal(r.statusCode, 403);
  assert.equal(r.json().error.code, 'missing_scope');
  assert.match(r.json().error.message, /'write'/);
  const tokens = await h.app.inject({ method: 'GET', url: '/api/tokens', headers: reader.auth });
  assert.equal(tokens.statusCode, 403);
  assert.match(tokens.json().error.message, /'tokens'/);
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: admin.auth, payload: { name: 'W' } })).json().workspace;
  const bind = await h.app.inject({
    method: 'PATCH',
    url: `/api/workspaces/${ws.id}`,
    headers: (await admin.token2(['write'])).auth,
    payload: { platformWorkspaceId: '00000000-0000-4000-8000-000000000abc' },
  });
  assert.equal(bind.statusCode, 403);
  assert.match(bind.json().error.message, /'admin'/);
});

test('SVC_BOOTSTRAP_TOKEN seeds an admin token once', async (t) => {
  const h = await build(t);
  const value = 'svc_pat_bootstrap01_' + 'B'.repeat(40);
  const { userId } = await (await import('../src/auth/token-service.js')).ensureTenant(h.store.db, 'default', 'Default', {
    displayName: 'Admin',
  });
  assert.equal(await h.services.tokens.seed(value, 'default', userId, ['admin']), true);
  assert.equal(await h.services.tokens.seed(value, 'default', userId, ['admin']), false);
  const who = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${value}` } });
  assert.equal(who.statusCode, 200);
  assert.equal(who.json().tenantId, 'default');
  assert.ok(who.json().scopes.includes('admin'));
});

test('the per-token rate limit answers 429 with Retry-After', async (t) => {
  const h = await build(t, { SVC_RATE_LIMIT_PER_MINUTE: '5' });
  const admin = await h.tenant();
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 7; i++) {
    const r = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: admin.auth });
    statuses.push(r.statusCode);
    if (r.statusCode === 429) {
      retryAfter = r.headers['retry-after'] as string;
      assert.equal(r.json().error.code, 'rate_limited');
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  assert.ok(Number(retryAfter) >= 1);
});

test('the tokens scope manages the caller’s own tokens only; admin manages every token of the tenant', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const adminTokenId = (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: admin.auth })).json().tokenId;
  const bob = await colleague(h, admin.tenantId, ['tokens', 'read']);
  const minted = await h.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: bob.auth,
    payload: { name: 'bob ci', scopes: ['read'] },
  });
  assert.equal(minted.statusCode, 201);
  const bobsOwn = [bob.id, minted.json().token.id].sort();

  const bobList = await h.app.inject({ method: 'GET', url: '/api/tokens', headers: bob.auth });
  assert.equal(bobList.statusCode, 200);
  assert.deepEqual(idsOf(bobList), bobsOwn, 'tokens lists only the caller’s own tokens');
  const adminList = await h.app.inject({ method: 'GET', url: '/api/tokens', headers: admin.auth });
  assert.deepEqual(idsOf(adminList), [adminTokenId, ...bobsOwn].sort(), 'admin lists every token of the tenant');

  const unknown = await h.app.inject({ method: 'DELETE', url: '/api/tokens/nosuchtoken1', headers: bob.auth });
  const foreign = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${adminTokenId}`, headers: bob.auth });
  assert.equal(foreign.statusCode, 404, 'another user’s token is not found');
  assert.equal(foreign.json().error.code, unknown.json().error.code);
  assert.equal(
    foreign.json().error.message,
    unknown.json().error.message.replace('nosuchtoken1', adminTokenId),
    'exactly as for an unknown id',
  );
  assert.equal(
    (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: admin.auth })).statusCode,
    200,
    'the admin’s token still works',
  );

  const own = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${minted.json().token.id}`, headers: bob.auth });
  assert.equal(own.statusCode, 200, 'a user revokes their own token');
  const byAdmin = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${bob.id}`, headers: admin.auth });
  assert.equal(byAdmin.statusCode, 200, 'an admin revokes any token of the tenant');
  const gone = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: bob.auth });
  assert.equal(gone.json().error.code, 'token_revoked');
});

test('a token minted with a token never outlives it: its expiry is capped at the parent’s, and it is revoked with it', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const mint = async (auth: Record<string, string>, payload: Record<string, unknown>) => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: auth,
      payload: { name: 'x', scopes: ['tokens', 'read'], ...payload },
    });
    assert.equal(r.statusCode, 201, r.body);
    const body = r.json();
    return { ...body, auth: { authorization: `Bearer ${body.secret}` } };
  };
  const parent = await mint(admin.auth, { expiresInDays: 1 });
  assert.equal(parent.expiryCapped, false, 'the admin’s 30-day token leaves room for one day');

  const child = await mint(parent.auth, { expiresInDays: 90 });
  assert.equal(child.token.parentId, parent.token.id, 'the child records the token that minted it');
  assert.equal(child.token.expiresAt, parent.token.expiresAt, 'a 90-day request is cut to the parent’s expiry');
  assert.equal(child.expiryCapped, true, 'the answer says the expiry was cut');
  const grandchild = await mint(child.auth, {});
  assert.equal(grandchild.token.parentId, child.token.id);
  assert.equal(grandchild.token.expiresAt, parent.token.expiresAt, 'the default 30 days is cut as well');

  // A console session opened with the child mints with the child as parent.
  const signIn = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: child.secret } });
  const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  const fromSession = await mint({ cookie, 'x-csrf-token': signIn.json().csrfToken }, { expiresInDays: 60 });
  assert.equal(fromSession.token.parentId, child.token.id);
  assert.equal(fromSession.token.expiresAt, parent.token.expiresAt);
  const grandchildSession = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: grandchild.secret } });
  const grandchildCookie = String(grandchildSession.headers['set-cookie']).split(';')[0]!;
  const sibling = await mint(admin.auth, {});

  const heard: string[] = [];
  await h.store.listen('svc_token_revoked', (id) => heard.push(id));
  const descendants = [child, grandchild, fromSession];
  for (const d of descendants)
    assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: d.auth })).statusCode, 200, 'verified and cached');

  const revoked = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${parent.token.id}`, headers: admin.auth });
  assert.equal(revoked.statusCode, 200);
  for (const d of descendants) {
    const r = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: d.auth });
    assert.equal(r.statusCode, 401, `${d.token.id} dies with its ancestor`);
    assert.equal(r.json().error.code, 'token_revoked');
  }
  for (const c of [cookie, grandchildCookie])
    assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie: c } })).statusCode, 401, 'its sessions end');
  const sessions = await h.store.db.selectFrom('sessions').select('token_id').where('tenant_id', '=', admin.tenantId).execute();
  assert.deepEqual(sessions, [], 'the sessions of the revoked tokens are deleted');
  for (let i = 0; i < 50 && heard.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(heard.sort(), [parent, ...descendants].map((x) => x.token.id).sort(), 'every process hears each revoked token');

  assert.equal(
    (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: sibling.auth })).statusCode,
    200,
    'a token outside the lineage lives on',
  );
  assert.equal(
    (await h.app.inject({ method: 'GET', url: '/api/whoami', headers: admin.auth })).statusCode,
    200,
    'so does the parent’s own parent',
  );
  const listed = (await h.app.inject({ method: 'GET', url: '/api/tokens', headers: admin.auth })).json().tokens;
  assert.ok(!listed.some((x: { id: string }) => [parent, ...descendants].some((d) => d.token.id === x.id)), 'none of them is listed');
  const again = await h.app.inject({ method: 'DELETE', url: `/api/tokens/${child.token.id}`, headers: admin.auth });
  assert.equal(again.statusCode, 404, 'a token revoked with its parent is gone');
});
