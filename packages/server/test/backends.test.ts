import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../src/config/backends.js';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config/setting.js';
import { selectCloud } from '../src/cloud/profiles.js';
import { backendIdsOf } from '../src/item-types/backends.js';
import { type AnyLiveItemType, backendChoice, backendIdOf, ITEM_TYPES, isLive, liveItemType } from '../src/item-types/index.js';

const cloud = (env: Record<string, string>) => selectCloud(loadConfig(env).cloud);

test('SVC_BACKEND_<TYPE> offers exactly the backends each type has, the data platform first', () => {
  const withAlternatives = ITEM_TYPES.filter((t) => 'alternatives' in t && t.alternatives?.length);
  assert.deepEqual(
    Object.keys(BACKENDS).sort(),
    withAlternatives.map((t) => t.id).sort(),
    'one setting per type with more than one backend',
  );
  for (const t of withAlternatives) {
    const setting = BACKENDS[t.id as keyof typeof BACKENDS];
    assert.equal(setting.name, `SVC_BACKEND_${t.id.toUpperCase().replace(/-/g, '_')}`);
    for (const b of backendIdsOf(t as AnyLiveItemType)) assert.doesNotThrow(() => setting.parse(b), `${t.id}: ${b}`);
    assert.throws(() => setting.parse('elsewhere'), ConfigError);
    assert.equal(backendIdsOf(t as AnyLiveItemType)[0], 'data-platform', `${t.id}: the data platform is the primary`);
  }
});

test('the cloud chooses: the data platform where it has one, the Azure-native backend where not, a setting overrides per type', () => {
  const commercial = cloud({ SVC_CLOUD: 'commercial' });
  const high = cloud({ SVC_CLOUD: 'gcc-high' });
  const dod = cloud({ SVC_CLOUD: 'dod' });
  for (const t of ITEM_TYPES.filter((x) => 'alternatives' in x && x.alternatives?.length)) {
    const ids = backendIdsOf(t as AnyLiveItemType);
    assert.equal(backendIdOf(t.id, commercial), 'data-platform', t.id);
    assert.equal(backendIdOf(t.id, high), ids[1], `${t.id} in GCC-High`);
    assert.equal(backendIdOf(t.id, dod), ids[1], `${t.id} in DoD`);
  }
  // A cloud that publishes the data platform later: setting its address brings the platform back.
  const later = cloud({ SVC_CLOUD: 'gcc-high', SVC_DATA_PLATFORM_API_URL: 'https://api.fabric.example.us/v1' });
  assert.equal(backendIdOf('notebook', later), 'data-platform');
  // Per type: the notebook on Synapse in a cloud with the data platform, the rest unchanged.
  const mixed = cloud({ SVC_CLOUD: 'commercial', SVC_BACKEND_NOTEBOOK: 'synapse' });
  assert.equal(backendIdOf('notebook', mixed), 'synapse');
  assert.equal(backendIdOf('lakehouse', mixed), 'data-platform');
  assert.throws(() => loadConfig({ SVC_BACKEND_NOTEBOOK: 'lake' }), /SVC_BACKEND_NOTEBOOK/);
  // Types with one backend keep it everywhere; the KQL dashboard is stored only where there is no platform.
  assert.equal(backendIdOf('kql-database', high), 'kql');
  assert.equal(backendIdOf('search-index', high), 'search');
  assert.equal(isLive('kql-dashboard', high), false);
  assert.equal(isLive('kql-dashboard', commercial), true);
  // The recorded backend wins over the cloud's choice (an item provisioned before the setting changed).
  assert.equal(backendIdOf('notebook', commercial, 'synapse'), 'synapse');
  assert.equal(backendChoice(high).notebook, 'synapse');
  assert.equal(liveItemType('dashboard'), undefined);
});

test('the token goes only to the cloud’s own Azure-native hosts', async () => {
  const { hostAllowed } = await import('../src/cloud/profiles.js');
  const commercial = cloud({ SVC_CLOUD: 'commercial' });
  const high = cloud({ SVC_CLOUD: 'gcc-high' });
  assert.ok(hostAllowed(commercial, 'https://ws1.dev.azuresynapse.net/notebooks'));
  assert.ok(hostAllowed(commercial, 'https://lake1.dfs.core.windows.net/c'));
  assert.ok(!hostAllowed(commercial, 'https://ws1.dev.azuresynapse.usgovcloudapi.net/notebooks'));
  assert.ok(hostAllowed(high, 'https://ws1.dev.azuresynapse.usgovcloudapi.net/notebooks'));
  assert.ok(hostAllowed(high, 'https://lake1.dfs.core.usgovcloudapi.net/c'));
  assert.ok(!hostAllowed(high, 'https://ws1.dev.azuresynapse.net/notebooks'), 'a commercial host is not GCC-High’s');
  assert.ok(!hostAllowed(high, 'https://api.fabric.microsoft.com/v1/workspaces'));
  assert.equal(high.synapseAudience, 'https://dev.azuresynapse.usgovcloudapi.net');
});
