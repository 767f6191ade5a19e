// An uninstall retried after a first one ended partial because an item's removal failed while a later step removed an
// item it had resolved something through (dependants are removed first): the retry finds what the item made through its
// own live record and ends done, leaving the sandbox as a clean uninstall leaves it. The healthcare warehouse reads its
// lakehouse through external tables named after the lakehouse, in both clouds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Sandbox } from './install-helpers.js';
import { call } from './lifecycle-helpers.js';
import { inventoryChanges } from './sandbox-inventory.js';
import {
  cleanInventory,
  clearKept,
  inventory,
  installedApp,
  quickRig,
  type Rig,
  summaryOf,
  uninstallApp,
} from './uninstall-retry-helpers.js';

/**
 * Installs `app` into a new workspace, uninstalls it with a fault on `fault` (first uninstall partial, `failing`'s step
 * failed), and retries with purgeData: done, and the sandbox as a clean install and uninstall left it. The first
 * uninstall runs with each of `purges` (without purgeData, data stores are kept detached from the app).
 */
async function retriedUninstall(
  rig: Rig,
  app: string,
  fault: Parameters<Sandbox['admin']['addFault']>[0],
  failing: string,
  purges: boolean[],
) {
  const { h, sb, tenant } = rig;
  const clean = await cleanInventory(rig, app);
  for (const purgeData of purges) {
    const what = `${app}, first uninstall purgeData=${purgeData}`;
    const ws = await installedApp(h, tenant, app);
    await sb.admin.addFault(fault);
    const first = await uninstallApp(h, tenant, ws, app, purgeData);
    await sb.admin.clearFaults();
    assert.equal(first.status, 'partial', `${what}: ${summaryOf(first).join('\n')}`);
    assert.equal(first.steps.find((s: any) => s.itemType === failing)?.result.status, 'failed', summaryOf(first).join('\n'));
    const retried = await uninstallApp(h, tenant, ws, app, true);
    assert.equal(retried.status, 'done', `${what}: the retry\n${summaryOf(retried).join('\n')}`);
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${app}`, 404);
    await clearKept(h, tenant, ws);
    assert.deepEqual(inventoryChanges(clean, inventory(await sb.admin.state())), [], `${what}: the sandbox still holds`);
  }
}

const HEALTHCARE = 'app-healthcare-popmgt';

for (const dataPlatform of [true, false]) {
  test(`a warehouse's retried removal drops the external tables over a lakehouse a partial uninstall removed (data platform: ${dataPlatform})`, async (t) => {
    const rig = await quickRig(t, dataPlatform);
    // The warehouse's step fails on its external tables' drop (after its views and tables went); the lakehouse's runs on.
    // Without purgeData the warehouse is kept, so only a purging first uninstall fails on it.
    const fault = { service: 'sql' as const, method: 'BATCH', path: 'DROP EXTERNAL TABLE', errorCode: '50000', count: 10 };
    await retriedUninstall(rig, HEALTHCARE, fault, 'warehouse', [true]);
  });

  test(`a warehouse kept by an uninstall is deleted on its own with its external tables (data platform: ${dataPlatform})`, async (t) => {
    const rig = await quickRig(t, dataPlatform);
    const { h, sb, tenant } = rig;
    const clean = await cleanInventory(rig, HEALTHCARE);
    const ws = await installedApp(h, tenant, HEALTHCARE);
    const kept = await uninstallApp(h, tenant, ws, HEALTHCARE, false);
    assert.equal(kept.status, 'done', summaryOf(kept).join('\n'));
    // Each kept item deleted alone: its context holds that item only, the lakehouse the warehouse reads not among them.
    await clearKept(h, tenant, ws);
    assert.deepEqual(inventoryChanges(clean, inventory(await sb.admin.state())), [], 'the sandbox still holds');
  });
}
