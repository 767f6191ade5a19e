import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandbox } from './helpers.js';
import { httpsJson, runSdkScript } from './sdk-helpers.js';

test('azure-kusto-data with a client secret (MSAL) against the https sandbox: the login endpoint from the cluster metadata, a query, .show tables, a management error with the real message', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-kusto-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const sb = await sandbox(t, { tls: true, dataDir: dir });
  const sp = sb.ids.servicePrincipals[0]!;
  await sb.admin.setSwitch('arm.asyncMode', 'never');
  const database = `${sb.urls.arm}${sb.ids.kqlClusterResourceId}/databases/Wards?api-version=2024-04-13`;
  const put = await httpsJson(database, sb.tls!.ca, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await sb.admin.token({ audience: 'arm' })}` },
    json: { kind: 'ReadWrite', location: 'eastus', properties: { softDeletePeriod: 'P365D', hotCachePeriod: 'P31D' } },
  });
  assert.equal(put.status, 201);
  await sb.admin.grant({ service: 'kql', role: 'AllDatabasesAdmin', principal: sp.appId });
  // The cluster addressed as localhost: its metadata names the identity provider as localhost too.
  const cluster = sb.urls.kql.replace('127.0.0.1', 'localhost');
  const out = await runSdkScript(sb, 'kusto.ts', { KQL_CLUSTER: cluster });
  const ok = (name: string) => {
    assert.ok('ok' in out[name]!, `${name}: ${JSON.stringify(out[name])}`);
    return out[name].ok;
  };

  assert.equal(ok('loginEndpoint'), sb.urls.identity.replace('127.0.0.1', 'localhost'));
  assert.equal(ok('createTable'), 'Beds');
  ok('ingest');
  assert.deepEqual(ok('query'), [
    { Ward: 'East', Free: 7 },
    { Ward: 'North', Free: 4 },
  ]);
  assert.deepEqual(ok('showTables'), ['Beds']);

  // The SDK surfaces a non-200 answer as the axios error, carrying the service's OneApiErrors body.
  for (const [name, pattern] of [
    ['managementError', /^Column 'Free' in table 'Beds' has type 'long'; \.create-merge table cannot change it to 'string'\.$/],
    ['queryError', /SEM0100.*'Nope'/],
  ] as const) {
    assert.ok('error' in out[name]!, `${name} fails`);
    const e = out[name].error;
    assert.equal(e.name, 'AxiosError', name);
    const { status, data } = e.response as { status: number; data: { error: Record<string, unknown> } };
    assert.equal(status, 400, name);
    assert.equal(data.error['@permanent'], true, name);
    assert.match(String(data.error['@message']), pattern, name);
  }

  const log = await sb.admin.requests({ service: 'kql' });
  assert.ok(log.some((r) => r.path === '/v1/rest/auth/metadata' && r.status === 200));
  assert.ok(
    log.filter((r) => r.path !== '/v1/rest/auth/metadata').every((r) => r.identity === sp.objectId),
    "each call carried the app's token",
  );
  const identity = await sb.admin.requests({ service: 'identity' });
  assert.ok(identity.some((r) => r.method === 'POST' && r.path.startsWith(`/${sb.ids.tenantId}/oauth2/v2.0/token`) && r.status === 200));
});
