import { ServiceError } from '../errors.js';
import { BackingError } from '../backends/http-pipeline.js';

/** A backing call of an identity operation failed: 502 with the backing service's text unmodified and where to diagnose it. */
export class BackingRefused extends ServiceError {
  constructor(readonly cause: BackingError) {
    const q = new URLSearchParams({ service: cause.service, status: String(cause.status), ...(cause.code ? { code: cause.code } : {}) });
    super(502, 'backing_refused', cause.body || cause.message, { hint: `${cause.service} answered ${cause.status || 'no status'}${cause.code ? ` ${cause.code}` : ''}; diagnose at /api/admin/identity/diagnose?${q}` });
  }
}

/** Runs a backing call, turning a BackingError into BackingRefused. */
export async function backing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BackingError) throw new BackingRefused(err);
    throw err;
  }
}
