// What the tests of uninstalls run again after a partial one share: the sandbox with its operations quick, an app
// installed and uninstalled, the kept items deleted on their own, a job's steps in one line each, and what the sandbox
// holds after a clean install and uninstall.
import assert from 'node:assert/strict';
import { startSandbox } from '@svc/sandbox';
import { buildWithSandbox, install, type Sandbox, workspace } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { giveLake } from './native-lake-helpers.js';
import { inventory as everything } from './sandbox-inventory.js';

export type Rig = { h: TestApp; sb: Sandbox; tenant: TestTenant };

/** What the sandbox holds, but for the data platform's recycle bin (each soft delete adds to it). */
export const inventory = (state: unknown) => new Map([...everything(state)].filter(([k]) => !k.includes('.recycleBin')));

/** A job's steps, one line each: index, type, name, status, and the message and backing error. */
export const summaryOf = (job: any): string[] =>
  job.steps.map(
    (s: any) => `${s.stepIndex} ${s.itemType} '${s.displayName}': ${s.result.status} ${s.result.message ?? ''} ${s.result.error ?? ''}`,
  );

/**
 * The sandbox (with or without the data platform) with the resource manager's, Synapse's and the data platform's
 * operations ending soon and read at once, and the service on it (a failed call's one retry at once; a lake given to the
 * tenant without the data platform).
 */
export async function quickRig(
  t: Parameters<typeof buildWithSandbox>[0],
  dataPlatform: boolean,
  env: Record<string, string> = {},
  lake = true,
): Promise<Rig> {
  const sb = await startSandbox({ dataPlatform });
  t.after(() => sb.stop());
  for (const s of ['arm', 'synapse', ...(dataPlatform ? (['dataPlatform'] as const) : [])] as const) {
    await sb.admin.setSwitch(`${s}.retryAfterSeconds`, 0);
    await sb.admin.setSwitch(`${s}.lroMs`, 20);
  }
  if (dataPlatform) await sb.admin.setSwitch('dataPlatform.sqlEndpointDelayMs', 0);
  const { h, tenant } = await buildWithSandbox(t, { SVC_BACKING_RETRY_DELAY_MS: '50', ...env }, sb);
  if (!dataPlatform && lake) await giveLake(h, tenant.tenantId, sb);
  return { h, sb, tenant };
}

/** Uninstalls `app` from the workspace and follows the job to its end. */
export const uninstallApp = async (h: TestApp, tenant: TestTenant, ws: string, app: string, purgeData: boolean) =>
  followJob(h, tenant, (await call(h, tenant, 'DELETE', `/api/workspaces/${ws}/apps/${app}?purgeData=${purgeData}`, 202)).job.id);

/** A new workspace with `app` installed (all done). */
export async function installedApp(h: TestApp, tenant: TestTenant, app: string) {
  const ws = await workspace(h, tenant);
  const job = await install(h, tenant, app, { workspaceId: ws });
  assert.equal(job.status, 'done', JSON.stringify(job.provision.steps.map((s: any) => s.result)));
  return ws;
}

/** Deletes what an uninstall without purgeData kept in the workspace (its detached data stores), live resources too. */
export async function clearKept(h: TestApp, tenant: TestTenant, ws: string) {
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

/** The sandbox's inventory after a clean install and uninstall of `app` (what a clean uninstall leaves, such as schemas). */
export async function cleanInventory({ h, sb, tenant }: Rig, app: string) {
  const ws = await installedApp(h, tenant, app);
  assert.equal((await uninstallApp(h, tenant, ws, app, true)).status, 'done');
  return inventory(await sb.admin.state());
}
