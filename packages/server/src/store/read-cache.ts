import type { TableVersions, WatchedTable } from './table-versions.js';

/**
 * Serialized answers of hot reads, kept until a committed write to one of their tables (in this process
 * or, through the store's change feed, in any other) or their time-to-live ends. A value read while
 * this process holds an uncommitted write to those tables, or while one commits, is served but not kept.
 * Keys must carry everything the read depends on, the caller's tenant first.
 */
export class ReadCache {
  private readonly entries = new Map<string, { stamp: string; body: string; expires: number }>();

  constructor(
    private readonly versions: TableVersions,
    private readonly tables: readonly WatchedTable[],
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
  ) {}

  private stamp(): string {
    return this.tables.map((t) => this.versions.version(t)).join('.');
  }

  private settled(): boolean {
    return this.tables.every((t) => this.versions.settled(t));
  }

  get(key: string): string | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.stamp === this.stamp() && hit.expires > Date.now()) return hit.body;
    this.entries.delete(key);
    return undefined;
  }

  /** Computes the answer and keeps it when nothing it depends on moved while it was read. */
  async fill(key: string, compute: () => Promise<string>): Promise<string> {
    const stamp = this.stamp();
    const settledBefore = this.settled();
    const body = await compute();
    if (this.ttlMs > 0 && settledBefore && this.settled() && stamp === this.stamp()) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { stamp, body, expires: Date.now() + this.ttlMs });
    }
    return body;
  }
}
