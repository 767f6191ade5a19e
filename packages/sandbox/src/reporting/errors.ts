import { ServiceError } from '../http/errors.js';
import type { Reply, RequestContext } from '../http/context.js';

/**
 * The reporting API's two error bodies: the `pbi.error` form (code only, no message) and the message form
 * (`{error:{code,message}}`). The form travels in `extra.form`; `extra.details` fills pbi.error's details.
 */
export function pbiError(
  status: number,
  code: string,
  details: Array<{ code: string; detail: string }> = [],
  headers: Record<string, string | number> = {},
): ServiceError {
  return new ServiceError(status, code, details.map((d) => `${d.code}: ${d.detail}`).join('; ') || code, { form: 'pbi', details }, headers);
}

export function messageError(status: number, code: string, message: string, headers: Record<string, string | number> = {}): ServiceError {
  return new ServiceError(status, code, message, { form: 'message' }, headers);
}

/** 400 InvalidRequest naming what is wrong. */
export const invalidRequest = (message: string) => messageError(400, 'InvalidRequest', message);

export const notFound = () => pbiError(404, 'PowerBIEntityNotFound');

const FAULT_CODES: Record<number, string> = {
  400: 'InvalidRequest',
  401: 'PowerBINotAuthorizedException',
  403: 'Forbidden',
  404: 'PowerBIEntityNotFound',
  409: 'Conflict',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

export function reportingFaultCode(status: number): string {
  return FAULT_CODES[status] ?? `Http${status}`;
}

/** The body of an error in its form, with the RequestId header (and WWW-Authenticate on 401). */
export function reportingErrorReply(err: ServiceError, ctx: RequestContext): Reply {
  const headers: Record<string, string | number> = { ...err.headers };
  if (err.status === 401)
    headers['www-authenticate'] =
      'Bearer authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", resource_id="https://analysis.windows.net/powerbi/api"';
  const pbiForm = err.extra.form === 'pbi' || (err.extra.form === undefined && /^PowerBI/.test(err.code));
  if (pbiForm) {
    const details = ((err.extra.details as Array<{ code: string; detail: string }> | undefined) ?? []).map((d) => ({
      code: d.code,
      detail: { type: 1, value: d.detail },
    }));
    return {
      status: err.status,
      headers,
      body: { error: { code: err.code, 'pbi.error': { code: err.code, parameters: {}, details, exceptionCulprit: 1 } } },
    };
  }
  void ctx;
  // The push dataset API's refusal of a malformed body: BadRequest with details naming the property and its target.
  if (err.extra.form === 'details')
    return { status: err.status, headers, body: { error: { code: err.code, message: err.message, details: err.extra.details } } };
  return { status: err.status, headers, body: { error: { code: err.code, message: err.message } } };
}
