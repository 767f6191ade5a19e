// The TypeScript client (packages/client) against a running service: SVC_BASE_URL and SVC_TOKEN when
// scripts/test-clients.mjs started one, else the real app built here and listening on a loopback port.
// Also: `npm pack` produces a tarball that installs into a fresh project and works there.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from './helpers.js';
import { buildWithSandbox } from './install-helpers.js';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../src/auth/scopes.js';
import {
  createSvcClient,
  type InstalledApp,
  type InstallJob,
  OPERATIONS,
  SvcAuthenticationError,
  SvcBadRequestError,
  SvcConflictError,
  SvcError,
  SvcForbiddenError,
  SvcGateError,
  SvcNotFoundError,
  SvcRateLimitError,
  SvcTimeoutError,
} from '../../client/src/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const REFUSED = `svc_pat_${'0'.repeat(16)}_${'A'.repeat(48)}`;

/** The service under test: the one the launcher started, or the real app on a loopback port. */
async function service(t: TestContext): Promise<{ baseUrl: string; token: string }> {
  if (process.env.SVC_BASE_URL && process.env.SVC_TOKEN) return { baseUrl: process.env.SVC_BASE_URL, token: process.env.SVC_TOKEN };
  const h = await build(t);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  // Every scope, as the launcher's local admin token has: the deployment's operator among them.
  return { baseUrl: `http://127.0.0.1:${port}`, token: (await h.tenant([...SCOPES])).token };
}

/** A service whose installs provision live: the launcher's (its in-process sandbox), or the real app on a sandbox here. */
async function liveService(t: TestContext): Promise<{ baseUrl: string; token: string }> {
  if (process.env.SVC_BASE_URL && process.env.SVC_TOKEN) return { baseUrl: process.env.SVC_BASE_URL, token: process.env.SVC_TOKEN };
  const { h, tenant } = await buildWithSandbox(t); // its tenant holds the sandbox's platform workspace
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, token: tenant.token };
}

const unique = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;

test('the operator’s calls: a tenant, its first admin’s token, a platform workspace assigned and taken back; a tenant admin is refused them', async (t) => {
  const { baseUrl, token } = await service(t);
  const op = createSvcClient({ baseUrl, token });
  const id = `ts-${Math.random().toString(36).slice(2, 10)}`;
  assert.equal((await op.operator.createTenant({ id, name: 'TS tenant' })).id, id);
  await assert.rejects(op.operator.createTenant({ id, name: 'again' }), SvcConflictError);
  const pws = randomUUID();
  const assigned = await op.operator.assignPlatformWorkspace(id, pws);
  assert.equal(assigned.resource, pws);
  assert.equal(assigned.isDefault, true);
  assert.deepEqual(
    (await op.operator.listPlatformWorkspaces(id)).map((a) => a.resource),
    [pws],
  );
  assert.equal((await op.operator.getTenant(id)).platformWorkspaces, 1);
  const admin = createSvcClient({ baseUrl, token: (await op.operator.createAdminToken(id)).secret });
  assert.equal((await admin.whoami()).tenantId, id);
  await assert.rejects(admin.operator.listTenants(), SvcForbiddenError);
  const ws = await admin.workspaces.create({ name: unique('bound') });
  assert.equal((await admin.workspaces.update(ws.id, { platformWorkspaceId: pws })).platformWorkspaceId, pws);
  assert.equal((await op.operator.unassignPlatformWorkspace(id, pws)).unboundWorkspaces, 1);
  await assert.rejects(admin.workspaces.update(ws.id, { platformWorkspaceId: pws }), SvcNotFoundError);
});

test('whoami, workspaces and items through the client; payloads, never envelopes', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const me = await svc.whoami();
  assert.equal(me.authMethod, 'token');
  assert.ok(me.scopes.includes('admin'));
  assert.equal('ok' in me, false);

  const ws = await svc.workspaces.create({ name: unique('ts') });
  assert.ok(ws.id);
  assert.equal((await svc.workspaces.get(ws.id)).name, ws.name);
  const empty = await svc.items.list(ws.id);
  assert.deepEqual([...empty], []);
  assert.equal(empty.nextCursor, undefined);

  const item = await svc.items.create(ws.id, { itemType: 'notebook', displayName: 'Daily load' });
  assert.equal(item.workspaceId, ws.id);
  assert.equal((await svc.items.update(ws.id, item.id, { displayName: 'Nightly' })).displayName, 'Nightly');
  const { etag } = await svc.items.getContent(ws.id, item.id);
  const next = await svc.items.putContent(ws.id, item.id, { cells: [] }, etag);
  assert.notEqual(next, etag);
  for (let n = 0; n < 4; n++) await svc.items.create(ws.id, { itemType: 'lakehouse', displayName: `lake ${n}` });
  const first = await svc.items.list(ws.id, { limit: 2 });
  assert.equal(first.length, 2);
  assert.ok(first.nextCursor);
  const all: string[] = [];
  for await (const i of svc.items.iterate(ws.id, { limit: 2 })) all.push(i.displayName);
  assert.equal(all.length, 5);
  assert.ok((await svc.items.types()).some((x) => x.id === 'notebook' && x.provisionedLive));

  const [a, b] = [item.id, (await svc.items.list(ws.id, { itemType: 'lakehouse' }))[0]!.id];
  const edge = await svc.thread.add(ws.id, { fromItemId: a, toItemId: b, kind: 'feeds' });
  assert.deepEqual(
    (await svc.thread.list(ws.id)).map((e) => e.id),
    [edge.id],
  );
  assert.equal(await svc.thread.remove(ws.id, edge.id), edge.id);
  assert.deepEqual(await svc.thread.list(ws.id), []);

  assert.equal(await svc.items.delete(ws.id, item.id), item.id);
  await assert.rejects(svc.items.get(ws.id, item.id), SvcNotFoundError);
});

test('refused calls throw typed errors; an empty list only comes from a successful call', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('errors') });
  await assert.rejects(
    createSvcClient({ baseUrl, token: REFUSED }).items.list(ws.id),
    (e: unknown) => e instanceof SvcAuthenticationError && e.status === 401,
  );
  await assert.rejects(createSvcClient({ baseUrl }).workspaces.list(), SvcAuthenticationError);
  await assert.rejects(svc.workspaces.get('no-such-workspace'), (e: unknown) => e instanceof SvcNotFoundError && e.code === 'not_found');
  await assert.rejects(svc.workspaces.create({ name: '' }), (e: unknown) => e instanceof SvcBadRequestError && e.field === 'name');
  await svc.items.create(ws.id, { itemType: 'report', displayName: 'Twice' });
  await assert.rejects(svc.items.create(ws.id, { itemType: 'report', displayName: 'Twice' }), SvcConflictError);

  const minted = await svc.tokens.create({ name: 'read only', scopes: ['read'], expiresInDays: 1 });
  const reader = createSvcClient({ baseUrl, token: minted.secret });
  await assert.rejects(
    reader.workspaces.create({ name: 'no' }),
    (e: unknown) => e instanceof SvcForbiddenError && e.code === 'missing_scope',
  );
  assert.ok((await svc.tokens.list()).some((x) => x.id === minted.token.id));
  assert.equal(await svc.tokens.revoke(minted.token.id), minted.token.id);
  await assert.rejects(reader.whoami(), SvcAuthenticationError);
  await assert.rejects(createSvcClient({ baseUrl: 'http://127.0.0.1:9' }).whoami(), SvcError);
});

test('catalog and installs: start, wait (polling), list, events', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const apps = await svc.catalog.listApps();
  assert.ok(apps.length >= 10);
  const app = await svc.catalog.getApp('app-pipeline-designer');
  assert.equal(app.items.length, app.totalItems);
  await assert.rejects(svc.catalog.getApp('app-nope'), SvcNotFoundError);

  const ws = await svc.workspaces.create({ name: unique('install') });
  const started = await svc.installs.start(app.id, { workspaceId: ws.id, deploy: false });
  assert.equal(started.totalItems, app.totalItems);
  const seen: number[] = [];
  const job = await svc.installs.wait(started.jobId, {
    intervalMs: 200,
    timeoutMs: 120_000,
    onProgress: (j) => seen.push(j.percentComplete),
  });
  assert.equal(job.status, 'done');
  assert.equal(job.percentComplete, 100);
  assert.equal(job.provision?.outcome, 'skipped');
  assert.ok(seen.length >= 1);
  assert.deepEqual(
    (await svc.installs.list({ workspaceId: ws.id })).map((j) => j.id),
    [job.id],
  );
  const kinds: string[] = [];
  for await (const e of svc.installs.events(job.id)) kinds.push(e.event);
  assert.equal(kinds.at(-1), 'done');
  await assert.rejects(svc.installs.get('no-such-job'), SvcNotFoundError);
  await assert.rejects(async () => {
    for await (const _ of svc.installs.events('no-such-job')) break;
  }, SvcNotFoundError);
  await assert.rejects(
    svc.installs.wait(started.jobId, { timeoutMs: -1 }).then(() => {
      throw new SvcTimeoutError('unreached');
    }),
    SvcTimeoutError,
  );
});

test('installed apps: the workspace lists the app an install recorded, pages and reads it; one not installed is SvcNotFoundError', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('installed') });
  assert.deepEqual([...(await svc.workspaces.apps(ws.id))], []);
  const ids = ['app-pipeline-designer', 'app-finops-cost'];
  const jobs: InstallJob[] = [];
  for (const appId of ids) {
    const { jobId } = await svc.installs.start(appId, { workspaceId: ws.id, deploy: false });
    jobs.push(await svc.installs.wait(jobId, { intervalMs: 200, timeoutMs: 120_000 }));
  }
  const first = await svc.workspaces.apps(ws.id, { limit: 1 });
  assert.deepEqual(
    first.map((a) => a.appId),
    [ids[0]],
  );
  assert.ok(first.nextCursor);
  const all: InstalledApp[] = [];
  for await (const a of svc.workspaces.iterateApps(ws.id, { limit: 1 })) all.push(a);
  assert.deepEqual(
    all.map((a) => [a.appId, a.status, a.lastJobId]),
    ids.map((id, n) => [id, 'installed', jobs[n]!.id]),
  );
  const app = await svc.workspaces.app(ws.id, ids[0]!);
  assert.equal(app.version, app.catalogVersion);
  assert.equal(app.items.length, jobs[0]!.installed.length);
  assert.equal('ok' in app, false);
  await assert.rejects(svc.workspaces.app(ws.id, 'app-iot-realtime'), SvcNotFoundError);
  await assert.rejects(svc.workspaces.apps('no-such-workspace'), SvcNotFoundError);
});

test('uninstall: apps.uninstall, items.deleteLive and workspaces.delete with force answer jobs that jobs.wait follows', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('uninstall') });
  for (const appId of ['app-pipeline-designer', 'app-finops-cost']) {
    const { jobId } = await svc.installs.start(appId, { workspaceId: ws.id, deploy: false });
    assert.equal((await svc.installs.wait(jobId, { intervalMs: 200, timeoutMs: 120_000 })).status, 'done');
  }
  const started = await svc.apps.uninstall(ws.id, 'app-pipeline-designer', { purgeData: false });
  assert.deepEqual([started.kind, started.appId, started.options.purgeData], ['uninstall', 'app-pipeline-designer', false]);
  const done = await svc.jobs.wait(started.id, { intervalMs: 200, timeoutMs: 120_000 });
  assert.equal(done.status, 'done');
  assert.ok(
    done.steps.every((s) => s.result?.status === 'deleted'),
    'stored only: every item deleted',
  );
  await assert.rejects(svc.workspaces.app(ws.id, 'app-pipeline-designer'), SvcNotFoundError);
  await assert.rejects(svc.apps.uninstall(ws.id, 'app-pipeline-designer'), SvcNotFoundError);

  const [item] = (await svc.workspaces.app(ws.id, 'app-finops-cost')).items;
  const one = await svc.jobs.wait((await svc.items.deleteLive(ws.id, item!.itemId)).id, { intervalMs: 200, timeoutMs: 120_000 });
  assert.deepEqual([one.options.itemId, one.steps[0]?.result?.status], [item!.itemId, 'deleted']);
  await assert.rejects(svc.items.get(ws.id, item!.itemId), SvcNotFoundError);

  await assert.rejects(svc.workspaces.delete(ws.id), (e: unknown) => e instanceof SvcConflictError && e.code === 'workspace_has_apps');
  const forced = await svc.workspaces.delete(ws.id, { force: true });
  assert.ok(typeof forced !== 'string', 'force with installed apps answers the job');
  assert.equal((await svc.jobs.wait(forced.id, { intervalMs: 200, timeoutMs: 120_000 })).status, 'done');
  await assert.rejects(svc.workspaces.get(ws.id), SvcNotFoundError);
  const empty = await svc.workspaces.create({ name: unique('empty') });
  assert.equal(await svc.workspaces.delete(empty.id), empty.id);
});

test('installs: a step retry answers the job running again, and wait follows it to the recomputed report', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('retry') });
  const { jobId } = await svc.installs.start('app-lakehouse-inspector', { workspaceId: ws.id });
  const installed = await svc.installs.wait(jobId, { intervalMs: 200, timeoutMs: 120_000 });
  const step = installed.provision!.steps[0]!;
  const retried = await svc.installs.retryStep(jobId, step.stepIndex);
  assert.deepEqual([retried.id, retried.status, retried.phase, retried.provision], [jobId, 'running', 'provisioning', undefined]);
  const job = await svc.installs.wait(jobId, { intervalMs: 200, timeoutMs: 120_000 });
  assert.notEqual(job.status, 'running');
  assert.deepEqual(
    job.provision!.steps.map((s) => s.stepIndex),
    installed.provision!.steps.map((s) => s.stepIndex),
    'the report keeps every step',
  );
  const kinds: string[] = [];
  for await (const e of svc.installs.events(jobId)) kinds.push(e.event);
  assert.deepEqual(
    kinds.slice(kinds.indexOf('step-retried')),
    ['step-retried', 'phase', 'step', 'phase', 'done'],
    'the stream follows the re-opened job to its end',
  );
  await assert.rejects(svc.installs.retryStep(jobId, 99), SvcNotFoundError);
});

test('jobs: apply an edited item, wait for the job, list the workspace’s jobs, read its events; deploy a new item', async (t) => {
  const { baseUrl, token } = await liveService(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('apply') });
  const { jobId } = await svc.installs.start('app-lakehouse-inspector', { workspaceId: ws.id });
  assert.equal((await svc.installs.wait(jobId, { intervalMs: 200, timeoutMs: 120_000 })).status, 'done');
  const app = await svc.workspaces.app(ws.id, 'app-lakehouse-inspector');
  const notebook = app.items.find((i) => i.key === 'history-notebook')!;
  const read = await svc.items.getContent(ws.id, notebook.itemId);
  const content = read.content as { cells: unknown[] };
  await svc.items.putContent(
    ws.id,
    notebook.itemId,
    { ...content, cells: [...content.cells, { kind: 'code', source: 'print(2)' }] },
    read.etag,
  );
  assert.equal((await svc.items.get(ws.id, notebook.itemId)).liveState, 'changed');
  const started = await svc.jobs.apply(ws.id, notebook.itemId);
  assert.deepEqual([started.kind, started.status], ['apply', 'running']);
  const progress: number[] = [];
  const job = await svc.jobs.wait(started.id, { intervalMs: 200, timeoutMs: 120_000, onProgress: (j) => progress.push(j.percentComplete) });
  assert.equal(job.status, 'done');
  assert.equal(job.steps[0]!.result!.status, 'updated');
  assert.ok(progress.length >= 1);
  assert.equal((await svc.items.get(ws.id, notebook.itemId)).liveState, 'created');
  assert.deepEqual(
    (await svc.jobs.list(ws.id, { kind: 'apply' })).map((j) => j.id),
    [job.id],
  );
  const kinds: string[] = [];
  for await (const e of svc.jobs.events(job.id)) kinds.push(e.event);
  assert.equal(kinds.at(-1), 'done');
  const created = await svc.items.create(ws.id, {
    itemType: 'notebook',
    displayName: unique('Deployed'),
    content: { language: 'python', cells: [{ kind: 'code', source: 'print(1)' }] },
    deploy: true,
  });
  const deployJob = (created.provisioning as { jobId: string }).jobId;
  assert.equal((await svc.jobs.wait(deployJob, { intervalMs: 200, timeoutMs: 120_000 })).steps[0]!.result!.status, 'created');
  await assert.rejects(svc.jobs.get('no-such-job'), SvcNotFoundError);
  await assert.rejects(svc.jobs.apply(ws.id, 'no-such-item'), SvcNotFoundError);
});

test('installs: plan says per item what the install then does (a blocked item is the step that waits on the same gate); an unknown app is SvcNotFoundError', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('plan') });
  const plan = await svc.installs.plan('app-lakehouse-inspector', { workspaceId: ws.id });
  assert.ok(
    plan.items.some((i) => i.action !== 'stored'),
    JSON.stringify(plan.items),
  );
  const { jobId } = await svc.installs.start('app-lakehouse-inspector', { workspaceId: ws.id });
  const job = await svc.installs.wait(jobId, { intervalMs: 200, timeoutMs: 120_000 });
  // Against a shared service (SVC_BASE_URL) another suite may have made these items already: no-change is then exists.
  const expected: Record<string, string[]> = { create: ['created'], 'no-change': ['exists'], update: ['exists'], blocked: ['remediation'] };
  for (const item of plan.items) {
    if (item.action === 'stored') {
      assert.ok(!job.provision!.steps.some((s) => s.displayName === item.displayName), `${item.displayName} is stored only`);
      continue;
    }
    const step = job.provision!.steps.find((s) => s.displayName === item.displayName);
    assert.ok(
      step && expected[item.action]?.includes(step.result.status),
      `${item.displayName}: planned ${item.action}, step ${step?.result.status}`,
    );
    if (item.action === 'blocked') assert.equal(item.gate?.reason, step!.result.gate?.reason);
  }
  await assert.rejects(svc.installs.plan('no-such-app', { workspaceId: ws.id }), SvcNotFoundError);
});

test('a cookie session works with X-CSRF-Token on changes, and is refused without it', async (t) => {
  const { baseUrl, token } = await service(t);
  const r = await fetch(`${baseUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  assert.equal(r.status, 200);
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('svc_session='))!;
  const { csrfToken } = (await r.json()) as { csrfToken: string };

  const browser = createSvcClient({ baseUrl, cookie, csrfToken });
  assert.equal((await browser.whoami()).authMethod, 'session');
  assert.ok((await browser.workspaces.create({ name: unique('cookie') })).id);
  const noCsrf = createSvcClient({ baseUrl, cookie });
  assert.ok(Array.isArray(await noCsrf.workspaces.list()));
  await assert.rejects(noCsrf.workspaces.create({ name: 'no csrf' }), SvcForbiddenError);

  const signedIn = createSvcClient({ baseUrl });
  const session = await signedIn.session.signIn(token);
  assert.ok(session.csrfToken);
  assert.equal((await signedIn.whoami()).authMethod, 'session');
  assert.ok((await signedIn.workspaces.create({ name: unique('signed in') })).id);
  await signedIn.session.signOut();
  await assert.rejects(signedIn.whoami(), SvcAuthenticationError);
  assert.equal((await browser.whoami()).authMethod, 'session');
});

test('audit: list and iterate the trail with filters after a workspace is created and deleted; a token without admin is SvcForbiddenError', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  const ws = await svc.workspaces.create({ name: unique('ts audit') });
  await svc.workspaces.delete(ws.id);
  const events = await svc.audit.list({ workspaceId: ws.id });
  assert.deepEqual(
    events.map((e) => [e.kind, e.outcome, e.target.id]),
    [
      ['workspace.deleted', 'succeeded', ws.id],
      ['workspace.created', 'succeeded', ws.id],
    ],
  );
  const iterated = [];
  for await (const e of svc.audit.iterate({ kind: 'workspace.*', workspaceId: ws.id, limit: 1 })) iterated.push(e.id);
  assert.deepEqual(
    iterated,
    events.map((e) => e.id),
    'one event a page, the same ones',
  );
  await assert.rejects(svc.audit.list({ kind: 'not a kind' }), SvcBadRequestError);
  const reader = await svc.tokens.create({ name: unique('reader'), scopes: ['read'] });
  await assert.rejects(createSvcClient({ baseUrl, token: reader.secret }).audit.list(), SvcForbiddenError);
});

test('system operations, and every documented operation has a client method', async (t) => {
  const { baseUrl, token } = await service(t);
  const svc = createSvcClient({ baseUrl, token });
  assert.equal((await svc.system.health()).status, 'ok');
  assert.match(await svc.system.metrics(), /svc_/);
  const doc = await svc.system.openapi();
  assert.equal(doc.openapi, '3.1.0');
  const documented = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap((p) => Object.values(p).map((o) => o.operationId))
    .sort();
  assert.deepEqual(Object.keys(OPERATIONS).sort(), documented);
  for (const [id, method] of Object.entries(OPERATIONS)) {
    const fn = method.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], svc);
    assert.equal(typeof fn, 'function', `${id} → ${method}`);
  }
});

test('gate and rate-limit answers become SvcGateError (with the remediation) and SvcRateLimitError', async () => {
  const gate = {
    reason: 'KQL cluster not configured',
    remediation: 'set SVC_KQL_CLUSTER_URI and SVC_KQL_CLUSTER_NAME',
    link: 'https://portal.azure.com/',
  };
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    (async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', 'x-request-id': 'r1', ...headers },
      })) as typeof fetch;
  const gated = createSvcClient({
    baseUrl: 'http://svc.test',
    token: 't',
    fetch: answer(424, { ok: false, error: { code: 'deployment_gate', message: gate.reason, hint: gate.remediation, gate } }),
  });
  await assert.rejects(
    gated.items.list('ws'),
    (e: unknown) =>
      e instanceof SvcGateError &&
      e.status === 424 &&
      e.reason === gate.reason &&
      e.remediation === gate.remediation &&
      e.link === gate.link &&
      e.hint === gate.remediation &&
      e.requestId === 'r1',
  );
  const limited = createSvcClient({
    baseUrl: 'http://svc.test',
    token: 't',
    fetch: answer(429, { ok: false, error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '7' }),
  });
  await assert.rejects(limited.whoami(), (e: unknown) => e instanceof SvcRateLimitError && e.retryAfter === 7);
  const hollow = createSvcClient({ baseUrl: 'http://svc.test', token: 't', fetch: answer(200, { ok: true }) });
  await assert.rejects(hollow.workspaces.list(), SvcError);
});

test('npm pack: the tarball installs into a fresh project and works there', { timeout: 300_000 }, async (t) => {
  const { baseUrl, token } = await service(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-client-pack-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const npm = (args: string[], cwd: string) =>
    execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], path.join(ROOT, 'packages/client')));
  const tarball = path.join(dir, packed[0].filename);
  const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), files.join(' '));

  const project = path.join(dir, 'consumer');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', tarball], project);
  const consumer = (ts: boolean) =>
    [
      `import { createSvcClient, SvcNotFoundError${ts ? ', type Workspace' : ''} } from '@svc/client';`,
      ts ? 'declare const process: { env: Record<string, string | undefined> };' : '',
      'const svc = createSvcClient({ baseUrl: process.env.SVC_BASE_URL, token: process.env.SVC_TOKEN });',
      `const ws${ts ? ': Workspace' : ''} = await svc.workspaces.create({ name: 'from the tarball' });`,
      'const items = await svc.items.list(ws.id);',
      'let notFound = false;',
      "try { await svc.workspaces.get('no-such-workspace'); } catch (e) { notFound = e instanceof SvcNotFoundError; }",
      'console.log(JSON.stringify({ me: (await svc.whoami()).authMethod, ws: ws.id, items: items.length, notFound }));',
      '',
    ].join('\n');
  fs.writeFileSync(path.join(project, 'use.ts'), consumer(true));
  fs.writeFileSync(path.join(project, 'use.mjs'), consumer(false));
  // The types resolve for a TypeScript consumer, and the JavaScript runs on plain Node.
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--lib',
      'es2022,dom',
      'use.ts',
    ],
    {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env },
    },
  );
  // Asynchronously: the service may be this process's own app.
  const { stdout: out } = await promisify(execFile)(process.execPath, ['use.mjs'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, SVC_BASE_URL: baseUrl, SVC_TOKEN: token },
  });
  const result = JSON.parse(out.trim().split('\n').at(-1)!);
  assert.equal(result.me, 'token');
  assert.ok(result.ws);
  assert.equal(result.items, 0);
  assert.equal(result.notFound, true);
});
