// An uninstall retried after a first one ended partial because an item's removal failed while a later step removed an
// item it had resolved something through (dependants are removed first): the retry finds what the item made through its
// own live record and ends done, leaving the sandbox as a clean uninstall leaves it. The healthcare warehouse reads its
// lakehouse through external tables named after the lakehouse, in both clouds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '@svc/sandbox';
import { buildWithSandbox, install, type Sandbox, workspace } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { giveLake } from './native-lake-helpers.js';
import { inventory as everything, inventoryChanges } from './sandbox-inventory.js';

/** What the sandbox holds, but for the data platform's recycle bin (each soft delete adds to it). */
const inventory = (state: unknown) => new Map([...everything(state)].filter(([k]) => !k.includes('.recycleBin')));

const summaryOf = (job: any) =>
  job.steps.map(
    (s: any) => `${s.stepIndex} ${s.itemType} '${s.displayName}': ${s.result.status} ${s.result.message ?? ''} ${s.result.error ?? ''}`,
  );

/** The sandbox (with or without the data platform) with its operations quick, and the service on it. */
async function setup(t: Parameters<typeof buildWithSandbox>[0], dataPlatform: boolean) {
  const sb = await startSandbox({ dataPlatform });
  t.after(() => sb.stop());
  // The resource manager's, the data platform's and Synapse's operations end soon and are read at once.
  for (const s of ['arm', 'synapse', ...(dataPlatform ? (['dataPlatform'] as const) : [])] as const) {
    await sb.admin.setSwitch(`${s}.retryAfterSeconds`, 0);
    await sb.admin.setSwitch(`${s}.lroMs`, 20);
  }
  if (dataPlatform) await sb.admin.setSwitch('dataPlatform.sqlEndpointDelayMs', 0);
  const { h, tenant } = await buildWithSandbox(t, { SVC_BACKING_RETRY_DELAY_MS: '50' }, sb);
  if (!dataPlatform) await giveLake(h, tenant.tenantId, sb);
  return { h, sb, tenant };
}

const uninstall = async (h: TestApp, tenant: TestTenant, ws: string, app: string, purgeData: boolean) =>
  followJob(h, tenant, (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${app}?purgeData=${purgeData}`, 202)).job.id);

/** Deletes what an uninstall without purgeData kept in the workspace (its detached data stores), live resources too. */
async function clearKept(h: TestApp, tenant: TestTenant, ws: string) {
  const { items } = await call(h, tenant, 'GET', `/api/workspaces/${ws}/items?limit=200`, 200);
  for (const item of items) {
    const job = await followJob(
      h,
      tenant,
      (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/items/${item.id}?deleteLive=true`, 202)).job.id,
    );
    assert.equal(job.status, 'done', JSON.stringify(summaryOf(job)));
  }
}

async function installed(h: TestApp, tenant: TestTenant, app: string) {
  const ws = await workspace(h, tenant);
  const job = await install(h, tenant, app, { workspaceId: ws });
  assert.equal(job.status, 'done', JSON.stringify(job.provision.steps.map((s: any) => s.result)));
  return ws;
}

/** The sandbox's inventory after a clean install and uninstall of `app` (what a clean uninstall leaves, such as schemas). */
async function cleanInventory(h: TestApp, sb: Sandbox, tenant: TestTenant, app: string) {
  const probe = await installed(h, tenant, app);
  assert.equal((await uninstall(h, tenant, probe, app, true)).status, 'done');
  return inventory(await sb.admin.state());
}

/**
 * Installs `app` into a new workspace, uninstalls it with a fault on `fault` (first uninstall partial, `failing`'s step
 * failed), and retries with purgeData: done, and the sandbox as a clean install and uninstall left it. The first
 * uninstall runs with each of `purges` (without purgeData, data stores are kept detached from the app).
 */
async function retriedUninstall(
  { h, sb, tenant }: { h: TestApp; sb: Sandbox; tenant: TestTenant },
  app: string,
  fault: Parameters<Sandbox['admin']['addFault']>[0],
  failing: string,
  purges: boolean[],
) {
  const clean = await cleanInventory(h, sb, tenant, app);
  for (const purgeData of purges) {
    const what = `${app}, first uninstall purgeData=${purgeData}`;
    const ws = await installed(h, tenant, app);
    await sb.admin.addFault(fault);
    const first = await uninstall(h, tenant, ws, app, purgeData);
    await sb.admin.clearFaults();
    assert.equal(first.status, 'partial', `${what}: ${summaryOf(first).join('\n')}`);
    assert.equal(first.steps.find((s: any) => s.itemType === failing)?.result.status, 'failed', summaryOf(first).join('\n'));
    const retried = await uninstall(h, tenant, ws, app, true);
    assert.equal(retried.status, 'done', `${what}: the retry\n${summaryOf(retried).join('\n')}`);
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${app}`, 404);
    await clearKept(h, tenant, ws);
    assert.deepEqual(inventoryChanges(clean, inventory(await sb.admin.state())), [], `${what}: the sandbox still holds`);
  }
}

const HEALTHCARE = 'app-healthcare-popmgt';

for (const dataPlatform of [true, false]) {
  test(`a warehouse's retried removal drops the external tables over a lakehouse a partial uninstall removed (data platform: ${dataPlatform})`, async (t) => {
    const rig = await setup(t, dataPlatform);
    // The warehouse's step fails on its external tables' drop (after its views and tables went); the lakehouse's runs on.
    // Without purgeData the warehouse is kept, so only a purging first uninstall fails on it.
    const fault = { service: 'sql' as const, method: 'BATCH', path: 'DROP EXTERNAL TABLE', errorCode: '50000', count: 10 };
    await retriedUninstall(rig, HEALTHCARE, fault, 'warehouse', [true]);
  });

  test(`a warehouse kept by an uninstall is deleted on its own with its external tables (data platform: ${dataPlatform})`, async (t) => {
    const { h, sb, tenant } = await setup(t, dataPlatform);
    const clean = await cleanInventory(h, sb, tenant, HEALTHCARE);
    const ws = await installed(h, tenant, HEALTHCARE);
    const kept = await uninstall(h, tenant, ws, HEALTHCARE, false);
    assert.equal(kept.status, 'done', summaryOf(kept).join('\n'));
    // Each kept item deleted alone: its context holds that item only, the lakehouse the warehouse reads not among them.
    await clearKept(h, tenant, ws);
    assert.deepEqual(inventoryChanges(clean, inventory(await sb.admin.state())), [], 'the sandbox still holds');
  });
}
