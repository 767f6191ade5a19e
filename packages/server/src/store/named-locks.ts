import pg from 'pg';

/**
 * Locks by name, held across every process sharing the store for as long as a piece of work runs, in one of two modes:
 * exclusive (one holder) or shared (any number of shared holders, no exclusive one). On PostgreSQL a lock is a session
 * advisory lock (`pg_advisory_lock`, `pg_advisory_lock_shared`): a lock nobody else holds in a conflicting mode (the
 * usual case) is taken on one connection that holds any number of them at once, so the count of steps in flight costs
 * no connections; a lock another process holds is waited for on a connection of its own small pool. A killed process's
 * locks go with its connections. On PGlite, whose store only one process opens, it is a queue per name in the process.
 * Either way, holders of one name are served in the order they asked: a shared holder does not pass an exclusive one
 * that asked before it, so a steady stream of shared holders never keeps an exclusive one waiting for ever.
 */
export interface NamedLocks {
  /** Runs fn holding the named lock (exclusive unless `mode` is 'shared'); waits while a holder in a conflicting mode has it. */
  run<T>(name: string, fn: () => Promise<T>, mode?: LockMode): Promise<T>;
  /**
   * Runs fn holding the named lock only when it can be had at once: nobody holds it in a conflicting mode or asked
   * before (in any process). Otherwise answers `{ ran: false }` without running fn.
   */
  tryRun<T>(name: string, fn: () => Promise<T>, mode?: LockMode): Promise<{ ran: true; value: T } | { ran: false }>;
  close(): Promise<void>;
  /** Since the start: how many runs waited for a name another holder had, and the seconds they waited. */
  waits(): { count: number; seconds: number };
}

export type LockMode = 'exclusive' | 'shared';

/** Counts the waits for a name another holder had, for `waits()`. */
function waitCounter() {
  let count = 0;
  let ms = 0;
  return {
    record(waited: number) {
      count += 1;
      ms += waited;
    },
    waits: () => ({ count, seconds: ms / 1000 }),
  };
}

/** One name's holders in the process: shared ones counted, an exclusive one flagged, and the askers in order. */
interface Holders {
  shared: number;
  exclusive: boolean;
  queue: Array<{ shared: boolean; grant: () => void }>;
}

/** Runs fn holding a lock taken by `enter` (a release, or undefined when it could not be had at once). */
async function holding<T>(release: (() => void) | undefined, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!release) return { ran: false };
  try {
    return { ran: true, value: await fn() };
  } finally {
    release();
  }
}

/**
 * A reader-writer queue per name: an asker is let in when nothing it conflicts with holds the name and nobody asked
 * before it; the shared askers at the head of the queue are let in together (a wait behind a holder is recorded).
 * `tryRun` lets one in only when it would be let in at once.
 */
function queuePerName(record: (ms: number) => void) {
  const names = new Map<string, Holders>();
  const leave = (name: string, h: Holders, shared: boolean) => {
    if (shared) h.shared -= 1;
    else h.exclusive = false;
    admit(name, h);
  };
  const tryEnter = (name: string, mode: LockMode): (() => void) | undefined => {
    const shared = mode === 'shared';
    const h = names.get(name) ?? { shared: 0, exclusive: false, queue: [] };
    if (h.exclusive || h.queue.length || (!shared && h.shared > 0)) return undefined;
    names.set(name, h);
    if (shared) h.shared += 1;
    else h.exclusive = true;
    return () => leave(name, h, shared);
  };
  const admit = (name: string, h: Holders) => {
    while (h.queue.length) {
      const next = h.queue[0]!;
      if (h.exclusive || (!next.shared && h.shared > 0)) break;
      h.queue.shift();
      if (next.shared) h.shared += 1;
      else h.exclusive = true;
      next.grant();
    }
    if (!h.exclusive && h.shared === 0 && !h.queue.length) names.delete(name);
  };
  const run = async <T>(name: string, fn: () => Promise<T>, mode: LockMode = 'exclusive'): Promise<T> => {
    const shared = mode === 'shared';
    let h = names.get(name);
    if (!h) names.set(name, (h = { shared: 0, exclusive: false, queue: [] }));
    const holders = h;
    const asked = performance.now();
    let atOnce = false;
    const admitted = new Promise<void>((resolve) => {
      holders.queue.push({
        shared,
        grant: () => {
          atOnce = true;
          resolve();
        },
      });
    });
    admit(name, holders);
    const waited = !atOnce;
    await admitted;
    if (waited) record(performance.now() - asked);
    try {
      return await fn();
    } finally {
      leave(name, holders, shared);
    }
  };
  return { run, tryEnter };
}

/** Locks of one process (PGlite, whose store no other process opens): a queue per name. */
export function inProcessLocks(): NamedLocks {
  const counter = waitCounter();
  const { run, tryEnter } = queuePerName(counter.record);
  return {
    run,
    tryRun: (name, fn, mode = 'exclusive') => holding(tryEnter(name, mode), fn),
    close: async () => undefined,
    waits: counter.waits,
  };
}

/** How long a process holds a name shared before its new shared askers look whether another session waits for it. */
const HANDOVER_MS = 250;

/**
 * The keys of the advisory locks some session of this database waits for (a one-bigint key: its high half in classid,
 * its low half in objid), as text.
 */
const WAITED_SQL = `SELECT ((classid::bigint << 32) | objid::bigint)::text AS key FROM pg_locks
  WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/**
 * Session advisory locks: taken without waiting on one shared connection, or, when another process holds the name in a
 * conflicting mode, waited for on a connection of a pool of `size` (the in-process queue in front lets one exclusive
 * asker, or the shared askers of a name together, through at a time).
 */
export function advisoryLocks(url: string, size: number): NamedLocks {
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', () => undefined);
  const counter = waitCounter();
  const local = queuePerName(counter.record);
  let shared: Promise<pg.Client> | undefined;
  // The shared connection's statements one after another, as a connection runs them anyway: pg warns of (and its next
  // major refuses) a query sent while another is running on the same client.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <R extends pg.QueryResultRow>(client: pg.Client, text: string, values: unknown[]) => {
    const mine = queue.then(() => client.query<R>(text, values));
    queue = mine.catch(() => undefined);
    return mine;
  };
  const sharedClient = (): Promise<pg.Client> => {
    if (shared) return shared;
    const client = new pg.Client({ connectionString: url });
    const connecting = client.connect().then(
      () => client,
      (err) => {
        if (shared === connecting) shared = undefined;
        throw err;
      },
    );
    // A broken connection has lost its locks on the server: the next lock is taken on a new one.
    client.on('error', () => {
      if (shared === connecting) shared = undefined;
    });
    shared = connecting;
    return connecting;
  };
  // The functions of each mode: shared holders of a name stack on one session (each unlocks its own).
  const sql = (mode: LockMode) => {
    const suffix = mode === 'shared' ? '_shared' : '';
    return {
      take: `SELECT pg_try_advisory_lock${suffix}(hashtext($1)) AS got, hashtext($1)::bigint::text AS key`,
      wait: `SELECT pg_advisory_lock${suffix}(hashtext($1))`,
      unlock: `SELECT pg_advisory_unlock${suffix}(hashtext($1))`,
    };
  };

  /**
   * The names this process holds shared on the shared connection: how many of its holders, since when, and when they
   * are all out. A session holding a lock takes it again at once (PostgreSQL counts it without looking at the waiters),
   * so a process whose shared holders overlap would keep the name for as long as they keep coming, and another
   * process's exclusive asker would wait for all of them. Once a name has been held here for HANDOVER_MS, a new shared
   * asker first looks whether another session waits for it (the keys waited for in pg_locks, read at most every
   * HANDOVER_MS for all names at once); if one does, it waits for this process's holders to leave, then asks as anyone
   * would, behind that session.
   */
  const heldHere = new Map<string, { key: string; count: number; since: number; out: Promise<void>; leave: () => void }>();
  let waitedKeys: { at: number; keys: Promise<Set<string>> } | undefined;
  const othersWait = async (client: pg.Client, key: string): Promise<boolean> => {
    if (!waitedKeys || performance.now() - waitedKeys.at >= HANDOVER_MS) {
      const keys = inTurn<{ key: string }>(client, WAITED_SQL, []).then(
        (r) => new Set(r.rows.map((row) => row.key)),
        () => new Set<string>(),
      );
      waitedKeys = { at: performance.now(), keys };
    }
    return (await waitedKeys.keys).has(key);
  };
  const entered = (name: string, key: string) => {
    const here = heldHere.get(name);
    if (here) return void (here.count += 1);
    let leave = () => {};
    const out = new Promise<void>((r) => (leave = r));
    heldHere.set(name, { key, count: 1, since: performance.now(), out, leave });
  };
  const left = (name: string) => {
    const here = heldHere.get(name);
    if (!here || --here.count > 0) return;
    heldHere.delete(name);
    here.leave();
  };

  // A name's shared askers that found it held elsewhere wait on one pool connection, not one each: the first waits there,
  // the others wait for it to get in and then take the name on the shared connection beside it (a pool of 8 would
  // otherwise hold back all but 8 of a name's shared askers for as long as those 8 run).
  const sharedWaiters = new Map<string, Promise<void>>();

  const waitFor = async <T>(name: string, fn: () => Promise<T>, mode: LockMode, asked: number): Promise<T> => {
    let inside = () => {};
    if (mode === 'shared') {
      const entered = new Promise<void>((r) => (inside = r));
      sharedWaiters.set(name, entered);
      void entered.then(() => {
        if (sharedWaiters.get(name) === entered) sharedWaiters.delete(name);
      });
    }
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      inside();
      throw err;
    }
    try {
      await client.query(sql(mode).wait, [name]);
      counter.record(performance.now() - asked);
    } catch (err) {
      client.release(true);
      throw err;
    } finally {
      inside();
    }
    let held = true;
    try {
      return await fn();
    } finally {
      await client.query(sql(mode).unlock, [name]).then(
        () => {
          held = false;
        },
        () => undefined,
      );
      // A connection whose unlock failed may still hold the lock: it is closed rather than handed out again.
      client.release(held);
    }
  };

  /** Runs fn holding the name on the shared connection, once taken there (after `take` answered true). */
  const onShared = async <T>(
    name: string,
    key: string,
    mode: LockMode,
    pending: Promise<pg.Client>,
    client: pg.Client,
    fn: () => Promise<T>,
  ) => {
    if (mode === 'shared') entered(name, key);
    try {
      return await fn();
    } finally {
      await inTurn(client, sql(mode).unlock, [name]).catch(() => {
        // Only a broken connection fails an unlock, and its session's locks went with it: it is not used again.
        if (shared === pending) shared = undefined;
        void client.end().catch(() => undefined);
      });
      if (mode === 'shared') left(name);
    }
  };
  /** Whether this process's shared holders of the name should let another session waiting for it go first. */
  const handOver = async (client: pg.Client, name: string, mode: LockMode) => {
    const here = mode === 'shared' ? heldHere.get(name) : undefined;
    return here && performance.now() - here.since >= HANDOVER_MS && (await othersWait(client, here.key)) ? here : undefined;
  };

  return {
    waits: counter.waits,
    run: (name, fn, mode = 'exclusive') =>
      local.run(
        name,
        async () => {
          const asked = performance.now();
          const pending = sharedClient();
          const client = await pending;
          let waited = false;
          let key = '';
          for (;;) {
            const here = await handOver(client, name, mode);
            if (here) {
              waited = true;
              await here.out;
              continue;
            }
            const taken = await inTurn<{ got: boolean; key: string }>(client, sql(mode).take, [name]);
            if (taken.rows[0]?.got) {
              key = taken.rows[0].key;
              break;
            }
            const ahead = mode === 'shared' ? sharedWaiters.get(name) : undefined;
            if (!ahead) return waitFor(name, fn, mode, asked);
            waited = true;
            await ahead;
          }
          if (waited) counter.record(performance.now() - asked);
          return onShared(name, key, mode, pending, client, fn);
        },
        mode,
      ),
    tryRun: (name, fn, mode = 'exclusive') =>
      holding(local.tryEnter(name, mode), async () => {
        const pending = sharedClient();
        const client = await pending;
        if (await handOver(client, name, mode)) return { ran: false as const };
        const taken = await inTurn<{ got: boolean; key: string }>(client, sql(mode).take, [name]);
        if (!taken.rows[0]?.got) return { ran: false as const };
        return { ran: true as const, value: await onShared(name, taken.rows[0].key, mode, pending, client, fn) };
      }).then((r) => (r.ran ? r.value : r)),
    close: async () => {
      const client = await shared?.catch(() => undefined);
      shared = undefined;
      await Promise.all([pool.end(), client?.end().catch(() => undefined)]);
    },
  };
}
