import { randomUUID } from 'node:crypto';
import { ServiceError } from '../http/errors.js';
import type { Reply, RequestContext } from '../http/context.js';

/** A Kusto error: the OneApiErrors code, the exception type and its detailed message. */
export function kustoError(status: number, code: string, type: string, detail: string, permanent = true): ServiceError {
  const message =
    status === 403
      ? 'Caller is not authorized to perform this action'
      : status === 401
        ? 'Caller is not authenticated'
        : status === 429
          ? 'Request was throttled'
          : 'Request is invalid and cannot be executed.';
  return new ServiceError(status, code, message, { '@type': type, '@message': detail, '@permanent': permanent });
}

export const badRequest = (detail: string, type = 'Kusto.Data.Exceptions.KustoBadRequestException') =>
  kustoError(400, 'General_BadRequest', type, detail);
export const syntaxError = (detail: string) =>
  kustoError(400, 'General_BadRequest', 'Kusto.Data.Exceptions.SyntaxException', `Syntax error: ${detail}`);
export const semanticError = (detail: string) =>
  kustoError(400, 'General_BadRequest', 'Kusto.Data.Exceptions.SemanticException', `Semantic error: ${detail}`);
export const entityNotFound = (name: string, kind: 'Database' | 'Table' | 'Function') =>
  kustoError(
    400,
    'BadRequest_EntityNotFound',
    'Kusto.Data.Exceptions.EntityNotFoundException',
    `Entity ID '${name}' of kind '${kind}' was not found.`,
  );

const FAULT_TYPES: Record<number, [string, string]> = {
  400: ['General_BadRequest', 'Kusto.Data.Exceptions.KustoBadRequestException'],
  401: ['Unauthorized', 'Kusto.Data.Exceptions.KustoClientAuthenticationException'],
  403: ['Forbidden', 'Kusto.DataNode.Exceptions.UnauthorizedDatabaseAccessException'],
  404: ['NotFound', 'Kusto.Data.Exceptions.EntityNotFoundException'],
  429: ['TooManyRequests', 'Kusto.DataNode.Exceptions.ControlCommandThrottledException'],
  500: ['Internal_Error', 'Kusto.Common.Svc.Exceptions.InternalServiceErrorException'],
  503: ['ServiceUnavailable', 'Kusto.Common.Svc.Exceptions.ServiceUnavailableException'],
  504: ['Timeout', 'Kusto.Data.Exceptions.KustoRequestTimeoutException'],
};

export function kustoFaultCode(status: number): string {
  return FAULT_TYPES[status]?.[0] ?? 'ServiceError';
}

/** The OneApiErrors body: {error:{code, message, @type, @message, @context, @permanent}}. */
export function kustoErrorReply(err: ServiceError, ctx: RequestContext): Reply {
  const activityId = activityIdOf(ctx);
  const type = (err.extra['@type'] as string | undefined) ?? FAULT_TYPES[err.status]?.[1] ?? 'Kusto.Data.Exceptions.KustoServiceException';
  const body = {
    error: {
      code: err.code,
      message: err.message,
      '@type': type,
      '@message': (err.extra['@message'] as string | undefined) ?? err.message,
      '@context': {
        timestamp: new Date().toISOString(),
        serviceAlias: 'SANDBOXKQL',
        machineName: 'KEngine000000',
        processName: 'Kusto.WinSvc.Svc',
        processId: process.pid,
        threadId: 1,
        clientRequestId: clientRequestIdOf(ctx),
        activityId,
        subActivityId: activityId,
        activityType: 'DN.FE.ExecuteQuery',
        parentActivityId: activityId,
        activityStack: `(Activity stack: CRID=${clientRequestIdOf(ctx)} ARID=${activityId})`,
      },
      '@permanent': (err.extra['@permanent'] as boolean | undefined) ?? !(err.status === 429 || err.status >= 500),
    },
  };
  return { status: err.status, body, headers: { ...err.headers } };
}

const ids = new WeakMap<RequestContext, string>();

/** The activity id of a request (x-ms-activity-id). */
export function activityIdOf(ctx: RequestContext): string {
  let id = ids.get(ctx);
  if (!id) ids.set(ctx, (id = randomUUID()));
  return id;
}

const clientIds = new WeakMap<RequestContext, string>();

/** The request's x-ms-client-request-id, or one the cluster makes up when the client sent none (never empty). */
export function clientRequestIdOf(ctx: RequestContext): string {
  const sent = ctx.header('x-ms-client-request-id')?.trim();
  if (sent) return sent;
  let id = clientIds.get(ctx);
  if (!id) clientIds.set(ctx, (id = randomUUID()));
  return id;
}
