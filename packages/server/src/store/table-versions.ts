import type { PostgresPool, PostgresPoolClient } from 'kysely';

/** Tables whose writes are tracked for in-process read caches (migrations 004 and 015 notify on the same tables). */
export const WATCHED_TABLES = ['items', 'workspaces', 'workspace_role_assignments'] as const;
export type WatchedTable = (typeof WATCHED_TABLES)[number];

// Anywhere in the statement: a write may sit in a common table expression (`with gone as (delete from "items" …) select …`).
const WRITES = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+"?(\w+)"?/gi;
const isWatched = (table: string): table is WatchedTable => (WATCHED_TABLES as readonly string[]).includes(table);

/**
 * A version per watched table, for caches that must never serve what a committed write changed.
 * The version moves when this process commits a write to the table (seen on the connection, so a
 * reader of this process sees its own writes at once) and when any process's commit is announced by
 * the 'svc_table_changed' notification. While this process holds an uncommitted write, the table is
 * not settled: a value read then may predate the commit and must not be cached.
 */
export class TableVersions {
  private readonly versions = new Map<string, number>();
  private readonly open = new Map<string, number>();
  /** Statements sent on this process's connections so far: each one a round trip to the store (bench/api counts them). */
  statements = 0;

  private deaf = false;

  version(table: WatchedTable): number {
    return this.versions.get(table) ?? 0;
  }

  settled(table: WatchedTable): boolean {
    return !this.deaf && !this.open.get(table);
  }

  /** Other processes' commits can no longer be heard (the change feed is down): nothing read now is settled. */
  deafen(): void {
    this.deaf = true;
    for (const t of WATCHED_TABLES) this.bump(t);
  }

  /** The change feed hears again: what was read while it was down stays unkept, what is read from now on may be kept. */
  hear(): void {
    for (const t of WATCHED_TABLES) this.bump(t);
    this.deaf = false;
  }

  /** A write to the table became visible (a commit here or a notification from anywhere). */
  bump(table: string): void {
    this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
  }

  /** The pool, every connection reporting the watched tables it writes, and when they commit. */
  observe(pool: PostgresPool): PostgresPool {
    const tracked = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
    return {
      connect: async () => {
        const client = await pool.connect();
        let t = tracked.get(client); // a pooled connection comes back: already tracked
        if (!t) tracked.set(client, (t = this.track(client)));
        return t;
      },
      end: () => pool.end(),
    };
  }

  private track(client: PostgresPoolClient): PostgresPoolClient {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    let inTransaction = false;
    const dirty = new Set<string>();
    const finish = () => {
      for (const t of dirty) {
        this.open.set(t, (this.open.get(t) ?? 1) - 1);
        this.bump(t);
      }
      dirty.clear();
      inTransaction = false;
    };
    return {
      query: async (...args: unknown[]) => {
        this.statements++;
        const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string } | undefined)?.text ?? '');
        const head = text.trimStart().slice(0, 8).toLowerCase();
        if (head.startsWith('begin') || head.startsWith('start')) inTransaction = true;
        for (const m of text.matchAll(WRITES)) {
          const table = m[1] ?? '';
          if (!isWatched(table) || dirty.has(table)) continue;
          dirty.add(table);
          this.open.set(table, (this.open.get(table) ?? 0) + 1);
        }
        try {
          return await query(...args);
        } finally {
          if (head.startsWith('commit') || head.startsWith('rollback') || (!inTransaction && dirty.size)) finish();
        }
      },
      release: () => {
        if (dirty.size) finish(); // a connection handed back mid-write: its transaction is over either way
        client.release();
      },
    } as PostgresPoolClient;
  }
}
