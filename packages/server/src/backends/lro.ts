import type { BackingPipeline, BackingResponse, BackingService } from './http-pipeline.js';
import { BackingError } from './http-pipeline.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds of a Retry-After header as milliseconds, with a floor and a ceiling. */
function retryAfterMs(res: BackingResponse, fallbackMs = 1000): number {
  const v = Number(res.headers.get('retry-after'));
  return Number.isFinite(v) && v >= 0 ? Math.min(Math.max(v * 1000, 50), 30_000) : fallbackMs;
}

/**
 * Follows a data-platform long-running operation from a 202: polls Location (honouring Retry-After) until
 * Succeeded or Failed, then reads /result when Location points at it. Failed operations throw their error body.
 */
export async function followOperation(
  pipeline: BackingPipeline,
  service: BackingService,
  audience: string,
  accepted: BackingResponse,
  deadlineMs = 600_000,
): Promise<BackingResponse | undefined> {
  let location = accepted.headers.get('location');
  if (!location) throw new BackingError(service, accepted.status, accepted.text, 'MissingLocation', 'a 202 without a Location header');
  let wait = retryAfterMs(accepted);
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (Date.now() > deadline)
      throw new BackingError(service, 0, '', 'OperationFailedOnTimeout', `the operation did not finish within ${deadlineMs} ms`);
    await sleep(wait);
    const poll = await pipeline.send({ service, method: 'GET', url: location, audience });
    const state = poll.text ? poll.json<{ status?: string; error?: unknown }>() : {};
    const status = state.status ?? 'Succeeded';
    if (status === 'Failed' || status === 'Undefined' || status === 'Cancelled' || status === 'Canceled') {
      const err = state.error as { errorCode?: string } | undefined;
      throw new BackingError(service, 200, JSON.stringify(state.error ?? state), err?.errorCode ?? 'OperationFailed');
    }
    if (status === 'Succeeded' || status === 'Completed') {
      const next = poll.headers.get('location');
      if (next && next !== location) return pipeline.send({ service, method: 'GET', url: new URL(next, location).toString(), audience });
      return undefined;
    }
    location = poll.headers.get('location') ?? location;
    wait = retryAfterMs(poll);
  }
}

/** Follows an ARM asynchronous operation (Azure-AsyncOperation, else Location) to Succeeded. */
export async function followArmOperation(
  pipeline: BackingPipeline,
  audience: string,
  accepted: BackingResponse,
  deadlineMs = 600_000,
): Promise<void> {
  const url = accepted.headers.get('azure-asyncoperation') ?? accepted.headers.get('location');
  if (!url) return;
  let wait = retryAfterMs(accepted, 500);
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (Date.now() > deadline)
      throw new BackingError('arm', 0, '', 'OperationTimedOut', `the ARM operation did not finish within ${deadlineMs} ms`);
    await sleep(wait);
    const poll = await pipeline.send({ service: 'arm', method: 'GET', url, audience, accept: [202] });
    if (poll.status === 202) {
      wait = retryAfterMs(poll, 500);
      continue;
    }
    const state = poll.text ? poll.json<{ status?: string; error?: { code?: string } }>() : { status: 'Succeeded' };
    if (state.status === 'Succeeded' || !state.status) return;
    if (state.status === 'Failed' || state.status === 'Canceled')
      throw new BackingError('arm', 200, poll.text, state.error?.code ?? state.status);
    wait = retryAfterMs(poll, 500);
  }
}
