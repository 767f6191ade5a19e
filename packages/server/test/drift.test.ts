// Drift through the real service against the sandbox: a drift job reads every live item of a workspace with read-only
// calls and compares it with the stored content: in-sync after an install, drifted (with a diff) after another client
// changed it, missing after another client deleted it; the verdict shows in the item's liveState, and apply repairs it.
// The schedule starts one job per workspace with installed apps; a drift job resumes in a new process on the same store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { build } from './helpers.js';
import { buildWithSandbox, install, type Sandbox, stepOf, workspace } from './install-helpers.js';
import { appItem, call, followJob } from './lifecycle-helpers.js';
import { createSvcClient, SvcConflictError, SvcNotFoundError } from '../../client/src/index.js';

const APP = 'app-lakehouse-inspector';
type Request = { seq: number; service: string; method: string; path: string; text?: string };

/** Whether a request changes nothing: a GET, a sign-in, or a POST the real API defines as a read. */
function isRead(r: Request): boolean {
  if (r.method === 'GET' || r.method === 'LOGIN') return true;
  if (r.service === 'sql')
    return r.method === 'BATCH' && (/^\s*SELECT\b/i.test(r.text ?? '') || /^(\s*set [a-z_ ]+[^\n;]*\s*)+$/i.test(r.text ?? ''));
  if (r.service === 'kql') return r.method === 'POST' && /\/v1\/rest\/mgmt$/.test(r.path) && /^\s*\.show\b/.test(r.text ?? '');
  return r.service === 'dataPlatform' && r.method === 'POST' && /\/items\/[^/]+\/getDefinition(\?.*)?$/.test(r.path);
}

/** A backing call made by another client of the sandbox (its own HTTP API, a token of its own), not by the service. */
async function asAnotherClient(sb: Sandbox, audience: string, method: string, url: string, body?: unknown) {
  const token = await sb.admin.token({ audience });
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${await res.clone().text()}`);
  for (let location = res.headers.get('location'); res.status === 202 && location; ) {
    const op = await fetch(location, { headers: { authorization: `Bearer ${token}` } });
    const state = (await op.json()).status;
    if (state === 'Succeeded') break;
    assert.notEqual(state, 'Failed', `${url}: the operation failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lastSeq = async (sb: Sandbox) => (await sb.admin.requests()).at(-1)?.seq ?? 0;

test(
  'drift: in-sync after an install, drifted and missing after changes outside the service, repaired by apply; reads only',
  {
    timeout: 300_000,
  },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const ws = await workspace(h, tenant, 'drift');
    let r = await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 404);
    assert.equal(r.error.code, 'not_found');
    assert.match(r.error.message, /no drift check has run in workspace/);
    r = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 409);
    assert.equal(r.error.code, 'nothing_to_check', 'a workspace with no live item: a clear refusal, never an empty success');
    await call(h, tenant, 'GET', `/api/workspaces/${ws}/jobs?kind=drift`, 200).then((l) =>
      assert.equal(l.jobs.length, 0, 'no job written'),
    );

    const installed = await install(h, tenant, APP, { workspaceId: ws });
    assert.equal(installed.status, 'done', JSON.stringify(installed.provision));
    const liveSteps = installed.provision.steps.filter((s: any) => ['created', 'exists'].includes(s.result.status));
    assert.ok(liveSteps.length >= 4, 'lakehouses, notebooks and reports are live');

    /** Runs a drift check to its end; answers its job and GET …/drift's items. */
    const drift = async () => {
      const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
      assert.deepEqual([started.job.kind, started.job.status, started.job.appId], ['drift', 'running', null]);
      const job = await followJob(h, tenant, started.job.id);
      const last = (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift;
      assert.equal(last.job.id, job.id, 'GET …/drift shows the last check');
      return { job, items: last.items as any[] };
    };

    let since = await lastSeq(sandbox);
    const clean = await drift();
    assert.equal(clean.job.status, 'done', JSON.stringify(clean.job.steps));
    assert.equal(clean.items.length, liveSteps.length, 'one step per live item');
    for (const item of clean.items) {
      assert.equal(item.status, 'in-sync', `${item.key}: ${item.diff ?? JSON.stringify(item)}`);
      assert.equal(item.appId, APP);
      assert.ok(item.itemId && item.resourceId, JSON.stringify(item));
    }
    const reads = ((await sandbox.admin.requests({ since })) as Request[]).filter((q) => q.service !== 'identity');
    assert.ok(reads.length >= clean.items.length, 'the drift job read the backing services');
    for (const q of reads)
      assert.ok(isRead(q), `the drift job made ${q.service} ${q.method} ${q.path} ${q.text ?? ''}, which is not a read`);

    // Another client rewrites one notebook's definition and deletes another notebook.
    const inventory = await appItem(h, tenant, ws, APP, 'inventory-notebook');
    const history = await appItem(h, tenant, ws, APP, 'history-notebook');
    const platformWs = stepOf(installed, 'notebook').result.secondaryIds.platformWorkspaceId;
    const api = sandbox.env.SVC_DATA_PLATFORM_API_URL;
    const source = '# Fabric notebook source\n\n# CELL ********************\n\nprint("edited by another client")\n';
    await asAnotherClient(
      sandbox,
      'dataPlatform',
      'POST',
      `${api}/workspaces/${platformWs}/items/${inventory.resourceId}/updateDefinition`,
      {
        definition: {
          parts: [{ path: 'notebook-content.py', payload: Buffer.from(source).toString('base64'), payloadType: 'InlineBase64' }],
        },
      },
    );
    await asAnotherClient(sandbox, 'dataPlatform', 'DELETE', `${api}/workspaces/${platformWs}/items/${history.resourceId}`);

    since = await lastSeq(sandbox);
    const after = await drift();
    assert.equal(after.job.status, 'done', 'drifted and missing are verdicts, not failures');
    const byKey = (key: string) => after.items.find((i) => i.key === key)!;
    const nb = byKey('inventory-notebook');
    assert.equal(nb.status, 'drifted', JSON.stringify(nb));
    assert.equal(nb.resourceId, inventory.resourceId);
    assert.match(nb.diff, /^--- live\/notebook-content\.py\n\+\+\+ install\/notebook-content\.py\n@@ /);
    assert.match(nb.diff, /^-print\("edited by another client"\)$/m, 'the diff names the change');
    assert.equal(byKey('history-notebook').status, 'missing', JSON.stringify(byKey('history-notebook')));
    for (const item of after.items.filter((i) => !['inventory-notebook', 'history-notebook'].includes(i.key)))
      assert.equal(item.status, 'in-sync', `${item.key}: ${item.diff ?? JSON.stringify(item)}`);
    assert.deepEqual(after.job.summary, { 'in-sync': after.items.length - 2, drifted: 1, missing: 1 });
    for (const q of ((await sandbox.admin.requests({ since })) as Request[]).filter((x) => x.service !== 'identity'))
      assert.ok(isRead(q), `the drift job made ${q.service} ${q.method} ${q.path}, which is not a read`);
    const liveState = async (itemId: string) => (await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${itemId}`, 200)).item.liveState;
    assert.equal(await liveState(inventory.itemId), 'drifted');
    assert.equal(await liveState(history.itemId), 'missing');
    const sandboxItems = async () => (await sandbox.admin.state()).dataPlatform.workspaces.flatMap((w: any) => w.items);
    assert.ok(!(await sandboxItems()).some((i: any) => i.id === history.resourceId), 'the drift job recreated nothing');

    // Apply repairs both: the drifted notebook gets its stored definition back, the missing one is created again.
    for (const item of [inventory, history]) {
      const applied = await followJob(
        h,
        tenant,
        (await call(h, tenant, 'POST', `/api/workspaces/${ws}/items/${item.itemId}/apply`, 202)).job.id,
      );
      assert.equal(applied.status, 'done', JSON.stringify(applied.steps));
      assert.equal(await liveState(item.itemId), 'created');
    }
    const repaired = await drift();
    for (const item of repaired.items) assert.equal(item.status, 'in-sync', `${item.key}: ${item.diff ?? JSON.stringify(item)}`);
    assert.equal(repaired.items.length, clean.items.length);
    assert.equal((await sandboxItems()).filter((i: any) => i.displayName === history.displayName).length, 1, 'one live history notebook');

    // Another tenant sees neither the drift nor its job; a read-only token cannot start one.
    const other = await h.tenant();
    await call(h, other, 'GET', `/api/workspaces/${ws}/drift`, 404);
    await call(h, other, 'POST', `/api/workspaces/${ws}/drift`, 404);
    await call(h, other, 'GET', `/api/jobs/${repaired.job.id}`, 404);
    const reader = await tenant.token2(['read']);
    r = await h.app.inject({ method: 'POST', url: `/api/workspaces/${ws}/drift`, headers: reader.auth });
    assert.equal(r.statusCode, 403, r.body);
    r = await h.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/drift`, headers: reader.auth });
    assert.equal(r.statusCode, 200, r.body);

    // The TypeScript client: check, wait, last; and its typed errors.
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as { port: number };
    const svc = createSvcClient({ baseUrl: `http://127.0.0.1:${port}`, token: tenant.token });
    const viaClient = await svc.drift.check(ws);
    assert.equal(viaClient.kind, 'drift');
    assert.equal((await svc.jobs.wait(viaClient.id, { intervalMs: 100, timeoutMs: 120_000 })).status, 'done');
    const lastViaClient = await svc.drift.last(ws);
    assert.equal(lastViaClient.job.id, viaClient.id);
    assert.equal(lastViaClient.items.length, clean.items.length);
    assert.ok(lastViaClient.items.every((i) => i.status === 'in-sync' && i.appId === APP));
    const bare = await svc.workspaces.create({ name: 'drift-bare' });
    await assert.rejects(svc.drift.last(bare.id), SvcNotFoundError);
    await assert.rejects(svc.drift.check(bare.id), (err: unknown) => err instanceof SvcConflictError && /no live item/.test(err.message));
  },
);

test('the drift schedule: one job per workspace with installed apps, none while one runs', { timeout: 300_000 }, async (t) => {
  const { h, sandbox, tenant } = await buildWithSandbox(t);
  const ws = await workspace(h, tenant, 'scheduled');
  const empty = await workspace(h, tenant, 'no-apps');
  assert.equal((await install(h, tenant, APP, { workspaceId: ws })).status, 'done');
  const driftJobs = async (w: string) => (await call(h, tenant, 'GET', `/api/workspaces/${w}/jobs?kind=drift`, 200)).jobs;

  // Slow reads keep the first job running while the schedule ticks again (3 s a read: still running on a loaded machine).
  await sandbox.admin.setLatency({ dataPlatform: 3000 });
  const first = await h.services.driftSchedule.tick();
  const mine = (await driftJobs(ws)).map((j: any) => j.id);
  assert.equal(mine.length, 1, 'one drift job for the workspace with an installed app');
  assert.ok(first.includes(mine[0]));
  assert.equal((await driftJobs(empty)).length, 0, 'none for a workspace without installed apps');
  const job = (await driftJobs(ws))[0];
  assert.equal(job.createdBy, tenant.userId, 'started as the installed app’s creator');
  assert.equal(job.status, 'running');
  const second = await h.services.driftSchedule.tick();
  assert.ok(!second.some((id) => mine.includes(id)));
  assert.equal((await driftJobs(ws)).length, 1, 'no second job while one is running');

  await sandbox.admin.setLatency({ dataPlatform: 0 });
  const done = await followJob(h, tenant, job.id);
  assert.equal(done.status, 'done', JSON.stringify(done.steps));
  assert.ok(done.steps.every((s: any) => s.result.status === 'in-sync'));
  await h.services.driftSchedule.tick();
  assert.equal((await driftJobs(ws)).length, 2, 'the next tick checks again once the last check ended');
});

test(
  'a drift job stopped mid-run resumes in a new process on the same store and reads only what was left',
  { timeout: 300_000 },
  async (t) => {
    // Hooks run in the order they were added: each process's store is closed before its data directory is removed.
    const cleanup: Array<() => unknown> = [];
    t.after(async () => {
      for (const fn of cleanup.reverse()) await fn();
    });
    const sandbox = await startSandbox({});
    cleanup.push(() => sandbox.stop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-drift-resume-'));
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // One step at a time, so the stop lands between steps.
    const env = { SVC_DATA_DIR: dataDir, PROVISION_CONCURRENCY: '1' };
    const { h, tenant } = await buildWithSandbox({ after: () => undefined } as never, env, sandbox);
    let closed = false;
    // As a graceful stop: the worker gives the job's lease back; the step in flight then finds its lease lost (its result
    // is not written) before the store closes, so the next process on this data directory can open it.
    const closeFirst = async () => {
      if (closed) return;
      closed = true;
      await h.app.close();
      await new Promise((r) => setTimeout(r, 2500));
      await h.store.close();
    };
    cleanup.push(closeFirst);
    const ws = await workspace(h, tenant, 'resume');
    assert.equal((await install(h, tenant, APP, { workspaceId: ws })).status, 'done');

    // Slow enough that the rest of the job (five steps of a few calls each) cannot end while the first process stops,
    // however loaded the machine: at 300 ms CI's PostgreSQL lane saw all six steps read before the stop took hold.
    await sandbox.admin.setLatency({ dataPlatform: 1500, oneLake: 1500 });
    const started = await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202);
    const jobId = started.job.id;
    const total = started.job.steps.length;
    for (let done = 0; done === 0; ) {
      await new Promise((r) => setTimeout(r, 50));
      done = (await call(h, tenant, 'GET', `/api/jobs/${jobId}`, 200)).job.steps.filter((s: any) => s.result).length;
    }
    await closeFirst();
    await sandbox.admin.setLatency({ dataPlatform: 0, oneLake: 0 });

    const h2 = await build(
      { after: (fn: () => Promise<void>) => void cleanup.push(fn) },
      { ...sandbox.env, SVC_WORKER_POLL_MS: '100', ...env },
    );
    const before = (await h2.store.db.selectFrom('install_steps').select('result').where('job_id', '=', jobId).execute()).filter(
      (s) => s.result,
    ).length;
    assert.ok(before >= 1 && before < total, `stopped with ${before} of ${total} steps read`);
    const job = await followJob(h2, tenant, jobId);
    assert.equal(job.status, 'done', JSON.stringify(job.steps));
    assert.ok(
      job.steps.every((s: any) => s.result.status === 'in-sync'),
      JSON.stringify(job.steps),
    );
    const events = await h2.store.db
      .selectFrom('job_events')
      .select('kind')
      .where('job_id', '=', jobId)
      .where('kind', '=', 'step')
      .execute();
    assert.equal(events.length, total, 'each step was recorded once: a step read before the stop was not read again');
  },
);

test(
  'a drift read refused by the backing service: remediation with its gate, or failed with the backing text; nothing recorded',
  {
    timeout: 300_000,
  },
  async (t) => {
    const { h, sandbox, tenant } = await buildWithSandbox(t);
    const ws = await workspace(h, tenant, 'drift-gates');
    assert.equal((await install(h, tenant, APP, { workspaceId: ws })).status, 'done');
    const notebook = await appItem(h, tenant, ws, APP, 'inventory-notebook');
    const check = async () => {
      const job = await followJob(h, tenant, (await call(h, tenant, 'POST', `/api/workspaces/${ws}/drift`, 202)).job.id);
      return { job, items: (await call(h, tenant, 'GET', `/api/workspaces/${ws}/drift`, 200)).drift.items as any[] };
    };
    const notebooks = (items: any[]) => items.filter((i) => i.itemType === 'notebook');

    await sandbox.admin.addFault({ service: 'dataPlatform', method: 'POST', path: '/getDefinition', status: 403 });
    const refused = await check();
    await sandbox.admin.clearFaults();
    assert.equal(refused.job.status, 'partial', JSON.stringify(refused.job.summary));
    assert.equal(notebooks(refused.items).length, 4);
    for (const item of notebooks(refused.items)) {
      assert.equal(item.status, 'remediation', JSON.stringify(item));
      assert.ok(item.gate?.reason && item.gate.remediation, `${item.key}: the gate says what to fix`);
    }
    assert.ok(
      refused.items.some((i) => i.status === 'in-sync'),
      'the other items were read',
    );
    assert.equal((await call(h, tenant, 'GET', `/api/workspaces/${ws}/items/${notebook.itemId}`, 200)).item.liveState, 'created');

    const body = '{"error":{"code":"Busy","message":"definition read refused by the drift test"}}';
    await sandbox.admin.addFault({ service: 'dataPlatform', method: 'POST', path: '/getDefinition', status: 500, body });
    const failed = await check();
    await sandbox.admin.clearFaults();
    for (const item of notebooks(failed.items)) {
      assert.equal(item.status, 'failed', JSON.stringify(item));
      assert.equal(item.error, body, 'the backing text, unmodified');
    }
    const clean = await check();
    assert.equal(clean.job.status, 'done');
    assert.ok(
      clean.items.every((i) => i.status === 'in-sync'),
      JSON.stringify(clean.items),
    );
  },
);
