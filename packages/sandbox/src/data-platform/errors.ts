import { ServiceError } from '../http/errors.js';
import type { Reply, RequestContext } from '../http/context.js';

/** A data-platform error (ErrorResponse: errorCode, message, requestId, moreDetails?, relatedResource?, isRetriable?). */
export function fabricError(
  status: number,
  errorCode: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string | number> = {},
): ServiceError {
  return new ServiceError(status, errorCode, message, extra, headers);
}

export const invalidJson = (detail: string) => fabricError(400, 'InvalidRequest', detail);

/** An input error naming the field, as Fabric words validation failures. */
export function invalidInput(field: string, message: string): ServiceError {
  return fabricError(400, 'InvalidInput', 'The request has an invalid input', {
    moreDetails: [{ errorCode: 'InvalidParameter', message: `${field}: ${message}` }],
  });
}

export function itemNotFound(): ServiceError {
  return fabricError(404, 'ItemNotFound', 'The requested item was not found');
}

const FAULT_CODES: Record<number, string> = {
  400: 'InvalidRequest',
  401: 'Unauthorized',
  403: 'InsufficientPrivileges',
  404: 'EntityNotFound',
  409: 'Conflict',
  429: 'RequestBlocked',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

export function fabricFaultCode(status: number): string {
  return FAULT_CODES[status] ?? `Http${status}`;
}

/** The ErrorResponse body with the code also in `x-ms-public-api-error-code`. */
export function fabricErrorReply(err: ServiceError, ctx: RequestContext): Reply {
  const retriable = err.status === 429 || err.status >= 500;
  const body: Record<string, unknown> = {
    requestId: ctx.requestId,
    errorCode: err.code,
    message: err.message,
    ...(retriable ? { isRetriable: true } : {}),
    ...err.extra,
  };
  const headers: Record<string, string | number> = { 'x-ms-public-api-error-code': err.code, ...err.headers };
  if (err.status === 401)
    headers['www-authenticate'] =
      'Bearer authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", error="invalid_token"';
  return { status: err.status, body, headers };
}
