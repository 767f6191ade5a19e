/** Base of every error the client throws; a refused call never resolves to an empty result. */
export class SvcError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The deployment could not be reached. */
export class SvcConnectionError extends SvcError {}

/** A request, or a wait for an install job, took longer than allowed. */
export class SvcTimeoutError extends SvcError {
  constructor(
    message: string,
    readonly last?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A success status whose body is not the service's success envelope. */
export class SvcProtocolError extends SvcError {}

/** The remediation gate of a 424: the setting an admin must fix. */
export interface RemediationGate {
  reason: string;
  remediation: string;
  link: string;
}

interface ErrorFields {
  status: number;
  code: string;
  message: string;
  hint?: string;
  field?: string;
  gate?: RemediationGate;
  requestId?: string;
  retryAfter?: number;
  body?: unknown;
}

/** The service answered with `{ok: false, error: {code, message, hint?, field?, gate?}}`. */
export class SvcApiError extends SvcError {
  readonly status: number;
  readonly code: string;
  readonly hint?: string;
  readonly field?: string;
  readonly requestId?: string;
  readonly body?: unknown;

  constructor(f: ErrorFields) {
    super(`${f.status} ${f.code}: ${f.message}${f.hint ? ` (hint: ${f.hint})` : ''}`);
    this.status = f.status;
    this.code = f.code;
    this.hint = f.hint;
    this.field = f.field;
    this.requestId = f.requestId;
    this.body = f.body;
  }
}

/** 400: invalid input; `field` names it. */
export class SvcBadRequestError extends SvcApiError {}
/** 401: no credentials, or a token or session that is not valid. */
export class SvcAuthenticationError extends SvcApiError {}
/** 403: a missing scope, or a cookie session's change without X-CSRF-Token. */
export class SvcForbiddenError extends SvcApiError {}
/** 404: unknown id, or one of another tenant. */
export class SvcNotFoundError extends SvcApiError {}
/** 409: conflicts with existing state. */
export class SvcConflictError extends SvcApiError {}
/** 5xx: the service failed; `requestId` identifies the request in its logs. */
export class SvcServerError extends SvcApiError {}

/** 424: a deployment gate; `reason`, `remediation` and `link` say what to set. */
export class SvcGateError extends SvcApiError {
  readonly reason?: string;
  readonly remediation?: string;
  readonly link?: string;

  constructor(f: ErrorFields) {
    super({ ...f, hint: f.hint ?? f.gate?.remediation });
    this.reason = f.gate?.reason;
    this.remediation = f.gate?.remediation ?? f.hint;
    this.link = f.gate?.link;
  }
}

/** 429: rate limited; `retryAfter` is the wait in seconds the service asked for. */
export class SvcRateLimitError extends SvcApiError {
  readonly retryAfter?: number;

  constructor(f: ErrorFields) {
    super(f);
    this.retryAfter = f.retryAfter;
  }
}

const BY_STATUS: Record<number, new (f: ErrorFields) => SvcApiError> = {
  400: SvcBadRequestError,
  401: SvcAuthenticationError,
  403: SvcForbiddenError,
  404: SvcNotFoundError,
  409: SvcConflictError,
  424: SvcGateError,
  429: SvcRateLimitError,
};

/** The typed error of a non-2xx answer, read from its envelope. */
export function errorFromResponse(response: Response, body: unknown): SvcApiError {
  const envelope = body && typeof body === 'object' ? (body as { error?: Record<string, unknown> }).error : undefined;
  const error = envelope && typeof envelope === 'object' ? envelope : {};
  const status = response.status;
  const retry = Number(response.headers.get('retry-after'));
  const Cls = BY_STATUS[status] ?? (status >= 500 ? SvcServerError : SvcApiError);
  return new Cls({
    status,
    code: typeof error.code === 'string' ? error.code : `http_${status}`,
    message:
      typeof error.message === 'string' ? error.message : typeof body === 'string' && body ? body : response.statusText || 'request failed',
    hint: typeof error.hint === 'string' ? error.hint : undefined,
    field: typeof error.field === 'string' ? error.field : undefined,
    gate: error.gate && typeof error.gate === 'object' ? (error.gate as RemediationGate) : undefined,
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfter: Number.isFinite(retry) && retry > 0 ? retry : undefined,
    body,
  });
}
