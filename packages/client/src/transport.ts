import createFetchClient, { type Client as FetchClient } from 'openapi-fetch';
import { errorFromResponse, SvcConnectionError, SvcError, SvcProtocolError, SvcTimeoutError } from './errors.js';
import type { paths } from './generated/openapi.js';
import type { Page, SvcClientOptions } from './types.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const envBaseUrl = () => (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SVC_BASE_URL || undefined;
/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What openapi-fetch answers for one request. */
export type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * The one HTTP path of every API area: openapi-fetch with the token or the session's cookie and CSRF token, a timeout
 * per request, and typed errors for network failures, timeouts and error envelopes.
 */
export class Transport {
  readonly api: FetchClient<paths>;
  readonly baseUrl: string;
  csrfToken?: string;
  cookie?: string;
  readonly timeoutMs: number;

  constructor(options: SvcClientOptions = {}) {
    const inBrowser = typeof window !== 'undefined' && typeof window.location !== 'undefined';
    const baseUrl = options.baseUrl ?? envBaseUrl() ?? (inBrowser ? window.location.origin : undefined);
    if (!baseUrl) throw new SvcError('No deployment address: pass baseUrl or set SVC_BASE_URL');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.csrfToken = options.csrfToken;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    this.cookie = options.cookie;
    this.api = createFetchClient<paths>({
      baseUrl: this.baseUrl,
      headers,
      fetch: options.fetch,
      credentials: options.credentials ?? (options.token ? 'same-origin' : 'include'),
    });
    this.api.use({
      onRequest: ({ request }) => {
        if (this.cookie && !request.headers.has('cookie')) request.headers.set('cookie', this.cookie);
        if (!SAFE.has(request.method) && this.csrfToken && !request.headers.has('authorization'))
          request.headers.set('x-csrf-token', this.csrfToken);
        return request;
      },
    });
  }

  /** Runs one call: network failures, timeouts and error envelopes throw; a success body must be `{ok: true}`. */
  async run<T>(
    operationId: string,
    send: (init: { signal: AbortSignal }) => Promise<Answer>,
    pick: (body: Record<string, unknown>, response: Response) => T,
    expect: 'envelope' | 'object' | 'text' = 'envelope',
  ): Promise<T> {
    let answer: Answer;
    try {
      answer = await send({ signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new SvcTimeoutError(`${operationId}: timed out after ${this.timeoutMs} ms`, undefined, { cause: err });
      throw new SvcConnectionError(`${operationId}: cannot reach ${this.baseUrl}: ${(err as Error)?.message ?? err}`, { cause: err });
    }
    const { response } = answer;
    if (!response.ok) throw errorFromResponse(response, answer.error);
    if (expect === 'text') {
      if (typeof answer.data !== 'string') throw new SvcProtocolError(`${operationId}: the answer is not text`);
      return answer.data as T;
    }
    const body = answer.data as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || (expect === 'envelope' && body.ok !== true))
      throw new SvcProtocolError(`${operationId}: the answer is not a success envelope`);
    return pick(body, response);
  }

  /** Every entry of a paged list, page after page. */
  async *pages<T>(list: (cursor?: string) => Promise<Page<T>>): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      yield* page;
      cursor = page.nextCursor;
    } while (cursor);
  }
}

/** The value of `key`, which must be present. */
export function key<T>(key: string) {
  return (body: Record<string, unknown>): T => {
    if (body[key] === undefined || body[key] === null) throw new SvcProtocolError(`the answer has no '${key}'`);
    return body[key] as T;
  };
}

/** The success body without `ok`. */
export function rest<T>(body: Record<string, unknown>): T {
  const { ok: _ok, ...rest } = body;
  return rest as T;
}

/** The list under `key` as a page, with the answer's `nextCursor`. */
export function page<T>(key: string) {
  return (body: Record<string, unknown>): Page<T> => {
    const list = body[key];
    if (!Array.isArray(list)) throw new SvcProtocolError(`the answer has no list '${key}'`);
    return Object.assign([...list] as T[], body.nextCursor ? { nextCursor: body.nextCursor as string } : {});
  };
}

/** The query of a call: the options that are set, as strings. */
export function query(o?: object): Record<string, string> | undefined {
  if (!o) return undefined;
  return Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}
