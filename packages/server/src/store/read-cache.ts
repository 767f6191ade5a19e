import type { TableVersions, WatchedTable } from './table-versions.js';

/** Where the watched tables stood when a read began; a value read after it is kept only if they still stand there. */
export interface ReadTicket {
  readonly stamp: number;
  readonly settled: boolean;
}

/**
 * Values of hot reads (a listing's serialized answer, a caller's workspace role), kept until a committed write to one of
 * their tables (in this process or, through the store's change feed, in any other) or their time-to-live ends. A value
 * read while this process holds an uncommitted write to those tables, or while one commits, is served but not kept.
 * Keys must carry everything the read depends on, the caller's tenant first.
 */
export class ReadCache<T = string> {
  private readonly entries = new Map<string, { stamp: number; value: T; expires: number }>();

  constructor(
    private readonly versions: TableVersions,
    private readonly tables: readonly WatchedTable[],
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
  ) {}

  // Versions only grow, so their sum moves whenever one of them does.
  private stamp(): number {
    let sum = 0;
    for (const t of this.tables) sum += this.versions.version(t);
    return sum;
  }

  private settled(): boolean {
    return this.tables.every((t) => this.versions.settled(t));
  }

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.stamp === this.stamp() && hit.expires > Date.now()) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Marks the start of a read whose values `keep` may store. */
  begin(): ReadTicket {
    return { stamp: this.stamp(), settled: this.settled() };
  }

  /** Stores a value read since `ticket` when nothing it depends on moved meanwhile (else it is only served). */
  keep(ticket: ReadTicket, key: string, value: T): void {
    if (this.ttlMs <= 0 || !ticket.settled || !this.settled() || ticket.stamp !== this.stamp()) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { stamp: ticket.stamp, value, expires: Date.now() + this.ttlMs });
  }

  /** Computes the value and keeps it when nothing it depends on moved while it was read. */
  async fill(key: string, compute: () => Promise<T>): Promise<T> {
    const ticket = this.begin();
    const value = await compute();
    this.keep(ticket, key, value);
    return value;
  }
}
