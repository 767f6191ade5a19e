import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';

function cookieOf(setCookie: string | string[] | undefined): string {
  const line = Array.isArray(setCookie) ? setCookie[0]! : setCookie!;
  return line.split(';')[0]!;
}

test('a console session: httpOnly SameSite=Lax cookie, CSRF needed for changes, sign-out ends it', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const signIn = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: admin.token } });
  assert.equal(signIn.statusCode, 200);
  const set = String(signIn.headers['set-cookie']);
  assert.match(set, /svc_session=/);
  assert.match(set, /HttpOnly/i);
  assert.match(set, /SameSite=Lax/i);
  assert.doesNotMatch(set, /Secure/i, 'plain http test: no Secure flag');
  const cookie = cookieOf(signIn.headers['set-cookie']);
  const { csrfToken } = signIn.json();

  const who = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } });
  assert.equal(who.statusCode, 200);
  assert.equal(who.json().authMethod, 'session');
  assert.equal(who.json().csrfToken, csrfToken);

  const noCsrf = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: { cookie }, payload: { name: 'W' } });
  assert.equal(noCsrf.statusCode, 403);
  assert.equal(noCsrf.json().error.code, 'csrf_failed');
  const wrongCsrf = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: { cookie, 'x-csrf-token': csrfToken.slice(1) + 'x' }, payload: { name: 'W' } });
  assert.equal(wrongCsrf.statusCode, 403);
  const withCsrf = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: { cookie, 'x-csrf-token': csrfToken }, payload: { name: 'W' } });
  assert.equal(withCsrf.statusCode, 201);
  const count = await h.store.db.selectFrom('workspaces').select((eb) => eb.fn.countAll<string>().as('n')).where('tenant_id', '=', admin.tenantId).executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 1, 'the refused requests changed nothing');

  const out = await h.app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, 'x-csrf-token': csrfToken } });
  assert.equal(out.statusCode, 200);
  const after = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } });
  assert.equal(after.statusCode, 401);
});

test('a session dies with the token it was opened with, and a bad token cannot open one', async (t) => {
  const h = await build(t);
  const admin = await h.tenant();
  const other = await admin.token2(['read']);
  const signIn = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: other.token } });
  const cookie = cookieOf(signIn.headers['set-cookie']);
  assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } })).statusCode, 200);
  await h.app.inject({ method: 'DELETE', url: `/api/tokens/${other.id}`, headers: admin.auth });
  assert.equal((await h.app.inject({ method: 'GET', url: '/api/whoami', headers: { cookie } })).statusCode, 401);

  const refused = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: 'svc_pat_nosuchtoken_' + 'x'.repeat(40) } });
  assert.equal(refused.statusCode, 401);
  assert.equal(refused.headers['set-cookie'], undefined);
});

test('the cookie is Secure behind https', async (t) => {
  const h = await build(t, { SVC_PUBLIC_URL: 'https://svc.example.gov' });
  const admin = await h.tenant();
  const signIn = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: admin.token } });
  assert.match(String(signIn.headers['set-cookie']), /Secure/);
});
