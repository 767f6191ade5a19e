// Locks by name (store/named-locks.ts): one exclusive holder at a time per name or shared holders together, in the order
// they asked; names independent, a holder's failure releases it; many held at once share one connection; a live
// resource's lock is named where its name falls (live-lock.ts); what work under shared access may send (shared-access.ts). On PostgreSQL (the suite's run with DATABASE_URL) two lock sets stand for two processes sharing the database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { advisoryLocks, inProcessLocks, type NamedLocks } from '../src/store/named-locks.js';
import { liveLockName, provisionUnderLiveLock, RAN_BESIDE } from '../src/provisioning/live-lock.js';
import {
  checkSharedAccess,
  checkSharedSqlAccess,
  concurrentSafe,
  readOnlyBatch,
  ExclusiveAccessNeeded,
  underSharedAccess,
  withObservedAccess,
  withSharedAccess,
} from '../src/backends/shared-access.js';
import type { BackingRequest } from '../src/backends/http-pipeline.js';
import type { StepContext } from '../src/provisioning/context.js';
import type { ResolvedTarget } from '../src/provisioning/targets.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two lock sets: two processes' on PostgreSQL, one process's twice on PGlite. */
function twoHolders(): [NamedLocks, NamedLocks, () => Promise<void>] {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const one = inProcessLocks();
    return [one, one, () => one.close()];
  }
  const a = advisoryLocks(url, 3);
  const b = advisoryLocks(url, 3);
  return [a, b, async () => void (await Promise.all([a.close(), b.close()]))];
}

test('one holder of a name at a time, the wait counted; another name does not wait; a failure releases the lock', async () => {
  const [a, b, close] = twoHolders();
  const name = `svc-test:${process.pid}:${Date.now()}`;
  try {
    const events: string[] = [];
    const holder = (locks: NamedLocks, who: string, ms: number) =>
      locks.run(name, async () => {
        events.push(`${who} in`);
        await sleep(ms);
        events.push(`${who} out`);
        return who;
      });
    const first = holder(a, 'A', 300);
    // B asks once A holds the name (taking it is a round trip to the database, longer than any fixed wait on a loaded machine).
    while (!events.includes('A in')) await sleep(5);
    const second = holder(b, 'B', 10);
    // Another name runs at once, while A holds the first.
    const started = Date.now();
    assert.equal(await b.run(`${name}:other`, async () => 'free'), 'free');
    assert.ok(Date.now() - started < 250, 'another name waited for the held one');
    assert.deepEqual(await Promise.all([first, second]), ['A', 'B']);
    assert.deepEqual(events, ['A in', 'A out', 'B in', 'B out']);
    // B's wait for A is counted (svc_live_lock_waits in /metrics): one wait, most of A's 300 ms; A did not wait.
    // (Without PostgreSQL both holders are the one process's locks.)
    assert.equal(b.waits().count, 1);
    assert.ok(b.waits().seconds > 0.2, `B waited ${b.waits().seconds} s`);
    if (a !== b) assert.equal(a.waits().count, 0);

    // A holder that throws gives the name up: the next one runs and the error reaches its caller unchanged.
    await assert.rejects(
      a.run(name, async () => {
        throw new Error('the step failed');
      }),
      /the step failed/,
    );
    assert.equal(await b.run(name, async () => 'after'), 'after');
  } finally {
    await close();
  }
});

test('many names held at once all run together; on PostgreSQL they share one connection, and one another process holds is waited for', async () => {
  const [a, b, close] = twoHolders();
  const url = process.env.DATABASE_URL;
  const names = Array.from({ length: 40 }, (_, i) => `svc-test:${process.pid}:${Date.now()}:many-${i}`);
  let leave = () => {};
  try {
    let inside = 0;
    let everyoneIn!: () => void;
    const allIn = new Promise<void>((r) => (everyoneIn = r));
    const left = new Promise<void>((r) => (leave = r));
    const holders = names.map((name) =>
      a.run(name, async () => {
        if (++inside === names.length) everyoneIn();
        await left;
      }),
    );
    await Promise.race([allIn, sleep(10_000)]);
    assert.equal(inside, names.length, 'every holder runs at once');
    if (url) {
      // Every lock is granted to one backend: the shared connection, not a connection per lock.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ backends: string; locks: string }>(
          `SELECT count(DISTINCT l.pid) AS backends, count(*) AS locks FROM pg_locks l JOIN unnest($1::text[]) AS n(name)
             ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
            AND l.objid = (hashtext(n.name)::bigint & 4294967295)::oid AND l.classid = ((hashtext(n.name)::bigint >> 32) & 4294967295)::oid`,
          [names],
        );
        assert.equal(Number(rows[0]!.locks), names.length);
        assert.equal(Number(rows[0]!.backends), 1);
      } finally {
        await admin.end();
      }
    }
    // Another holder of one of those names (another process on PostgreSQL) waits for it, then runs.
    let otherRan = false;
    const other = b.run(names[0]!, async () => {
      otherRan = true;
    });
    await sleep(100);
    assert.equal(otherRan, false, 'the other holder waited');
    leave();
    await Promise.all(holders);
    await other;
    assert.equal(otherRan, true);
  } finally {
    leave(); // a failed assertion must not leave the holders waiting
    await close();
  }
});

test('shared holders of a name run together, an exclusive one alone, in the order they asked', async () => {
  const [a, b, close] = twoHolders();
  const name = `svc-test:${process.pid}:${Date.now()}:modes`;
  let release = () => {};
  try {
    const events: string[] = [];
    let inside = 0;
    let most = 0;
    const gate = new Promise<void>((r) => (release = r));
    const holder = (locks: NamedLocks, who: string, mode: 'shared' | 'exclusive', wait: Promise<void> | number) =>
      locks.run(
        name,
        async () => {
          events.push(`${who} in`);
          most = Math.max(most, ++inside);
          await (typeof wait === 'number' ? sleep(wait) : wait);
          inside -= 1;
          events.push(`${who} out`);
        },
        mode,
      );
    // Three shared holders over both lock sets (two processes on PostgreSQL) hold the name together.
    const readers = [holder(a, 'R1', 'shared', gate), holder(b, 'R2', 'shared', gate), holder(a, 'R3', 'shared', gate)];
    for (let i = 0; i < 400 && inside < 3; i++) await sleep(10);
    assert.equal(inside, 3, 'the shared holders run at once');
    // An exclusive asker waits for them; a shared one that asks after it waits behind it (it does not pass it).
    const writer = holder(b, 'W', 'exclusive', 50);
    await sleep(100);
    const late = holder(b, 'R4', 'shared', 10);
    await sleep(100);
    assert.ok(!events.includes('W in') && !events.includes('R4 in'), events.join(', '));
    release();
    await Promise.all([...readers, writer, late]);
    const at = (e: string) => events.indexOf(e);
    assert.ok(at('W in') > Math.max(at('R1 out'), at('R2 out'), at('R3 out')), events.join(', '));
    assert.equal(at('W out') + 1, at('R4 in'), `the exclusive holder ran alone, then the later shared one: ${events.join(', ')}`);
    assert.equal(most, 3);
  } finally {
    release();
    await close();
  }
});

test('a steady stream of overlapping shared holders in one process does not keep another process’s exclusive asker waiting until it ends', async () => {
  const [a, b, close] = twoHolders();
  const name = `svc-test:${process.pid}:${Date.now()}:handover`;
  try {
    const events: string[] = [];
    let stop = false;
    // Process A: a new shared holder every 40 ms, each holding 200 ms, so some are always inside for 5 s.
    const stream = (async () => {
      const runs: Promise<void>[] = [];
      const until = performance.now() + 5_000;
      for (let i = 0; performance.now() < until && !stop; i++) {
        runs.push(
          a.run(
            name,
            async () => {
              events.push(`R${i} in`);
              await sleep(200);
              events.push(`R${i} out`);
            },
            'shared',
          ),
        );
        await sleep(40);
      }
      await Promise.all(runs);
    })();
    await sleep(300);
    const asked = performance.now();
    let waited = 0;
    await b.run(name, async () => {
      waited = performance.now() - asked;
      events.push('W in');
      await sleep(50);
      events.push('W out');
    });
    stop = true;
    await stream;
    // Before the handover it waited for the stream's end (about 4.9 s); now for the holders inside when it asked (well
    // under a second on a quiet machine; the bound leaves room for a loaded one).
    assert.ok(waited < 2_500, `the exclusive asker waited ${Math.round(waited)} ms: ${events.join(', ')}`);
    const at = (e: string) => events.indexOf(e);
    const during = events.slice(at('W in'), at('W out'));
    assert.deepEqual(during, ['W in'], `nobody else was inside while it held the name: ${events.join(', ')}`);
  } finally {
    await close();
  }
});

test('many shared askers of a name another process holds alone all get in together once it lets go (not a pool connection each)', async () => {
  const [a, b, close] = twoHolders();
  const name = `svc-test:${process.pid}:${Date.now()}:crowd`;
  let release = () => {};
  let leave = () => {};
  try {
    const held = new Promise<void>((r) => (release = r));
    const left = new Promise<void>((r) => (leave = r));
    let bIn = false;
    const alone = b.run(name, async () => {
      bIn = true;
      await held;
    });
    for (let i = 0; i < 400 && !bIn; i++) await sleep(10);
    // Ten shared askers in the other lock set (its wait pool has 3 connections): all wait while B holds the name.
    let inside = 0;
    let most = 0;
    const askers = Array.from({ length: 10 }, () =>
      a.run(
        name,
        async () => {
          most = Math.max(most, ++inside);
          await left;
          inside -= 1;
        },
        'shared',
      ),
    );
    await sleep(200);
    assert.equal(inside, 0, 'they wait while B holds it alone');
    release();
    await alone;
    for (let i = 0; i < 500 && inside < 10; i++) await sleep(10);
    assert.equal(most, 10, `shared askers inside at once after B let go: ${most}`);
    leave();
    await Promise.all(askers);
  } finally {
    release();
    leave();
    await close();
  }
});

test('under shared access only calls that read or write idempotently are sent; the first other one, and every one after it, is refused', async () => {
  const call = (service: BackingRequest['service'], method: string, url: string, json?: unknown): BackingRequest => ({
    service,
    method,
    url,
    json,
  });
  const safe = [
    call('data-platform', 'GET', 'https://api.example/v1/workspaces/w/items'),
    call('data-platform', 'POST', 'https://api.example/v1/workspaces/w/items/i/getDefinition'),
    call('kql', 'POST', 'https://kql.example/v1/rest/mgmt', { db: 'd', csl: '.show tables details' }),
    call('kql', 'POST', 'https://kql.example/v2/rest/query', { db: 'd', csl: 'T | count' }),
    call('storage', 'PUT', 'https://lake.example/fs/a/b?resource=directory'),
    call('search', 'PUT', 'https://search.example/indexes/ix?api-version=1'),
    call('search', 'POST', 'https://search.example/indexes/ix/docs/index?api-version=1', {
      value: [{ '@search.action': 'mergeOrUpload', id: '1' }],
    }),
    call('arm', 'GET', 'https://arm.example/subscriptions/s/x'),
  ];
  const unsafe = [
    call('data-platform', 'POST', 'https://api.example/v1/workspaces/w/items'),
    call('data-platform', 'POST', 'https://api.example/v1/workspaces/w/items/i/updateDefinition'),
    call('data-platform', 'DELETE', 'https://api.example/v1/workspaces/w/items/i'),
    call('kql', 'POST', 'https://kql.example/v1/rest/mgmt', { db: 'd', csl: '.create table T (a:int)' }),
    call('kql', 'POST', 'https://kql.example/v1/rest/mgmt', {
      db: 'd',
      csl: '.execute database script <|\n.show tables\n.ingest inline into table T <| 1',
    }),
    call('arm', 'PUT', 'https://arm.example/subscriptions/s/providers/Microsoft.Kusto/clusters/c/databases/d'),
    call('storage', 'PUT', 'https://lake.example/fs/a/b.csv?resource=file'),
    call('storage', 'PATCH', 'https://lake.example/fs/a/b.csv?action=append&position=0'),
    call('search', 'POST', 'https://search.example/indexes/ix/docs/index?api-version=1', {
      value: [{ '@search.action': 'delete', id: '1' }],
    }),
    call('search', 'DELETE', 'https://search.example/indexes/ix?api-version=1'),
    call('reporting', 'POST', 'https://bi.example/v1.0/myorg/groups/g/imports'),
  ];
  for (const r of safe) assert.equal(concurrentSafe(r), true, `${r.method} ${r.url}`);
  for (const r of unsafe) assert.equal(concurrentSafe(r), false, `${r.method} ${r.url} ${JSON.stringify(r.json ?? '')}`);

  // Outside shared access nothing is refused; inside, the first unsafe call throws and so does every later call.
  checkSharedAccess(unsafe[0]!);
  const seen: string[] = [];
  const attempt = await withSharedAccess(async () => {
    checkSharedAccess(safe[0]!);
    seen.push('read sent');
    try {
      checkSharedAccess(unsafe[0]!);
      seen.push('create sent');
    } catch (err) {
      assert.ok(err instanceof ExclusiveAccessNeeded);
    }
    assert.throws(() => checkSharedAccess(safe[0]!), ExclusiveAccessNeeded, 'a read after the refusal');
    assert.throws(() => checkSharedSqlAccess(), ExclusiveAccessNeeded);
    return 'failed step';
  });
  assert.deepEqual(seen, ['read sent']);
  assert.equal(attempt.value, 'failed step');
  assert.match(attempt.refused ?? '', /^POST data-platform \/v1\/workspaces\/w\/items$/);
  assert.equal((await withSharedAccess(async () => checkSharedAccess(safe[4]!))).refused, undefined);
  const sql = await withSharedAccess(async () => {
    checkSharedSqlAccess(); // the sign-in
    checkSharedSqlAccess("SELECT N'table', TABLE_SCHEMA FROM INFORMATION_SCHEMA.TABLES");
    try {
      checkSharedSqlAccess("SET XACT_ABORT ON;\nIF SCHEMA_ID(N'mart') IS NULL EXEC(N'CREATE SCHEMA [mart]')");
    } catch {
      /* the step's provisioner turns it into a failed result */
    }
  });
  assert.equal(sql.refused, 'a T-SQL batch that writes');

  // Observed (a step run alone): every call is sent, and the first one shared access would refuse is noted.
  const observed = await withObservedAccess(async () => {
    checkSharedAccess(safe[0]!);
    checkSharedAccess(unsafe[3]!);
    checkSharedAccess(unsafe[0]!);
    checkSharedSqlAccess('DROP TABLE [t]');
    return 'sent';
  });
  assert.deepEqual(observed, { value: 'sent', needed: 'POST kql /v1/rest/mgmt' });
  assert.equal((await withObservedAccess(async () => checkSharedAccess(safe[1]!))).needed, undefined);
});

test('a T-SQL batch is sent beside other installs only when it reads: SELECTs and IF EXISTS … SELECT, nothing hidden in literals or comments', () => {
  const reads = [
    "SELECT N'table', TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES;\nSELECT N'schema', SCHEMA_NAME FROM INFORMATION_SCHEMA.SCHEMATA",
    "SELECT N'object', OBJECT_SCHEMA_NAME(object_id), name FROM sys.objects WHERE type IN (N'PK', N'V')",
    "IF EXISTS (SELECT 1 FROM [mart].[care_gaps] WHERE [gap_id] = N'G-1; DROP TABLE x') SELECT N'seed', N'mart.care_gaps'",
    // A name or a literal that spells a write is not one.
    "SELECT [insert], [exec] FROM [update].[delete] WHERE [set] = N'CREATE -- /*'",
  ];
  const refused = [
    'SET XACT_ABORT ON;\nSELECT 1',
    'IF NOT EXISTS (SELECT 1 FROM [t] WHERE [k] = 1) INSERT INTO [t] ([k]) VALUES (1)',
    'SELECT * INTO [copy] FROM [t]',
    "SELECT 1; EXEC(N'DROP TABLE [t]')",
    "sp_addrolemember N'db_owner', N'x'",
    "SELECT 1; sp_rename N'a', N'b'",
    "SELECT N'--'; DROP TABLE [t]",
    "SELECT 1 /* ' */; DELETE FROM [t]",
    'DECLARE @x int; SELECT @x',
    // Reads it does not recognise are refused too (and made alone).
    'WITH c AS (SELECT 1 AS a) SELECT a FROM c',
    "SELECT N'unterminated; DROP TABLE [t]",
    '',
  ];
  for (const sql of reads) assert.equal(readOnlyBatch(sql), true, sql);
  for (const sql of refused) assert.equal(readOnlyBatch(sql), false, sql);
});

test('a live resource’s lock is named where its name falls: the platform workspace, or the tenant’s shared KQL cluster, search service or pool', () => {
  const target = (platformWorkspaceId: string) =>
    ({
      mode: 'shared',
      platformWorkspaceId,
      armUrl: 'https://management.example',
      kqlLocation: 'eastus',
      kqlClusterUri: 'https://kql.example',
      searchService: 'https://search.example',
      warehouseServer: 'sql.example',
      warehouseDatabase: 'pool',
    }) as ResolvedTarget;
  const lock = (tenant: string, pws: string, itemType: string, displayName: string) =>
    liveLockName(tenant, { target: target(pws), item: { itemType, displayName } as StepContext['item'] });
  const [p1, p2] = [randomUUID(), randomUUID()];
  // Two workspaces of one tenant bound to two platform workspaces reach the same database, index and pool objects.
  for (const type of ['kql-database', 'eventhouse', 'search-index', 'warehouse'])
    assert.equal(lock('t1', p1, type, 'Telemetry'), lock('t1', p2, type, ' telemetry '), type);
  // What is named in the platform workspace (its items, and the Azure-native names under its prefix) is not shared.
  for (const type of ['lakehouse', 'notebook', 'eventstream', 'activator'])
    assert.notEqual(lock('t1', p1, type, 'Telemetry'), lock('t1', p2, type, 'Telemetry'), type);
  assert.equal(lock('t1', p1, 'notebook', 'Telemetry'), lock('t1', p1, 'notebook', 'TELEMETRY'));
  // Another tenant, another item type or name: another lock.
  assert.notEqual(lock('t1', p1, 'kql-database', 'Telemetry'), lock('t2', p1, 'kql-database', 'Telemetry'));
  assert.notEqual(lock('t1', p1, 'kql-database', 'Telemetry'), lock('t1', p1, 'eventhouse', 'Telemetry'));
  assert.notEqual(lock('t1', p1, 'search-index', 'a'), lock('t1', p1, 'search-index', 'b'));
});

test('tryRun runs only when the name can be had at once: held by another holder (another process on PostgreSQL) in any mode, it answers not ran', async () => {
  const [a, b, close] = twoHolders();
  const name = `svc-test:${process.pid}:${Date.now()}:try`;
  let release = () => {};
  try {
    assert.deepEqual(await a.tryRun(name, async () => 'alone'), { ran: true, value: 'alone' });
    for (const mode of ['shared', 'exclusive'] as const) {
      const held = new Promise<void>((r) => (release = r));
      let inside = false;
      const holder = b.run(
        name,
        async () => {
          inside = true;
          await held;
        },
        mode,
      );
      for (let i = 0; i < 400 && !inside; i++) await sleep(10);
      let ran = false;
      const tried = await a.tryRun(name, async () => {
        ran = true;
      });
      assert.deepEqual(tried, { ran: false }, `held ${mode} elsewhere`);
      assert.equal(ran, false);
      // A shared try beside a shared holder gets in.
      if (mode === 'shared') assert.deepEqual(await a.tryRun(name, async () => 'beside', 'shared'), { ran: true, value: 'beside' });
      release();
      await holder;
    }
    assert.deepEqual(await b.tryRun(name, async () => 'free again'), { ran: true, value: 'free again' });
  } finally {
    release();
    await close();
  }
});

test("an install step's first run of a resource goes alone when nobody holds it, beside when someone does; a run that made it is followed by one beside", async () => {
  const locks = inProcessLocks();
  const ctx = (displayName: string) => ({
    target: { mode: 'shared', platformWorkspaceId: 'pws' } as ResolvedTarget,
    item: { itemType: 'notebook', displayName } as StepContext['item'],
  });
  const tenant = randomUUID();
  const step = (displayName: string, status = 'exists') =>
    provisionUnderLiveLock(
      locks,
      tenant,
      ctx(displayName),
      async () => ({ status, steps: [underSharedAccess() ? 'beside' : 'alone'] }),
      async () => undefined,
    );
  assert.deepEqual((await step('Free', 'created')).steps, ['alone'], 'nobody holds it: alone');
  assert.deepEqual((await step('Free')).steps, ['beside', RAN_BESIDE], 'the last run made it: beside');
  // Held (shared) by another install: its first run here goes beside.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const other = locks.run(liveLockName(tenant, ctx('Held')), () => held, 'shared');
  assert.deepEqual((await step('Held')).steps, ['beside', RAN_BESIDE]);
  release();
  await other;
  await locks.close();
});

test('a resource whose attempts beside other installs are refused goes alone for 1, 2, 4 … installs before the next attempt', async () => {
  const locks = inProcessLocks();
  const tenant = randomUUID();
  const ctx = {
    target: { mode: 'shared', platformWorkspaceId: 'pws' } as ResolvedTarget,
    item: { itemType: 'eventstream', displayName: 'Always written' } as StepContext['item'],
  };
  // A type that writes on every install (a resource manager PUT): refused beside the others, sent alone.
  const put = { method: 'PUT', service: 'arm', url: 'https://arm.example/subscriptions/s/x' } as BackingRequest;
  const install = () =>
    provisionUnderLiveLock(
      locks,
      tenant,
      ctx,
      async () => {
        try {
          checkSharedAccess(put);
        } catch {
          return { status: 'failed', steps: ['refused'] };
        }
        return { status: 'exists', steps: ['put sent'] };
      },
      async () => undefined,
    );
  const attempted: boolean[] = [];
  for (let i = 0; i < 8; i++) {
    const done = await install();
    assert.equal(done.status, 'exists', JSON.stringify(done));
    attempted.push(done.steps.some((l) => l.endsWith('not sent beside other installs of this resource; run again alone')));
  }
  // The first install goes alone (nobody holds it); then an attempt, one alone; an attempt, two alone; an attempt, …
  assert.deepEqual(attempted, [false, true, false, true, false, false, true, false]);
  await locks.close();
});
