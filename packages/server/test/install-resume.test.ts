// A service process killed in the middle of provisioning: a new process on the same store resumes the job once its
// lease expires and finishes it, with a complete report and no backing resource created twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startSandbox } from '@svc/sandbox';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { provisionedAtInstall } from '../src/install/install-service.js';
import { bootstrapToken, freePort, jobEvents, serviceEnv, sleep, startService, waitHealthy } from './service-process.js';
import { PLATFORM_PROFILE } from './platform-profile.js';

const APP_ID = 'app-iot-realtime';
const LEASE_MS = 1500;

test(
  'a service killed mid-provisioning: the next process resumes the job after the lease expires, with no duplicates',
  { timeout: 180_000 },
  async (t) => {
    const sandbox = await startSandbox({});
    t.after(() => sandbox.stop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-resume-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const token = bootstrapToken();
    // SVC_SANDBOX_ADMIN_URL is set in the sandbox's env: the service uses this sandbox, it does not start its own
    const env = serviceEnv(sandbox.env, {
      PORT: String(port),
      SVC_LOG_LEVEL: 'info',
      SVC_DATA_DIR: dataDir,
      SVC_BOOTSTRAP_TOKEN: token,
      SVC_INSTALL_LEASE_MS: String(LEASE_MS),
      SVC_WORKER_POLL_MS: '100',
    });
    const processes: Array<ReturnType<typeof startService>> = [];
    t.after(async () => {
      for (const p of processes)
        if (p.child.exitCode === null && p.child.signalCode === null) {
          p.child.kill('SIGTERM');
          await p.exited;
        }
    });

    const first = startService(env);
    processes.push(first);
    await waitHealthy(base, first);
    // On PostgreSQL a second process runs from the start, as a replica would: while the job's worker heartbeats it must
    // leave the job alone; once that worker is killed it takes the job over when the lease expires. On PGlite (one process
    // per data directory) the second process is started after the kill instead.
    const shared = Boolean(process.env.DATABASE_URL);
    let standby: { svc: ReturnType<typeof startService>; base: string } | undefined;
    if (shared) {
      const port2 = await freePort();
      standby = { svc: startService({ ...env, PORT: String(port2) }), base: `http://127.0.0.1:${port2}` };
      processes.push(standby.svc);
      await waitHealthy(standby.base, standby.svc);
    }
    const db = shared ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
    if (db) {
      await db.connect();
      t.after(() => db.end());
    }
    const leaseOwner = async (jobId: string) =>
      (await db!.query<{ lease_owner: string | null }>('SELECT lease_owner FROM install_jobs WHERE id = $1', [jobId])).rows[0]
        ?.lease_owner ?? null;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = async (method: string, url: string, body?: unknown) => {
      const r = await fetch(`${base}${url}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const ws = await api('POST', '/api/workspaces', { name: `resume-${randomBytes(3).toString('hex')}` });
    assert.equal(ws.status, 201, JSON.stringify(ws.body));

    // Every backing call takes a while, so the kill lands while items are provisioning.
    await sandbox.admin.setLatency({ dataPlatform: 250, arm: 250, kql: 250, search: 250, oneLake: 250 });
    // Items the platform API created (the cluster's databases are listed as its eventhouse's, made by the resource manager PUT).
    const platformItems = async () =>
      (
        (await sandbox.admin.state()).dataPlatform.workspaces.find((w: any) => w.id === sandbox.env.SVC_DEFAULT_PLATFORM_WORKSPACE) as any
      ).items.filter((i: any) => i.type !== 'KQLDatabase' && i.type !== 'Eventhouse').length as number;
    const itemsBefore = await platformItems();
    const start = await api('POST', `/api/apps/${APP_ID}/install`, { workspaceId: ws.body.workspace.id });
    assert.equal(start.status, 202, JSON.stringify(start.body));
    const jobId: string = start.body.jobId;

    // The poller runs across the kill and the restart: the job never vanishes (404) and its progress never goes back.
    const order = ['creating-items', 'provisioning', 'finalizing', 'done'];
    const seen: Array<{ phase: string; percent: number }> = [];
    let unreachable = 0;
    let killed = false;
    let stopPolling = false;
    let killedAt = { percent: 0 };
    let killTime = 0;
    let pollBase = base;
    let victim = first;
    let survivor: ReturnType<typeof startService> | undefined = standby?.svc;
    const owners: Array<{ at: number; owner: string | null }> = [];
    const polling = (async () => {
      while (!stopPolling) {
        if (shared) owners.push({ at: Date.now(), owner: await leaseOwner(jobId) });
        const r = await fetch(`${pollBase}/api/apps/install-jobs/${jobId}`, { headers: auth }).catch(() => undefined);
        if (!r) {
          unreachable++;
          await sleep(50);
          continue;
        }
        const text = await r.text();
        assert.equal(r.status, 200, `the job vanished: ${r.status} ${text}`);
        const job = JSON.parse(text).job;
        const last = seen.at(-1);
        if (last) {
          assert.ok(order.indexOf(job.phase) >= order.indexOf(last.phase), `phase went back from ${last.phase} to ${job.phase}`);
          assert.ok(job.percentComplete >= last.percent, `percent went down from ${last.percent} to ${job.percentComplete}`);
        }
        seen.push({ phase: job.phase, percent: job.percentComplete });
        if (!killed && job.phase === 'provisioning' && job.percentComplete > 35) {
          // Some steps are done, the rest are not: kill the process without letting it give its lease back.
          killed = true;
          killedAt = { percent: job.percentComplete };
          if (shared) {
            // Kill whichever process holds the lease (the worker id names its pid); keep polling the other one.
            const holder = Number(/^worker-(\d+)-/.exec((await leaseOwner(jobId)) ?? '')?.[1]);
            victim = processes.find((p) => p.child.pid === holder)!;
            assert.ok(victim, `a running process holds the lease (pid ${holder})`);
            survivor = victim === first ? standby!.svc : first;
            pollBase = survivor === first ? base : standby!.base;
          }
          victim.child.kill('SIGKILL');
          killTime = Date.now();
        }
        if (job.status !== 'running') return job;
        await sleep(50);
      }
      return undefined;
    })();

    while (!killed)
      await Promise.race([
        sleep(20),
        polling.then(() => {
          if (!killed) throw new Error('the job ended before the kill');
        }),
      ]);
    await victim.exited;
    assert.ok(killedAt.percent > 35 && killedAt.percent < 95, `killed mid-provisioning at ${killedAt.percent} %`);

    if (!survivor) {
      survivor = startService(env);
      processes.push(survivor);
    }
    const second = survivor;
    let job: any;
    try {
      let timer: NodeJS.Timeout | undefined;
      job = await Promise.race([
        polling,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not finished:\n${second.output()}`)), 120_000);
        }),
      ]);
      clearTimeout(timer);
    } finally {
      stopPolling = true;
    }
    assert.ok(job, 'the poller saw the end of the job');
    if (!shared) assert.ok(unreachable > 0, 'the poller saw the service go away between the two processes');

    // The second process resumed the job (the worker logs a second attempt), not before the lease had expired.
    const resumedLine = second
      .output()
      .split('\n')
      .find((l) => l.includes('resuming a job whose worker stopped') && l.includes(jobId));
    assert.ok(resumedLine, `the second process resumed the job:\n${second.output()}`);
    assert.equal(JSON.parse(resumedLine).attempts, 2);
    const resumedAt = JSON.parse(resumedLine).time as number;
    console.log(
      `killed at ${killedAt.percent} % (${shared ? 'PostgreSQL, replica already running' : 'PGlite, second process started after the kill'}); resumed ${resumedAt - killTime} ms after the kill, lease ${LEASE_MS} ms`,
    );
    // The dead worker's last heartbeat was at most a third of the lease before the kill.
    assert.ok(
      resumedAt - killTime >= (LEASE_MS * 2) / 3,
      `resumed ${resumedAt - killTime} ms after the kill, before the lease could expire`,
    );
    if (shared) {
      // The replica was polling all along: it left the job to its heartbeating worker, and took it once the lease expired.
      const before = new Set(owners.filter((o) => o.at < killTime && o.owner).map((o) => o.owner));
      assert.equal(before.size, 1, `one worker held the job until the kill: ${[...before].join(', ')}`);
      assert.match([...before][0]!, new RegExp(`^worker-${victim.child.pid}-`));
      const takeover = owners.find((o) => o.at >= killTime && o.owner && !before.has(o.owner));
      assert.ok(takeover, 'the surviving process took the job');
      assert.match(takeover.owner!, new RegExp(`^worker-${second.child.pid}-`));
      assert.ok(
        resumedAt - killTime <= LEASE_MS + 10_000,
        `resumed ${resumedAt - killTime} ms after the kill: promptly once the lease expired`,
      );
    }

    // A complete report: every live item has exactly one step, provisioned.
    const app = loadCatalog().get(APP_ID)!;
    const live = app.items.map((i, stepIndex) => ({ ...i, stepIndex })).filter((i) => provisionedAtInstall(i.itemType, PLATFORM_PROFILE));
    assert.equal(job.status, 'done', JSON.stringify(job.provision));
    assert.equal(job.phase, 'done');
    assert.equal(job.percentComplete, 100);
    assert.equal(job.provision.outcome, 'all-created');
    assert.deepEqual(
      job.provision.steps.map((s: any) => s.stepIndex).sort((a: number, b: number) => a - b),
      live.map((i) => i.stepIndex),
    );
    for (const s of job.provision.steps)
      assert.ok(['created', 'exists'].includes(s.result.status), `${s.displayName}: ${JSON.stringify(s.result)}`);
    assert.equal(job.installed.length, app.items.length);
    assert.equal(new Set(job.installed.map((i: any) => i.id)).size, app.items.length, 'each stored item once');
    assert.equal(seen.at(-1)!.percent, 100);

    // Exactly one installed app, written with the job's end by the process that finished it, naming every stored item.
    const { apps } = await (await fetch(`${pollBase}/api/workspaces/${ws.body.workspace.id}/apps`, { headers: auth })).json();
    assert.equal(apps.length, 1, JSON.stringify(apps));
    assert.deepEqual([apps[0].appId, apps[0].status, apps[0].lastJobId, apps[0].version], [APP_ID, 'installed', jobId, app.version]);
    assert.deepEqual(
      apps[0].items.map((i: any) => i.itemId),
      job.installed.map((i: any) => i.id),
    );
    for (const i of apps[0].items.filter((x: any) => provisionedAtInstall(x.itemType, PLATFORM_PROFILE)))
      assert.equal(i.resourceId, job.provision.steps.find((s: any) => s.cosmosItemId === i.itemId).result.resourceId, i.key);
    if (db)
      assert.equal(
        (await db.query('SELECT count(*)::int AS n FROM installed_apps WHERE workspace_id = $1', [ws.body.workspace.id])).rows[0].n,
        1,
      );

    // The event log: each step result was recorded once, so a step done before the kill was not run again.
    const events = await jobEvents(pollBase, jobId, auth);
    const stepEvents = events.filter((e) => e.kind === 'step');
    assert.deepEqual(
      stepEvents.map((e) => e.data.stepIndex).sort((a: number, b: number) => a - b),
      live.map((i) => i.stepIndex),
      'one step event per live item',
    );
    const itemEvents = events.filter((e) => e.kind === 'item-created');
    assert.equal(new Set(itemEvents.map((e) => e.data.stepIndex)).size, itemEvents.length, 'no item stored twice');
    const doneBeforeKill = stepEvents.filter((e) => Date.parse(e.data.at) < killTime).length;
    assert.ok(doneBeforeKill > 0 && doneBeforeKill < live.length, `${doneBeforeKill} of ${live.length} steps were done before the kill`);
    assert.equal(
      events.filter((e) => e.kind === 'phase' && e.data.phase === 'provisioning').length,
      2,
      'the resumed run entered provisioning again',
    );
    assert.equal(events.at(-1)!.kind, 'done');

    // The sandbox holds every backing resource once.
    const state = await sandbox.admin.state();
    const platformWs: any = state.dataPlatform.workspaces.find((w: any) => w.id === sandbox.env.SVC_DEFAULT_PLATFORM_WORKSPACE);
    const byName = new Map<string, number>();
    for (const item of platformWs.items)
      byName.set(`${item.type}/${item.displayName.toLowerCase()}`, (byName.get(`${item.type}/${item.displayName.toLowerCase()}`) ?? 0) + 1);
    for (const [name, n] of byName) assert.equal(n, 1, `platform item ${name}`);
    for (const item of live.filter((i) => ['eventstream', 'activator', 'kql-dashboard'].includes(i.itemType))) {
      assert.ok(
        [...byName.keys()].some((k) => k.endsWith(`/${item.displayName.toLowerCase()}`)),
        `${item.displayName} is in the sandbox`,
      );
    }
    for (const item of live.filter((i) => i.itemType === 'kql-database' || i.itemType === 'eventhouse')) {
      const c = item.content as { database: string; tables: Array<{ name: string; seedRows?: unknown[] }> };
      const dbs = state.kql.databases.filter((d: any) => d.name === c.database);
      assert.equal(dbs.length, 1, `KQL database ${c.database}`);
      for (const table of c.tables) {
        const tb: any = (dbs[0] as any).tables.find((x: any) => x.name === table.name);
        assert.ok(tb, `${c.database}.${table.name}`);
        assert.equal(tb.rowCount, table.seedRows?.length ?? 0, `${c.database}.${table.name}: seed rows ingested once`);
      }
    }
    const creates = (await sandbox.admin.requests()).filter(
      (r: any) =>
        r.service === 'dataPlatform' &&
        r.method === 'POST' &&
        r.path.split('?')[0].startsWith(`/v1/workspaces/${sandbox.env.SVC_DEFAULT_PLATFORM_WORKSPACE}/`) &&
        /\/workspaces\/[^/]+\/(items|[a-zA-Z]+s)$/.test(r.path.split('?')[0]) &&
        r.status < 300,
    );
    // Each successful create made one new item, and there are as many as the app's platform items (a job of another test
    // left running on a shared PostgreSQL could add its own items to both counts, never to one only).
    assert.equal(
      creates.length,
      (await platformItems()) - itemsBefore,
      `one create per new platform item: ${creates.map((r: any) => r.path).join(', ')}`,
    );
    assert.ok(
      creates.length >= live.filter((i) => !['kql-database', 'eventhouse'].includes(i.itemType)).length,
      'every platform item of the app was created',
    );
  },
);
