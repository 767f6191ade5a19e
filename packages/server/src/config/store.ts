import { int, type Section, text, url, type Values } from './setting.js';

/** The store: PGlite's directory or a PostgreSQL server, its pool, the read cache. */
export const STORE = {
  dataDir: text('SVC_DATA_DIR', { fallback: './.svc-data', meaning: 'PGlite data directory (used when `DATABASE_URL` is unset)' }),
  databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:'], { meaning: '`postgres://…`: use a PostgreSQL server instead of PGlite' }),
  pool: int(
    'SVC_DB_POOL',
    10,
    1,
    1000,
    "PostgreSQL connections per process; the install worker's step writes use at most this minus four, so requests always find one",
  ),
  preparedStatements: int(
    'SVC_DB_PREPARED_STATEMENTS',
    100,
    0,
    10_000,
    'how many reads a process names as PostgreSQL prepared statements, each once it has run five times (then parsed and planned once per connection); `0` turns this off, behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21)',
  ),
  readCacheMs: int(
    'SVC_READ_CACHE_MS',
    5000,
    0,
    600_000,
    "how long a process keeps a serialized item listing; any committed write to items or workspaces, in any process, drops it at once (PostgreSQL NOTIFY from a trigger; while a process's listening connection is down it keeps none), so this only bounds what a lost notification could leave; `0` turns the cache off",
  ),
} satisfies Section;

export type StoreConfig = Values<typeof STORE>;
