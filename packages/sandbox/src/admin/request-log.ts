import type { RequestLogEntry, ServiceName } from '../types.js';

const MAX_ENTRIES = 100_000;

/** Every request each emulator answered: what benchmarks and tests read. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  begin(service: ServiceName, method: string, path: string): RequestLogEntry {
    return { seq: ++this.seq, service, method, path, status: 0, durationMs: 0, startedAt: new Date().toISOString() };
  }

  finish(entry: RequestLogEntry, status: number, started: number, identity?: string): void {
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

  clear(): void {
    this.entries = [];
  }
}
