import { Agent, request } from 'undici';
import { hostAllowed, type CloudProfile } from '../cloud/profiles.js';
import type { TokenSource } from './credential.js';
import { Semaphore } from '../semaphore.js';
import { pauseForRequests } from '../background.js';
import { startBackingCall } from '../tracing/backing-call.js';
import { AdaptiveLimiters, retryAfterMs, throttled } from './adaptive-limiter.js';
import { checkSharedAccess } from './shared-access.js';

export type BackingService = 'data-platform' | 'arm' | 'kql' | 'search' | 'sql' | 'reporting' | 'identity' | 'storage' | 'synapse';

/** A backing call that did not succeed: its status, the service's error code, and its body text unmodified. */
export class BackingError extends Error {
  constructor(
    readonly service: BackingService,
    readonly status: number,
    readonly body: string,
    readonly code: string | undefined,
    readonly transport?: string,
  ) {
    super(body || transport || `HTTP ${status}`);
    this.name = 'BackingError';
  }
}

/** The service's token would have gone to a host outside the cloud's allowed suffixes: refused before sending. */
export class HostNotAllowedError extends BackingError {
  constructor(
    service: BackingService,
    readonly host: string,
  ) {
    super(
      service,
      0,
      '',
      'host_not_allowed',
      `Refused to send the service's token to ${host}: not under the selected cloud's allowed DNS suffixes`,
    );
    this.message = this.transport!;
  }
}

/** A backing service redirected to another origin: not followed, so the token stays with the host it was meant for. */
export class RedirectRefusedError extends BackingError {
  constructor(
    service: BackingService,
    status: number,
    readonly host: string,
  ) {
    super(
      service,
      status,
      '',
      'redirect_refused',
      `The ${service} service answered ${status} toward ${host}, another host: not followed, the service's token is sent only to the host it was issued for`,
    );
    this.message = this.transport!;
  }
}

/** A value that would have changed the path's shape (empty, '.' or '..'): refused before anything is sent. */
export class UnsafePathError extends Error {
  readonly code = 'unsafe_path';
  constructor(value: string) {
    super(`Refused to build a backing path with the segment '${value.slice(0, 80)}'`);
    this.name = 'UnsafePathError';
  }
}

/**
 * A backing path from a template: every interpolated value is one whole segment, percent-encoded, so an identifier
 * can never add a segment, a query or a fragment; an empty, '.' or '..' value is refused. Every client builds its
 * paths with it, and send() refuses a URL with a dot segment, so an identifier cannot redirect the service's token.
 */
export function backingPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const text = String(v);
    if (text === '' || text === '.' || text === '..') throw new UnsafePathError(text);
    out += encodeURIComponent(text) + strings[i + 1]!;
  });
  return out;
}

/** True when a URL's path has a '.' or '..' segment (plain or percent-encoded), which a URL parser would resolve away. */
function hasDotSegment(url: string): boolean {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0]!;
  return path.split('/').some((seg) => /^(?:\.|%2e){1,2}$/i.test(seg));
}

export interface BackingRequest {
  service: BackingService;
  method: string;
  url: string;
  /** Token audience; absent for calls that carry their own credentials. */
  audience?: string;
  json?: unknown;
  body?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Statuses that are answers, not failures (for example 404 when looking something up). */
  accept?: number[];
}

/** An answer's headers, read by name (case-insensitive); a header sent more than once reads as its values joined by ", ". */
export interface AnswerHeaders {
  get(name: string): string | null;
}

/** The headers undici's `request` answers (lower-case names, a list for a repeated header), read as `Headers` reads them. */
class ReceivedHeaders implements AnswerHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
}

/**
 * The connections of every backing call: keep-alive per origin, as the global `fetch`'s were. Calls go through undici's
 * `request` rather than `fetch`: the same client without the WHATWG streams and objects around it, a quarter of fetch's
 * CPU a call (bench/scale makes thousands a minute).
 */
const connections = new Agent({ keepAliveTimeout: 10_000 });

export interface BackingResponse {
  status: number;
  headers: AnswerHeaders;
  text: string;
  /** The body's bytes as received (files such as exported reports are not text). */
  bytes: Uint8Array;
  json<T = any>(): T;
}

const TRANSIENT_STATUS = new Set([429, 502, 503, 504]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'timeout']);

/** Whether an answer (or a call that got none, status 0, by its code) is transient: retried once here, classified so in failures.ts. */
export function transientFailure(status: number, code?: string): boolean {
  return status === 0 ? TRANSIENT_CODES.has(code ?? '') : TRANSIENT_STATUS.has(status);
}

/** Reads the error code of any backing service's error body (data platform, ARM, Kusto, Search, Entra, reporting). */
function errorCodeOf(text: string, headers?: AnswerHeaders): string | undefined {
  const header = headers?.get('x-ms-public-api-error-code') ?? undefined;
  try {
    const body = JSON.parse(text);
    if (typeof body?.errorCode === 'string') return body.errorCode;
    if (typeof body?.error === 'string') return body.error;
    if (typeof body?.error?.code === 'string' && body.error.code) return body.error.code;
  } catch {
    /* not JSON */
  }
  return header;
}

export interface PipelineOptions {
  timeoutMs: number;
  retryDelayMs: number;
  /** The longest Retry-After the one retry waits for (ms, default 10 s); a longer one is cut to this. */
  retryAfterMaxMs?: number;
  concurrencyPerService: number;
  /** 'adaptive' (default): a 429 pauses the service's other callers and sets a learned pace (adaptive-limiter.ts); 'off': each call alone. */
  throttleLimiter?: 'adaptive' | 'off';
  /** The longest Retry-After the limiter holds a service's callers for (ms, default 60 s). */
  throttlePauseMaxMs?: number;
  /** Told of every 401/403 and identity-provider refusal (identity signals), never with a token. */
  onAuthFailure?: (f: { service: BackingService; status: number; code?: string; url: string; principal: string }) => void;
  onCall?: (service: BackingService, status: number, ms: number) => void;
}

/**
 * The one HTTP pipeline for every backing call: host check, token, timeout, at most `concurrencyPerService` calls in
 * flight per backing service, one retry on transient failure after 1.5 s or the answer's Retry-After (up to a bound),
 * and a limiter per service, host and identity that learns from 429s how fast the service lets this process call.
 */
export class BackingPipeline {
  constructor(
    readonly profile: CloudProfile,
    readonly credential: TokenSource,
    readonly options: PipelineOptions,
    private readonly limits = new Map<BackingService, Semaphore>(),
    private readonly pause?: () => Promise<void>,
    private readonly throttles = new AdaptiveLimiters(
      options.throttleLimiter !== 'off',
      options.throttlePauseMaxMs ?? 60_000,
      options.retryDelayMs,
    ),
  ) {}

  /**
   * The same pipeline (the same per-service limits) for background work: before each call and after each answer it
   * waits its turn of the event loop (background.ts), so requests to the service are served between its steps.
   */
  background(): BackingPipeline {
    return new BackingPipeline(this.profile, this.credential, this.options, this.limits, pauseForRequests, this.throttles);
  }

  /**
   * The same pipeline (the same per-service limits) acting as another identity: a probe's calls as an identity it
   * was given wait their turn behind the installs' calls like any other call of the process.
   */
  as(credential: TokenSource, onAuthFailure = this.options.onAuthFailure): BackingPipeline {
    return new BackingPipeline(this.profile, credential, { ...this.options, onAuthFailure }, this.limits, this.pause, this.throttles);
  }

  /** The same pipeline (the same per-service limits) that also sends its token to these hosts (outside the cloud's suffixes). */
  trusting(hosts: string[]): BackingPipeline {
    const profile = { ...this.profile, allowedSuffixes: [...this.profile.allowedSuffixes, ...hosts] };
    return new BackingPipeline(profile, this.credential, this.options, this.limits, this.pause, this.throttles);
  }

  /** Sends the request; resolves with 2xx (or accepted) answers and throws BackingError otherwise. */
  async send(req: BackingRequest): Promise<BackingResponse> {
    checkSharedAccess(req);
    const first = await this.attempt(req);
    if (!this.transient(first)) return this.settle(req, first);
    await new Promise((r) => setTimeout(r, this.retryDelay(first)));
    return this.settle(req, await this.attempt(req));
  }

  /** The backoff before the one retry: the answer's Retry-After when it asks for longer, never over the bound. */
  retryDelay(r: BackingResponse | BackingError): number {
    const asked = r instanceof BackingError ? undefined : retryAfterMs(r.headers.get('retry-after'));
    if (asked === undefined) return this.options.retryDelayMs;
    return Math.max(this.options.retryDelayMs, Math.min(asked, this.options.retryAfterMaxMs ?? 10_000));
  }

  private transient(r: BackingResponse | BackingError): boolean {
    if (r instanceof HostNotAllowedError) return false;
    return r instanceof BackingError ? transientFailure(r.status, r.code) : TRANSIENT_STATUS.has(r.status);
  }

  private settle(req: BackingRequest, r: BackingResponse | BackingError): BackingResponse {
    if (r instanceof BackingError) throw r;
    if ((r.status >= 200 && r.status < 300) || req.accept?.includes(r.status)) return r;
    const code = errorCodeOf(r.text, r.headers);
    if (r.status === 401 || r.status === 403) {
      this.options.onAuthFailure?.({ service: req.service, status: r.status, code, url: req.url, principal: this.credential.principal });
    }
    throw new BackingError(req.service, r.status, r.text, code);
  }

  private limit(service: BackingService): Semaphore {
    let s = this.limits.get(service);
    if (!s) this.limits.set(service, (s = new Semaphore(this.options.concurrencyPerService)));
    return s;
  }

  private async attempt(req: BackingRequest, redirects = 0): Promise<BackingResponse | BackingError> {
    await this.pause?.();
    if (hasDotSegment(req.url)) throw new UnsafePathError(req.url);
    const host = new URL(req.url).host;
    if (req.audience && !hostAllowed(this.profile, req.url)) return new HostNotAllowedError(req.service, host);
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    if (req.audience) {
      try {
        headers.authorization = `Bearer ${await this.credential.getToken(req.audience)}`;
      } catch (err) {
        const e = err as Error;
        this.options.onAuthFailure?.({
          service: 'identity',
          status: 0,
          code: /AADSTS\d+/.exec(e.message)?.[0],
          url: req.url,
          principal: this.credential.principal,
        });
        return new BackingError('identity', 0, e.message, /AADSTS\d+/.exec(e.message)?.[0] ?? 'token_unavailable', e.message);
      }
    }
    let body: string | Uint8Array | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.contentType) headers['content-type'] = req.contentType;
    const throttle = this.throttles.of(req.service, host, this.credential.principal);
    const slots = throttled(throttle, this.limit(req.service));
    const started = Date.now();
    const call = startBackingCall(req.service, req.method, req.url, headers);
    const answer = await slots.run(async (): Promise<BackingResponse | BackingError | { redirectTo: string }> => {
      const sentAt = Date.now();
      try {
        const res = await request(req.url, {
          method: req.method,
          headers,
          body,
          dispatcher: connections,
          signal: AbortSignal.timeout(req.timeoutMs ?? this.options.timeoutMs),
        });
        const bytes = new Uint8Array(await res.body.arrayBuffer());
        const text = new TextDecoder().decode(bytes);
        const answerHeaders = new ReceivedHeaders(res.headers);
        this.options.onCall?.(req.service, res.statusCode, Date.now() - started);
        throttle?.settle(sentAt, res.statusCode, answerHeaders.get('retry-after'));
        const location = answerHeaders.get('location');
        if (res.statusCode >= 300 && res.statusCode < 400 && location && [301, 302, 307, 308].includes(res.statusCode) && redirects < 3) {
          // Followed only to the same origin: another host, even one under an allowed suffix (anyone's storage
          // account is), never receives the token; the redirect is reported unfollowed instead.
          const next = new URL(location, req.url);
          if (next.origin !== new URL(req.url).origin) return new RedirectRefusedError(req.service, res.statusCode, next.host);
          return { redirectTo: next.toString() };
        }
        return { status: res.statusCode, headers: answerHeaders, text, bytes, json: () => JSON.parse(text) };
      } catch (err) {
        const e = err as Error & { code?: string; cause?: { code?: string } };
        const code = e.name === 'TimeoutError' || e.name === 'AbortError' ? 'timeout' : (e.cause?.code ?? e.code ?? 'network_error');
        this.options.onCall?.(req.service, 0, Date.now() - started);
        return new BackingError(
          req.service,
          0,
          '',
          code,
          `${req.method} ${host}: ${code === 'timeout' ? `no answer within ${req.timeoutMs ?? this.options.timeoutMs} ms` : (e.cause?.code ?? e.code ?? e.message)}`,
        );
      }
    });
    call.end(answer);
    await this.pause?.();
    // The redirect is followed after this call's slot is given back: waiting for a second slot while holding one
    // would deadlock once every slot of the service is held by a redirected call.
    if ('redirectTo' in answer) return this.attempt({ ...req, url: answer.redirectTo }, redirects + 1);
    return answer;
  }
}
