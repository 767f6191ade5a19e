// The request log keeps what a replay needs (host, headers, body, the SQL or KQL statement) and none of the secrets:
// bearer tokens, client secrets, keys, the managed-identity header and vault values are redacted before they are stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Request } from 'tedious';
import { call, DFS_VERSION, part, sandbox } from './helpers.js';
import type { Sandbox } from '../src/index.js';
import { captureBody } from '../src/admin/logged-body.js';
import { redactHeaders, redactPath } from '../src/admin/redact.js';

/** One SQL batch over the sandbox's TDS endpoint (tedious, as the service sends it). */
async function sqlBatch(sb: Sandbox, sql: string): Promise<void> {
  const token = await sb.admin.token({ audience: 'https://database.windows.net/' });
  const [host, port] = sb.urls.sql.split(':');
  const conn = new Connection({
    server: host!,
    authentication: { type: 'azure-active-directory-access-token', options: { token } },
    options: { port: Number(port), database: sb.ids.warehousePool, encrypt: false, connectTimeout: 5000 },
  });
  conn.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve) => conn.execSqlBatch(new Request(sql, () => resolve())));
  conn.close();
}

test('the admin API shows each request with its host, redacted headers and body; no secret sent reaches it', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'dataPlatform' });
  const sp = sb.ids.servicePrincipals[0]!;
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const created = await call(`${ws}/notebooks`, {
    token,
    json: { displayName: 'Logged', definition: { parts: [part('notebook-content.py', 'print(1)')] } },
    headers: { cookie: 'session=c00kie-value', 'x-ms-client-request-id': 'req-1' },
  });
  assert.ok(created.status < 300, created.text);
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: sp.appId,
    client_secret: sp.secret,
    scope: 'https://api.fabric.microsoft.com/.default',
  });
  const minted = await fetch(`${sb.urls.identity}/${sb.ids.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  assert.equal(minted.status, 200);
  const issued = (await minted.json()).access_token as string;
  const kqlToken = await sb.admin.token({ audience: 'kql' });
  await call(`${sb.urls.kql}/v1/rest/mgmt`, { token: kqlToken, json: { db: 'NoSuchDb', csl: '.show tables' } });
  await call(`${sb.urls.search}/indexes?api-version=2024-07-01`, { headers: { 'api-key': 'search-admin-key-123' } });
  const storage = await sb.admin.token({ audience: 'storage' });
  const lake = `${sb.urls.oneLake}/${sb.ids.platformWorkspaceId}/bin-${Date.now()}`;
  await fetch(`${lake}?resource=file`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${storage}`, ...DFS_VERSION, 'x-ms-encryption-key': 'a2V5LWJ5dGVz' },
  });
  await fetch(`${lake}?action=append&position=0&sig=sas-sig-value`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${storage}`, ...DFS_VERSION, 'content-type': 'application/octet-stream' },
    body: Buffer.from([0, 1, 2, 255, 0]),
  });
  await sqlBatch(sb, 'SELECT 1 AS logged_batch');

  const res = await call(`${sb.urls.admin}/_sandbox/requests`);
  assert.equal(res.status, 200);
  const log = res.body.requests as any[];
  for (const secret of [
    token,
    storage,
    kqlToken,
    issued,
    sp.secret,
    'c00kie-value',
    'search-admin-key-123',
    'a2V5LWJ5dGVz',
    'sas-sig-value',
    sb.env.IDENTITY_HEADER!,
  ]) {
    assert.ok(!res.text.includes(secret), `a secret reached the request log: ${secret.slice(0, 12)}…`);
  }
  const post = log.find((e) => e.method === 'POST' && e.path.endsWith('/notebooks'));
  assert.equal(post.host, new URL(sb.urls.dataPlatform).host);
  assert.equal(post.headers.authorization, 'Bearer [redacted]');
  assert.equal(post.headers.cookie, '[redacted]');
  assert.equal(post.headers['x-ms-client-request-id'], 'req-1', 'ordinary headers stay readable');
  assert.equal(post.body.json.displayName, 'Logged');
  assert.equal(post.body.json.definition.parts[0].path, 'notebook-content.py', 'the JSON body is kept parsed');
  const tokenCall = log.find((e) => e.service === 'identity' && e.path.endsWith('/oauth2/v2.0/token'));
  assert.deepEqual(
    { ...tokenCall.body.form, client_id: 'x' },
    { grant_type: 'client_credentials', client_id: 'x', client_secret: '[redacted]', scope: 'https://api.fabric.microsoft.com/.default' },
  );
  const mgmt = log.find((e) => e.service === 'kql' && e.path === '/v1/rest/mgmt');
  assert.equal(mgmt.text, '.show tables', 'a KQL request is logged with its command');
  assert.equal(log.find((e) => e.service === 'search').headers['api-key'], '[redacted]');
  const append = log.find((e) => e.service === 'oneLake' && e.method === 'PATCH');
  assert.deepEqual(append.body, { size: 5, type: 'application/octet-stream', binary: true }, 'bytes are kept as size and type');
  assert.match(append.path, /&sig=\[redacted\]$/);
  assert.equal(log.find((e) => e.service === 'oneLake' && e.method === 'PUT').headers['x-ms-encryption-key'], '[redacted]');
  const batch = log.filter((e) => e.service === 'sql' && e.method === 'BATCH').at(-1);
  assert.equal(batch.text, 'SELECT 1 AS logged_batch', 'a SQL batch is logged with its text');

  // Paging: a limit answers that many and where to go on from; a service filter keeps one service's.
  const page = await call(`${sb.urls.admin}/_sandbox/requests?limit=2`);
  assert.equal(page.body.requests.length, 2);
  const rest = await call(`${sb.urls.admin}/_sandbox/requests?since=${page.body.next}&limit=1000`);
  assert.equal(rest.body.requests[0].seq, page.body.requests[1].seq + 1);
  assert.ok((await call(`${sb.urls.admin}/_sandbox/requests?service=kql`)).body.requests.every((e: any) => e.service === 'kql'));
  assert.equal((await call(`${sb.urls.admin}/_sandbox/requests?limit=0`)).status, 400);
});

test('each request keeps the traceparent it came with; the log filters by trace; a malformed one is not taken for one', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'dataPlatform' });
  const items = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/items`;
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  await sb.admin.clearRequests();
  for (const traceparent of [`00-${traceId}-00f067aa0ba902b7-01`, `00-${traceId}-b7ad6b7169203331-00`, 'not-a-traceparent', ''])
    assert.equal((await call(items, { token, headers: traceparent ? { traceparent } : {} })).status, 200);
  const logged = (await sb.admin.requests()).map((e) => e.traceparent);
  assert.deepEqual(logged, [`00-${traceId}-00f067aa0ba902b7-01`, `00-${traceId}-b7ad6b7169203331-00`, undefined, undefined]);
  const page = await call(`${sb.urls.admin}/_sandbox/requests?traceId=${traceId}`);
  assert.deepEqual(
    page.body.requests.map((e: any) => e.traceparent.slice(36, 52)),
    ['00f067aa0ba902b7', 'b7ad6b7169203331'],
  );
  assert.equal((await sb.admin.requests({ traceId: '0af7651916cd43dd8448eb211c80319c' })).length, 0);
});

test('since is a sequence number or an ISO time; a Date.now() is refused rather than matching nothing', async (t) => {
  const sb = await sandbox(t);
  const token = await sb.admin.token({ audience: 'dataPlatform' });
  const items = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/items`;
  const before = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const at = new Date(Date.now() - 1).toISOString();
  assert.equal((await call(items, { token })).status, 200);
  assert.equal((await sb.admin.requests({ since: before, service: 'dataPlatform' })).length, 1);
  assert.equal((await sb.admin.requests({ since: at, service: 'dataPlatform' })).length, 1);
  await assert.rejects(sb.admin.requests({ since: Date.now() }), /not a sequence number/);
  const refused = await call(`${sb.urls.admin}/_sandbox/requests?since=${Date.now()}`);
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.body), /not a sequence number/);
});

test('a body is kept parsed, as text, as size and type, or cut at the cap; secret fields and tokens are redacted', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
  const json = captureBody(
    Buffer.from(
      JSON.stringify({ name: 'i', fields: [{ name: 'id', key: true }], clientSecret: 'shh', nested: { bearer: `Bearer ${jwt}` } }),
    ),
    'application/json',
  );
  assert.deepEqual(json?.json, {
    name: 'i',
    fields: [{ name: 'id', key: true }],
    clientSecret: '[redacted]',
    nested: { bearer: 'Bearer [redacted]' },
  });
  assert.deepEqual(
    captureBody(Buffer.from(JSON.stringify({ value: 'vault-secret' })), 'application/json', { secretFields: ['value'] })?.json,
    { value: '[redacted]' },
  );
  assert.equal(captureBody(Buffer.from('<Report/>'), 'application/xml')?.text, '<Report/>');
  const big = captureBody(Buffer.from(`{"a":"${'x'.repeat(300)}"}`), 'application/json', { cap: 100 });
  assert.equal(big?.truncated, true);
  assert.equal(big?.text?.length, 100);
  assert.equal(big?.size, 308);
  assert.equal(captureBody(Buffer.alloc(0), 'application/json'), undefined);
  assert.deepEqual(
    redactHeaders({
      Authorization: `Bearer ${jwt}`,
      'X-IDENTITY-HEADER': 'h',
      'x-ms-version': '2025-01-05',
      'Ocp-Apim-Subscription-Key': 'k',
      'x-ms-account-key': 'k2',
    }),
    {
      authorization: 'Bearer [redacted]',
      'x-identity-header': '[redacted]',
      'x-ms-version': '2025-01-05',
      'ocp-apim-subscription-key': '[redacted]',
      'x-ms-account-key': '[redacted]',
    },
  );
  assert.equal(
    redactPath(`/t?client_secret=s&code=c&api-version=1&x=${jwt}`),
    '/t?client_secret=[redacted]&code=[redacted]&api-version=1&x=[redacted]',
  );
});
