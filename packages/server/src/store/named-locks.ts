import pg from 'pg';

/**
 * Locks by name, held across every process sharing the store for as long as a piece of work runs. On PostgreSQL a lock
 * is a session advisory lock: a lock nobody else holds (the usual case) is taken on one connection that holds any
 * number of them at once, so the count of steps in flight costs no connections; a lock another process holds is
 * waited for on a connection of its own small pool. A killed process's locks go with its connections. On PGlite, whose
 * store only one process opens, it is a queue per name in the process.
 */
export interface NamedLocks {
  /** Runs fn holding the named lock; waits while another holder has it. */
  run<T>(name: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Since the start: how many runs waited for a name another holder had, and the seconds they waited. */
  waits(): { count: number; seconds: number };
}

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

/** A queue per name: each holder starts when the one before it settles (a wait behind one is recorded). */
function queuePerName(record: (ms: number) => void): NamedLocks['run'] {
  const tails = new Map<string, Promise<unknown>>();
  return async (name, fn) => {
    const before = tails.get(name);
    const asked = performance.now();
    const start = () => {
      if (before) record(performance.now() - asked);
      return fn();
    };
    const mine = (before ?? Promise.resolve()).then(start, start);
    const tail = mine.catch(() => undefined);
    tails.set(name, tail);
    try {
      return await mine;
    } finally {
      if (tails.get(name) === tail) tails.delete(name);
    }
  };
}

/** Locks of one process (PGlite, whose store no other process opens): a queue per name. */
export function inProcessLocks(): NamedLocks {
  const counter = waitCounter();
  return { run: queuePerName(counter.record), close: async () => undefined, waits: counter.waits };
}

/**
 * Session advisory locks: taken without waiting on one shared connection, or, when another process holds the name,
 * waited for on a connection of a pool of `size` (an in-process queue in front keeps one waiter per name).
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
  const unlock = (client: pg.ClientBase, name: string) => client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);

  const waitFor = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const asked = performance.now();
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      counter.record(performance.now() - asked);
    } catch (err) {
      client.release(true);
      throw err;
    }
    let held = true;
    try {
      return await fn();
    } finally {
      await unlock(client, name).then(
        () => {
          held = false;
        },
        () => undefined,
      );
      // A connection whose unlock failed may still hold the lock: it is closed rather than handed out again.
      client.release(held);
    }
  };

  return {
    waits: counter.waits,
    run: (name, fn) =>
      local(name, async () => {
        const pending = sharedClient();
        const client = await pending;
        const taken = await inTurn<{ got: boolean }>(client, 'SELECT pg_try_advisory_lock(hashtext($1)) AS got', [name]);
        if (!taken.rows[0]?.got) return waitFor(name, fn);
        try {
          return await fn();
        } finally {
          await inTurn(client, 'SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => {
            // Only a broken connection fails an unlock, and its session's locks went with it: it is not used again.
            if (shared === pending) shared = undefined;
            void client.end().catch(() => undefined);
          });
        }
      }),
    close: async () => {
      const client = await shared?.catch(() => undefined);
      shared = undefined;
      await Promise.all([pool.end(), client?.end().catch(() => undefined)]);
    },
  };
}
