import type { RequestLogEntry, ServiceName } from '../types.js';

const MAX_ENTRIES = 100_000;

/** Requests being answered now per service, and the most at once since the log was last cleared. */
export type InFlight = Partial<Record<ServiceName, { now: number; peak: number }>>;

/** Every request each emulator answered: what benchmarks and tests read. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  private open = new Set<RequestLogEntry>();
  private counts: InFlight = {};

  begin(service: ServiceName, method: string, path: string): RequestLogEntry {
    const entry = { seq: ++this.seq, service, method, path, status: 0, durationMs: 0, startedAt: new Date().toISOString() };
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
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  /** Entries in order; `since` is a sequence number (exclusive) or an ISO time (inclusive). */
  list(filter: { service?: string; since?: string | number } = {}): RequestLogEntry[] {
    let out = this.entries;
    if (filter.service) out = out.filter((e) => e.service === filter.service);
    if (filter.since !== undefined && filter.since !== '') {
      const n = Number(filter.since);
      if (Number.isFinite(n)) out = out.filter((e) => e.seq > n);
      else {
        const t = Date.parse(String(filter.since));
        if (Number.isFinite(t)) out = out.filter((e) => Date.parse(e.startedAt) >= t);
      }
    }
    return out.map((e) => ({ ...e }));
  }

  /** Requests in flight per service now and at most at once (a caller's concurrency, as the service saw it). */
  inFlight(): InFlight {
    return Object.fromEntries(Object.entries(this.counts).map(([s, c]) => [s, { ...c }]));
  }

  /** Forgets the entries; the peaks start again from what is in flight now. */
  clear(): void {
    this.entries = [];
    for (const c of Object.values(this.counts)) c.peak = c.now;
  }
}
