import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, sandbox } from './helpers.js';

test('a 503 once, then success: each service answers the fault with its own real error body', async (t) => {
  const sb = await sandbox(t);
  const tok = async (a: string) => sb.admin.token({ audience: a });
  const targets = [
    {
      service: 'dataPlatform' as const,
      url: `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/items`,
      token: await tok('dataPlatform'),
      check: (r: any) => {
        assert.equal(r.body.errorCode, 'ServiceUnavailable');
        assert.equal(r.body.isRetriable, true);
        assert.equal(r.headers.get('x-ms-public-api-error-code'), 'ServiceUnavailable');
      },
    },
    {
      service: 'arm' as const,
      url: `${sb.urls.arm}${sb.ids.kqlClusterResourceId}?api-version=2024-04-13`,
      token: await tok('arm'),
      check: (r: any) => assert.deepEqual(Object.keys(r.body.error), ['code', 'message']),
    },
    {
      service: 'kql' as const,
      url: `${sb.urls.kql}/v1/rest/auth/metadata`,
      token: await tok('kql'),
      check: (r: any) => {
        assert.equal(r.body.error.code, 'ServiceUnavailable');
        assert.equal(r.body.error['@permanent'], false);
        assert.ok(r.body.error['@context'].activityId);
      },
    },
    {
      service: 'search' as const,
      url: `${sb.urls.search}/indexes?api-version=2024-07-01`,
      token: await tok('search'),
      check: (r: any) => assert.equal(r.body.error.code, ''),
    },
  ];
  for (const x of targets) {
    const { id } = await sb.admin.addFault({ service: x.service, method: 'GET', status: 503, retryAfter: 1, count: 1 });
    const first = await call(x.url, { token: x.token });
    assert.equal(first.status, 503, x.service);
    assert.equal(first.headers.get('retry-after'), '1');
    x.check(first);
    const second = await call(x.url, { token: x.token });
    assert.equal(second.status, 200, `${x.service}: ${second.text}`);
    const log = await sb.admin.requests({ service: x.service });
    assert.deepEqual(
      log.slice(-2).map((r) => r.status),
      [503, 200],
    );
    assert.equal(log.at(-2)!.fault, id);
  }
  await sb.admin.addFault({ service: 'identity', path: '/oauth2/v2.0/token', status: 400, errorCode: 'AADSTS53003', count: 1 });
  const ci = sb.ids.servicePrincipals[0]!;
  const entra = await fetch(`${sb.urls.identity}/${sb.ids.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: ci.appId,
      client_secret: ci.secret,
      scope: 'https://search.azure.com/.default',
    }),
  });
  const e = await entra.json();
  assert.equal(e.error, 'invalid_grant');
  assert.deepEqual(e.error_codes, [53003]);
  assert.match(e.error_description, /^AADSTS53003: Access has been blocked by Conditional Access policies/);
});

test('a connection reset, a delay longer than the caller’s timeout, per-service latency, probability', async (t) => {
  const sb = await sandbox(t);
  const url = `${sb.urls.search}/indexes?api-version=2024-07-01`;
  const headers = { 'api-key': sb.ids.searchAdminKey };
  await sb.admin.addFault({ service: 'search', path: '^/indexes\\?', reset: true, count: 1 });
  const reset = await fetch(url, { headers }).then(
    () => undefined,
    (err: Error & { cause?: { code?: string } }) => err,
  );
  assert.ok(reset, 'the request fails');
  assert.match(String(reset!.cause?.code), /ECONNRESET|UND_ERR_SOCKET/);
  assert.equal((await fetch(url, { headers })).status, 200, 'count 1: the next call succeeds');
  await sb.admin.addFault({ service: 'search', delayMs: 600, count: 1 });
  const timedOut = await fetch(url, { headers, signal: AbortSignal.timeout(150) }).then(
    () => undefined,
    (err: Error) => err,
  );
  assert.equal(timedOut?.name, 'TimeoutError');
  await sb.admin.setLatency('search', 80);
  const slow = Date.now();
  assert.equal((await fetch(url, { headers })).status, 200);
  assert.ok(Date.now() - slow >= 75);
  const last = (await sb.admin.requests({ service: 'search' })).at(-1)!;
  assert.ok(last.durationMs >= 75, `durationMs ${last.durationMs}`);
  await sb.admin.setLatency('search', 0);
  await sb.admin.addFault({ service: 'search', status: 500, probability: 0 });
  assert.equal((await fetch(url, { headers })).status, 200, 'probability 0 never applies');
  await sb.admin.clearFaults();
  await sb.admin.addFault({ service: 'search', status: 500, probability: 1, count: 2 });
  assert.deepEqual(
    [(await fetch(url, { headers })).status, (await fetch(url, { headers })).status, (await fetch(url, { headers })).status],
    [500, 500, 200],
  );
});

test('the admin HTTP API: faults, requests since a sequence number, state, grant and revoke, switches, tokens, reset', async (t) => {
  const sb = await sandbox(t);
  const admin = `${sb.env.SVC_SANDBOX_ADMIN_URL}/_sandbox`;
  const summary = await call(admin);
  assert.equal(summary.body.env.SVC_TENANT_ID, sb.ids.tenantId);
  assert.equal((await call(`${admin}/faults`, { json: { service: 'nope', status: 503 } })).status, 400);
  const fault = await call(`${admin}/faults`, {
    json: { service: 'dataPlatform', method: 'POST', path: '/notebooks$', status: 503, count: 1 },
  });
  assert.equal(fault.status, 201);
  assert.ok(fault.body.id);
  assert.equal((await call(`${admin}/faults`)).body.faults.length, 1);
  const token = (await call(`${admin}/tokens`, { json: { audience: 'dataPlatform' } })).body.access_token;
  const ws = `${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}`;
  const mark = Math.max(0, ...(await call(`${admin}/requests`)).body.requests.map((r: any) => r.seq));
  assert.equal((await call(`${ws}/notebooks`, { token, json: { displayName: 'Nb' } })).status, 503);
  assert.equal((await call(`${ws}/notebooks`, { token, json: { displayName: 'Nb' } })).status, 201);
  const since = (await call(`${admin}/requests?service=dataPlatform&since=${mark}`)).body.requests;
  assert.deepEqual(
    since.map((r: any) => [r.method, r.path.replace(ws.replace(sb.urls.dataPlatform, ''), ''), r.status]),
    [
      ['POST', '/notebooks', 503],
      ['POST', '/notebooks', 201],
    ],
  );
  for (const r of since) {
    assert.deepEqual(
      Object.keys(r)
        .filter((k) => k !== 'fault')
        .sort(),
      ['body', 'durationMs', 'headers', 'host', 'identity', 'method', 'path', 'seq', 'service', 'startedAt', 'status'],
    );
    assert.equal(r.identity, sb.ids.serviceIdentity.objectId);
  }
  const state = (await call(`${admin}/state`)).body;
  assert.deepEqual(Object.keys(state).sort(), [
    'arm',
    'dataPlatform',
    'identity',
    'kql',
    'lake',
    'oneLake',
    'reporting',
    'search',
    'sql',
    'sqlServerless',
    'switches',
    'synapse',
  ]);
  const platform = state.dataPlatform.workspaces.find((w: any) => w.id === sb.ids.platformWorkspaceId);
  assert.deepEqual(
    platform.items.map((i: any) => [i.type, i.displayName, i.definitionParts]),
    [['Notebook', 'Nb', []]],
  );
  assert.ok(
    platform.roleAssignments.some((r: any) => r.principal.id === sb.ids.serviceIdentity.objectId && r.role === 'Admin'),
    'seeded with the documented grant',
  );
  assert.ok(
    state.kql.principalAssignments.some((a: any) => a.role === 'AllDatabasesAdmin' && a.principalId === sb.ids.serviceIdentity.appId),
  );
  assert.ok(state.identity.principals.some((p: any) => p.kind === 'guest'));
  assert.ok(!JSON.stringify(state).includes(sb.ids.servicePrincipals[0]!.secret), 'no secret in the state view');
  // The seeded Admin holds the firewall rules; reduced to Contributor (provisioning only) they are refused.
  assert.equal((await call(`${ws}/firewallRules`, { token })).status, 200);
  await call(`${admin}/grant`, { json: { service: 'dataPlatform', role: 'Contributor' } });
  const reduced = await call(`${ws}/firewallRules`, { token });
  assert.deepEqual([reduced.status, reduced.body.errorCode], [403, 'InsufficientWorkspaceRole']);
  assert.equal((await call(`${ws}/items`, { token })).status, 200);
  assert.equal((await call(`${admin}/revoke`, { json: { service: 'dataPlatform', role: 'Contributor' } })).body.changed, true);
  assert.equal((await call(`${ws}/items`, { token })).status, 403);
  await call(`${admin}/grant`, { json: { service: 'dataPlatform', role: 'Contributor' } });
  assert.equal((await call(`${ws}/items`, { token })).status, 200);
  assert.equal(
    (await call(`${admin}/switches/dataPlatform.servicePrincipalsEnabled`, { method: 'PUT', json: { value: false } })).status,
    200,
  );
  assert.equal((await call(`${ws}/items`, { token })).status, 401);
  assert.equal((await call(`${admin}/switches/dataPlatform.pageSize`, { method: 'PUT', json: { value: 0 } })).status, 400);
  assert.equal((await call(`${admin}/grant`, { json: { service: 'kql', role: 'Sorcerer' } })).status, 400);
  assert.equal((await call(`${admin}/reset`, { method: 'POST' })).status, 200);
  assert.equal((await call(`${ws}/items`, { token })).status, 200, 'reset restores the seeded grants and switches');
  assert.equal((await call(`${admin}/state`)).body.dataPlatform.workspaces[0].items.length, 0);
  assert.equal((await call(`${admin}/faults`)).body.faults.length, 0);
});

test('ids are deterministic from the seed; a fault may carry a raw body passed through unmodified', async (t) => {
  const a = await sandbox(t, { seed: 'repeat' });
  const b = await sandbox(t, { seed: 'repeat' });
  const c = await sandbox(t, { seed: 'other' });
  assert.deepEqual(a.ids, b.ids);
  assert.notEqual(a.ids.tenantId, c.ids.tenantId);
  const create = async (sb: typeof a) =>
    (
      await call(`${sb.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${sb.ids.platformWorkspaceId}/notebooks`, {
        token: await sb.admin.token({ audience: 'dataPlatform' }),
        json: { displayName: 'Same' },
      })
    ).body.id;
  assert.equal(await create(a), await create(b), 'created item ids repeat too');
  const raw = JSON.stringify({
    errorCode: 'InsufficientWorkspaceRole',
    message: 'custom text 42',
    requestId: '00000000-0000-0000-0000-000000000042',
  });
  await a.admin.addFault({ service: 'dataPlatform', method: 'GET', path: '/items', status: 403, body: raw });
  const r = await call(`${a.env.SVC_DATA_PLATFORM_API_URL}/workspaces/${a.ids.platformWorkspaceId}/items`, {
    token: await a.admin.token({ audience: 'dataPlatform' }),
  });
  assert.equal(r.status, 403);
  assert.equal(r.text, raw);
});
