// An item whose install step failed midway (a fault on a call after its create) recorded no resource: its uninstall
// looks it up by its own names. When a first uninstall ended partial on that lookup while a later step removed the
// item it reads through (its KQL database, its lakehouse), the retry with purgeData still finds it by its own names,
// ends done and leaves the sandbox as a clean install and uninstall leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { FaultRule } from '@svc/sandbox';
import { install, type Sandbox, workspace } from './install-helpers.js';
import { call } from './lifecycle-helpers.js';
import { inventoryChanges } from './sandbox-inventory.js';
import { cleanInventory, clearKept, inventory, quickRig, type Rig, summaryOf, uninstallApp } from './uninstall-retry-helpers.js';

const QUERYSET_CATALOG = fileURLToPath(new URL('./fixtures/catalog-queryset', import.meta.url));

type Faults = Array<Parameters<Sandbox['admin']['addFault']>[0]>;

/**
 * Installs `app` with `installFaults` (the steps of the items named `failing` fail midway), uninstalls it with `lookupFaults` on
 * their lookups (first uninstall partial, a later step removing what they read through), and retries with purgeData:
 * done, and the sandbox as a clean install and uninstall left it. The first uninstall runs with each of `purges`.
 */
async function retriedAfterMidway(
  rig: Rig,
  app: string,
  installFaults: Faults,
  lookupFaults: Faults,
  failing: string[],
  purges: boolean[],
) {
  const { h, sb, tenant } = rig;
  const clean = await cleanInventory(rig, app);
  for (const purgeData of purges) {
    const what = `${app}, first uninstall purgeData=${purgeData}`;
    const ws = await workspace(h, tenant);
    for (const f of installFaults) await sb.admin.addFault(f);
    const job = await install(h, tenant, app, { workspaceId: ws });
    await sb.admin.clearFaults();
    const steps = job.provision.steps.map((s: any) => [s.displayName, s.result.status, s.result.resourceId]);
    for (const name of failing)
      assert.ok(
        steps.some(([n, status, id]: string[]) => n === name && status === 'failed' && !id),
        `${what}: '${name}' failed midway: ${JSON.stringify(steps)}`,
      );
    for (const f of lookupFaults) await sb.admin.addFault(f);
    const first = await uninstallApp(h, tenant, ws, app, purgeData);
    await sb.admin.clearFaults();
    assert.equal(first.status, 'partial', `${what}: ${summaryOf(first).join('\n')}`);
    for (const name of failing)
      assert.equal(first.steps.find((s: any) => s.displayName === name)?.result.status, 'failed', summaryOf(first).join('\n'));
    const retried = await uninstallApp(h, tenant, ws, app, true);
    assert.equal(retried.status, 'done', `${what}: the retry\n${summaryOf(retried).join('\n')}`);
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${app}`, 404);
    await clearKept(h, tenant, ws);
    assert.deepEqual(inventoryChanges(clean, inventory(await sb.admin.state())), [], `${what}: the sandbox still holds`);
  }
}

/** A fault on a call and its one retry. */
const twice = (rule: Partial<FaultRule> & Pick<FaultRule, 'service'>): FaultRule => ({ status: 503, count: 2, ...rule });

test('an Event Hubs eventstream and an Azure Monitor activator that failed midway are found by their own names after their KQL database went', async (t) => {
  const rig = await quickRig(t, false);
  // The stream's hub is made, its consumer group not; the activator's action group is made, its first rule not.
  const installFaults = [
    twice({ service: 'arm', method: 'PUT', path: 'eventhubs/[^/?]*Plant-Telemetry-Stream/consumergroups/' }),
    twice({ service: 'arm', method: 'PUT', path: 'scheduledQueryRules/[^/?]*-condition-activator-' }),
  ];
  // Their lookups fail in the first uninstall, whose later steps delete (or keep and detach) PlantTelemetry.
  const lookupFaults = [
    twice({ service: 'arm', method: 'GET', path: 'eventhubs/[^/?]*Plant-Telemetry-Stream\\?' }),
    twice({ service: 'arm', method: 'GET', path: 'actionGroups/[^/?]*-condition-activator\\?' }),
  ];
  await retriedAfterMidway(
    rig,
    'app-iot-realtime',
    installFaults,
    lookupFaults,
    ['Plant Telemetry Stream', 'Condition Alerts'],
    [true, false],
  );
});

for (const dataPlatform of [true, false]) {
  test(`a warehouse that failed midway is found by its own tables and views after its lakehouse went (data platform: ${dataPlatform})`, async (t) => {
    const rig = await quickRig(t, dataPlatform);
    // The script after the warehouse's read fails on its views; its lookup's read of the pool's catalog fails next.
    const installFaults = [{ service: 'sql' as const, method: 'BATCH', path: 'CREATE VIEW', errorCode: '50000', count: 10 }];
    const lookupFaults = [{ service: 'sql' as const, method: 'BATCH', path: 'INFORMATION_SCHEMA', errorCode: '50000', count: 10 }];
    await retriedAfterMidway(rig, 'app-healthcare-popmgt', installFaults, lookupFaults, ['PopHealthWarehouse'], [true, false]);
  });
}

test('a KQL queryset that failed midway is looked up without its database item once that went', async (t) => {
  const rig = await quickRig(t, false, { SVC_CATALOG_DIR: QUERYSET_CATALOG });
  const app = 'app-saved-queries';
  // The KQL calls of an install: the queryset's come last (it waits for its database), its script of functions the very last.
  const probe = await workspace(rig.h, rig.tenant);
  const since = (await rig.sb.admin.requests()).at(-1)?.seq ?? 0;
  assert.equal((await install(rig.h, rig.tenant, app, { workspaceId: probe })).status, 'done');
  const posts = (await rig.sb.admin.requests({ since, service: 'kql' })).filter((r) => r.method === 'POST').length;
  assert.equal((await uninstallApp(rig.h, rig.tenant, probe, app, true)).status, 'done');
  // Every KQL call of the install but the last answers normally; the queryset's script fails.
  const installFaults: Faults = [
    { service: 'kql', method: 'POST', delayMs: 0, count: posts - 1 },
    twice({ service: 'kql', method: 'POST' }),
  ];
  // The first uninstall's first KQL call is the queryset's lookup (its database's delete goes through the resource manager).
  const lookupFaults: Faults = [twice({ service: 'kql', method: 'POST' })];
  await retriedAfterMidway(rig, app, installFaults, lookupFaults, ['Shift queries'], [true, false]);
});
