// The install worker's job count (install/job-concurrency.ts): past the old fixed 4 while the process's event loop is
// idle and the worker has more work, down when the loop is held up or the database pool's borrowers wait, never past
// SVC_WORKER_JOBS; and through the real worker, many jobs at once on batched heartbeats, reported in /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobConcurrency, processSignals } from '../src/install/job-concurrency.js';
import { PoolWait } from '../src/store/pool-wait.js';
import { loadCatalog } from '../src/catalog/load-catalog.js';
import { build } from './helpers.js';
import { buildWithSandbox, follow, workspace } from './install-helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* the event loop is held */
  }
};

// Generous targets: a shared, loaded test machine delays an idle loop by tens of milliseconds now and then.
const LOOP_TARGET_MS = 100;

test('the count grows past the old 4 while the loop is idle and the worker is held back, stops at the ceiling, and drops when the loop is blocked', async (t) => {
  const c = new JobConcurrency(
    { min: 4, max: 10, loopDelayTargetMs: LOOP_TARGET_MS, dbWaitTargetMs: 1000, windowMs: 1000 },
    processSignals(new PoolWait()),
  );
  t.after(() => c.stop());
  assert.equal(c.limit, 4, 'it starts at the minimum');

  // Not held back (no more work than it may run): an idle loop alone does not raise it.
  await sleep(50);
  assert.equal(c.reconsider().limit, 4);

  const seen: number[] = [];
  for (let i = 0; i < 60 && c.limit < 10; i++) {
    await sleep(50);
    c.reachedLimit();
    seen.push(c.reconsider().limit);
  }
  assert.equal(c.limit, 10, `it reached the ceiling while the loop was idle: ${seen.join(' ')}`);
  assert.ok(
    seen.some((n) => n > 4 && n < 10),
    `it grew in steps: ${seen.join(' ')}`,
  );
  for (let i = 0; i < 5; i++) {
    await sleep(50);
    c.reachedLimit();
    assert.ok(c.reconsider().limit <= 10, 'the ceiling holds');
  }

  // The loop held for 300 ms (a wave of synchronous work): the next window's p99 is over the target, the count drops.
  await sleep(30);
  busy(300);
  await sleep(20); // the monitor's timer, due during the block, records its delay when the loop gets back to timers
  c.reachedLimit();
  const blocked = c.reconsider();
  assert.ok(blocked.loopDelayMs > LOOP_TARGET_MS, `loop delay ${blocked.loopDelayMs} ms`);
  assert.ok(blocked.limit < 10, `count after a blocked window: ${blocked.limit}`);

  // Blocked again and again: down to the minimum, never below.
  for (let i = 0; i < 8; i++) {
    await sleep(20); // the monitor's first tick after a reset only marks the time: a block before it goes unseen
    busy(250);
    await sleep(20);
    c.reachedLimit();
    c.reconsider();
  }
  assert.equal(c.limit, 4);
});

test('far under both targets the count grows by a quarter; nearer them, by two', () => {
  let loop = 0;
  let db = 0;
  const c = new JobConcurrency(
    { min: 4, max: 64, loopDelayTargetMs: 20, dbWaitTargetMs: 10, windowMs: 1000 },
    { loopDelayMs: () => loop, dbWaitMs: () => db, stop: () => undefined },
  );
  const step = () => {
    c.reachedLimit();
    return c.reconsider().limit;
  };
  // Idle (2 ms of loop delay, no pool wait): a quarter more each window, at least two.
  loop = 2;
  assert.deepEqual([step(), step(), step(), step(), step()], [6, 8, 10, 13, 17]);
  // The loop at 8 ms (under its 20 ms target, over a quarter of it): two more.
  loop = 8;
  assert.deepEqual([step(), step()], [19, 21]);
  // Pool waits over a quarter of their target slow it the same way.
  loop = 2;
  db = 5;
  assert.equal(step(), 23);
  // Over a target: a quarter less.
  db = 11;
  assert.equal(step(), 17);
});

test("borrowers waiting for the database pool's connection lower the count", async (t) => {
  // One connection: a second borrower waits while the first holds it (PGlite has one; on PostgreSQL, SVC_DB_POOL=1).
  const h = await build(t, { SVC_DB_POOL: '1' });
  const c = new JobConcurrency(
    { min: 2, max: 16, loopDelayTargetMs: 10_000, dbWaitTargetMs: 20, windowMs: 1000 },
    processSignals(h.store.poolWait),
  );
  t.after(() => c.stop());
  for (let i = 0; i < 4; i++) {
    await h.store.db.selectFrom('tenants').select('id').execute(); // borrowers that find the connection free
    c.reachedLimit();
    c.reconsider();
  }
  const raised = c.limit;
  assert.ok(raised > 2, `raised to ${raised} while nobody waited`);

  const holding = h.store.db.transaction().execute(async (trx) => {
    await trx.selectFrom('tenants').select('id').execute();
    await sleep(200);
  });
  await sleep(20);
  await h.store.db.selectFrom('tenants').select('id').execute(); // waits for the held connection
  await holding;
  c.reachedLimit();
  const d = c.reconsider();
  assert.ok(d.dbWaitMs >= 100, `pool wait p99 ${d.dbWaitMs} ms`);
  assert.ok(d.limit < raised, `count ${d.limit} after a window with a ${d.dbWaitMs} ms wait (was ${raised})`);
});

test(
  'the worker runs more than 4 jobs at once up to SVC_WORKER_JOBS, keeps their leases with one heartbeat for all, and reports its count in /metrics',
  { timeout: 300_000 },
  async (t) => {
    const metricsToken = `metrics-${'0123456789abcdef'.repeat(3)}`;
    const { h, sandbox, tenant } = await buildWithSandbox(t, {
      SVC_WORKER_JOBS: '8',
      SVC_WORKER_JOBS_MIN: '2',
      // This test is about the wiring: the loaded test machine's loop delay must not hold the count back.
      SVC_WORKER_LOOP_DELAY_MS: '5000',
      SVC_WORKER_DB_WAIT_MS: '5000',
      // Jobs outlast several leases: only the heartbeat keeps them with this process (else they are claimed again).
      SVC_INSTALL_LEASE_MS: '1500',
      SVC_METRICS_TOKEN: metricsToken,
      SVC_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    await sandbox.admin.setLatency({ dataPlatform: 300, arm: 300, kql: 300, search: 300, oneLake: 300, reporting: 300 });
    const apps = loadCatalog().apps;
    const workspaces = await Promise.all(Array.from({ length: 14 }, (_, i) => workspace(h, tenant, `many-${i}`)));

    const counts = { running: 0, limit: 0, max: 0 };
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const body = (await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } })).body;
        for (const state of ['running', 'limit', 'max'] as const) {
          const m = new RegExp(`^svc_worker_jobs\\{state="${state}"\\} (\\d+)$`, 'm').exec(body);
          assert.ok(m, `svc_worker_jobs{state="${state}"} in /metrics`);
          counts[state] = Math.max(counts[state], Number(m[1]));
        }
        await sleep(100);
      }
    })();
    const jobIds = await Promise.all(
      workspaces.map(async (workspaceId, i) => {
        const r = await h.app.inject({
          method: 'POST',
          url: `/api/apps/${apps[i % apps.length]!.id}/install`,
          headers: tenant.auth,
          payload: { workspaceId },
        });
        assert.equal(r.statusCode, 202, r.body);
        return r.json().jobId as string;
      }),
    );
    const jobs = await Promise.all(jobIds.map((id) => follow(h, tenant, id, 240_000)));
    watching = false;
    await watcher;

    for (const job of jobs)
      assert.equal(job.status, 'done', JSON.stringify(job.provision?.steps?.filter((s: any) => s.result.status === 'failed')));
    assert.equal(counts.max, 8);
    assert.ok(counts.running > 4, `at most ${counts.running} jobs ran at once`);
    assert.ok(counts.running <= 8 && counts.limit <= 8, `the ceiling holds: ${JSON.stringify(counts)}`);
    // Each job was claimed once: its lease never ran out while it ran, though each outlasted it.
    const rows = await h.store.db.selectFrom('install_jobs').select(['id', 'attempts', 'finished_at']).where('id', 'in', jobIds).execute();
    for (const r of rows) assert.equal(r.attempts, 1, `job ${r.id} was claimed ${r.attempts} times`);
    // Its first event after the one written at acceptance was written by its worker: about when it was claimed.
    const claimed = await h.store.db
      .selectFrom('job_events')
      .select(['job_id', (eb) => eb.fn.min('created_at').as('at')])
      .where('job_id', 'in', jobIds)
      .where('seq', '>', 1)
      .groupBy('job_id')
      .execute();
    const finished = new Map(rows.map((r) => [r.id, new Date(r.finished_at!).getTime()]));
    const longest = Math.max(...claimed.map((c) => finished.get(c.job_id)! - new Date(c.at as unknown as string).getTime()));
    assert.ok(longest > 1500, `the longest job ran ${longest} ms, more than one lease`);
  },
);
