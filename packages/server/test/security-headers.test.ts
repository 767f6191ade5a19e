// Security headers on every kind of answer: API JSON, errors, 404s, the OpenAPI document and the sign-in error page get
// the API's; a path outside the API the console's (its pages are checked in Chromium, test/console). HSTS only when
// the deployment is reached over https.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';
import { install, workspace } from './install-helpers.js';

/** The Content-Security-Policy header as a map of directive → sources. */
function csp(header: string | string[] | number | undefined): Map<string, string[]> {
  assert.equal(typeof header, 'string', 'a Content-Security-Policy header');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test('every kind of API answer carries a policy that loads and frames nothing, nosniff, no framing, no referrer and its request id; no HSTS over http', async (t) => {
  const h = await build(t);
  const a = await h.tenant();
  const answers = {
    'API JSON': await h.app.inject({ method: 'GET', url: '/api/whoami', headers: a.auth }),
    'public JSON': await h.app.inject({ method: 'GET', url: '/api/health' }),
    '401': await h.app.inject({ method: 'GET', url: '/api/whoami' }),
    '400': await h.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: { ...a.auth, 'content-type': 'application/json' },
      payload: '{',
    }),
    '404': await h.app.inject({ method: 'GET', url: '/api/no-such-route' }),
    'OpenAPI document': await h.app.inject({ method: 'GET', url: '/api/openapi.json' }),
    'sign-in failure redirect': await h.app.inject({
      method: 'GET',
      url: '/api/auth/callback?state=x&code=y',
      headers: { accept: 'text/html' },
    }),
  };
  assert.match(
    String(answers['sign-in failure redirect'].headers.location),
    /^\/sign-in\?error=/,
    'the callback sends a browser to the console page saying why',
  );
  const ids = new Set<string>();
  for (const [label, r] of Object.entries(answers)) {
    const policy = csp(r.headers['content-security-policy']);
    // No script-src or object-src: they fall back to default-src, so nothing runs or loads from an API answer.
    assert.deepEqual([...policy.keys()].sort(), ['default-src', 'frame-ancestors'], label);
    assert.deepEqual(policy.get('default-src'), ["'none'"], label);
    assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], label);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', label);
    assert.equal(r.headers['x-frame-options'], 'DENY', label);
    assert.equal(r.headers['referrer-policy'], 'no-referrer', label);
    assert.equal(r.headers['cross-origin-resource-policy'], 'same-origin', label);
    assert.equal(r.headers['strict-transport-security'], undefined, `${label}: no HSTS over http`);
    assert.match(String(r.headers['x-request-id']), /^\S+$/, `${label}: its request id`);
    ids.add(String(r.headers['x-request-id']));
  }
  assert.equal(ids.size, Object.keys(answers).length, 'each answer its own request id');
});

test('an answer outside the API (a page’s path) carries the console’s policy: scripts and styles from the service only, helmet’s headers', async (t) => {
  const h = await build(t);
  const r = await h.app.inject({ method: 'GET', url: '/no-such-page' });
  const policy = csp(r.headers['content-security-policy']);
  assert.deepEqual(policy.get('script-src'), ["'self'"], 'scripts only from the service');
  assert.deepEqual(policy.get('default-src'), ["'self'"]);
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['x-frame-options'], 'DENY');
  assert.equal(r.headers['referrer-policy'], 'no-referrer');
  assert.equal(r.headers['cross-origin-opener-policy'], 'same-origin');
  assert.match(String(r.headers['x-request-id']), /^\S+$/);
});

test('HSTS when the request came over https through a trusted proxy, and on every answer when SVC_PUBLIC_URL is https', async (t) => {
  const proxied = await build(t, { SVC_TRUST_PROXY: 'true' });
  const overHttps = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
  assert.match(String(overHttps.headers['strict-transport-security']), /^max-age=\d{8,}/);
  const overHttp = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'http' } });
  assert.equal(overHttp.headers['strict-transport-security'], undefined);

  const published = await build(t, { SVC_PUBLIC_URL: 'https://analytics.agency.example.gov' });
  for (const url of ['/api/health', '/api/openapi.json', '/api/whoami', '/api/no-such-route']) {
    const r = await published.app.inject({ method: 'GET', url });
    assert.match(String(r.headers['strict-transport-security']), /^max-age=\d{8,}; includeSubDomains$/, url);
  }
});

test('a job’s event stream, written past Fastify’s reply, carries the same security headers', async (t) => {
  const h = await build(t, { SVC_WORKER_POLL_MS: '100' });
  const a = await h.tenant();
  const job = await install(h, a, 'app-lakehouse-inspector', { workspaceId: await workspace(h, a), deploy: false });
  const r = await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${job.id}/events`, headers: a.auth });
  assert.equal(r.statusCode, 200);
  assert.match(String(r.headers['content-type']), /^text\/event-stream/);
  assert.match(r.body, /^event: done$/m);
  assert.deepEqual(csp(r.headers['content-security-policy']).get('default-src'), ["'none'"]);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['x-frame-options'], 'DENY');
  assert.equal(r.headers['referrer-policy'], 'no-referrer');
});
