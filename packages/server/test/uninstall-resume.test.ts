// A service process killed in the middle of an uninstall: a new process on the same store resumes the job once its
// lease expires and completes it: nothing of the app left in the sandbox, no step reporting a failure or a resource
// "not found" that the first process deleted, and no resource deleted twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import { bootstrapToken, freePort, serviceEnv, sleep, startService, stopService, waitHealthy } from './service-process.js';

const APP_ID = 'app-lakehouse-inspector';
const LEASE_MS = 1500;

test(
  'a service killed mid-uninstall: the next process resumes the job, nothing is left and nothing deleted twice',
  { timeout: 240_000 },
  async (t) => {
    if (process.env.DATABASE_URL) t.diagnostic('runs the PGlite path: the second process starts after the kill');
    const sandbox = await startSandbox({});
    t.after(() => sandbox.stop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-uninstall-resume-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const token = bootstrapToken();
    const env = serviceEnv(sandbox.env, {
      PORT: String(port),
      SVC_LOG_LEVEL: 'info',
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_TOKEN: token,
      SVC_INSTALL_LEASE_MS: String(LEASE_MS),
      SVC_WORKER_POLL_MS: '100',
    });
    // Its own store in its data directory (PGlite) even in the PostgreSQL suite, whose shared database holds other tests'
    // default tenant with another sandbox's platform workspace.
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    const processes: Array<ReturnType<typeof startService>> = [];
    t.after(async () => {
      for (const p of processes) await stopService(p);
    });
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = async (method: string, url: string, body?: unknown) => {
      const headers = body === undefined ? { authorization: auth.authorization } : auth;
      const r = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const poll = async (url: string, until: (body: any) => boolean) => {
      for (;;) {
        const r = await fetch(`${base}${url}`, { headers: auth }).catch(() => undefined);
        if (r) {
          const body = (await r.json()) as any;
          assert.equal(r.status, 200, JSON.stringify(body));
          if (until(body)) return body;
        }
        await sleep(50);
      }
    };

    const first = startService(env);
    processes.push(first);
    await waitHealthy(base, first);
    const ws = (await api('POST', '/api/workspaces', { name: `uninstall-resume-${randomBytes(3).toString('hex')}` })).body.workspace.id;
    const start = await api('POST', `/api/apps/${APP_ID}/install`, { workspaceId: ws });
    assert.equal(start.status, 202, JSON.stringify(start.body));
    const installed = (await poll(`/api/apps/install-jobs/${start.body.jobId}`, (b) => b.job.status !== 'running')).job;
    assert.equal(installed.status, 'done', JSON.stringify(installed.provision));
    const resources: string[] = installed.provision.steps.filter((s: any) => s.result.resourceId).map((s: any) => s.result.resourceId);
    assert.equal(resources.length, 6, 'two lakehouses and four notebooks');
    const platformIds = async () =>
      new Set((await sandbox.admin.state()).dataPlatform.workspaces.flatMap((w: any) => w.items.map((i: any) => i.id as string)));
    for (const id of resources) assert.ok((await platformIds()).has(id));

    // Each delete takes a while, so the kill lands while deletes are under way.
    await sandbox.admin.addFault({ service: 'dataPlatform', method: 'DELETE', delayMs: 700 });
    const since = (await sandbox.admin.requests()).at(-1)?.seq ?? 0;
    const accepted = await api('DELETE', `/api/workspaces/${ws}/apps/${APP_ID}?purgeData=true`);
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const jobId: string = accepted.body.job.id;
    const mid = await poll(`/api/jobs/${jobId}`, (b) => (b.job.summary.deleted ?? 0) >= 2 || b.job.status !== 'running');
    assert.equal(mid.job.status, 'running', 'the job was still running at the kill');
    await sleep(300); // the next delete is in flight
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = (await sandbox.admin.requests({ since })).filter((r) => r.method === 'DELETE').length;

    const second = startService(env);
    processes.push(second);
    await waitHealthy(base, second);
    const job = (await poll(`/api/jobs/${jobId}`, (b) => b.job.status !== 'running')).job;
    assert.equal(job.status, 'done', JSON.stringify(job.steps));
    assert.deepEqual(job.summary, { deleted: 8 }, JSON.stringify(job.steps.map((s: any) => [s.key, s.result])));
    const again = job.steps.filter((s: any) => /earlier run/.test(s.result.message ?? '')).map((s: any) => s.key);
    t.diagnostic(`killed after ${killedAt} deletes; found deleted by the killed process on resume: ${again.join(', ') || 'none'}`);
    assert.ok(
      second
        .output()
        .split('\n')
        .some((l) => l.includes(jobId) && /resum/.test(l)),
      `the second process resumed the job:\n${second.output()}`,
    );

    // Nothing of the app is left: not in the sandbox, not stored, not installed.
    const after = await platformIds();
    assert.deepEqual(
      resources.filter((id) => after.has(id)),
      [],
    );
    assert.equal((await api('GET', `/api/workspaces/${ws}/apps/${APP_ID}`)).status, 404);
    assert.deepEqual((await api('GET', `/api/workspaces/${ws}/items`)).body.items, []);
    // Each resource was deleted once: one successful DELETE each (a repeat after the resume answers 404).
    const deletes = (await sandbox.admin.requests({ since })).filter((r) => r.method === 'DELETE' && r.service === 'dataPlatform');
    assert.ok(deletes.length > killedAt - 1, 'the resumed job made deletes');
    for (const id of resources)
      assert.ok(
        deletes.filter((r) => r.path.includes(id) && r.status < 300).length <= 1,
        `${id} deleted once: ${JSON.stringify(deletes.filter((r) => r.path.includes(id)).map((r) => r.status))}`,
      );
  },
);
