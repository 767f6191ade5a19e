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
    10_000,
    0,
    600_000,
    'the longest `Retry-After` the retry waits (a 429 still refused on the retry is reported unmodified; behind the throttle limiter the retry also waits for its pause)',
  ),
  concurrency: int('SVC_BACKING_CONCURRENCY', 32, 1, 1024, 'calls in flight per backing service and process'),
  throttleLimiter: oneOf('SVC_BACKING_THROTTLE_LIMITER', ['adaptive', 'off'], {
    fallback: 'adaptive',
    meaning:
      "`adaptive`: a 429 from a backing service pauses every call of the process to that service, host and identity until its `Retry-After` has passed, and later calls keep to the rate the service was found to allow, raised slowly while calls wait (nothing changes for a service that never answers 429; the reporting service's 429s are about one capacity, workspace or dataset and pause nothing); `off`: each call meets the throttle alone (benchmarks compare)",
  }),
  throttlePauseMaxMs: int(
    'SVC_BACKING_THROTTLE_PAUSE_MAX_MS',
    60_000,
    0,
    600_000,
    "the longest `Retry-After` the throttle limiter holds a service's callers for (the data platform's quota is per minute)",
  ),
} satisfies Section;
