import { GateError, ServiceError, type RemediationGate } from '../errors.js';
import { BackingError } from '../backends/http-pipeline.js';

// The backing service's verdict on what the caller named (an id it does not know, input it refuses, a conflict) is the
// caller's answer too; anything else (the service identity refused, throttled, the service failing) is a 502.
const CALLER_STATUSES = new Set([400, 404, 409]);

/**
 * A backing call of an identity operation failed, with the backing service's text unmodified and where to diagnose it:
 * 400, 404 or 409 when the backing service answered that about the caller's input, else 502.
 */
export class BackingRefused extends ServiceError {
  constructor(readonly cause: BackingError) {
    const q = new URLSearchParams({ service: cause.service, status: String(cause.status), ...(cause.code ? { code: cause.code } : {}) });
    super(CALLER_STATUSES.has(cause.status) ? cause.status : 502, 'backing_refused', cause.body || cause.message, { hint: `${cause.service} answered ${cause.status || 'no status'}${cause.code ? ` ${cause.code}` : ''}; diagnose at /api/admin/identity/diagnose?${q}` });
  }
}

/**
 * Runs a backing call, turning a BackingError into BackingRefused, or into a 424 GateError (the backing text kept as its
 * message) when `gateOf` names a gate for it.
 */
export async function backing<T>(fn: () => Promise<T>, gateOf?: (err: BackingError) => RemediationGate | undefined): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof BackingError)) throw err;
    const g = gateOf?.(err);
    if (g) throw new GateError(g, err.body || err.message);
    throw new BackingRefused(err);
  }
}
