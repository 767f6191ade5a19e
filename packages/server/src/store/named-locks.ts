import pg from 'pg';

/**
 * Locks by name, held across every process sharing the store for as long as a piece of work runs. On PostgreSQL a lock
 * is a session advisory lock on a connection of its own small pool (so a holder never waits for the main pool while it
 * holds one, and a killed process's locks go with its connections); on PGlite, whose store only one process opens, it is
 * a queue per name in the process.
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

/** Session advisory locks on a pool of `size` connections (an in-process queue in front keeps one waiter per name). */
export function advisoryLocks(url: string, size: number): NamedLocks {
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', () => undefined);
  const local = inProcessLocks();
  return {
    run: (name, fn) =>
      local.run(name, async () => {
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
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).then(
            () => {
              held = false;
            },
            () => undefined,
          );
          // A connection whose unlock failed may still hold the lock: it is closed rather than handed out again.
          client.release(held);
        }
      }),
    close: () => pool.end(),
  };
}
