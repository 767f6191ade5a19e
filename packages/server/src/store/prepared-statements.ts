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
 * Names the hot parameterized reads, so PostgreSQL parses and plans each once per connection instead of on every run
 * (half its CPU on the item listing). A text is named once it ran `after` times in this process, up to `max` names,
 * which bounds the statements each connection holds; the rest run unnamed as before.
 */
export function preparedStatements<P extends PostgresPool>(pool: P, options: PreparedOptions): P {
  const runs = new Map<string, number>();
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const named = names.get(text);
    if (named !== undefined || names.size >= options.max || !PREPARABLE.test(text)) return named;
    const n = (runs.get(text) ?? 0) + 1;
    if (n < options.after) {
      if (runs.size >= COUNTS_KEPT) runs.clear();
      runs.set(text, n);
      return undefined;
    }
    runs.delete(text);
    const name = `svc_${names.size + 1}`;
    names.set(text, name);
    return name;
  };
  const wrapped = new WeakSet<object>();
  const connect = pool.connect.bind(pool);
  pool.connect = async () => {
    const client: PostgresPoolClient = await connect();
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as { query: unknown }).query = (text: unknown, values?: unknown[]) => {
      const name = typeof text === 'string' && values?.length ? nameOf(text) : undefined;
      return name ? query({ name, text, values }) : query(text, values);
    };
    return client;
  };
  return pool;
}
