import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { startSandbox } from '@svc/sandbox';
import { build, type TestApp, type TestTenant } from './helpers.js';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** The real app wired to a fresh sandbox over sockets (the service's identity is the sandbox's managed identity). */
export async function buildWithSandbox(t: TestContext, env: Record<string, string> = {}, sandbox?: Sandbox): Promise<{ h: TestApp; sandbox: Sandbox; tenant: TestTenant }> {
  const sb = sandbox ?? (await startSandbox({}));
  if (!sandbox) t.after(() => sb.stop());
  process.env.IDENTITY_ENDPOINT = sb.env.IDENTITY_ENDPOINT;
  process.env.IDENTITY_HEADER = sb.env.IDENTITY_HEADER;
  const h = await build(t, { ...sb.env, SVC_WORKER_POLL_MS: '100', ...env });
  const tenant = await h.tenant();
  return { h, sandbox: sb, tenant };
}

/** Creates a workspace and returns its id. */
export async function workspace(h: TestApp, tenant: TestTenant, name = `ws-${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const r = await h.app.inject({ method: 'POST', url: '/api/workspaces', headers: tenant.auth, payload: { name } });
  assert.equal(r.statusCode, 201, r.body);
  return r.json().workspace.id;
}

/** Starts an install and polls it to the end, checking phases stay in order and progress never goes down. */
export async function install(h: TestApp, tenant: TestTenant, appId: string, body: Record<string, unknown>, timeoutMs = 120_000) {
  const start = await h.app.inject({ method: 'POST', url: `/api/apps/${appId}/install`, headers: tenant.auth, payload: body });
  assert.equal(start.statusCode, 202, start.body);
  const { jobId, totalItems } = start.json();
  const order = ['creating-items', 'provisioning', 'finalizing', 'done'];
  let lastPhase = 0;
  let lastPercent = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.app.inject({ method: 'GET', url: `/api/apps/install-jobs/${jobId}`, headers: tenant.auth });
    assert.equal(r.statusCode, 200, r.body);
    const job = r.json().job;
    const phase = order.indexOf(job.phase);
    assert.ok(phase >= lastPhase, `phase went back from ${order[lastPhase]} to ${job.phase}`);
    assert.ok(job.percentComplete >= lastPercent, `percent went down from ${lastPercent} to ${job.percentComplete}`);
    lastPhase = phase;
    lastPercent = job.percentComplete;
    if (job.status !== 'running') {
      assert.equal(job.phase, 'done');
      assert.equal(job.percentComplete, 100);
      assert.equal(job.totalItems, totalItems);
      return job;
    }
    assert.equal(job.provision, undefined, 'provision is absent while the job runs');
    if (Date.now() > deadline) throw new Error(`install ${jobId} still running after ${timeoutMs} ms: ${r.body}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The step of a report for an item type (and optionally a display name). */
export function stepOf(job: any, itemType: string, displayName?: string) {
  const s = job.provision.steps.find((x: any) => x.itemType === itemType && (!displayName || x.displayName === displayName));
  assert.ok(s, `no ${itemType} step in ${JSON.stringify(job.provision.steps.map((x: any) => x.itemType))}`);
  return s;
}
