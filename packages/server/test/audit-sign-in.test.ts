import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox } from '@svc/sandbox';
import { build } from './helpers.js';
import { recorded, send } from './audit-helpers.js';
import { workspace } from './install-helpers.js';
import { pickOnProvider } from './oidc-sign-in.js';

// Request ids unique to this run: on PostgreSQL the store (and its append-only trail) is shared across runs.
const RUN = randomUUID();

// Sign-ins in the audit trail: by token (POST /api/session) and through the identity provider (OIDC), and sign-out.

test('sessions by token: signed in, a refused token, signed out; a PATCH binding is workspace.bound', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const signIn = await recorded(h, a, 'POST', '/api/session', {}, { token: a.token });
  assert.equal(signIn.r.statusCode, 200);
  assert.deepEqual(
    [signIn.e.kind, signIn.e.outcome, signIn.e.actor.userId, signIn.e.actor.method],
    ['session.signed-in', 'succeeded', a.userId, 'token'],
  );
  assert.ok(!JSON.stringify(signIn.e).includes(signIn.r.json().csrfToken), 'no CSRF token in the event');
  const cookie = signIn.r.headers['set-cookie']!.toString().split(';')[0]!;
  const out = await recorded(h, a, 'DELETE', '/api/session', { cookie, 'x-csrf-token': signIn.r.json().csrfToken });
  assert.deepEqual([out.r.statusCode, out.e.kind, out.e.actor.method], [200, 'session.signed-out', 'session']);

  const bad = await send(h, 'POST', '/api/session', { 'x-request-id': `rq-bad-session-${RUN}` }, { token: `${a.token}x` });
  assert.equal(bad.statusCode, 401);
  const failed = await h.store.db.selectFrom('audit_events').selectAll().where('request_id', '=', `rq-bad-session-${RUN}`).execute();
  assert.deepEqual(
    failed.map((r) => [r.kind, r.outcome, r.status, r.tenant_id, r.actor_user_id]),
    [['session.sign-in-failed', 'refused', 401, 'default', null]],
  );
  assert.ok(!JSON.stringify(failed).includes(a.token.split('_').at(-1)!), 'the offered token is not recorded');

  const ws = await workspace(h, a);
  const renamed = await recorded(h, a, 'PATCH', `/api/workspaces/${ws}`, a.auth, { name: 'Renamed' });
  assert.deepEqual([renamed.e.kind, renamed.e.target.name, renamed.e.detail?.fields], ['workspace.updated', 'Renamed', ['name']]);
  const bind = await recorded(h, a, 'PATCH', `/api/workspaces/${ws}`, a.auth, { platformWorkspaceId: randomUUID() });
  assert.deepEqual([bind.e.kind, bind.e.outcome, bind.e.status], ['workspace.bound', 'refused', 404], 'a platform workspace not assigned');
});

test('OIDC: a sign-in is recorded in the mapped tenant with the user; a refused one with the reason', async (t: TestContext) => {
  const sb = await startSandbox({});
  t.after(() => sb.stop());
  const serviceTenant = `t-${randomUUID()}`;
  const h = await build(t, { ...sb.env, SVC_OIDC_TENANTS: `${sb.ids.tenantId}=${serviceTenant}` });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  const rows = (requestId: string) => h.store.db.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).execute();

  const ok = await pickOnProvider(base, 'ada');
  const back = await fetch(ok.callback, {
    redirect: 'manual',
    headers: { cookie: ok.stateCookie, 'x-request-id': `rq-oidc-ok-${RUN}` },
  });
  assert.equal(back.status, 302);
  const [signedIn] = await rows(`rq-oidc-ok-${RUN}`);
  assert.deepEqual(
    [signedIn?.kind, signedIn?.outcome, signedIn?.status, signedIn?.tenant_id, signedIn?.actor_user_name, signedIn?.actor_method],
    ['session.signed-in', 'succeeded', 302, serviceTenant, 'Ada Admin', 'oidc'],
  );
  assert.ok(signedIn?.actor_user_id);

  const bad = await pickOnProvider(base, 'ari');
  const refused = await fetch(bad.callback, {
    redirect: 'manual',
    headers: { cookie: `${bad.stateCookie}x`, accept: 'text/html', 'x-request-id': `rq-oidc-bad-${RUN}` },
  });
  assert.equal(refused.status, 303, 'a browser goes to the console page saying why');
  const failed = await rows(`rq-oidc-bad-${RUN}`);
  assert.equal(failed.length, 1);
  assert.deepEqual([failed[0]!.kind, failed[0]!.outcome, failed[0]!.status], ['session.sign-in-failed', 'refused', 400]);
  assert.equal(failed[0]!.detail?.reason, 'oidc_state_mismatch');
  assert.equal(failed[0]!.tenant_id, 'default', 'before the id token the tenant is not known');
});
