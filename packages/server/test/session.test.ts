import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';

function cookieOf(setCookie: string | string[] | undefined): string {
  const line = Array.isArray(setCookie) ? setCookie[0]! : setCookie!;
  return line.split(';')[0]!;
}

test('a console session: httpOnly SameSite=Lax cookie, the caller as whoami answers it, CSRF needed for changes, sign-out ends it', async (t) => {
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
  // Sign-in answers the caller exactly as whoami then does, so the console need not ask again.
  const { ok: _ok, ...caller } = who.json();
  assert.deepEqual(signIn.json().whoami, caller);

  const noCsrf = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: { cookie }, payload: { name: 'W' } });
  assert.equal(noCsrf.statusCode, 403);
  assert.equal(noCsrf.json().error.code, 'csrf_failed');
  const wrongCsrf = await h.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: { cookie, 'x-csrf-token': csrfToken.slice(1) + 'x' },
    payload: { name: 'W' },
  });
  assert.equal(wrongCsrf.statusCode, 403);
  const withCsrf = await h.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: { cookie, 'x-csrf-token': csrfToken },
    payload: { name: 'W' },
  });
  assert.equal(withCsrf.statusCode, 201);
  const count = await h.store.db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', admin.tenantId)
    .executeTakeFirstOrThrow();
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

test('the sign-in routes are limited per client address: 429 with Retry-After and the envelope, other addresses unaffected', async (t) => {
  const h = await build(t, { SVC_SIGNIN_RATE_LIMIT_PER_MINUTE: '3' });
  const admin = await h.tenant();
  const from = (remoteAddress: string, headers: Record<string, string> = {}, token = 'svc_pat_nosuchtoken_' + 'x'.repeat(40)) =>
    h.app.inject({ method: 'POST', url: '/api/session', payload: { token }, headers, remoteAddress });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await from('198.51.100.7')).statusCode);
  assert.deepEqual(statuses, [401, 401, 401]);
  const limited = await from('198.51.100.7');
  assert.equal(limited.statusCode, 429);
  assert.ok(Number(limited.headers['retry-after']) >= 1, 'Retry-After is set');
  assert.equal(limited.json().ok, false);
  assert.equal(limited.json().error.code, 'rate_limited');

  const good = await from('198.51.100.7', {}, admin.token);
  assert.equal(good.statusCode, 429, 'a valid token does not get past the limit');
  assert.equal(good.headers['set-cookie'], undefined);
  for (const url of ['/api/auth/login', '/api/auth/callback?state=x&code=y']) {
    const r = await h.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.7' });
    assert.equal(r.statusCode, 429, `${url} shares the address's budget`);
  }
  assert.equal(
    (await from('198.51.100.7', { 'x-forwarded-for': '203.0.113.9' })).statusCode,
    429,
    'X-Forwarded-For is not believed without SVC_TRUST_PROXY',
  );
  assert.equal((await from('198.51.100.8')).statusCode, 401, 'another address has its own budget');
  // An IPv6 client is counted by its /64: every address of one subscriber's prefix shares the budget.
  for (const ip of ['2001:db8:7:1::a', '2001:db8:7:1:ffff::b', '2001:0db8:0007:0001::c'])
    assert.equal((await from(ip)).statusCode, 401, ip);
  assert.equal((await from('2001:db8:7:1:1:2:3:4')).statusCode, 429, 'a fourth address of the same /64');
  assert.equal((await from('2001:db8:7:2::a')).statusCode, 401, 'the next /64 has its own budget');
  const who = await h.app.inject({ method: 'GET', url: '/api/whoami', headers: admin.auth, remoteAddress: '198.51.100.7' });
  assert.equal(who.statusCode, 200, 'authenticated calls keep the per-token limit');
});

test('behind a trusted proxy (SVC_TRUST_PROXY) the sign-in limit counts the forwarded client address', async (t) => {
  const h = await build(t, { SVC_SIGNIN_RATE_LIMIT_PER_MINUTE: '2', SVC_TRUST_PROXY: 'true' });
  const from = (client: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { token: 'svc_pat_nosuchtoken_' + 'x'.repeat(40) },
      headers: { 'x-forwarded-for': client },
      remoteAddress: '10.0.0.1',
    });
  assert.deepEqual(
    [(await from('203.0.113.1')).statusCode, (await from('203.0.113.1')).statusCode, (await from('203.0.113.1')).statusCode],
    [401, 401, 429],
  );
  assert.equal((await from('203.0.113.2')).statusCode, 401, 'another client behind the same proxy has its own budget');
});
