/** The gate of a deployment or a remediation step: what an admin must fix, and where. */
export interface RemediationGate {
  reason: string;
  remediation: string;
  link: string;
}

/** A refused request: the service's error envelope as a thrown value. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint?: string;
  readonly field?: string;
  readonly gate?: RemediationGate;

  constructor(status: number, body: { code?: string; message?: string; hint?: string; field?: string; gate?: RemediationGate }) {
    super(body.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code ?? 'http_error';
    this.hint = body.hint;
    this.field = body.field;
    this.gate = body.gate;
  }
}

// The CSRF token of the console session: from sign-in, or from whoami after a reload.
let csrfToken: string | undefined;
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token;
};

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The session's CSRF header, for a change sent other than through api() (a rendered file is bytes, not JSON). */
export const csrfHeader = (): Record<string, string> => (csrfToken ? { 'x-csrf-token': csrfToken } : {});

// Told when a call answers 401 (the session expired or its token was revoked); query-client.ts sends the user to sign-in.
let unauthenticated: (() => void) | undefined;
/** Registers what happens when a call answers 401. */
export const onUnauthenticated = (fn: () => void) => {
  unauthenticated = fn;
};

/** True when the browser knows it has no network (navigator.onLine); a request then is never sent. */
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Calls the API with the session cookie; answers the success body or throws ApiError (never an empty stand-in). */
export async function api<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const h: Record<string, string> = { accept: 'application/json', ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) h['x-csrf-token'] = csrfToken;
  // Refused here rather than left to the browser: a change is never queued to be sent when the network returns.
  if (isOffline())
    throw new ApiError(0, {
      code: 'offline',
      message: 'You are offline: nothing was sent. Check the connection, then try again.',
    });
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (err) {
    throw new ApiError(0, { code: 'network_error', message: `The service could not be reached: ${(err as Error).message}` });
  }
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(res.status, { code: 'bad_response', message: `The service answered ${res.status} with a body that is not JSON` });
  }
  // Signing in with a wrong token is a 401 too, but not the end of a session.
  if (res.status === 401 && path !== '/api/session') unauthenticated?.();
  if (!res.ok || !json || json.ok !== true) throw new ApiError(res.status, json?.error ?? {});
  return json as T;
}

/** Reads every page of a cursor-paged list. */
export async function allPages<T>(path: string, key: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api<Record<string, unknown> & { nextCursor?: string }>(
      'GET',
      `${path}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    out.push(...(page[key] as T[]));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
