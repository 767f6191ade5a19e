// Background work (the install worker) waits its turn of the event loop, so requests are served between its steps;
// its backing calls still count against the same per-service limit as every other call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pauseForRequests } from '../src/background.js';
import { slowBacking, testPipeline } from './backing-helpers.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* work */
  }
};

test('a wave of background work gives the event loop back to I/O after a few milliseconds, not after the whole wave', async () => {
  let done = 0;
  const wave = Array.from({ length: 60 }, async () => {
    await pauseForRequests();
    busy(1);
    done++;
  });
  // A timer due at once stands for a request waiting on a socket: it runs when the loop next gets to its timers.
  const seenByTimer = await new Promise<number>((r) => setTimeout(() => r(done), 0));
  await Promise.all(wave);
  assert.equal(done, 60, 'all of the wave ran, in the end');
  assert.ok(seenByTimer < 15, `the timer ran after ${seenByTimer} of 60 one-millisecond steps (at most a slice's worth)`);

  // Without the pause points the same wave runs to its end before the timer.
  done = 0;
  const plain = Array.from({ length: 60 }, async () => {
    await Promise.resolve();
    busy(1);
    done++;
  });
  const seenWithout = await new Promise<number>((r) => setTimeout(() => r(done), 0));
  await Promise.all(plain);
  assert.equal(seenWithout, 60);
});

test('background work is released in the order it paused', async () => {
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      await pauseForRequests();
      order.push(i);
      busy(0.5);
    }),
  );
  assert.deepEqual(
    order,
    Array.from({ length: 20 }, (_, i) => i),
  );
});

test('the background pipeline shares the per-service limit with the foreground one', async (t) => {
  const { base, peak } = await slowBacking(t, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  const foreground = testPipeline(2);
  const background = foreground.background();
  const calls = Array.from({ length: 8 }, (_, i) =>
    (i % 2 ? foreground : background).send({
      service: 'kql',
      method: 'GET',
      url: `${base}/x/${i}`,
      audience: 'https://kusto.kusto.windows.net',
    }),
  );
  const answers = await Promise.all(calls);
  assert.deepEqual(
    answers.map((a) => a.json()),
    Array(8).fill({ ok: true }),
  );
  assert.equal(peak(), 2, 'never more than the two slots in flight, whichever pipeline sent the call');
});
