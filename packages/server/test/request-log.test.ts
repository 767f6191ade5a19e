// What the request log shows of a URL: secrets sent in a query (a token as ?access_token=, the sign-in callback's code
// and state, a signature, a client secret) never reach it; the path and the other parameters do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers.js';
import { isSecretName, loggableUrl } from '../src/http/loggable-url.js';

test('the request log redacts the values of secret-named query parameters, and tokens anywhere in the URL', async (t) => {
  const lines: string[] = [];
  const h = await build(
    t,
    { SVC_LOG_LEVEL: 'info' },
    {
      logStream: {
        write: (line) => {
          lines.push(line);
        },
      },
    },
  );
  const a = await h.tenant();
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXZhbHVl';
  const secrets = {
    access_token: a.token,
    Token: 'tok-7f3a9c1e',
    code: 'authcode-5b8e2d',
    state: 'state-91c4aa',
    session_state: 'sess-3d7f10',
    CLIENT_SECRET: 'shh-client-secret-88',
    password: 'hunter2-pw',
    sig: 'sas-signature-6e1f',
    'api-key': 'apikey-0c9b72',
    id_token: jwt,
    refresh_token: 'refresh-4411ab',
    '%61ccess_token': 'encoded-name-secret',
  };
  const query = Object.entries(secrets)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  for (const url of [
    `/api/workspaces?limit=5&${query}`,
    `/api/auth/callback?${query}&error=access_denied`,
    `/metrics?${query}`,
    `/api/no-such-route?${query}`,
    `/api/workspaces/${a.token}?cursor=abc`,
  ]) {
    await h.app.inject({ method: 'GET', url, headers: a.auth });
  }
  const log = lines.join('');
  const logged = lines
    .map((l) => JSON.parse(l))
    .filter((e) => e.req?.url)
    .map((e) => e.req.url as string);
  assert.equal(logged.length, 5, `every request is logged with its URL:\n${log}`);
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(!log.includes(value) && !log.includes(encodeURIComponent(value)), `the value of ${name} is in the log:\n${log}`);
  }
  assert.ok(!log.includes(a.token.slice(8)), 'the API token in a path is in the log');
  assert.match(logged[0]!, /^\/api\/workspaces\?limit=5&access_token=\[redacted\]&Token=\[redacted\]&code=\[redacted\]/);
  assert.match(logged[1]!, /^\/api\/auth\/callback\?.*&error=access_denied$/, 'the provider’s error stays readable');
  assert.equal(logged[4], '/api/workspaces/[redacted]?cursor=abc');
});

test('which query parameter names are secrets', () => {
  for (const name of [
    'access_token',
    'ACCESS_TOKEN',
    'token',
    'code',
    'state',
    'session_state',
    'client_secret',
    'client-secret',
    'secret',
    'password',
    'passwd',
    'sig',
    'X-Amz-Signature',
    'key',
    'api_key',
    'apikey',
    'subscription-key',
    'id_token',
    'refresh_token',
    'client_assertion',
    'code_verifier',
    'nonce',
    '%73ig',
    'access+token',
  ]) {
    assert.ok(isSecretName(name), name);
  }
  for (const name of [
    'workspaceId',
    'limit',
    'cursor',
    'returnTo',
    'error',
    'error_description',
    'ip',
    'since',
    'principal',
    'keyId',
    'format',
    '%E0%A4%A',
  ]) {
    assert.ok(!isSecretName(name), name);
  }
  assert.equal(loggableUrl('/api/x'), '/api/x');
  assert.equal(loggableUrl('/api/x?a=1&token&b=2'), '/api/x?a=1&token&b=2', 'a name without a value has nothing to hide');
  assert.equal(loggableUrl('/api/x?a=1&token=s&token=t&b=2'), '/api/x?a=1&token=[redacted]&token=[redacted]&b=2');
  assert.equal(loggableUrl('/api/x?next=svc_pat_abcdefgh_ABCDEFGH'), '/api/x?next=[redacted]');
});
