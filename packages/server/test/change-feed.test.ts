// The caches of tokens, workspace roles and listings rely on the change feed to hear other processes' revocations and
// writes. While its connection is lost they keep nothing, so a token revoked or a role removed elsewhere meanwhile stops
// at once; the feed connects again by itself and the caches resume.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { build, type TestApp } from './helpers.js';

const QUIET = { SVC_WORKER_POLL_MS: '600000' };

async function until(what: string, ok: () => boolean, ms = 15_000) {
  for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
  }
}

/** Store statements sent by 20 runs of a read. */
async function statementsOf(h: TestApp, run: () => Promise<unknown>) {
  const before = h.store.versions.statements;
  for (let i = 0; i < 20; i++) await run();
  return h.store.versions.statements - before;
}

test('while the change feed is down nothing is kept, so what another process revokes or removes stops at once', async (t) => {
  const h = await build(t, QUIET);
  const tenant = await h.tenant();
  const owner = await tenant.user('Olive Owner');
  const reader = await tenant.user('Rita Reader');
  const call = (url: string, auth: { authorization: string }, method = 'GET', payload?: object) =>
    h.app.inject({ method: method as 'GET', url, headers: auth, ...(payload ? { payload } : {}) });
  const ws = (await call('/api/workspaces', owner.auth, 'POST', { name: 'feed' })).json().workspace.id;
  const assigned = await call(`/api/workspaces/${ws}/role-assignments`, owner.auth, 'POST', {
    principal: { type: 'User', id: reader.userId },
    role: 'Viewer',
  });
  assert.equal(assigned.statusCode, 201, assigned.body);
  const items = `/api/workspaces/${ws}/items`;
  assert.equal((await call(items, reader.auth)).statusCode, 200);
  assert.ok((await statementsOf(h, () => call(items, reader.auth))) < 3, 'token, role and listing kept while the feed is up');
  if (h.store.kind !== 'postgres') {
    assert.equal(h.store.feed.live(), true, 'the embedded store is one process: nothing to hear from another');
    return;
  }

  // Another process: a connection of its own, whose commits this one hears only through the feed.
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  t.after(() => other.end());
  const first = h.store.feed.backendPid();
  assert.ok(first);
  await other.query('SELECT pg_terminate_backend($1)', [first]);
  await until('the feed is down', () => !h.store.feed.live());

  assert.ok((await statementsOf(h, () => call(items, reader.auth))) >= 20, 'while it is down every read goes to the store');
  await other.query('DELETE FROM workspace_role_assignments WHERE id = $1', [assigned.json().roleAssignment.id]);
  assert.equal((await call(items, reader.auth)).statusCode, 404, 'a role removed elsewhere meanwhile applies at once');
  const ownerTokenId = owner.token.split('_')[2]!;
  await other.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [ownerTokenId]);
  const revoked = await call(items, owner.auth);
  assert.equal(revoked.statusCode, 401, revoked.body);
  assert.equal(revoked.json().error.code, 'token_revoked', 'a token revoked elsewhere meanwhile stops at once');

  await until('the feed listens again', () => h.store.feed.live());
  assert.notEqual(h.store.feed.backendPid(), first, 'on a new connection');
  const admin = tenant.auth; // the tenant admin: Admin on every workspace
  assert.equal((await call(items, admin)).statusCode, 200);
  assert.ok((await statementsOf(h, () => call(items, admin))) < 3, 'the caches keep again');
  await other.query('DELETE FROM workspaces WHERE id = $1', [ws]);
  for (let i = 0; i < 250 && (await call(items, admin)).statusCode !== 404; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal((await call(items, admin)).statusCode, 404, 'and hear other processes again');
});
