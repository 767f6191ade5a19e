// Locks by name (store/named-locks.ts): one holder at a time per name, names independent, a holder's failure releases
// it. On PostgreSQL (the suite's run with DATABASE_URL) two lock sets stand for two processes sharing the database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advisoryLocks, inProcessLocks, type NamedLocks } from '../src/store/named-locks.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two lock sets: two processes' on PostgreSQL, one process's twice on PGlite. */
function twoHolders(): [NamedLocks, NamedLocks, () => Promise<void>] {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const one = inProcessLocks();
    return [one, one, () => one.close()];
  }
  const a = advisoryLocks(url, 3);
  const b = advisoryLocks(url, 3);
  return [a, b, async () => void (await Promise.all([a.close(), b.close()]))];
}

test('one holder of a name at a time; another name does not wait; a failure releases the lock', async () => {
  const [a, b, close] = twoHolders();
  const name = `svc-test:${process.pid}:${Date.now()}`;
  try {
    const events: string[] = [];
    const holder = (locks: NamedLocks, who: string, ms: number) =>
      locks.run(name, async () => {
        events.push(`${who} in`);
        await sleep(ms);
        events.push(`${who} out`);
        return who;
      });
    const first = holder(a, 'A', 300);
    await sleep(50);
    const second = holder(b, 'B', 10);
    // Another name runs at once, while A holds the first.
    const started = Date.now();
    assert.equal(await b.run(`${name}:other`, async () => 'free'), 'free');
    assert.ok(Date.now() - started < 250, 'another name waited for the held one');
    assert.deepEqual(await Promise.all([first, second]), ['A', 'B']);
    assert.deepEqual(events, ['A in', 'A out', 'B in', 'B out']);

    // A holder that throws gives the name up: the next one runs and the error reaches its caller unchanged.
    await assert.rejects(
      a.run(name, async () => {
        throw new Error('the step failed');
      }),
      /the step failed/,
    );
    assert.equal(await b.run(name, async () => 'after'), 'after');
  } finally {
    await close();
  }
});
