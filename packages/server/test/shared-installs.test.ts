// Installs of one app into workspaces of a tenant that share its live resources (provisioning/live-lock.ts): once the
// resources are there (and the process's last install of a resource wrote nothing), the installs' steps check them beside
// each other under the lock's shared mode, where only reads and idempotent writes are sent (backends/shared-access.ts);
// a step that needs another call runs again alone under the exclusive lock. Nothing is made twice, and the live state is
// what one install left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithSandbox, follow, install, startInstall, stepOf, workspace } from './install-helpers.js';
import { sharedStepCounts } from '../src/provisioning/live-lock.js';

const APP = 'app-lakehouse-inspector';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('two installs of an app already there check its notebook at the same time; nothing is made twice', { timeout: 300_000 }, async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const first = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  assert.equal(first.status, 'done');
  const notebook = stepOf(first, 'notebook', 'Scan Table Inventory');
  const platformWs = first.provision.target.platformWorkspaceId;
  // The first install created the notebook alone. The next one checks it alone too (the last step of it wrote), and
  // finds nothing to write: from then on installs check it beside each other.
  const second = await install(h, tenant, APP, { workspaceId: await workspace(h, tenant) });
  assert.equal(stepOf(second, 'notebook', 'Scan Table Inventory').result.status, 'exists');
  const itemsOf = async () =>
    (await sandbox.admin.state()).dataPlatform.workspaces
      .find((w: any) => w.id === platformWs)!
      .items.map((i: any) => `${i.type} ${i.displayName} ${i.id}`)
      .sort();
  const before = await itemsOf();
  const counts = sharedStepCounts();

  // Each install's read of the notebook's definition (to compare it) is held 3 s by the sandbox. Under one lock at a
  // time the second read would arrive only after the first was answered; beside each other, both arrive while the
  // first is still held.
  const held = await sandbox.admin.addFault({
    service: 'dataPlatform',
    method: 'POST',
    path: `/items/${notebook.result.resourceId}/getDefinition`,
    delayMs: 3000,
    count: 2,
  });
  const hits = async () => (await sandbox.admin.faults()).find((f) => f.id === held.id)?.hits ?? 0;
  const jobs = await Promise.all(
    [1, 2].map(async () => (await startInstall(h, tenant, APP, { workspaceId: await workspace(h, tenant) })).jobId),
  );
  for (let i = 0; i < 1000 && (await hits()) < 1; i++) await sleep(20);
  const firstHeldAt = Date.now();
  while ((await hits()) < 2 && Date.now() - firstHeldAt < 2500) await sleep(20);
  assert.equal(await hits(), 2, 'the second install read the notebook while the first install’s read was still held');

  for (const jobId of jobs) {
    const job = await follow(h, tenant, jobId);
    assert.equal(job.status, 'done', JSON.stringify(job.provision.steps.map((s: any) => [s.displayName, s.result.status])));
    const again = stepOf(job, 'notebook', 'Scan Table Inventory');
    assert.equal(again.result.status, 'exists', JSON.stringify(again.result));
    assert.equal(again.result.resourceId, notebook.result.resourceId);
  }
  assert.deepEqual(await itemsOf(), before, 'the platform workspace holds what the first install left, nothing twice');
  const after = sharedStepCounts();
  assert.ok(after.shared - counts.shared >= 2, `steps done under the shared lock: ${after.shared - counts.shared}`);
});

test(
  'a KQL database already there is read beside other installs (GET, .show), not written; a changed function is altered alone',
  { timeout: 300_000 },
  async (t) => {
    const KQL_APP = 'app-finops-cost';
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const kqlStep = (job: any) => stepOf(job, 'kql-database', 'CloudCost');
    const first = await install(h, tenant, KQL_APP, { workspaceId: await workspace(h, tenant) });
    assert.equal(kqlStep(first).result.status, 'created');
    // Found there by the second install (alone: the first one made it), so the third checks it beside others.
    assert.equal(kqlStep(await install(h, tenant, KQL_APP, { workspaceId: await workspace(h, tenant) })).result.status, 'exists');
    const database = kqlStep(first).result.secondaryIds.database;
    const kqlState = async () => JSON.stringify((await sandbox.admin.state()).kql);
    const before = await kqlState();

    const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
    const counts = sharedStepCounts();
    const third = await install(h, tenant, KQL_APP, { workspaceId: await workspace(h, tenant) });
    assert.equal(third.status, 'done');
    const step = kqlStep(third);
    assert.equal(step.result.status, 'exists', JSON.stringify(step.result));
    assert.ok(step.result.steps.includes(`database ${database}: exists (resource manager GET)`), step.result.steps.join('\n'));
    assert.ok(sharedStepCounts().shared > counts.shared);
    const sent = (await sandbox.admin.requests({ since })).filter((r) => r.service === 'arm' || r.service === 'kql');
    const onDatabase = sent.filter((r) => r.path.includes(`/databases/${database}`) || (r.text ?? '').length > 0);
    assert.ok(onDatabase.length > 0, 'the database was read');
    for (const r of onDatabase) {
      assert.ok(
        r.method === 'GET' || /^\s*\.show /.test(r.text ?? ''),
        `only reads of the database: ${r.method} ${r.path} ${r.text ?? ''}`,
      );
    }
    assert.equal(await kqlState(), before, 'the cluster holds what it held');

    // A function changed by hand since: the next install reads it beside others, finds it differs, and alters it alone.
    const token = await sandbox.admin.token({ audience: 'kql' });
    const altered = await fetch(`${sandbox.env.SVC_KQL_CLUSTER_URI}/v1/rest/mgmt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ db: database, csl: '.create-or-alter function TopSpenders() { CostUsage | take 1 }' }),
    });
    assert.equal(altered.status, 200, await altered.text());
    const fourth = await install(h, tenant, KQL_APP, { workspaceId: await workspace(h, tenant) });
    const again = kqlStep(fourth);
    assert.equal(again.result.status, 'exists', JSON.stringify(again.result));
    assert.ok(again.result.steps.includes('.create-or-alter function TopSpenders'), again.result.steps.join('\n'));
    assert.ok(
      again.result.steps.some((l: string) => /not sent beside other installs of this resource; run again alone/.test(l)),
      again.result.steps.join('\n'),
    );
    assert.equal(await kqlState(), before, 'the function is as the content has it again');
  },
);

test(
  'a paginated report already there is exported and compared beside other installs, not imported again',
  { timeout: 300_000 },
  async (t) => {
    const APP_WITH_REPORT = 'app-casino-analytics';
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const reportStep = (job: any) => stepOf(job, 'report', 'Daily Floor Performance');
    assert.equal(
      reportStep(await install(h, tenant, APP_WITH_REPORT, { workspaceId: await workspace(h, tenant) })).result.status,
      'created',
    );
    const second = await install(h, tenant, APP_WITH_REPORT, { workspaceId: await workspace(h, tenant) });
    assert.equal(reportStep(second).result.status, 'exists');
    const state = async () => JSON.stringify((await sandbox.admin.state()).reporting);
    const before = await state();
    const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;

    const third = await install(h, tenant, APP_WITH_REPORT, { workspaceId: await workspace(h, tenant) });
    assert.equal(third.status, 'done');
    const step = reportStep(third);
    assert.equal(step.result.status, 'exists', JSON.stringify(step.result));
    assert.equal(step.result.resourceId, reportStep(second).result.resourceId);
    assert.ok(
      step.result.steps.some((l: string) => /holds this definition \(Export\): not imported again/.test(l)),
      step.result.steps.join('\n'),
    );
    const reporting = (await sandbox.admin.requests({ since })).filter((r) => r.service === 'reporting');
    assert.ok(
      reporting.some((r) => r.method === 'GET' && /\/reports\/[^/]+\/Export$/.test(r.path)),
      'the report was exported',
    );
    assert.ok(!reporting.some((r) => /\/imports$/.test(r.path) && r.method === 'POST'), 'nothing was imported');
    assert.equal(await state(), before, 'the reporting service holds what it held');
  },
);
