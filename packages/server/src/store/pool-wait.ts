import type { PostgresPool } from 'kysely';

/** Upper bounds (ms) of the wait histogram's buckets; a last bucket holds the longer waits. */
export const WAIT_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 2500] as const;

/**
 * How long borrowers waited for a connection of the store's pool, as a cumulative histogram since the start. Readers
 * keep their own previous snapshot and take the quantile of what happened since (the install worker's concurrency
 * each second, `/metrics` at each scrape), so no reader resets another's window.
 */
export class PoolWait {
  private readonly counts: number[] = WAIT_BOUNDS_MS.map(() => 0).concat(0);

  /** The pool, each connect() recording its wait. */
  observe(pool: PostgresPool): PostgresPool {
    return {
      connect: async () => {
        const started = performance.now();
        const client = await pool.connect();
        this.record(performance.now() - started);
        return client;
      },
      end: () => pool.end(),
    };
  }

  record(ms: number): void {
    const i = WAIT_BOUNDS_MS.findIndex((b) => ms <= b);
    this.counts[i < 0 ? WAIT_BOUNDS_MS.length : i]! += 1;
  }

  /** The histogram so far (pass it back to `quantileSince`). */
  snapshot(): number[] {
    return [...this.counts];
  }

  /**
   * The q-quantile (0..1) of the waits since `before`, as its bucket's upper bound in ms (the last bucket answers
   * Infinity); 0 when nothing borrowed a connection since.
   */
  quantileSince(before: readonly number[], q: number): number {
    const delta = this.counts.map((c, i) => c - (before[i] ?? 0));
    const total = delta.reduce((a, b) => a + b, 0);
    if (!total) return 0;
    let seen = 0;
    for (const [i, n] of delta.entries()) {
      seen += n;
      if (seen >= q * total) return WAIT_BOUNDS_MS[i] ?? Infinity;
    }
    return Infinity;
  }
}
