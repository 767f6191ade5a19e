import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { startSandbox } from '@svc/sandbox';
import { build } from './helpers.js';
import { oidcSettings } from '../src/auth/oidc.js';
import { selectCloud } from '../src/cloud/profiles.js';
import { ConfigError, loadConfig } from '../src/config.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** The service listening on loopback against a fresh sandbox, its sandbox tenant mapped to a fresh service tenant. */
async function rig(t: TestContext, env: Record<string, string> = {}) {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  const serviceTenant = `t-${randomUUID()}`;
  const h = await build(t, { ...sb.env, SVC_OIDC_TENANTS: `${sb.ids.tenantId}=${serviceTenant}`, ...env });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  return { sb, h, base, serviceTenant };
}

const cookieOf = (r: Response, name: string) => r.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
const cookieValue = (setCookie: string | undefined) => setCookie?.split(';')[0]?.split('=').slice(1).join('=');

/** Starts a sign-in and picks `user` on the sandbox's sign-in page, as a browser would; answers the callback address. */
async function throughProvider(sb: Sandbox, base: string, user: string, returnTo = '/workspaces') {
  const login = await fetch(`${base}/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
  assert.equal(login.status, 302, await login.text());
  const stateCookie = cookieOf(login, 'svc_oidc_state');
  assert.ok(stateCookie, 'the state cookie is set');
  assert.match(stateCookie, /HttpOnly/i);
  assert.match(stateCookie, /Path=\/api\/auth/);
  const authorize = new URL(login.headers.get('location')!);
  assert.equal(`${authorize.origin}${authorize.pathname}`, `${sb.urls.identity}/${sb.ids.tenantId}/oauth2/v2.0/authorize`);
  const page = await fetch(authorize);
  assert.equal(page.status, 200);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    );
  const account = sb.ids.users.find((u) => u.upn.startsWith(`${user}@`))!;
  assert.ok(html.includes(account.objectId), 'the sign-in page lists the account');
  form.set('user', account.objectId);
  const picked = await fetch(authorize, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(picked.status, 302, await picked.text());
  return { callback: picked.headers.get('location')!, state: cookieValue(stateCookie)!, authorize, account };
}

test('sign-in with the sandbox identity provider: code + PKCE, a user on first sign-in, the same one after, a session', async (t) => {
  const { sb, h, base, serviceTenant } = await rig(t);
  const health = await (await fetch(`${base}/api/health`)).json();
  assert.deepEqual(health.identityProvider, { name: 'Sandbox identity provider', loginUrl: '/api/auth/login' });

  const first = await throughProvider(sb, base, 'ada');
  const p = first.authorize.searchParams;
  assert.equal(p.get('client_id'), sb.ids.consoleApp.appId);
  assert.equal(p.get('response_type'), 'code');
  assert.equal(p.get('code_challenge_method'), 'S256');
  assert.match(p.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(p.get('nonce') && p.get('state'));
  assert.equal(p.get('redirect_uri'), `${base}/api/auth/callback`);
  assert.match(p.get('scope')!, /\bopenid\b/);
  assert.ok(first.callback.startsWith(`${base}/api/auth/callback?`), first.callback);

  const back = await fetch(first.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${first.state}` } });
  assert.equal(back.status, 302, await back.text());
  assert.equal(back.headers.get('location'), '/workspaces');
  const session = cookieOf(back, 'svc_session');
  assert.ok(session, 'the session cookie is set');
  assert.match(session, /HttpOnly/i);
  assert.match(cookieOf(back, 'svc_oidc_state')!, /svc_oidc_state=;/, 'the state cookie is cleared');
  const me = await (await fetch(`${base}/api/whoami`, { headers: { cookie: session.split(';')[0]! } })).json();
  assert.equal(me.authMethod, 'session');
  assert.equal(me.tenantId, serviceTenant, 'the tid maps to the service tenant');
  assert.equal(me.userName, 'Ada Admin');
  assert.deepEqual(me.scopes, ['read', 'write', 'install', 'reports', 'tokens'], 'not an admin unless SVC_OIDC_ADMINS says so');
  const users = () => h.store.db.selectFrom('users').selectAll().where('tenant_id', '=', serviceTenant).execute();
  const created = await users();
  assert.equal(created.length, 1, 'the user is created on first sign-in');
  assert.equal(created[0]!.oidc_subject, `${sb.ids.tenantId}/${first.account.objectId}`);
  assert.equal(created[0]!.id, me.userId);
  const sessionRow = await h.store.db
    .selectFrom('sessions')
    .select(['method', 'token_id'])
    .where('user_id', '=', me.userId)
    .executeTakeFirstOrThrow();
  assert.deepEqual(sessionRow, { method: 'oidc', token_id: null });

  const second = await throughProvider(sb, base, 'ada', '/');
  const again = await fetch(second.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${second.state}` } });
  assert.equal(again.status, 302);
  assert.equal(again.headers.get('location'), '/');
  const me2 = await (await fetch(`${base}/api/whoami`, { headers: { cookie: cookieOf(again, 'svc_session')!.split(';')[0]! } })).json();
  assert.equal(me2.userId, me.userId, 'the second sign-in reuses the user');
  assert.equal((await users()).length, 1);

  // The code went to the sandbox's token endpoint with the PKCE verifier and the console app's secret.
  const exchanges = (await sb.admin.requests({ service: 'identity' })).filter(
    (r) => r.method === 'POST' && r.path.endsWith('/oauth2/v2.0/token'),
  );
  assert.deepEqual(
    exchanges.map((r) => r.status),
    [200, 200],
    'two codes redeemed',
  );
});

test('a tampered, missing or replayed state, a refusal by the provider and a refused code never open a session', async (t) => {
  const { sb, h, base, serviceTenant } = await rig(t);
  const noSession = (r: Response) => assert.equal(cookieOf(r, 'svc_session'), undefined, 'no session cookie');

  const a = await throughProvider(sb, base, 'ari');
  const url = new URL(a.callback);
  url.searchParams.set('state', `${a.state}x`);
  let r = await fetch(url, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}x` } });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).error.code, 'oidc_state_unknown', 'a state the service never issued');
  noSession(r);
  r = await fetch(a.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}x` } });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).error.code, 'oidc_state_mismatch', 'the state is not this browser’s');
  noSession(r);
  r = await fetch(a.callback, { redirect: 'manual' });
  assert.equal((await r.json()).error.code, 'oidc_state_mismatch', 'no state cookie at all');
  noSession(r);
  // A browser goes to the console's sign-in page, which reads the code and the message from the query.
  r = await fetch(a.callback, { redirect: 'manual', headers: { accept: 'text/html' } });
  assert.equal(r.status, 303);
  const failurePage = new URL(r.headers.get('location')!, base);
  assert.equal(failurePage.pathname, '/sign-in');
  assert.equal(failurePage.searchParams.get('error'), 'oidc_state_mismatch');
  assert.ok(failurePage.searchParams.get('message'), 'the reason is sent along');
  noSession(r);

  // The genuine answer still works once, then its state is spent.
  r = await fetch(a.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}` } });
  assert.equal(r.status, 302);
  r = await fetch(a.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}` } });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).error.code, 'oidc_state_unknown', 'a replayed answer');
  noSession(r);

  // Una is not assigned to the console app: the provider answers error=access_denied.
  const una = await throughProvider(sb, base, 'una');
  assert.equal(new URL(una.callback).searchParams.get('error'), 'access_denied');
  r = await fetch(una.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${una.state}` } });
  assert.equal(r.status, 401);
  const refused = await r.json();
  assert.equal(refused.error.code, 'oidc_provider_error');
  assert.match(refused.error.message, /access_denied.*AADSTS50105/);
  noSession(r);

  // A code paired with another sign-in's state: the PKCE verifier does not match, the provider refuses the code.
  const b = await throughProvider(sb, base, 'ari');
  const c = await throughProvider(sb, base, 'ari');
  const mixed = new URL(b.callback);
  mixed.searchParams.set('state', c.state);
  r = await fetch(mixed, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${c.state}` } });
  assert.equal(r.status, 401);
  const body = await r.json();
  assert.equal(body.error.code, 'oidc_code_refused');
  assert.doesNotMatch(
    JSON.stringify(body),
    new RegExp(new URL(b.callback).searchParams.get('code')!.slice(2, 20)),
    'the code is not echoed',
  );
  noSession(r);

  const users = await h.store.db.selectFrom('users').select('id').where('tenant_id', '=', serviceTenant).execute();
  assert.equal(users.length, 1, 'only the one completed sign-in created a user');
});

test('the sign-in settings are checked at start, naming the variable', async () => {
  // As at start: loadConfig reads the variables, oidcSettings checks what depends on the selected cloud.
  const settings = (env: Record<string, string>) => {
    const config = loadConfig(env);
    return oidcSettings(config.oidc, selectCloud(config.cloud), config.server.publicUrl);
  };
  const sandbox = { SVC_CLOUD: 'sandbox' };
  assert.equal(settings(sandbox), undefined, 'off without a client id');
  assert.throws(
    () => settings({ ...sandbox, SVC_OIDC_CLIENT_SECRET: 'x' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_OIDC_CLIENT_ID',
  );
  const commercial = { SVC_CLOUD: 'commercial' };
  assert.throws(
    () => settings({ ...commercial, SVC_OIDC_CLIENT_ID: 'c' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_PUBLIC_URL',
  );
  const url = 'https://analytics.contoso.com';
  assert.throws(
    () => settings({ ...commercial, SVC_PUBLIC_URL: url, SVC_OIDC_CLIENT_ID: 'c' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_OIDC_TENANTS',
    'organizations needs a tenant map',
  );
  const tid = randomUUID();
  const multi = settings({ ...commercial, SVC_PUBLIC_URL: url, SVC_OIDC_CLIENT_ID: 'c', SVC_OIDC_TENANTS: `${tid}=contoso` })!;
  assert.equal(multi.issuer, 'https://login.microsoftonline.com/organizations/v2.0');
  assert.equal(multi.redirectUri, 'https://analytics.contoso.com/api/auth/callback');
  const high = { SVC_CLOUD: 'gcc-high', SVC_PUBLIC_URL: 'https://a.agency.us' };
  assert.throws(
    () => settings({ ...high, SVC_OIDC_CLIENT_ID: 'c', SVC_OIDC_TENANTS: `${tid}=x` }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_OIDC_TENANT',
  );
  const single = settings({ ...high, SVC_OIDC_CLIENT_ID: 'c', SVC_OIDC_TENANT: tid })!;
  assert.equal(single.issuer, `https://login.microsoftonline.us/${tid}/v2.0`);
  assert.equal(single.providerName, 'Microsoft Entra ID (Azure Government)');
  assert.equal(single.allowHttp, false);
  assert.throws(
    () => settings({ ...sandbox, SVC_OIDC_CLIENT_ID: 'c', SVC_OIDC_TENANT: tid, SVC_OIDC_SCOPES: 'read,root' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_OIDC_SCOPES',
  );
});

test('a single-tenant registration signs its own tid into the default tenant; SVC_OIDC_ADMINS makes an admin', async (t) => {
  const { sb, h, base } = await rig(t, { SVC_OIDC_TENANTS: `${randomUUID()}=elsewhere`, SVC_OIDC_ADMINS: 'ada@sandbox.onmicrosoft.com' });
  const a = await throughProvider(sb, base, 'ada');
  const r = await fetch(a.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}` } });
  assert.equal(r.status, 302);
  const me = await (await fetch(`${base}/api/whoami`, { headers: { cookie: cookieOf(r, 'svc_session')!.split(';')[0]! } })).json();
  assert.equal(me.tenantId, 'default');
  assert.ok(me.scopes.includes('admin'), 'SVC_OIDC_ADMINS makes Ada an admin');
  await h.store.db.deleteFrom('users').where('id', '=', me.userId).execute();
});

test('without SVC_OIDC_CLIENT_ID the routes answer 404 oidc_not_configured and health names no provider', async (t) => {
  const h = await build(t, { SVC_CLOUD: 'sandbox' });
  const r = await h.app.inject({ method: 'GET', url: '/api/auth/login' });
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().error.code, 'oidc_not_configured');
  const health = (await h.app.inject({ method: 'GET', url: '/api/health' })).json();
  assert.equal(health.identityProvider, undefined);
  const bad = await h.app.inject({ method: 'GET', url: '/api/auth/login?returnTo=//evil.example.com' });
  assert.equal(bad.statusCode, 400, 'returnTo must stay on this site');
});

test('an id token whose signature does not match the provider’s JWKS is refused, with no session', async (t) => {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  // Between the service and the sandbox's identity provider: its token answers carry an id token whose claims were
  // changed after signing (another user's object id), as a forger would.
  const proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
    ) as Record<string, string>;
    const up = await fetch(`${sb.urls.identity}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    });
    let text = await up.text();
    const self = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    if (req.url!.includes('openid-configuration'))
      text = text.replace(`"token_endpoint":"${sb.urls.identity}`, `"token_endpoint":"${self}`);
    if (req.url!.endsWith('/oauth2/v2.0/token') && up.status === 200) {
      const body = JSON.parse(text);
      const [head, payload, signature] = body.id_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims.oid = sb.ids.users[1]!.objectId;
      body.id_token = [head, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
      text = JSON.stringify(body);
    }
    res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => proxy.close(() => r())));
  const serviceTenant = `t-${randomUUID()}`;
  const h = await build(t, {
    ...sb.env,
    SVC_AUTH_URL: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    SVC_OIDC_TENANTS: `${sb.ids.tenantId}=${serviceTenant}`,
  });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  const login = await fetch(`${base}/api/auth/login`, { redirect: 'manual' });
  const authorize = new URL(login.headers.get('location')!);
  const state = cookieValue(cookieOf(login, 'svc_oidc_state'))!;
  const form = new URLSearchParams(authorize.searchParams);
  form.set('user', sb.ids.users[0]!.objectId);
  const picked = await fetch(`${sb.urls.identity}${authorize.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  const r = await fetch(picked.headers.get('location')!, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${state}` } });
  assert.equal(r.status, 401);
  const body = await r.json();
  assert.equal(body.error.code, 'oidc_invalid_token');
  assert.match(body.error.message, /signature/i);
  assert.equal(cookieOf(r, 'svc_session'), undefined);
  assert.equal(
    (await h.store.db.selectFrom('users').select('id').where('tenant_id', '=', serviceTenant).execute()).length,
    0,
    'no user is created',
  );
});

test('a token minted from an identity-provider session has no parent and is not cut to the session’s hours', async (t) => {
  const { sb, base } = await rig(t);
  const a = await throughProvider(sb, base, 'ada');
  const back = await fetch(a.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}` } });
  const cookie = cookieOf(back, 'svc_session')!.split(';')[0]!;
  const { csrfToken } = await (await fetch(`${base}/api/whoami`, { headers: { cookie } })).json();
  const r = await fetch(`${base}/api/tokens`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'automation', scopes: ['read'], expiresInDays: 90 }),
  });
  assert.equal(r.status, 201);
  const body = await r.json();
  assert.equal(body.token.parentId, null);
  assert.equal(body.expiryCapped, false);
  const days = (Date.parse(body.token.expiresAt) - Date.now()) / 86_400_000;
  assert.ok(days > 89.9 && days <= 90, `90 days, not the session's 12 hours: ${days}`);
});

test('returnTo must be a same-origin path: anything else is 400 naming it at login, and no sign-in is started', async (t) => {
  const { h, base } = await rig(t);
  const logins = async () => (await h.store.db.selectFrom('oidc_logins').select('state_hash').execute()).length;
  const before = await logins();
  // As they appear in the query string.
  const refused = [
    '/%09/evil.example.com/x',
    '/%0A/x',
    '/%0D%0ALocation:%20https://evil.example.com',
    '//evil.example.com',
    '/%5Cevil.example.com',
    'https%3A%2F%2Fevil.example.com%2F',
    'evil',
    '',
    '/..//evil.example.com',
    '/a/%2E%2E/%2E%2E//evil.example.com',
    '/a%5C..%5C..%5C/evil.example.com',
    '/%20/x',
    '/x%C2%85y',
    '/x%E2%80%A8y',
    '/x%7F',
    `/${'a'.repeat(600)}`,
  ];
  for (const value of refused) {
    const r = await fetch(`${base}/api/auth/login?returnTo=${value}`, { redirect: 'manual' });
    assert.equal(r.status, 400, `${value}: ${r.status}`);
    const body = await r.json();
    assert.equal(body.ok, false);
    assert.equal(body.error.field, 'returnTo', value);
    assert.equal(typeof body.error.code, 'string');
    assert.equal(cookieOf(r, 'svc_oidc_state'), undefined, `${value}: no sign-in state`);
  }
  assert.equal(await logins(), before, 'a refused returnTo stores nothing');

  const odd = await fetch(`${base}/api/auth/login?returnTo=${encodeURIComponent('/workspaces/a/../b?tab=items#top')}`, {
    redirect: 'manual',
  });
  assert.equal(odd.status, 302);
  const stored = await h.store.db.selectFrom('oidc_logins').select('return_to').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  assert.equal(stored.return_to, '/workspaces/b?tab=items#top', 'the path is kept as the service resolves it');
});

test('the callback never answers 500: a stored return path that is not same-origin lands on /, failures keep the envelope', async (t) => {
  const { sb, h, base } = await rig(t);
  const a = await throughProvider(sb, base, 'ada');
  // A sign-in started before returnTo was checked this strictly.
  await h.store.db.updateTable('oidc_logins').set({ return_to: '/\n/x' }).execute();
  const r = await fetch(a.callback, { redirect: 'manual', headers: { cookie: `svc_oidc_state=${a.state}` } });
  assert.equal(r.status, 302, await r.text());
  assert.equal(r.headers.get('location'), '/');
  assert.ok(cookieOf(r, 'svc_session'), 'the sign-in completed');

  // An unexpected failure inside the callback: a browser gets the sign-in error page, an API caller the envelope.
  for (const accept of ['text/html', 'application/json']) {
    const b = await throughProvider(sb, base, 'ada');
    await h.store.db.updateTable('oidc_logins').set({ redirect_uri: 'not a url' }).execute();
    const failed = await fetch(b.callback, { redirect: 'manual', headers: { accept, cookie: `svc_oidc_state=${b.state}` } });
    if (accept !== 'text/html') assert.ok(failed.status >= 400, `${accept}: ${failed.status}`);
    if (accept === 'text/html') {
      assert.equal(failed.status, 303);
      assert.match(failed.headers.get('location')!, /^\/sign-in\?error=internal&/);
    } else assert.equal((await failed.json()).error.code, 'internal');
    assert.equal(cookieOf(failed, 'svc_session'), undefined);
  }
});

test('starting sign-ins is limited per client address, and a refused start stores nothing', async (t) => {
  const { h, base } = await rig(t, { SVC_SIGNIN_RATE_LIMIT_PER_MINUTE: '2' });
  const logins = async () => (await h.store.db.selectFrom('oidc_logins').select('state_hash').execute()).length;
  const before = await logins();
  for (let i = 0; i < 2; i++) assert.equal((await fetch(`${base}/api/auth/login`, { redirect: 'manual' })).status, 302);
  const r = await fetch(`${base}/api/auth/login`, { redirect: 'manual' });
  assert.equal(r.status, 429);
  assert.ok(Number(r.headers.get('retry-after')) >= 1);
  assert.equal((await r.json()).error.code, 'rate_limited');
  assert.equal(cookieOf(r, 'svc_oidc_state'), undefined);
  assert.equal(await logins(), before + 2, 'the refused start wrote no row');
});
