import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { advisoryLocks, inProcessLocks, type NamedLocks } from './named-locks.js';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { TableVersions, WATCHED_TABLES } from './table-versions.js';
import { PoolWait } from './pool-wait.js';
import { PreparedNames, preparedStatements } from './prepared-statements.js';
import { pgTextReads, type ReadText } from './text-reads.js';
import { ChangeFeed } from './change-feed.js';

export type Db = Kysely<Database>;

/** The store: a Kysely handle plus what it runs on, for logs and health. */
export interface Store {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Subscribes to a notification channel (LISTEN); every process sharing the store hears NOTIFYs. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>;
  /** Sends a notification to every listener of the channel, in every process. */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * The connection that hears other processes' notifications (PostgreSQL): whether it is up, handlers for its loss and
   * its return (a cache relying on notifications must keep nothing meanwhile), and its server process. The embedded
   * store is one process: always live.
   */
  feed: { live(): boolean; watch(down: () => void, up: () => void): void; backendPid(): number | undefined };
  /**
   * Runs a read and answers its rows as arrays of each column's text, straight on a connection: no query builder, row
   * objects or type parsing (select every column as text). For the hottest reads, compiled once (precompiled.ts).
   */
  readText: ReadText;
  /** Versions of the watched tables, moved by every committed write in any process (for read caches). */
  versions: TableVersions;
  /** Locks by name across every process sharing the store (a live resource while a step works on it). */
  locks: NamedLocks;
  /** How long borrowers waited for a connection of the pool (the install worker's concurrency and /metrics read it). */
  poolWait: PoolWait;
  close(): Promise<void>;
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// PGlite has one connection; hand it out to one borrower at a time so transactions stay whole.
async function pglitePool(dataDir: string): Promise<
  PostgresPool & {
    ready: Promise<void>;
    listen(c: string, f: (p: string) => void): Promise<unknown>;
    readText(text: string, params: readonly unknown[], wait: PoolWait): Promise<string[][]>;
  }
> {
  const { PGlite } = await import('@electric-sql/pglite');
  fs.mkdirSync(dataDir, { recursive: true });
  const lite = new PGlite(dataDir);
  let tail: Promise<void> = lite.waitReady;
  const turn = async () => {
    let release!: () => void;
    const previous = tail;
    tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return release;
  };
  return {
    ready: lite.waitReady,
    listen: (channel, fn) => lite.listen(channel, fn),
    async readText(text, params, wait) {
      const started = performance.now();
      const release = await turn();
      wait.record(performance.now() - started);
      try {
        return (await lite.query<string[]>(text, params as unknown[], { rowMode: 'array' })).rows;
      } finally {
        release();
      }
    },
    async connect(): Promise<PostgresPoolClient> {
      const release = await turn();
      const client = {
        async query(text: string, params: ReadonlyArray<unknown>) {
          // Without parameters use the simple protocol, which takes several statements (migrations).
          const result = params.length
            ? await lite.query(text, params as unknown[])
            : ((await lite.exec(text)).at(-1) ?? { rows: [], affectedRows: 0 });
          const command = text.trimStart().slice(0, 6).toUpperCase();
          return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
        },
        release,
      };
      return client as unknown as PostgresPoolClient;
    },
    async end() {
      await lite.close();
    },
  };
}

/** Connections that wait for a live resource's lock another process holds (a lock nobody holds costs none). */
const LOCK_WAIT_CONNECTIONS = 8;

/** Opens PostgreSQL when a URL is given (a pool of `pool` connections), else PGlite in dataDir, and applies the committed migrations. */
export async function openStore(options: {
  databaseUrl?: string;
  dataDir: string;
  pool: number;
  lockPool?: number;
  /** How many hot reads to name as prepared statements (PostgreSQL; default 100, 0: none). */
  preparedStatements?: number;
}): Promise<Store> {
  let pool: PostgresPool;
  let locks: NamedLocks;
  let kind: Store['kind'];
  let listen: Store['listen'];
  let feed: ChangeFeed | undefined;
  let readText: Store['readText'];
  const versions = new TableVersions();
  const poolWait = new PoolWait();
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    const connections = new pg.Pool({ connectionString: url, max: options.pool });
    const max = options.preparedStatements ?? 100;
    const names = max > 0 ? new PreparedNames({ after: 5, max }) : undefined;
    pool = names ? preparedStatements(connections, names) : connections;
    readText = pgTextReads(connections, { names, versions, poolWait });
    locks = advisoryLocks(url, options.lockPool ?? LOCK_WAIT_CONNECTIONS);
    kind = 'postgres';
    const changes = new ChangeFeed(url);
    feed = changes;
    listen = (channel, fn) => changes.listen(channel, fn);
  } else {
    const lite = await pglitePool(path.join(options.dataDir, 'pglite'));
    await lite.ready;
    pool = lite;
    readText = (text, params) => {
      versions.statements++;
      return lite.readText(text, params, poolWait);
    };
    locks = inProcessLocks();
    kind = 'pglite';
    listen = async (channel, fn) => {
      await lite.listen(channel, fn);
    };
  }
  // Without the feed nothing another process commits is heard: the watched tables count as written until it is back.
  feed?.watch(
    () => versions.deafen(),
    () => versions.hear(),
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: versions.observe(poolWait.observe(pool)) }) });
  await migrate(db, kind);
  await listen('svc_table_changed', (table) => {
    if ((WATCHED_TABLES as readonly string[]).includes(table)) versions.bump(table);
  });
  const notify = async (channel: string, payload: string) => {
    await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
  };
  return {
    db,
    kind,
    readText,
    listen,
    notify,
    versions,
    locks,
    poolWait,
    feed: {
      live: () => feed?.live ?? true,
      watch: (down, up) => feed?.watch(down, up),
      backendPid: () => feed?.backendPid,
    },
    close: async () => {
      await feed?.close();
      await locks.close().catch(() => undefined);
      await db.destroy();
    },
  };
}

/** Applies every migration file not yet recorded, each in its own transaction, under an advisory lock. */
async function migrate(db: Db, kind: Store['kind']): Promise<void> {
  await db.connection().execute(async (conn) => {
    if (kind === 'postgres') await sql`SELECT pg_advisory_lock(724601)`.execute(conn);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
        conn,
      );
      const done = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.name));
      const files = fs
        .readdirSync(MIGRATIONS_DIR)
        .filter((f) => f.endsWith('.sql'))
        .sort();
      for (const file of files) {
        if (applied.has(file)) continue;
        const text = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
        await conn.transaction().execute(async (trx) => {
          await sql.raw(text).execute(trx);
          await sql`INSERT INTO schema_migrations (name) VALUES (${file})`.execute(trx);
        });
      }
    } finally {
      if (kind === 'postgres') await sql`SELECT pg_advisory_unlock(724601)`.execute(conn);
    }
  });
}
