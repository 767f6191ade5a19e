// A step retry runs in the worker under the job's lease, so it survives the process: the service is killed while the
// worker runs the re-opened step, and the next process resumes the job once the lease expires and finishes the step
// without creating its backing item twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '@svc/sandbox';
import {
  bootstrapToken,
  freePort,
  jobEvents,
  serviceEnv,
  sleep,
  startService,
  waitHealthy,
  type ServiceProcess,
} from './service-process.js';

const APP_ID = 'app-lakehouse-inspector';
const LEASE_MS = 1500;

test(
  'a service killed while its worker runs a retried step: the next process resumes the retry after the lease expires, with no duplicates',
  { timeout: 180_000 },
  async (t) => {
    const sandbox = await startSandbox({});
    t.after(() => sandbox.stop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-retry-resume-'));
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
    const processes: ServiceProcess[] = [];
    t.after(async () => {
      for (const p of processes)
        if (p.child.exitCode === null && p.child.signalCode === null) {
          p.child.kill('SIGTERM');
          await p.exited;
        }
    });
    const auth = { authorization: `Bearer ${token}` };
    const api = async (method: string, url: string, body?: unknown) => {
      const headers = body === undefined ? auth : { ...auth, 'content-type': 'application/json' };
      const r = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const finished = async (jobId: string, svc: ServiceProcess) => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const r = await api('GET', `/api/apps/install-jobs/${jobId}`).catch(() => undefined);
        if (r) assert.equal(r.status, 200, JSON.stringify(r.body));
        if (r && r.body.job.status !== 'running') return r.body.job;
        if (Date.now() > deadline) throw new Error(`job ${jobId} not finished:\n${svc.output()}`);
        await sleep(100);
      }
    };

    const first = startService(env);
    processes.push(first);
    await waitHealthy(base, first);
    const ws = await api('POST', '/api/workspaces', { name: `retry-resume-${randomBytes(3).toString('hex')}` });
    assert.equal(ws.status, 201, JSON.stringify(ws.body));
    // Installed without the workspace role: every step waits on the data-platform gate. The admin grants it back.
    await sandbox.admin.revoke({ service: 'dataPlatform', role: 'Admin' });
    const start = await api('POST', `/api/apps/${APP_ID}/install`, { workspaceId: ws.body.workspace.id });
    assert.equal(start.status, 202, JSON.stringify(start.body));
    const jobId: string = start.body.jobId;
    const gated = await finished(jobId, first);
    assert.equal(gated.provision.outcome, 'all-remediation');
    const lake = gated.provision.steps.find((s: any) => s.itemType === 'lakehouse');
    await sandbox.admin.grant({ service: 'dataPlatform', role: 'Contributor' });

    // Every backing call takes a while, so the kill lands while the worker runs the re-opened step.
    await sandbox.admin.setLatency({ dataPlatform: 400, oneLake: 400 });
    const retriedAt = Date.now();
    const retry = await api('POST', `/api/apps/install-jobs/${jobId}/steps/${lake.stepIndex}/retry`);
    assert.equal(retry.status, 202, JSON.stringify(retry.body));
    assert.equal(retry.body.job.status, 'running');
    const lakehouseCalls = async () =>
      (await sandbox.admin.requests({ service: 'dataPlatform' })).filter(
        (r) => r.path.includes('/lakehouses') && Date.parse(r.startedAt) >= retriedAt,
      );
    const deadline = Date.now() + 30_000;
    while (!(await lakehouseCalls()).length) {
      assert.ok(Date.now() < deadline, `the worker never called the data platform for the step:\n${first.output()}`);
      await sleep(20);
    }
    // The worker is inside the step: kill the process without letting it give its lease back.
    first.child.kill('SIGKILL');
    const killTime = Date.now();
    await first.exited;
    const running = await fetch(`${base}/api/health`).then(
      () => true,
      () => false,
    );
    assert.equal(running, false, 'the first process is gone');

    const second = startService(env);
    processes.push(second);
    await waitHealthy(base, second);
    const job = await finished(jobId, second);

    // The second process resumed the retried job as its second attempt since the re-open, once the lease had expired.
    const resumedLine = second
      .output()
      .split('\n')
      .find((l) => l.includes('resuming a job whose worker stopped') && l.includes(jobId));
    assert.ok(resumedLine, `the second process resumed the job:\n${second.output()}`);
    assert.equal(JSON.parse(resumedLine).attempts, 2);
    assert.ok(JSON.parse(resumedLine).time - killTime >= (LEASE_MS * 2) / 3, 'not before the lease could expire');

    // The retried step is provisioned, the others keep their gate, and the report and status are recomputed.
    const after = job.provision.steps.find((s: any) => s.stepIndex === lake.stepIndex);
    assert.ok(['created', 'exists'].includes(after.result.status), JSON.stringify(after.result));
    assert.ok(job.provision.steps.filter((s: any) => s.stepIndex !== lake.stepIndex).every((s: any) => s.result.status === 'remediation'));
    assert.deepEqual([job.provision.outcome, job.status, job.phase, job.percentComplete], ['partial', 'partial', 'done', 100]);

    // The event log: one re-open, each claim entered provisioning, and the step's result was stored once, by the resumed run.
    const events = await jobEvents(base, jobId, auth);
    const sinceRetry = events.slice(events.findIndex((e) => e.kind === 'step-retried'));
    assert.equal(sinceRetry.filter((e) => e.kind === 'step-retried').length, 1);
    assert.equal(
      sinceRetry.filter((e) => e.kind === 'phase' && e.data.phase === 'provisioning').length,
      2,
      'the killed run and the resumed one',
    );
    assert.deepEqual(
      sinceRetry.filter((e) => e.kind === 'step').map((e) => e.data.stepIndex),
      [lake.stepIndex],
    );
    assert.ok(Date.parse(sinceRetry.find((e) => e.kind === 'step')!.data.at) > killTime, 'stored by the resumed run');
    assert.equal(events.at(-1)!.kind, 'done');

    // The sandbox holds the lakehouse once.
    const platformWs: any = (await sandbox.admin.state()).dataPlatform.workspaces.find(
      (w: any) => w.id === sandbox.env.SVC_DEFAULT_PLATFORM_WORKSPACE,
    );
    const lakehouses = platformWs.items.filter(
      (i: any) => i.type === 'Lakehouse' && i.displayName.toLowerCase() === lake.displayName.toLowerCase(),
    );
    assert.equal(lakehouses.length, 1, 'one lakehouse');
    assert.equal(lakehouses[0].id, after.result.resourceId);
  },
);
