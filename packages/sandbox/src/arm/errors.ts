import { randomUUID } from 'node:crypto';
import { ServiceError } from '../http/errors.js';
import type { Reply, RequestContext } from '../http/context.js';

/** An ARM error: {error:{code, message, target?, details?}}. */
export function armError(status: number, code: string, message: string, headers: Record<string, string | number> = {}): ServiceError {
  return new ServiceError(status, code, message, {}, headers);
}

export const badRequest = (message: string, code = 'BadRequest') => armError(400, code, message);

const FAULT_CODES: Record<number, string> = {
  400: 'BadRequest',
  401: 'AuthenticationFailed',
  403: 'AuthorizationFailed',
  404: 'ResourceNotFound',
  409: 'Conflict',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

export function armFaultCode(status: number): string {
  return FAULT_CODES[status] ?? `Http${status}`;
}

export function armErrorReply(err: ServiceError, _ctx: RequestContext): Reply {
  const headers: Record<string, string | number> = { ...err.headers };
  if (err.status === 401 || err.status === 403) headers['x-ms-failure-cause'] = 'gateway';
  // A resource provider whose description answers a bare {code, message} (action groups' ErrorResponse).
  if (err.extra.flat === true) return { status: err.status, body: { code: err.code, message: err.message }, headers };
  return { status: err.status, body: { error: { code: err.code, message: err.message, ...err.extra } }, headers };
}

export function armHeaders(ctx: RequestContext): Record<string, string> {
  return {
    'x-ms-request-id': ctx.requestId,
    'x-ms-correlation-request-id': ctx.header('x-ms-correlation-request-id') ?? ctx.requestId,
    'x-ms-routing-request-id': `EASTUS:${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}Z:${randomUUID()}`,
    'x-ms-ratelimit-remaining-subscription-reads': '11999',
    'x-ms-ratelimit-remaining-subscription-writes': '1199',
    'cache-control': 'no-cache',
  };
}
