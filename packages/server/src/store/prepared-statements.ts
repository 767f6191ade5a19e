import type { PostgresPool, PostgresPoolClient } from 'kysely';

/** When a read becomes a prepared statement: after how many runs, and how many a process names at most. */
export interface PreparedOptions {
  after: number;
  max: number;
}

// A read that names every column: `*` (SELECT *, t.*, count(*)) is left unprepared, since a column added by a
// migration of a newer process would change a prepared statement's result type under this one.
const PREPARABLE = /^\s*(?:select|with)\s[^*]*$/i;
const COUNTS_KEPT = 10_000;

/**
 * The names of the hot parameterized reads, so PostgreSQL parses and plans each once per connection instead of on every
 * run (half its CPU on the item listing). A text is named once it ran `after` times in this process, up to `max` names,
 * which bounds the statements each connection holds; the rest run unnamed as before.
 */
export class PreparedNames {
  private readonly runs = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(private readonly options: PreparedOptions) {}

  /** The statement name of a parameterized read's text, once it is hot; undefined while it runs unnamed. */
  nameOf(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined || this.names.size >= this.options.max || !PREPARABLE.test(text)) return named;
    const n = (this.runs.get(text) ?? 0) + 1;
    if (n < this.options.after) {
      if (this.runs.size >= COUNTS_KEPT) this.runs.clear();
      this.runs.set(text, n);
      return undefined;
    }
    this.runs.delete(text);
    const name = `svc_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

/** The pool, its connections running the hot reads as the named prepared statements `names` gives. */
export function preparedStatements(pool: PostgresPool, names: PreparedNames): PostgresPool {
  const wrapped = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  const wrap = (client: PostgresPoolClient): PostgresPoolClient => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    return {
      query: (text: unknown, values?: unknown[]) => {
        const name = typeof text === 'string' && values?.length ? names.nameOf(text) : undefined;
        return name ? query({ name, text, values }) : query(text, values);
      },
      release: () => client.release(),
    } as unknown as PostgresPoolClient;
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) wrapped.set(client, (w = wrap(client)));
      return w;
    },
    end: () => pool.end(),
  };
}
