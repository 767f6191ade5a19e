import { randomUUID } from 'node:crypto';
import { ServiceError } from '../http/errors.js';
import type { Reply, RequestContext } from '../http/context.js';

type Vars = Record<string, string | undefined>;

interface Entry {
  error: string;
  status: number;
  text: (v: Vars) => string;
  suberror?: string;
}

/** The AADSTS codes the sandbox produces, with Entra's OAuth error, status and wording. */
const CATALOG: Record<number, Entry> = {
  50076: {
    error: 'invalid_grant',
    status: 400,
    suberror: 'basic_action',
    text: (v) =>
      `Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '${v.resource ?? v.clientId}'.`,
  },
  700016: {
    error: 'unauthorized_client',
    status: 400,
    text: (v) =>
      `Application with identifier '${v.clientId}' was not found in the directory '${v.tenantName}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`,
  },
  7000215: {
    error: 'invalid_client',
    status: 401,
    text: (v) =>
      `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${v.clientId}'.`,
  },
  7000222: {
    error: 'invalid_client',
    status: 401,
    text: (v) =>
      `The provided client secret keys for app '${v.clientId}' are expired. Visit the Azure portal to create new keys for your app: https://aka.ms/NewClientSecret, or consider using certificate credentials for added security: https://aka.ms/certCreds.`,
  },
  7000218: {
    error: 'invalid_client',
    status: 401,
    text: () => `The request body must contain the following parameter: 'client_assertion' or 'client_secret'.`,
  },
  50105: {
    error: 'invalid_grant',
    status: 400,
    text: (v) =>
      `Your administrator has configured the application ${v.appName} ('${v.clientId}') to block users unless they are specifically granted ('assigned') access to the application. The signed in user '${v.user}' is blocked because they are not a direct member of a group with access, nor had access directly assigned by an administrator. Please contact your administrator to assign access to this application.`,
  },
  53003: {
    error: 'invalid_grant',
    status: 400,
    suberror: 'message_only',
    text: () => 'Access has been blocked by Conditional Access policies. The access policy does not allow token issuance.',
  },
  500011: {
    error: 'invalid_resource',
    status: 400,
    text: (v) =>
      `The resource principal named ${v.resource} was not found in the tenant named ${v.tenantName}. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`,
  },
  90002: {
    error: 'invalid_request',
    status: 400,
    text: (v) =>
      `Tenant '${v.tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`,
  },
  900144: { error: 'invalid_request', status: 400, text: (v) => `The request body must contain the following parameter: '${v.param}'.` },
  1002012: {
    error: 'invalid_scope',
    status: 400,
    text: (v) =>
      `The provided value for scope ${v.scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
  },
  70011: {
    error: 'invalid_scope',
    status: 400,
    text: (v) =>
      `The provided request must include a 'scope' input parameter. The provided value for the input parameter 'scope' is not valid. The scope ${v.scope ?? ''} is not valid.`,
  },
  70003: { error: 'unsupported_grant_type', status: 400, text: (v) => `The app requested an unsupported grant type '${v.grantType}'.` },
  70008: {
    error: 'invalid_grant',
    status: 400,
    text: () =>
      'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
  },
  700082: {
    error: 'invalid_grant',
    status: 400,
    text: () => 'The refresh token has expired due to inactivity. The token was issued on a date and was inactive for 90 days.',
  },
  54005: {
    error: 'invalid_grant',
    status: 400,
    text: () => 'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
  },
  501481: {
    error: 'invalid_grant',
    status: 400,
    text: () => 'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
  },
  50011: {
    error: 'invalid_request',
    status: 400,
    text: (v) =>
      `The redirect URI '${v.redirectUri}' specified in the request does not match the redirect URIs configured for the application '${v.clientId}'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal.`,
  },
  9002313: { error: 'invalid_request', status: 400, text: () => 'Invalid request. Request is malformed or invalid.' },
  70000: {
    error: 'invalid_grant',
    status: 400,
    text: () =>
      'The request was denied because one or more scopes requested are unauthorized or expired. The user must first sign in and grant the client application access to the requested scope.',
  },
  700024: { error: 'invalid_client', status: 400, text: () => 'Client assertion is not within its valid time range.' },
  50058: { error: 'interaction_required', status: 400, text: () => 'A silent sign-in request was sent but no user is signed in.' },
  7000112: { error: 'unauthorized_client', status: 400, text: (v) => `Application '${v.clientId}'(${v.appName}) is disabled.` },
};

/** An Entra error as a ServiceError (code 'AADSTS<n>'). */
export function entraError(code: number, vars: Vars = {}): ServiceError {
  const e = CATALOG[code];
  if (!e)
    return new ServiceError(400, `AADSTS${code}`, `AADSTS${code}: The request failed.`, { error: 'invalid_request', error_codes: [code] });
  return new ServiceError(e.status, `AADSTS${code}`, `AADSTS${code}: ${e.text(vars)}`, {
    error: e.error,
    error_codes: [code],
    ...(e.suberror ? { suberror: e.suberror } : {}),
  });
}

/** Parses 'AADSTS53003' or 53003. */
export function aadstsNumber(code: unknown): number | undefined {
  const m = /^(?:AADSTS)?(\d{5,8})$/i.exec(String(code ?? ''));
  return m ? Number(m[1]) : undefined;
}

function oauthErrorFor(status: number): string {
  if (status === 401) return 'invalid_client';
  if (status === 403) return 'unauthorized_client';
  if (status === 429 || status >= 500) return 'temporarily_unavailable';
  return 'invalid_request';
}

/** Entra's error body: {error, error_description, error_codes, timestamp, trace_id, correlation_id, error_uri}. */
export function entraErrorReply(err: ServiceError, ctx: RequestContext): Reply {
  const num = aadstsNumber(err.code);
  let e = err;
  // A fault rule naming an AADSTS code answers that code's real error.
  if (num && err.extra.error === undefined && CATALOG[num]) {
    const base = entraError(num);
    e = new ServiceError(err.status, base.code, err.message.startsWith('AADSTS') ? err.message : base.message, base.extra, err.headers);
  }
  const traceId = randomUUID();
  const correlationId = ctx.header('client-request-id') ?? randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  const codes = (e.extra.error_codes as number[] | undefined) ?? (num ? [num] : []);
  const message = /^AADSTS\d+/.test(e.message) ? e.message : `${codes[0] ? `AADSTS${codes[0]}: ` : ''}${e.message}`;
  const body: Record<string, unknown> = {
    error: (e.extra.error as string | undefined) ?? (/^[a-z_]+$/.test(e.code) ? e.code : oauthErrorFor(e.status)),
    error_description: `${message}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`,
    error_codes: codes,
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    ...(codes[0] ? { error_uri: `${new URL(ctx.url).origin}/error?code=${codes[0]}` } : {}),
    ...(e.extra.suberror ? { suberror: e.extra.suberror } : {}),
  };
  return {
    status: e.status,
    body,
    headers: { 'cache-control': 'no-store, no-cache', pragma: 'no-cache', 'x-ms-request-id': traceId, ...e.headers },
  };
}
