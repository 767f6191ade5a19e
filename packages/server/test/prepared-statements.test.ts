// On PostgreSQL a read run often becomes a named prepared statement on each connection (parsed and planned once);
// reads that select `*`, and every read when SVC_DB_PREPARED_STATEMENTS is 0, stay unnamed. The answers do not change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { build, type TestApp } from './helpers.js';

/** Runs each read six times on one connection, its `$1` a parameter; answers its last rows and the statements the connection holds. */
async function runOnOneConnection(h: TestApp, texts: string[]) {
  return h.store.db.connection().execute(async (conn) => {
    const answers: unknown[] = [];
    for (const text of texts) {
      const [before, after] = text.split('$1') as [string, string];
      let rows: unknown[] = [];
      for (let i = 0; i < 6; i++) rows = (await sql`${sql.raw(before)}${String(i)}${sql.raw(after)}`.execute(conn)).rows;
      answers.push(rows);
    }
    const held =
      h.store.kind === 'postgres'
        ? (await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(conn)).rows
        : [];
    return { answers, held };
  });
}

test('a parameterized read run often is prepared on its connection; one selecting * is not; the answers are the same', async (t) => {
  const h = await build(t);
  const marker = randomUUID();
  const named = `SELECT $1::text AS v, '${marker}' AS m`;
  const starred = `SELECT * FROM (SELECT $1::text AS v, '${marker}-star' AS m) AS s`;
  const { answers, held } = await runOnOneConnection(h, [named, starred]);
  assert.deepEqual(answers, [[{ v: '5', m: marker }], [{ v: '5', m: `${marker}-star` }]]);
  if (h.store.kind === 'postgres') {
    const mine = held.filter((s) => s.statement.includes(marker));
    assert.equal(mine.length, 1, JSON.stringify(held));
    assert.match(mine[0]!.name, /^svc_\d+$/);
    assert.ok(!mine[0]!.statement.includes('*'), 'the read selecting * runs unnamed');
  } else {
    assert.deepEqual(held, [], 'the embedded store runs every statement unnamed');
  }
});

test('SVC_DB_PREPARED_STATEMENTS=0 prepares nothing', async (t) => {
  const h = await build(t, { SVC_DB_PREPARED_STATEMENTS: '0' });
  const marker = randomUUID();
  const { answers, held } = await runOnOneConnection(h, [`SELECT $1::text AS v, '${marker}' AS m`]);
  assert.deepEqual(answers, [[{ v: '5', m: marker }]]);
  assert.deepEqual(
    held.filter((s) => s.statement.includes(marker)),
    [],
  );
});
