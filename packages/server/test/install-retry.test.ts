// A step retry re-opens the step and answers 202 at once; the worker runs it under the job's lease, like any other
// step, and recomputes the report from the stored steps. Several steps may be re-opened before a worker claims the job;
// while one holds it, 409. Another tenant's retry is a 404.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { build, type TestApp } from './helpers.js';
import { followJob } from './lifecycle-helpers.js';
import { follow, giveSandbox, install, retryStep, startRetry, stepOf, workspace, type Sandbox } from './install-helpers.js';

const APP = 'app-lakehouse-inspector';
const DELAY_MS = 2500;

/** An app on a store that a second build can reopen (a restart), wired to a fresh sandbox. */
async function rig(t: TestContext) {
  const sandbox = await startSandbox({});
  t.after(() => sandbox.stop());
  process.env.IDENTITY_ENDPOINT = sandbox.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sandbox.env.IDENTITY_HEADER;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-retry-'));
  // Reopened by several builds, each closed by its own hook: removed when the test process ends.
  process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const open = async () => {
    const closers: Array<() => Promise<void>> = [];
    const h = await build(
      {
        after: (fn: () => Promise<void>) => {
          closers.push(fn);
        },
      },
      { ...sandbox.env, SVC_WORKER_POLL_MS: '100', SVC_DATA_DIR: dataDir },
    );
    let closed = false;
    const close = async () => {
      if (!closed) {
        closed = true;
        for (const fn of closers) await fn();
      }
    };
    t.after(close);
    return { h, close };
  };
  const first = await open();
  const tenant = await first.h.tenant();
  await giveSandbox(first.h, tenant.tenantId, sandbox);
  const ws = await workspace(first.h, tenant);
  return { sandbox, tenant, ws, ...first, open };
}

/** Installs the app with the workspace role revoked (every step waits on the data-platform gate), then grants it back. */
async function gatedInstall(r: Awaited<ReturnType<typeof rig>>) {
  await r.sandbox.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
  const job = await install(r.h, r.tenant, APP, { workspaceId: r.ws });
  assert.deepEqual([job.provision.outcome, job.status], ['all-remediation', 'failed']);
  await r.sandbox.admin.grant({ service: 'dataPlatform', role: 'Contributor' });
  return job;
}

const leaseOwner = async (h: TestApp, jobId: string) =>
  (await h.store.db.selectFrom('install_jobs').select('lease_owner').where('id', '=', jobId).executeTakeFirstOrThrow()).lease_owner;

const platformItems = async (sb: Sandbox, type: string, name: string) =>
  (await sb.admin.state()).dataPlatform.workspaces
    .find((w: any) => w.id === sb.ids.platformWorkspaceId)!
    .items.filter((i: any) => i.type === type && i.displayName.toLowerCase() === name.toLowerCase());

test('a retry answers 202 at once while the step provisions slowly; the worker runs it under the lease and recomputes the report', async (t) => {
  const r = await rig(t);
  const job = await gatedInstall(r);
  const lake = stepOf(job, 'lakehouse');
  const other = job.provision.steps.find((s: any) => s.stepIndex !== lake.stepIndex);
  // Every data-platform call about lakehouses waits DELAY_MS: the step takes several times that.
  await r.sandbox.admin.addFault({ service: 'dataPlatform', path: '/lakehouses', delayMs: DELAY_MS });

  const asked = Date.now();
  const accepted = await startRetry(r.h, r.tenant, job.id, lake.stepIndex);
  const answeredIn = Date.now() - asked;
  assert.ok(answeredIn < DELAY_MS / 2, `answered in ${answeredIn} ms, without waiting for the backing service`);
  assert.equal(accepted.id, job.id);

  // The worker claims the job at once (the retry pokes it); while it holds the lease, another retry is refused.
  const deadline = Date.now() + 10_000;
  while (!(await leaseOwner(r.h, job.id))) {
    assert.ok(Date.now() < deadline, 'a worker claimed the re-opened job');
    await new Promise((res) => setTimeout(res, 20));
  }
  const busy = await r.h.app.inject({
    method: 'POST',
    url: `/api/apps/install-jobs/${job.id}/steps/${other.stepIndex}/retry`,
    headers: r.tenant.auth,
  });
  assert.equal(busy.statusCode, 409, busy.body);
  assert.equal(busy.json().error.code, 'job_running');

  const done = await follow(r.h, r.tenant, job.id);
  assert.ok(Date.now() - asked >= DELAY_MS, 'the slow provisioning ran after the answer');
  const after = stepOf(done, 'lakehouse');
  assert.equal(after.result.status, 'created', JSON.stringify(after.result));
  assert.ok(after.result.resourceId);
  // The report is recomputed from the stored steps: the other steps keep their results, the outcome and status follow.
  assert.deepEqual(
    done.provision.steps.filter((s: any) => s.stepIndex !== lake.stepIndex),
    job.provision.steps.filter((s: any) => s.stepIndex !== lake.stepIndex),
  );
  assert.deepEqual([done.provision.outcome, done.status], ['partial', 'partial']);
  // The retried step ran in the worker: the lakehouse calls reached the sandbox after the retry was answered.
  const calls = (await r.sandbox.admin.requests({ service: 'dataPlatform' })).filter(
    (q) => q.path.includes('/lakehouses') && Date.parse(q.startedAt) >= asked,
  );
  assert.ok(
    calls.length > 0 && calls.every((q) => Date.parse(q.startedAt) >= asked + answeredIn - 5),
    'no lakehouse call before the answer',
  );
  const events = await r.h.services.installs.events({ tenantId: r.tenant.tenantId } as any, job.id, 0);
  const kinds = events.slice(events.findIndex((e) => e.kind === 'step-retried')).map((e) => e.kind);
  assert.deepEqual(kinds, ['step-retried', 'phase', 'step', 'phase', 'done'], 'the worker ran the re-opened step, and only it');
});

test('several steps re-opened before a claim run together when a worker takes the job; another tenant’s retry is 404', async (t) => {
  const r = await rig(t);
  const job = await gatedInstall(r);
  // No worker in this process any more: the re-opened job waits for a claim (as when every replica is busy).
  await r.h.services.worker!.stop();
  const [a, b] = job.provision.steps;
  const first = await startRetry(r.h, r.tenant, job.id, a.stepIndex);
  const second = await startRetry(r.h, r.tenant, job.id, b.stepIndex);
  assert.ok(
    second.percentComplete < first.percentComplete,
    `progress counts the re-opened steps: ${first.percentComplete} then ${second.percentComplete}`,
  );
  const steps = await r.h.services.installs.events({ tenantId: r.tenant.tenantId } as any, job.id, 0);
  assert.deepEqual(
    steps.filter((e) => e.kind === 'step-retried').map((e) => e.data.stepIndex),
    [a.stepIndex, b.stepIndex],
  );

  // Another tenant: 404 for the job as for an unknown one, and nothing re-opened.
  const other = await r.h.tenant();
  const theirs = await r.h.app.inject({
    method: 'POST',
    url: `/api/apps/install-jobs/${job.id}/steps/${a.stepIndex}/retry`,
    headers: other.auth,
  });
  const unknown = await r.h.app.inject({
    method: 'POST',
    url: '/api/apps/install-jobs/00000000-0000-0000-0000-000000000000/steps/0/retry',
    headers: other.auth,
  });
  assert.deepEqual([theirs.statusCode, theirs.json().error.code], [404, unknown.json().error.code]);
  assert.equal(unknown.statusCode, 404);
  // Validation as before: an unknown step is 404, a stored-only step 400 naming stepIndex.
  const noStep = await r.h.app.inject({ method: 'POST', url: `/api/apps/install-jobs/${job.id}/steps/99/retry`, headers: r.tenant.auth });
  assert.equal(noStep.statusCode, 404, noStep.body);
  const storedIndex = job.installed.findIndex((i: any) => i.itemType === 'power-bi-report');
  const stored = await r.h.app.inject({
    method: 'POST',
    url: `/api/apps/install-jobs/${job.id}/steps/${storedIndex}/retry`,
    headers: r.tenant.auth,
  });
  assert.equal(stored.statusCode, 400, stored.body);
  assert.match(stored.json().error.message, /stored only/);

  // The service restarts on the same store: its worker claims the job and runs both re-opened steps.
  await r.close();
  const restarted = await r.open();
  const done = await follow(restarted.h, r.tenant, job.id);
  for (const s of [a, b])
    assert.equal(done.provision.steps.find((x: any) => x.stepIndex === s.stepIndex).result.status, 'created', s.displayName);
  const rest = done.provision.steps.filter((s: any) => s.stepIndex !== a.stepIndex && s.stepIndex !== b.stepIndex);
  assert.ok(
    rest.every((s: any) => s.result.status === 'remediation'),
    'the steps not retried keep their results',
  );
  assert.deepEqual([done.provision.outcome, done.status], ['partial', 'partial']);
});

test('a retried step whose backing item exists reports exists, creates nothing twice, and the report is recomputed', async (t) => {
  const r = await rig(t);
  const job = await install(r.h, r.tenant, APP, { workspaceId: r.ws });
  assert.deepEqual([job.provision.outcome, job.status], ['all-created', 'done']);
  const lake = stepOf(job, 'lakehouse');
  const notebook = stepOf(job, 'notebook');
  const done = await retryStep(r.h, r.tenant, job.id, lake.stepIndex);
  const again = await retryStep(r.h, r.tenant, job.id, notebook.stepIndex);
  for (const [before, after] of [
    [lake, stepOf(done, 'lakehouse')],
    [notebook, stepOf(again, 'notebook', notebook.displayName)],
  ]) {
    assert.equal(after.result.status, 'exists', JSON.stringify(after.result));
    assert.equal(after.result.resourceId, before.result.resourceId, 'the same live resource');
  }
  assert.deepEqual([again.provision.outcome, again.status], ['all-created', 'done']);
  assert.equal(again.provision.steps.length, job.provision.steps.length);
  assert.equal((await platformItems(r.sandbox, 'Lakehouse', lake.displayName)).length, 1, 'one lakehouse');
  assert.equal((await platformItems(r.sandbox, 'Notebook', notebook.displayName)).length, 1, 'one notebook');
  // The item's own provisioning state follows the step.
  const item = await r.h.app.inject({ method: 'GET', url: `/api/workspaces/${r.ws}/items/${lake.cosmosItemId}`, headers: r.tenant.auth });
  assert.equal(item.json().item.provisioning?.status, 'exists', item.body);
});

test('a step of a job whose workspace was deleted is not re-opened: the workspace is 404 and the job stays as it ended', async (t) => {
  const r = await rig(t);
  const job = await install(r.h, r.tenant, APP, { workspaceId: r.ws });
  const lake = stepOf(job, 'lakehouse');
  // The workspace has the installed app: force uninstalls it, then deletes the workspace.
  const del = await r.h.app.inject({ method: 'DELETE', url: `/api/workspaces/${r.ws}?force=true`, headers: r.tenant.auth });
  assert.equal(del.statusCode, 202, del.body);
  assert.equal((await followJob(r.h, r.tenant, del.json().job.id)).status, 'done');
  assert.equal((await r.h.app.inject({ method: 'GET', url: `/api/workspaces/${r.ws}`, headers: r.tenant.auth })).statusCode, 404);
  const retry = await r.h.app.inject({
    method: 'POST',
    url: `/api/apps/install-jobs/${job.id}/steps/${lake.stepIndex}/retry`,
    headers: r.tenant.auth,
  });
  assert.equal(retry.statusCode, 404, retry.body);
  const after = await r.h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${job.id}`, headers: r.tenant.auth });
  assert.deepEqual([after.json().job.status, after.json().job.finishedAt], [job.status, job.finishedAt], 'nothing re-opened');
});
