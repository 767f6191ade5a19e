import { int, type Section } from './setting.js';

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
    'the longest `Retry-After` the retry waits (a 429 still refused on the retry is reported unmodified)',
  ),
  concurrency: int('SVC_BACKING_CONCURRENCY', 16, 1, 1024, 'calls in flight per backing service and process'),
} satisfies Section;
