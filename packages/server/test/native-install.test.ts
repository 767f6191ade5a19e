import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '@svc/sandbox';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { backendIdOf, liveItemType, storedReason } from '../src/item-types/index.js';
import { buildWithSandbox, install, workspace } from './install-helpers.js';
import { inventory, inventoryChanges } from './sandbox-inventory.js';

const catalog = loadCatalog();

test('without the data platform every app installs all-created on the Azure-native backends, and a re-run is exists with nothing duplicated', async (t) => {
  const sb = await startSandbox({ dataPlatform: false });
  t.after(() => sb.stop());
  const { h, sandbox, tenant } = await buildWithSandbox(t, {}, sb);
  const profile = h.services.profile;
  assert.equal(profile.dataPlatformApiUrl, undefined, 'the service was not told of a data platform');
  const workspaces = new Map<string, string>();
  for (const app of catalog.apps) {
    const ws = await workspace(h, tenant, app.id);
    workspaces.set(app.id, ws);
    const job = await install(h, tenant, app.id, { workspaceId: ws });
    for (const step of job.provision.steps) {
      assert.equal(step.result.status, 'created', `${app.id} ${step.itemType} ${step.displayName}: ${JSON.stringify(step.result)}`);
      assert.notEqual(step.result.backend, 'data-platform', `${app.id} ${step.itemType}`);
      assert.equal(step.result.backend, job.provision.backends[step.itemType], 'the step names the backend the report lists');
    }
    assert.equal(job.provision.outcome, 'all-created', app.id);
    assert.equal(job.status, 'done', app.id);
    // A type with no published API here, or content its backend here cannot hold, is stored only: no step, and the
    // item's live record says why.
    const items = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items?limit=200`, headers: tenant.auth })).json().items;
    for (const item of app.items.filter((i) => liveItemType(i.itemType) && storedReason(i.itemType, i.content, app, profile))) {
      assert.ok(!job.provision.steps.some((s: any) => s.displayName === item.displayName), `${item.key} has no step`);
      const stored = items.find((i: any) => i.displayName === item.displayName);
      assert.equal(stored.liveState, 'stored-only', item.key);
      assert.equal(stored.backend, 'stored', item.key);
      assert.equal(stored.provisioning.message, storedReason(item.itemType, item.content, app, profile));
      if (backendIdOf(item.itemType, profile) === 'stored') assert.equal(job.provision.backends[item.itemType], 'stored');
    }
  }
  const log = await sandbox.admin.requests();
  assert.equal(log.filter((e) => e.service === 'dataPlatform' || e.service === 'oneLake').length, 0, 'nothing reached the data platform');
  const before = inventory(await sandbox.admin.state());

  for (const app of catalog.apps) {
    const job = await install(h, tenant, app.id, { workspaceId: workspaces.get(app.id)! });
    for (const step of job.provision.steps)
      assert.equal(step.result.status, 'exists', `${app.id} ${step.itemType} ${step.displayName}: ${JSON.stringify(step.result)}`);
    assert.equal(job.provision.outcome, 'all-created', app.id);
  }
  assert.deepEqual(inventoryChanges(before, inventory(await sandbox.admin.state())), [], 'the re-run created nothing in the sandbox');

  // Each item shows where it lives and a link to its cloud's portal.
  const ws = workspaces.get('app-iot-realtime')!;
  const items = (await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/items?limit=200`, headers: tenant.auth })).json().items;
  for (const item of items.filter((i: any) => i.liveState === 'created')) {
    assert.ok(item.backend && item.backend !== 'data-platform', `${item.displayName}: ${item.backend}`);
    assert.ok(item.portal?.url.startsWith('https://'), `${item.displayName}: ${JSON.stringify(item.portal)}`);
  }
});
