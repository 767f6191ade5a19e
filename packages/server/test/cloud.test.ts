import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloudFromAddress, hostAllowed, selectCloud } from '../src/cloud/profiles.js';
import { checkOverrides } from '../src/provisioning/targets.js';
import { ConfigError } from '../src/config.js';

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
    assert.equal(selectCloud({ SVC_PUBLIC_URL: url }).name, cloud, url);
  }
  assert.equal(selectCloud({ SVC_PUBLIC_URL: 'https://analytics.agency.gov', SVC_CLOUD: 'dod' }).name, 'dod');
  assert.equal(selectCloud({}).name, 'sandbox');
});

test('an address that matches no rule, or an unknown SVC_CLOUD, stops the start naming the variable', () => {
  assert.throws(() => selectCloud({ SVC_PUBLIC_URL: 'https://analytics.example.internal' }), (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_PUBLIC_URL');
  assert.throws(() => selectCloud({ SVC_CLOUD: 'china' }), (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_CLOUD');
  assert.throws(() => selectCloud({ SVC_CLOUD: 'gcc', SVC_DATA_PLATFORM_API_URL: 'not a url' }), (e: unknown) => e instanceof ConfigError && e.variable === 'SVC_DATA_PLATFORM_API_URL');
});

test('every address and audience of each cloud (reference/ section 6)', () => {
  const table = {
    commercial: { authUrl: 'https://login.microsoftonline.com', armUrl: 'https://management.azure.com', biApiUrl: 'https://api.powerbi.com', biAppUrl: 'https://app.powerbi.com', biAudience: 'https://analysis.windows.net/powerbi/api', searchAudience: 'https://search.azure.com', sqlAudience: 'https://database.windows.net/', dataPlatformApiUrl: 'https://api.fabric.microsoft.com/v1' },
    gcc: { authUrl: 'https://login.microsoftonline.com', armUrl: 'https://management.azure.com', biApiUrl: 'https://api.powerbigov.us', biAppUrl: 'https://app.powerbigov.us', biAudience: 'https://analysis.usgovcloudapi.net/powerbi/api', searchAudience: 'https://search.azure.com', sqlAudience: 'https://database.windows.net/' },
    'gcc-high': { authUrl: 'https://login.microsoftonline.us', armUrl: 'https://management.usgovcloudapi.net', biApiUrl: 'https://api.high.powerbigov.us', biAppUrl: 'https://app.high.powerbigov.us', biAudience: 'https://high.analysis.usgovcloudapi.net/powerbi/api', searchAudience: 'https://search.azure.us', sqlAudience: 'https://database.usgovcloudapi.net/' },
    dod: { authUrl: 'https://login.microsoftonline.us', armUrl: 'https://management.usgovcloudapi.net', biApiUrl: 'https://api.mil.powerbigov.us', biAppUrl: 'https://app.mil.powerbigov.us', biAudience: 'https://mil.analysis.usgovcloudapi.net/powerbi/api', searchAudience: 'https://search.azure.us', sqlAudience: 'https://database.usgovcloudapi.net/' },
  } as const;
  for (const [cloud, expected] of Object.entries(table)) {
    const p = selectCloud({ SVC_CLOUD: cloud });
    for (const [key, value] of Object.entries(expected)) assert.equal((p as unknown as Record<string, string>)[key], value, `${cloud}.${key}`);
  }
  assert.deepEqual(selectCloud({ SVC_CLOUD: 'gcc-high' }).kqlSuffixes, ['.kusto.usgovcloudapi.net']);
  assert.equal(selectCloud({ SVC_CLOUD: 'dod' }).searchSuffix, '.search.azure.us');
  // The government data platform endpoint is not published: it can be set on its own.
  assert.equal(selectCloud({ SVC_CLOUD: 'gcc-high', SVC_DATA_PLATFORM_API_URL: 'https://api.fabric.example.us/v1' }).dataPlatformApiUrl, 'https://api.fabric.example.us/v1');
});

test('a token goes only over https to hosts under the cloud’s suffixes; loopback only in the sandbox', () => {
  const high = selectCloud({ SVC_CLOUD: 'gcc-high' });
  assert.equal(hostAllowed(high, 'https://mycluster.eastus.kusto.usgovcloudapi.net/v1/rest/mgmt'), true);
  assert.equal(hostAllowed(high, 'https://mycluster.eastus.kusto.windows.net/v1/rest/mgmt'), false, 'commercial KQL from GCC-High');
  assert.equal(hostAllowed(high, 'http://mycluster.eastus.kusto.usgovcloudapi.net'), false, 'plain http');
  assert.equal(hostAllowed(high, 'https://evil.example.com'), false);
  assert.equal(hostAllowed(high, 'http://127.0.0.1:9999'), false);
  assert.equal(hostAllowed(high, 'https://kusto.usgovcloudapi.net.evil.com'), false, 'suffix tricks');
  const sandbox = selectCloud({});
  assert.equal(hostAllowed(sandbox, 'http://127.0.0.1:9999/v1'), true);
  assert.equal(hostAllowed(sandbox, 'https://api.fabric.microsoft.com/v1'), false);
  const commercial = selectCloud({ SVC_CLOUD: 'commercial' });
  assert.equal(hostAllowed(commercial, 'https://svc.search.windows.net'), true);
  assert.equal(hostAllowed(commercial, 'https://svc.search.azure.us'), false);
});

test('dedicated targetOverrides outside the cloud are refused with 400 naming the field', () => {
  const high = selectCloud({ SVC_CLOUD: 'gcc-high' });
  assert.throws(() => checkOverrides(high, { kqlClusterUri: 'https://attacker.example.com' }), (e: any) => e.status === 400 && e.extra.field === 'targetOverrides.kqlClusterUri');
  assert.throws(() => checkOverrides(high, { searchService: 'https://svc.search.windows.net' }), (e: any) => e.extra.field === 'targetOverrides.searchService');
  checkOverrides(high, { kqlClusterUri: 'https://c1.usgovvirginia.kusto.usgovcloudapi.net', searchService: 'svc.search.azure.us' });
});
