import type { BackingError } from './backends/http-pipeline.js';

/** A remediation gate: the tenant-level setting an admin must fix, with a link to where. */
export interface RemediationGate {
  reason: string;
  remediation: string;
  link: string;
}

/** Base of every error the service answers on purpose; one handler maps it to the envelope. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { hint?: string; gate?: RemediationGate; field?: string; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InputError extends ServiceError {
  constructor(message: string, field?: string, code = 'invalid_request') {
    super(400, code, message, { field });
  }
}

export class AuthenticationError extends ServiceError {
  constructor(message: string, code = 'unauthenticated') {
    super(401, code, message);
  }
}

export class ForbiddenError extends ServiceError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends ServiceError {
  constructor(what: string, id: string) {
    super(404, 'not_found', `${what} '${id}' was not found`);
  }
}

export class ConflictError extends ServiceError {
  constructor(message: string, code = 'conflict', field?: string) {
    super(409, code, message, { field });
  }
}

export class PreconditionError extends ServiceError {
  constructor(status: 412 | 428, message: string) {
    super(status, status === 412 ? 'etag_mismatch' : 'precondition_required', message, { field: 'If-Match' });
  }
}

/** A remediation gate applies (424): the one gate error of installs, reports and identity operations; `cause` is the backing failure that called for it, if one did. */
export class GateError extends ServiceError {
  constructor(
    readonly gate: RemediationGate,
    message = gate.reason,
    readonly cause?: BackingError,
  ) {
    super(424, 'deployment_gate', message, { gate, hint: gate.remediation });
  }
}

export class RateLimitError extends ServiceError {
  constructor(retryAfter: number) {
    super(429, 'rate_limited', `Too many requests; retry after ${retryAfter} s`, { retryAfter });
  }
}

/** The failure body of every non-2xx answer. */
export interface ErrorBody {
  ok: false;
  error: { code: string; message: string; hint?: string; gate?: RemediationGate; field?: string };
}

/** Builds the error envelope of a ServiceError. */
export function errorBody(err: ServiceError): ErrorBody {
  const { hint, gate, field } = err.extra;
  return {
    ok: false,
    error: {
      code: err.code,
      message: err.message,
      ...(hint ? { hint } : {}),
      ...(gate ? { gate } : {}),
      ...(field ? { field } : {}),
    },
  };
}
