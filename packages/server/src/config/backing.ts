import { int, oneOf, type Section } from './setting.js';

/** Every backing call. */
export const BACKING = {
  timeoutMs: int('SVC_BACKING_TIMEOUT_MS', 30_000, 100, 600_000, 'timeout of each backing call'),
  retryDelayMs: int(
    'SVC_BACKING_RETRY_DELAY_MS',
    1500,
    0,
    600_000,
    "backoff of a backing call's one retry after a transient failure, or the answer's `Retry-After` when that is longer",
  ),
  retryAfterMaxMs: int(
    'SVC_BACKING_RETRY_AFTER_MAX_MS',
    60_000,
    0,
    600_000,
    "the longest `Retry-After` honoured: the retry's wait, and the throttle limiter's pause of the service's other callers (a 429 still refused on the retry is reported unmodified); the data platform throttles per minute",
  ),
  concurrency: int('SVC_BACKING_CONCURRENCY', 16, 1, 1024, 'calls in flight per backing service and process'),
  throttleLimiter: oneOf('SVC_BACKING_THROTTLE_LIMITER', ['adaptive', 'off'], {
    fallback: 'adaptive',
    meaning:
      '`adaptive`: a 429 from a backing service pauses every call of the process to that service, host and identity until its `Retry-After` has passed, and later calls keep to the rate the service was found to allow, raised slowly while calls wait (nothing changes for a service that never answers 429); `off`: each call meets the throttle alone (benchmarks compare)',
  }),
} satisfies Section;
