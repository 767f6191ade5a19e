// /metrics is deployment-wide: it needs the metrics scope (or operator), or the static SVC_METRICS_TOKEN, and what it
// shows is counted over every tenant without naming any (no client, key, credential, tenant or user ids).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { build } from './helpers.js';
import { OPERATOR } from './install-helpers.js';
import { ConfigError, loadConfig } from '../src/config.js';

const METRICS_TOKEN = `metrics-${'0123456789abcdef'.repeat(3)}`;
const DAY_MS = 86_400_000;

test('/metrics needs a token or session with the metrics scope (operator implies it), or SVC_METRICS_TOKEN; a tenant admin is refused', async (t) => {
  const h = await build(t, { SVC_METRICS_TOKEN: METRICS_TOKEN });
  const a = await h.tenant();
  const scrape = (headers: Record<string, string>) => h.app.inject({ method: 'GET', url: '/metrics', headers });
  const refused = async (headers: Record<string, string>, status: number, code: string, label: string) => {
    const r = await scrape(headers);
    assert.equal(r.statusCode, status, `${label}: ${r.body}`);
    assert.equal(r.json().ok, false, label);
    assert.equal(r.json().error.code, code, label);
    assert.doesNotMatch(r.body, /svc_http_requests_total/, label);
  };
  await refused({}, 401, 'unauthenticated', 'no credentials');
  await refused(a.auth, 403, 'missing_scope', 'a tenant admin');
  await refused({ authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` }, 401, 'invalid_token', 'a wrong static token');
  await refused(
    { authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}` },
    401,
    'invalid_token',
    'the static token in another scheme',
  );

  const metrics = await a.token2(['metrics']);
  const operator = await a.token2(['operator']);
  for (const [label, headers] of [
    ['metrics scope', metrics.auth],
    ['operator scope', operator.auth],
    ['SVC_METRICS_TOKEN', { authorization: `Bearer ${METRICS_TOKEN}` }],
  ] as const) {
    const r = await scrape(headers);
    assert.equal(r.statusCode, 200, `${label}: ${r.body}`);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    assert.match(r.body, /^svc_event_loop_delay_seconds\{quantile="0.5"\} /m, label);
  }
  // A console session opened with a metrics token reads them too.
  const session = await h.app.inject({ method: 'POST', url: '/api/session', payload: { token: metrics.token } });
  assert.equal(session.statusCode, 200, session.body);
  const cookie = session.headers['set-cookie'];
  const cookieHeader = [cookie]
    .flat()
    .map((c) => String(c).split(';')[0])
    .join('; ');
  assert.equal((await scrape({ cookie: cookieHeader })).statusCode, 200);

  // The static token reads metrics and nothing else.
  for (const url of ['/api/whoami', '/api/workspaces', '/api/tokens']) {
    const r = await h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(r.statusCode, 401, `${url}: ${r.body}`);
  }
});

test('SVC_METRICS_TOKEN must be a bearer value of 32 to 256 characters', () => {
  for (const bad of ['short', 'x'.repeat(257), `${'a'.repeat(40)} b`, `${'a'.repeat(40)}"`, `${'a'.repeat(40)}=x`]) {
    assert.throws(
      () => loadConfig({ SVC_METRICS_TOKEN: bad }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_METRICS_TOKEN',
      JSON.stringify(bad),
    );
  }
  assert.equal(loadConfig({ SVC_METRICS_TOKEN: METRICS_TOKEN }).metrics.token, METRICS_TOKEN);
  assert.equal(loadConfig({}).metrics.token, undefined);
});

test('a scrape names no tenant: registered secrets are counted by alert level, refusal codes that look like ids are "other"', async (t) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  t.after(async () => {
    for (const c of cleanup) await c();
  }); // registered first: runs before the app and its store close
  const h = await build(t, { SVC_METRICS_TOKEN: METRICS_TOKEN });
  const scrape = async () =>
    (await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
  const sample = (body: string, series: string) =>
    Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(body)?.[1] ?? 0);
  const GAUGES = [
    'svc_identity_secret_expiry_alerts{threshold="0",level="expired"}',
    'svc_identity_secret_expiry_alerts{threshold="7",level="critical"}',
    'svc_identity_secret_expiry_alerts{threshold="30",level="warning"}',
    'svc_identity_secret_expiry_alerts{threshold="90",level="notice"}',
    'svc_identity_secrets_registered',
  ];
  // The gauges count every tenant's secrets of the store (on a shared PostgreSQL run, other tests' too): this test
  // reads what its own secrets add, and removes them when it ends.
  const before = await scrape();
  const tenants = [await h.tenant(), await h.tenant()];
  for (const x of tenants)
    cleanup.push(() =>
      h.store.db
        .deleteFrom('identity_credentials' as never)
        .where('tenant_id' as never, '=', x.tenantId as never)
        .execute(),
    );
  const secrets: string[] = [];
  const now = Date.now();
  // Days to expiry: long expired (sooner than any other secret of the store), critical (7), warning (30), notice (90), none yet.
  const days = [-4999.5, 6, 20, 60, 200];
  for (const [i, d] of days.entries()) {
    const tenant = tenants[i % 2]!;
    const body = {
      displayName: `cred-${randomUUID()}`,
      clientId: randomUUID(),
      keyId: `key-${randomUUID()}`,
      expiresAt: new Date(now + d * DAY_MS).toISOString(),
    };
    await h.services.tenancy.assignApplication(OPERATOR, tenant.tenantId, { clientId: body.clientId });
    const r = await h.app.inject({ method: 'POST', url: '/api/admin/identity/credentials', headers: tenant.auth, payload: body });
    assert.equal(r.statusCode, 201, r.body);
    secrets.push(body.displayName, body.clientId, body.keyId, r.json().credential.id);
  }
  // Two refusals of backing calls: one with a service's error name, one whose "code" carries an id.
  const refuse = h.services.backends.pipeline.options.onAuthFailure!;
  refuse({ service: 'identity', status: 401, code: 'AADSTS7000215', url: 'https://login.example/token', principal: randomUUID() });
  refuse({
    service: 'identity',
    status: 403,
    code: `Denied${'ab12'.repeat(8)}`,
    url: 'https://login.example/token',
    principal: randomUUID(),
  });

  const body = await scrape();
  for (const id of [...secrets, ...tenants.flatMap((x) => [x.tenantId, x.userId])]) assert.ok(!body.includes(id), `the scrape shows ${id}`);
  assert.doesNotMatch(body, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, 'no id of any kind');
  assert.doesNotMatch(body, /\{[^}]*(client|key|tenant|user|credential)[a-z_]*=/i, "no label names a tenant's thing");
  assert.deepEqual(
    GAUGES.map((g) => sample(body, g) - sample(before, g)),
    [1, 1, 1, 1, 5],
    'one secret at each alert level, five registered',
  );
  assert.equal(sample(body, 'svc_identity_secret_soonest_expiry_days'), -5000);
  assert.equal(sample(body, 'svc_identity_auth_failures_total{service="identity",code="AADSTS7000215"}'), 1);
  assert.equal(sample(body, 'svc_identity_auth_failures_total{service="identity",code="other"}'), 1);
});
