import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { BackingPipeline } from '../src/backends/http-pipeline.js';
import { cloudOf } from './helpers.js';

/** A local backing service that answers every call after 20 ms with `answer`, counting the most calls it held at once. */
export async function slowBacking(
  t: TestContext,
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ base: string; peak(): number }> {
  let inFlight = 0;
  let peak = 0;
  const backing = http.createServer((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    req.resume();
    setTimeout(() => {
      inFlight--;
      answer(req, res);
    }, 20);
  });
  await new Promise<void>((r) => backing.listen(0, '127.0.0.1', r));
  t.after(() => backing.close());
  return { base: `http://127.0.0.1:${(backing.address() as AddressInfo).port}`, peak: () => peak };
}

/** A pipeline of the commercial cloud with a fixed token and `concurrencyPerService` slots per backing service. */
export const testPipeline = (concurrencyPerService: number) =>
  new BackingPipeline(
    cloudOf({}),
    { principal: 'test-identity', getToken: async (aud) => `token-for-${aud}` },
    { timeoutMs: 5000, retryDelayMs: 10, concurrencyPerService },
  );
