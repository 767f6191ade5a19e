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
}

/** A queue per name: each holder starts when the one before it settles. */
export function inProcessLocks(): NamedLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async run(name, fn) {
      const before = tails.get(name) ?? Promise.resolve();
      const mine = before.then(fn, fn);
      const tail = mine.catch(() => undefined);
      tails.set(name, tail);
      try {
        return await mine;
      } finally {
        if (tails.get(name) === tail) tails.delete(name);
      }
    },
    close: async () => undefined,
  };
}

/**
 * Session advisory locks: taken without waiting on one shared connection, or, when another process holds the name,
 * waited for on a connection of a pool of `size` (an in-process queue in front keeps one waiter per name).
 */
export function advisoryLocks(url: string, size: number): NamedLocks {
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', () => undefined);
  const local = inProcessLocks();
  let shared: Promise<pg.Client> | undefined;
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
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
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
    run: (name, fn) =>
      local.run(name, async () => {
        const pending = sharedClient();
        const client = await pending;
        const taken = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [name]);
        if (!taken.rows[0]?.got) return waitFor(name, fn);
        try {
          return await fn();
        } finally {
          await unlock(client, name).catch(() => {
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
