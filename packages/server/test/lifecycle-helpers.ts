import assert from 'node:assert/strict';
import type { TestApp, TestTenant } from './helpers.js';

/** Polls a job of any kind at GET /api/jobs/{jobId} to its end, checking progress never goes down. */
export async function followJob(h: TestApp, tenant: TestTenant, jobId: string, timeoutMs = 120_000) {
  let lastPercent = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: tenant.auth });
    assert.equal(r.statusCode, 200, r.body);
    const job = r.json().job;
    assert.ok(job.percentComplete >= lastPercent, `percent went down from ${lastPercent} to ${job.percentComplete}`);
    lastPercent = job.percentComplete;
    if (job.status !== 'running') {
      assert.deepEqual([job.phase, job.percentComplete], ['done', 100]);
      assert.ok(job.finishedAt, 'a finished job names when');
      assert.ok(
        job.steps.every((s: any) => s.result),
        'every step of a finished job has its result',
      );
      return job;
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} still running after ${timeoutMs} ms: ${r.body}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** A request as the tenant, answering the parsed body after checking the status. */
export async function call(h: TestApp, tenant: TestTenant, method: string, url: string, status: number, payload?: unknown, headers = {}) {
  const r = await h.app.inject({ method: method as 'GET', url, headers: { ...tenant.auth, ...headers }, payload: payload as object });
  assert.equal(r.statusCode, status, `${method} ${url}: ${r.body}`);
  return r.body ? r.json() : undefined;
}

/** The stored item of an installed app by its key. */
export async function appItem(h: TestApp, tenant: TestTenant, workspaceId: string, appId: string, key: string) {
  const { app } = await call(h, tenant, 'GET', `/api/workspaces/${workspaceId}/apps/${appId}`, 200);
  const item = app.items.find((i: any) => i.key === key);
  assert.ok(item, `no item ${key} in ${appId}`);
  return item;
}
