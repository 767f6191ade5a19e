// An uninstall of the IoT app without the data platform, retried after a first one ended partial because one backing
// delete failed (a fault injected on that step's call), as CI's chaos sweep retries it: with the faults cleared and
// purgeData the retry ends done and the sandbox holds nothing of the app; also while another workspace of the tenant
// installs the same app (its event hubs, databases and alert rules share names with the retried ones).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FaultRule } from '@svc/sandbox';
import { type buildWithSandbox, install, type Sandbox, workspace } from './install-helpers.js';
import type { TestApp, TestTenant } from './helpers.js';
import { call, followJob } from './lifecycle-helpers.js';
import { inventory, inventoryChanges } from './sandbox-inventory.js';
import { clearKept, installedApp, quickRig, summaryOf, uninstallApp } from './uninstall-retry-helpers.js';

const APP = 'app-iot-realtime';
/** The Azure-native services the app's live items are in: the resource manager (Event Hubs, Kusto, Monitor) and KQL. */
const NATIVE = ['.arm.', '.kql.'];
/** The faults the chaos run injects that fail a call, each answered to both the call and its one retry. */
const KINDS: Array<Partial<FaultRule>> = [{ status: 503 }, { reset: true }, { status: 429, retryAfter: 1 }, { status: 500 }];

const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function setup(t: Parameters<typeof buildWithSandbox>[0]) {
  // The resource manager's operations (database and data connection creates and deletes) end soon and are read at once;
  // a failed call's one retry comes at once: the cases are many, and the retry's timing is not what they test.
  const { h, sb, tenant } = await quickRig(t, false, {}, false);
  const native = async () => new Map([...inventory(await sb.admin.state())].filter(([k]) => NATIVE.some((p) => k.startsWith(p))));
  const baseline = await native();
  return { h, sb, tenant, native, left: async () => inventoryChanges(baseline, await native()) };
}

const installed = (h: TestApp, tenant: TestTenant) => installedApp(h, tenant, APP);

const uninstall = (h: TestApp, tenant: TestTenant, ws: string, purgeData: boolean) => uninstallApp(h, tenant, ws, APP, purgeData);

/** The resource manager's DELETEs a clean uninstall of the app makes, one per live resource, as fault paths. */
async function deletesOfOneUninstall(h: TestApp, sb: Sandbox, tenant: TestTenant) {
  const ws = await installed(h, tenant);
  const since = (await sb.admin.requests()).at(-1)?.seq ?? 0;
  const job = await uninstall(h, tenant, ws, true);
  assert.equal(job.status, 'done', JSON.stringify(summaryOf(job)));
  return (await sb.admin.requests({ since, service: 'arm' }))
    .filter((r) => r.method === 'DELETE')
    .map((r) => {
      const path = r.path.split('?')[0]!;
      return {
        method: 'DELETE',
        path: `${literally(path)}\\?`,
        name: path.split('/').at(-1)!,
        stream: /\/(eventhubs|dataConnections)\//.test(path),
      };
    });
}

test(
  'a partial uninstall retried with purgeData ends done with nothing left, whichever backing delete failed first',
  { timeout: 900_000 },
  async (t) => {
    const { h, sb, tenant, left } = await setup(t);
    const deletes = await deletesOfOneUninstall(h, sb, tenant);
    assert.deepEqual(await left(), [], 'a clean uninstall leaves nothing');
    assert.ok(deletes.length >= 13, `three data connections and hubs, three databases, four rules, two groups: ${deletes.length}`);
    // Each delete in turn, and the read of a delete's operation (the delete was accepted, its outcome not read: the first
    // is a data connection's). Without purgeData the databases are kept, detached from the app: the eventstreams that fed
    // them are retried without them in the app.
    const cases = [...deletes, { method: 'GET', path: 'operationResults', name: 'the first delete operation read', stream: true }];
    let n = 0;
    for (const purgeData of [true, false])
      for (const c of cases.filter((x) => purgeData || x.stream)) {
        const kind = KINDS[n++ % KINDS.length]!;
        const what = `${c.method} ${c.name} (${JSON.stringify(kind)}), first uninstall purgeData=${purgeData}`;
        const ws = await installed(h, tenant);
        const fault = await sb.admin.addFault({ service: 'arm', method: c.method, path: c.path, count: 2, ...kind });
        const first = await uninstall(h, tenant, ws, purgeData);
        await sb.admin.clearFaults();
        assert.equal(first.status, 'partial', `${what}: ${JSON.stringify(summaryOf(first))} (fault ${JSON.stringify(fault)})`);
        const retried = await uninstall(h, tenant, ws, true);
        assert.equal(retried.status, 'done', `${what}: the retry\n${summaryOf(retried).join('\n')}`);
        await call(h, tenant, 'GET', `/api/workspaces/${ws}/apps/${APP}`, 404);
        await clearKept(h, tenant, ws);
        assert.deepEqual(await left(), [], `${what}: the sandbox still holds`);
      }
  },
);

test('a retried uninstall while another workspace of the tenant installs the app: both end well, the install keeps all it made', async (t) => {
  const { h, sb, tenant, native, left } = await setup(t);
  const oneInstall = async () => {
    const ws = await installed(h, tenant);
    const held = await native();
    return { ws, held };
  };
  const { ws: probe, held: oneApp } = await oneInstall();
  assert.equal((await uninstall(h, tenant, probe, true)).status, 'done');

  for (const order of ['uninstall first', 'install first'] as const) {
    const a = await installed(h, tenant);
    // The first uninstall fails on an event hub (its data connection went, and with purgeData the database it fed) and on
    // another database: the retry removes both while the other workspace's install makes them again or finds them.
    await sb.admin.addFault({ service: 'arm', method: 'DELETE', path: 'eventhubs/[^/?]*Plant-Telemetry-Stream\\?', status: 503, count: 2 });
    await sb.admin.addFault({ service: 'arm', method: 'DELETE', path: 'databases/PlantMaintenance\\?', status: 503, count: 2 });
    const first = await uninstall(h, tenant, a, true);
    await sb.admin.clearFaults();
    assert.equal(first.status, 'partial', JSON.stringify(summaryOf(first)));
    // Every resource manager call takes a while, so the retry's deletes and the install's creates interleave.
    await sb.admin.addFault({ service: 'arm', delayMs: 150 });
    const b = await workspace(h, tenant);
    const retry = call(h, tenant, 'DELETE', `/api/workspaces/${a}/apps/${APP}?purgeData=true`, 202);
    const start = () => install(h, tenant, APP, { workspaceId: b });
    const [retried, other] =
      order === 'uninstall first'
        ? await Promise.all([retry.then((r) => followJob(h, tenant, r.job.id)), start()])
        : await Promise.all([start(), retry.then((r) => followJob(h, tenant, r.job.id))]).then(([i, u]) => [u, i]);
    await sb.admin.clearFaults();
    assert.equal(retried.status, 'done', `${order}: the retry\n${summaryOf(retried).join('\n')}`);
    assert.equal(other.status, 'done', `${order}: ${JSON.stringify(other.provision.steps.map((s: any) => s.result))}`);
    assert.deepEqual(inventoryChanges(oneApp, await native()), [], `${order}: the sandbox holds the other install's app, whole`);
    assert.equal((await uninstall(h, tenant, b, true)).status, 'done');
    assert.deepEqual(await left(), [], order);
  }
});
