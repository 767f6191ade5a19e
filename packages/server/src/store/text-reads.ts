import type pg from 'pg';
import type { PoolWait } from './pool-wait.js';
import type { PreparedNames } from './prepared-statements.js';
import type { TableVersions } from './table-versions.js';

/** A row as a read's text: each column's value as PostgreSQL wrote it, or null. */
export type TextRow = ReadonlyArray<string | null>;

/** Runs a read and answers its rows as text (see Store.readText). */
export type ReadText = (text: string, values: readonly unknown[]) => Promise<TextRow[]>;

const asText = (value: string) => value;
const AS_TEXT = { getTypeParser: () => asText };

/**
 * A read on a connection of the pool without the query builder, for the hottest reads: one checkout, the statement
 * named once hot (`names`), every column read as its text in an array, no row objects. Callbacks from the checkout to
 * the answer, so the read costs one promise: each one costs the request's async context hooks. The statement and the
 * wait for a connection are counted as Kysely's are.
 */
export function pgTextReads(pool: pg.Pool, deps: { names?: PreparedNames; versions: TableVersions; poolWait: PoolWait }): ReadText {
  return (text, values) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      pool.connect((err, client, release) => {
        if (err || !client) return reject(err);
        deps.poolWait.record(performance.now() - started);
        deps.versions.statements++;
        const name = deps.names?.nameOf(text);
        client.query<string[]>({ name, text, values: values as unknown[], rowMode: 'array', types: AS_TEXT }, (err, result) => {
          // An error the server answered leaves the connection usable; any other (a lost connection) discards it.
          release(err && !(err as { code?: string }).code ? err : undefined);
          if (err) reject(err);
          else resolve(result.rows);
        });
      });
    });
}
