import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { cloudFromAddress, hostAllowed } from '../src/cloud/profiles.js';
import { addressOf } from '../src/tenancy/resources.js';
import { ConfigError } from '../src/config.js';
import { gate } from '../src/provisioning/gates.js';
import { BackingError, BackingPipeline } from '../src/backends/http-pipeline.js';
import { build, cloudOf } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('the cloud is chosen from the deployment address, and SVC_CLOUD overrides it', () => {
  const cases: Array<[string, string]> = [
    ['https://analytics.contoso.com', 'commercial'],
    ['https://svc.azurewebsites.net', 'commercial'],
    ['https://analytics.agency.gov', 'gcc'],
    ['https://analytics.agency.azurewebsites.us', 'gcc-high'],
    ['https://svc.usgovcloudapi.net', 'gcc-high'],
    ['https://analytics.army.mil', 'dod'],
    ['http://localhost:8080', 'sandbox'],
  ];
  for (const [url, cloud] of cases) {
    assert.equal(cloudFromAddress(url), cloud, url);
    assert.equal(cloudOf({ SVC_PUBLIC_URL: url }).name, cloud, url);
  }
  assert.equal(cloudOf({ SVC_PUBLIC_URL: 'https://analytics.agency.gov', SVC_CLOUD: 'dod' }).name, 'dod');
  assert.equal(cloudOf({}).name, 'sandbox');
});

test('an address that matches no rule, or an unknown SVC_CLOUD, stops the start naming the variable', () => {
  assert.throws(
    () => cloudOf({ SVC_PUBLIC_URL: 'https://analytics.example.internal' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_PUBLIC_URL',
  );
  assert.throws(
    () => cloudOf({ SVC_CLOUD: 'china' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_CLOUD',
  );
  assert.throws(
    () => cloudOf({ SVC_CLOUD: 'gcc', SVC_DATA_PLATFORM_API_URL: 'not a url' }),
    (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_DATA_PLATFORM_API_URL',
  );
});

test('every address and audience of each cloud (reference/ section 6)', () => {
  const table = {
    commercial: {
      authUrl: 'https://login.microsoftonline.com',
      armUrl: 'https://management.azure.com',
      biApiUrl: 'https://api.powerbi.com',
      biAppUrl: 'https://app.powerbi.com',
      biAudience: 'https://analysis.windows.net/powerbi/api',
      searchAudience: 'https://search.azure.com',
      sqlAudience: 'https://database.windows.net/',
      dataPlatformApiUrl: 'https://api.fabric.microsoft.com/v1',
    },
    gcc: {
      authUrl: 'https://login.microsoftonline.com',
      armUrl: 'https://management.azure.com',
      biApiUrl: 'https://api.powerbigov.us',
      biAppUrl: 'https://app.powerbigov.us',
      biAudience: 'https://analysis.usgovcloudapi.net/powerbi/api',
      searchAudience: 'https://search.azure.com',
      sqlAudience: 'https://database.windows.net/',
    },
    'gcc-high': {
      authUrl: 'https://login.microsoftonline.us',
      armUrl: 'https://management.usgovcloudapi.net',
      biApiUrl: 'https://api.high.powerbigov.us',
      biAppUrl: 'https://app.high.powerbigov.us',
      biAudience: 'https://high.analysis.usgovcloudapi.net/powerbi/api',
      searchAudience: 'https://search.azure.us',
      sqlAudience: 'https://database.usgovcloudapi.net/',
    },
    dod: {
      authUrl: 'https://login.microsoftonline.us',
      armUrl: 'https://management.usgovcloudapi.net',
      biApiUrl: 'https://api.mil.powerbigov.us',
      biAppUrl: 'https://app.mil.powerbigov.us',
      biAudience: 'https://mil.analysis.usgovcloudapi.net/powerbi/api',
      searchAudience: 'https://search.azure.us',
      sqlAudience: 'https://database.usgovcloudapi.net/',
    },
  } as const;
  for (const [cloud, expected] of Object.entries(table)) {
    const p = cloudOf({ SVC_CLOUD: cloud });
    for (const [key, value] of Object.entries(expected))
      assert.equal((p as unknown as Record<string, string>)[key], value, `${cloud}.${key}`);
  }
  assert.deepEqual(cloudOf({ SVC_CLOUD: 'gcc-high' }).kqlSuffixes, ['.kusto.usgovcloudapi.net']);
  assert.equal(cloudOf({ SVC_CLOUD: 'dod' }).searchSuffix, '.search.azure.us');
  // The government data platform endpoint is not published: it can be set on its own.
  assert.equal(
    cloudOf({ SVC_CLOUD: 'gcc-high', SVC_DATA_PLATFORM_API_URL: 'https://api.fabric.example.us/v1' }).dataPlatformApiUrl,
    'https://api.fabric.example.us/v1',
  );
});

test('a token goes only over https to hosts under the cloud’s suffixes; loopback only in the sandbox', () => {
  const high = cloudOf({ SVC_CLOUD: 'gcc-high' });
  assert.equal(hostAllowed(high, 'https://mycluster.eastus.kusto.usgovcloudapi.net/v1/rest/mgmt'), true);
  assert.equal(hostAllowed(high, 'https://mycluster.eastus.kusto.windows.net/v1/rest/mgmt'), false, 'commercial KQL from GCC-High');
  assert.equal(hostAllowed(high, 'http://mycluster.eastus.kusto.usgovcloudapi.net'), false, 'plain http');
  assert.equal(hostAllowed(high, 'https://evil.example.com'), false);
  assert.equal(hostAllowed(high, 'http://127.0.0.1:9999'), false);
  assert.equal(hostAllowed(high, 'https://kusto.usgovcloudapi.net.evil.com'), false, 'suffix tricks');
  const sandbox = cloudOf({});
  assert.equal(hostAllowed(sandbox, 'http://127.0.0.1:9999/v1'), true);
  assert.equal(hostAllowed(sandbox, 'https://api.fabric.microsoft.com/v1'), false);
  const commercial = cloudOf({ SVC_CLOUD: 'commercial' });
  assert.equal(hostAllowed(commercial, 'https://svc.search.windows.net'), true);
  assert.equal(hostAllowed(commercial, 'https://svc.search.azure.us'), false);
});

test('dedicated target addresses outside the cloud, or carrying more than a host, are refused with 400 naming the field', () => {
  const high = cloudOf({ SVC_CLOUD: 'gcc-high' });
  const refused = (value: string, field: string) =>
    assert.throws(
      () => addressOf(high, value, field),
      (e: any) => e.status === 400 && e.extra.field === field,
      value,
    );
  refused('https://attacker.example.com', 'targetOverrides.kqlClusterUri');
  refused('https://svc.search.windows.net', 'targetOverrides.searchService');
  refused('http://c1.usgovvirginia.kusto.usgovcloudapi.net', 'targetOverrides.kqlClusterUri');
  for (const trick of [
    'https://c1.kusto.usgovcloudapi.net/v1/rest/mgmt',
    'https://c1.kusto.usgovcloudapi.net?x=1',
    'https://c1.kusto.usgovcloudapi.net#f',
    'https://user:pw@c1.kusto.usgovcloudapi.net',
    'https://attacker.example.com@c1.kusto.usgovcloudapi.net',
    'c1.kusto.usgovcloudapi.net/../evil',
    'https://c1.kusto.usgovcloudapi.net\\evil',
  ]) {
    refused(trick, 'targetOverrides.kqlClusterUri');
  }
  assert.deepEqual(addressOf(high, 'https://C1.usgovvirginia.kusto.usgovcloudapi.net/', 'f'), {
    url: 'https://c1.usgovvirginia.kusto.usgovcloudapi.net',
    key: 'c1.usgovvirginia.kusto.usgovcloudapi.net',
  });
  assert.equal(addressOf(high, 'svc.search.azure.us', 'f').key, 'svc.search.azure.us');
});

// reference/kql-search-sql-identity.md section 6, row by row: Entra authority, ARM, Kusto suffix, search suffix / audience,
// SQL suffixes / audience, reporting API, app and resource, data platform API, storage suffix / OneLake.
const SECTION_6 = {
  commercial: {
    entra: 'login.microsoftonline.com',
    arm: 'management.azure.com',
    kusto: ['.kusto.windows.net', '.kusto.fabric.microsoft.com'],
    search: ['.search.windows.net', 'https://search.azure.com'],
    sql: [['.database.windows.net', '.sql.azuresynapse.net'], 'https://database.windows.net'],
    biApi: 'api.powerbi.com',
    biApp: 'app.powerbi.com',
    biResource: 'https://analysis.windows.net/powerbi/api',
    fabric: 'https://api.fabric.microsoft.com/v1',
    storage: '.core.windows.net',
    oneLake: 'onelake.dfs.fabric.microsoft.com',
  },
  gcc: {
    entra: 'login.microsoftonline.com',
    arm: 'management.azure.com',
    kusto: ['.kusto.windows.net'],
    search: ['.search.windows.net', 'https://search.azure.com'],
    sql: [['.database.windows.net', '.sql.azuresynapse.net'], 'https://database.windows.net'],
    biApi: 'api.powerbigov.us',
    biApp: 'app.powerbigov.us',
    biResource: 'https://analysis.usgovcloudapi.net/powerbi/api',
    fabric: null,
    storage: '.core.windows.net',
    oneLake: null,
  },
  'gcc-high': {
    entra: 'login.microsoftonline.us',
    arm: 'management.usgovcloudapi.net',
    kusto: ['.kusto.usgovcloudapi.net'],
    search: ['.search.azure.us', 'https://search.azure.us'],
    sql: [['.database.usgovcloudapi.net', '.sql.azuresynapse.usgovcloudapi.net'], 'https://database.usgovcloudapi.net'],
    biApi: 'api.high.powerbigov.us',
    biApp: 'app.high.powerbigov.us',
    biResource: 'https://high.analysis.usgovcloudapi.net/powerbi/api',
    fabric: null,
    storage: '.core.usgovcloudapi.net',
    oneLake: null,
  },
  dod: {
    entra: 'login.microsoftonline.us',
    arm: 'management.usgovcloudapi.net',
    kusto: ['.kusto.usgovcloudapi.net'],
    search: ['.search.azure.us', 'https://search.azure.us'],
    sql: [['.database.usgovcloudapi.net', '.sql.azuresynapse.usgovcloudapi.net'], 'https://database.usgovcloudapi.net'],
    biApi: 'api.mil.powerbigov.us',
    biApp: 'app.mil.powerbigov.us',
    biResource: 'https://mil.analysis.usgovcloudapi.net/powerbi/api',
    fabric: null,
    storage: '.core.usgovcloudapi.net',
    oneLake: null,
  },
} as const;

const host = (url: string) => new URL(url).host;
const bare = (s: string) => s.replace(/\/+$/, '');

test('every address, suffix and audience of each cloud is section 6’s, and the service’s token goes to exactly those hosts', () => {
  const names = Object.keys(SECTION_6) as Array<keyof typeof SECTION_6>;
  for (const cloud of names) {
    const row = SECTION_6[cloud];
    const p = cloudOf({ SVC_CLOUD: cloud });
    const at = (what: string) => `${cloud}: ${what}`;
    assert.equal(host(p.authUrl), row.entra, at('Entra authority'));
    assert.equal(host(p.armUrl), row.arm, at('resource manager'));
    assert.equal(bare(p.armAudience), `https://${row.arm}`, at('resource manager audience'));
    assert.deepEqual([...p.kqlSuffixes].sort(), [...row.kusto].sort(), at('KQL suffixes'));
    assert.equal(p.searchSuffix, row.search[0], at('search suffix'));
    assert.equal(bare(p.searchAudience), row.search[1], at('search audience'));
    for (const s of row.sql[0]) assert.ok(p.sqlSuffixes.includes(s), at(`SQL suffix ${s}`));
    assert.equal(bare(p.sqlAudience), row.sql[1], at('SQL audience'));
    assert.equal(p.biApiUrl, `https://${row.biApi}`, at('reporting API'));
    assert.equal(p.biAppUrl, `https://${row.biApp}`, at('reporting app'));
    assert.equal(p.biAudience, row.biResource, at('reporting resource'));
    assert.equal(p.storageSuffix, row.storage, at('storage suffix'));
    if (row.fabric) assert.equal(p.dataPlatformApiUrl, row.fabric, at('data platform API'));
    if (row.oneLake) assert.equal(host(p.oneLakeUrl), row.oneLake, at('OneLake'));

    // The token may go to every host of the row, over https only ...
    const own = [
      `https://${row.entra}`,
      `https://${row.arm}`,
      `https://mycluster.region${row.kusto[0]}`,
      `https://svc${row.search[0]}`,
      ...row.sql[0].map((s) => `https://srv${s}`),
      `https://${row.biApi}`,
      `https://acct.blob${row.storage}`,
    ];
    for (const url of own) {
      assert.equal(hostAllowed(p, url), true, at(`token to ${url}`));
      assert.equal(hostAllowed(p, url.replace('https:', 'http:')), false, at(`plain http to ${url}`));
    }
    // ... and to no host of a cloud whose row differs.
    for (const other of names) {
      const o = SECTION_6[other];
      if (o.entra === row.entra) continue;
      for (const url of [
        `https://${o.arm}`,
        `https://mycluster.region${o.kusto[0]}`,
        `https://svc${o.search[0]}`,
        `https://srv${o.sql[0][0]}`,
        `https://acct.blob${o.storage}`,
      ]) {
        assert.equal(hostAllowed(p, url), false, at(`token to ${other}'s ${url}`));
      }
    }
  }
  // Beyond section 6: the identity provider's application API and the vault audience (secret rotation); none in the sandbox.
  const graph = {
    commercial: 'https://graph.microsoft.com',
    gcc: 'https://graph.microsoft.com',
    'gcc-high': 'https://graph.microsoft.us',
    dod: 'https://dod-graph.microsoft.us',
  };
  for (const [cloud, url] of Object.entries(graph)) assert.equal(cloudOf({ SVC_CLOUD: cloud }).graphUrl, url, `${cloud} graph`);
  assert.equal(cloudOf({ SVC_CLOUD: 'dod' }).vaultAudience, 'https://vault.usgovcloudapi.net');
  assert.equal(cloudOf({}).graphUrl, undefined, 'the sandbox calls no real application API');
  // The government data platform endpoint is not published: it is set on its own, and its exact host is then trusted.
  const high = cloudOf({ SVC_CLOUD: 'gcc-high', SVC_DATA_PLATFORM_API_URL: 'https://api.fabric.agency.example.us/v1' });
  assert.equal(high.dataPlatformApiUrl, 'https://api.fabric.agency.example.us/v1');
  assert.equal(hostAllowed(high, 'https://api.fabric.agency.example.us/v1/workspaces'), true);
  assert.equal(hostAllowed(high, 'https://other.agency.example.us/v1/workspaces'), false, 'only that host, not its parent domain');
});

test('remediation links and report web addresses use the selected cloud’s portals', () => {
  const portals = {
    commercial: ['portal.azure.com', 'app.fabric.microsoft.com', 'app.powerbi.com'],
    gcc: ['portal.azure.com', 'app.powerbigov.us', 'app.powerbigov.us'],
    'gcc-high': ['portal.azure.us', 'app.high.powerbigov.us', 'app.high.powerbigov.us'],
    dod: ['portal.azure.us', 'app.mil.powerbigov.us', 'app.mil.powerbigov.us'],
  } as const;
  for (const [cloud, [portal, platform, reporting]] of Object.entries(portals)) {
    const p = cloudOf({ SVC_CLOUD: cloud });
    for (const name of [
      'kql-not-configured',
      'kql-arm-auth',
      'kql-create-table-auth',
      'search-auth',
      'warehouse-not-configured',
      'warehouse-tsql-auth',
    ] as const) {
      assert.equal(host(gate(name, p).link), portal, `${cloud} ${name}`);
    }
    for (const name of [
      'no-platform-workspace',
      'data-platform-auth',
      'data-platform-role',
      'data-platform-tenant-setting',
      'mirror-connection-missing',
    ] as const)
      assert.equal(host(gate(name, p).link), platform, `${cloud} ${name}`);
    for (const name of ['reporting-auth', 'reporting-tenant-setting', 'reporting-capacity'] as const)
      assert.equal(host(gate(name, p).link), reporting, `${cloud} ${name}`);
  }
});

test('an address that matches no cloud rule stops the real start: exit code 2 and a message naming SVC_PUBLIC_URL', (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cloud-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SVC_PUBLIC_URL: 'https://analytics.example.internal',
    SVC_DATA_DIR: dataDir,
  };
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(
    r.stderr,
    /Configuration error: SVC_PUBLIC_URL: matches no cloud rule \(https:\/\/analytics\.example\.internal\); set SVC_CLOUD/,
  );
  assert.doesNotMatch(r.stdout, /Analytics Workspace Service on/, 'nothing listened');
  const overridden = spawnSync(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...env, SVC_CLOUD: 'moon' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(overridden.status, 2);
  assert.match(overridden.stderr, /Configuration error: SVC_CLOUD: must be commercial, gcc, gcc-high, dod or sandbox/);
});

test('a redirect toward a host outside the cloud is not followed: the token never reaches it', async (t) => {
  // 127.0.0.2 is a loopback address the sandbox profile does not list: a host outside the cloud that this test can watch.
  const reached: string[] = [];
  const outside = http.createServer((req, res) => {
    reached.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.end('{}');
  });
  await new Promise<void>((r) => outside.listen(0, '127.0.0.2', r));
  const outsideUrl = `http://127.0.0.2:${(outside.address() as AddressInfo).port}`;
  const seen: Array<{ path?: string; authorization?: string }> = [];
  const backing = http.createServer((req, res) => {
    seen.push({ path: req.url, authorization: req.headers.authorization });
    req.resume();
    if (req.url === '/same') return res.writeHead(307, { location: '/final' }).end();
    if (req.url === '/final') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    res.writeHead(req.method === 'GET' ? 302 : 307, { location: `${outsideUrl}/steal${req.url}` }).end();
  });
  await new Promise<void>((r) => backing.listen(0, '127.0.0.1', r));
  t.after(() => {
    outside.close();
    backing.close();
  });
  const base = `http://127.0.0.1:${(backing.address() as AddressInfo).port}`;
  const pipeline = new BackingPipeline(
    cloudOf({}),
    { principal: 'test-identity', getToken: async (aud) => `token-for-${aud}` },
    { timeoutMs: 5000, retryDelayMs: 10, concurrencyPerService: 4 },
  );

  for (const method of ['GET', 'POST']) {
    await assert.rejects(
      pipeline.send({
        service: 'kql',
        method,
        url: `${base}/v1/rest/mgmt`,
        audience: 'https://kusto.kusto.windows.net',
        json: method === 'POST' ? { csl: '.show tables' } : undefined,
      }),
      (e: unknown) => e instanceof BackingError && e.message.includes(`127.0.0.2:${(outside.address() as AddressInfo).port}`),
    );
  }
  assert.deepEqual(reached, [], 'the host outside the cloud was called');
  assert.ok(
    seen.length >= 2 && seen.every((s) => s.authorization === 'Bearer token-for-https://kusto.kusto.windows.net'),
    'the backing host itself got the token',
  );
  // A redirect on the same host is followed, with the token.
  const ok = await pipeline.send({
    service: 'kql',
    method: 'POST',
    url: `${base}/same`,
    audience: 'https://kusto.kusto.windows.net',
    json: {},
  });
  assert.equal(ok.status, 200);
  assert.equal(seen.at(-1)!.path, '/final');
  assert.equal(seen.at(-1)!.authorization, 'Bearer token-for-https://kusto.kusto.windows.net');
});

test('in GCC High, dedicated targetOverrides at commercial or foreign hosts → 400 naming the field, and no backing call is made', async (t) => {
  const h = await build(t, {
    SVC_CLOUD: 'gcc-high',
    SVC_PUBLIC_URL: 'https://analytics.agency.azurewebsites.us',
    SVC_IDENTITY: 'client-secret',
    AZURE_TENANT_ID: '00000000-0000-4000-8000-000000000000',
    AZURE_CLIENT_ID: '00000000-0000-4000-8000-000000000001',
    AZURE_CLIENT_SECRET: 'not-used',
  });
  const tenant = await h.tenant();
  const ws = (await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: tenant.auth, payload: { name: 'gov' } })).json()
    .workspace.id;
  const refused: Array<[string, string]> = [
    ['kqlClusterUri', 'https://c1.eastus.kusto.windows.net'],
    ['searchService', 'svc.search.windows.net'],
    ['warehouseServer', 'ws.sql.azuresynapse.net'],
    ['lakeAccount', 'acct.dfs.core.windows.net'],
    ['kqlClusterUri', 'https://attacker.example.us'],
    ['searchService', 'http://svc.search.azure.us'],
  ];
  for (const [field, value] of refused) {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/apps/app-casino-analytics/install',
      headers: tenant.auth,
      payload: { workspaceId: ws, mode: 'dedicated', targetOverrides: { [field]: value } },
    });
    assert.equal(r.statusCode, 400, `${field}=${value}: ${r.body}`);
    assert.equal(r.json().error.field, `targetOverrides.${field}`);
    assert.match(r.json().error.message, /outside the gcc-high cloud's allowed DNS suffixes/);
  }
  const metrics = await h.app.inject({ method: 'GET', url: '/metrics', headers: (await tenant.token2(['metrics'])).auth });
  assert.equal(metrics.statusCode, 200, metrics.body);
  assert.doesNotMatch(metrics.body, /^svc_backing_calls_total\{/m, 'no backing call was made');
  const jobs = (await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs?workspaceId=${ws}`, headers: tenant.auth })).json().jobs;
  assert.deepEqual(jobs, [], 'no install job was written');
});
