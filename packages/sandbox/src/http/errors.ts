/** An error a service answers with; each service turns it into its own real error body. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra fields some services put in the body (moreDetails, isRetriable, error_codes …). */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The common code for an HTTP status, used when a fault rule names none. */
export function defaultCode(status: number): string {
  const codes: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    409: 'Conflict',
    412: 'PreconditionFailed',
    413: 'RequestEntityTooLarge',
    429: 'TooManyRequests',
    500: 'InternalServerError',
    502: 'BadGateway',
    503: 'ServiceUnavailable',
    504: 'GatewayTimeout',
  };
  return codes[status] ?? `Http${status}`;
}

/** The usual reason text for a status. */
export function defaultMessage(status: number): string {
  const texts: Record<number, string> = {
    400: 'The request is invalid.',
    401: 'The caller is not authenticated.',
    403: 'The caller is not authorized to perform this action.',
    404: 'The requested resource was not found.',
    409: 'The request conflicts with the current state of the resource.',
    429: 'The request was throttled. Retry after the indicated time.',
    500: 'An internal error occurred.',
    502: 'The upstream service answered with an invalid response.',
    503: 'The service is temporarily unavailable. Retry later.',
    504: 'The service did not answer in time.',
  };
  return texts[status] ?? `HTTP ${status}`;
}
