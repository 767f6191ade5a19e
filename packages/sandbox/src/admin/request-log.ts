import type { LoggedBody, RequestLogEntry, ServiceName } from '../types.js';
import { redactHeaders, redactPath } from './redact.js';

const MAX_ENTRIES = 100_000;
/** Bytes of bodies and statements the log holds at most; past it the oldest entries lose theirs (they keep the rest). */
const BODY_BUDGET = 64 * 1024 * 1024;

/** What a request showed besides its method and path: where it went, its headers, its body, its statement. */
export interface RequestDetail {
  host?: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: LoggedBody;
  text?: string;
}

/** A W3C traceparent: version, trace id, parent span id, flags. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(?:-.*)?$/;

const weight = (e: RequestLogEntry) =>
  (e.body && !e.body.dropped ? Math.min(e.body.size, e.body.text?.length ?? e.body.size) : 0) + (e.text?.length ?? 0);

/** Requests being answered now per service, and the most at once since the log was last cleared. */
export type InFlight = Partial<Record<ServiceName, { now: number; peak: number }>>;

/** Every request each emulator answered: what benchmarks and tests read. */
/** Larger than any sequence number a sandbox reaches; Date.now() is far above it. */
export const SEQ_MAX = 1e11;
export const SINCE_HINT = (n: number) =>
  `'since' ${n} is not a sequence number of the request log (it looks like a time in milliseconds): pass a request's seq, or an ISO time`;

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  private open = new Set<RequestLogEntry>();
  private counts: InFlight = {};
  private bodyBytes = 0;
  /** Index of the oldest entry that may still hold a body. */
  private keptFrom = 0;

  /** Opens an entry; the path's secret query values and the headers' secrets are redacted here, once. */
  begin(service: ServiceName, method: string, path: string, detail: RequestDetail = {}): RequestLogEntry {
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      service,
      method,
      path: redactPath(path),
      status: 0,
      durationMs: 0,
      startedAt: new Date().toISOString(),
    };
    if (detail.host) entry.host = detail.host;
    if (detail.headers) {
      entry.headers = redactHeaders(detail.headers);
      const traceparent = entry.headers.traceparent?.trim();
      if (traceparent && TRACEPARENT.test(traceparent)) entry.traceparent = traceparent;
    }
    if (detail.body) entry.body = detail.body;
    if (detail.text !== undefined) entry.text = detail.text;
    const c = (this.counts[service] ??= { now: 0, peak: 0 });
    c.now++;
    c.peak = Math.max(c.peak, c.now);
    this.open.add(entry);
    return entry;
  }

  finish(entry: RequestLogEntry, status: number, started: number, identity?: string): void {
    if (this.open.delete(entry)) this.counts[entry.service]!.now--;
    entry.status = status;
    entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
    if (identity) entry.identity = identity;
    this.entries.push(entry);
    this.bodyBytes += weight(entry);
    if (this.entries.length > MAX_ENTRIES) {
      const gone = this.entries.splice(0, this.entries.length - MAX_ENTRIES);
      for (const e of gone) this.bodyBytes -= weight(e);
      this.keptFrom = Math.max(0, this.keptFrom - gone.length);
    }
    while (this.bodyBytes > BODY_BUDGET && this.keptFrom < this.entries.length) this.dropBody(this.entries[this.keptFrom++]!);
  }

  /** Adds what was learnt of a request after it began (its body once read). */
  detail(entry: RequestLogEntry, detail: Pick<RequestDetail, 'body' | 'text'>): void {
    if (detail.body) entry.body = detail.body;
    if (detail.text !== undefined) entry.text = detail.text;
  }

  private dropBody(e: RequestLogEntry): void {
    this.bodyBytes -= weight(e);
    if (e.body) e.body = { size: e.body.size, ...(e.body.type ? { type: e.body.type } : {}), dropped: true };
    if (e.text !== undefined) e.text = `${e.text.slice(0, 200)}…`;
    this.bodyBytes += weight(e);
  }

  /**
   * Entries in order; `since` is a sequence number (exclusive) or an ISO time (inclusive); `traceId` keeps the requests
   * whose traceparent names that trace; `limit` keeps the first that many.
   */
  list(filter: { service?: string; since?: string | number; traceId?: string; limit?: number } = {}): RequestLogEntry[] {
    let out = this.entries;
    if (filter.service) out = out.filter((e) => e.service === filter.service);
    if (filter.traceId) out = out.filter((e) => e.traceparent?.slice(3, 35) === filter.traceId);
    if (filter.since !== undefined && filter.since !== '') {
      const n = Number(filter.since);
      // A number is a sequence number; one as large as Date.now() is a mistake that would silently match nothing.
      if (Number.isFinite(n) && n > SEQ_MAX) throw new RangeError(SINCE_HINT(n));
      if (Number.isFinite(n)) out = out.filter((e) => e.seq > n);
      else {
        const t = Date.parse(String(filter.since));
        if (Number.isFinite(t)) out = out.filter((e) => Date.parse(e.startedAt) >= t);
      }
    }
    if (filter.limit !== undefined && filter.limit >= 0) out = out.slice(0, filter.limit);
    return out.map((e) => ({ ...e }));
  }

  /** Requests in flight per service now and at most at once (a caller's concurrency, as the service saw it). */
  inFlight(): InFlight {
    return Object.fromEntries(Object.entries(this.counts).map(([s, c]) => [s, { ...c }]));
  }

  /** Forgets the entries; the peaks start again from what is in flight now. */
  clear(): void {
    this.entries = [];
    this.bodyBytes = 0;
    this.keptFrom = 0;
    for (const c of Object.values(this.counts)) c.peak = c.now;
  }
}
