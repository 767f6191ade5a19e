import type { StoreRow } from '../store/schema.js';
import type { Caller } from './caller.js';
import { expandScopes } from './scopes.js';

/** A token's row as verification reads it, with its user's name. */
export type VerifiedRow = StoreRow<
  'api_tokens',
  'id' | 'tenant_id' | 'user_id' | 'scopes' | 'secret_hash' | 'expires_at' | 'revoked_at' | 'workspace_ids'
> &
  StoreRow<'users', 'display_name' | 'upn'>;

/** A verified row with what each request of it reuses: the stored hash's bytes and the caller it stands for. */
export interface VerifiedEntry {
  row: VerifiedRow;
  at: number;
  secretHash?: Buffer;
  caller?: Caller;
}

/**
 * Verified token rows kept in this process, so a request of a known token reads nothing from the store. A revocation
 * evicts its tokens at once here and, through NOTIFY, in every other process; while other processes' revocations cannot
 * be heard (`hearing` false: the store's change feed is down) nothing is kept, and a row read across the feed's loss or
 * return is not kept either. The time-to-live bounds what a lost notification could leave.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, VerifiedEntry>();
  // Moves whenever revocations may have gone unheard: a row read across it is not kept.
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly hearing: () => boolean,
  ) {}

  get(id: string): VerifiedEntry | undefined {
    const hit = this.entries.get(id);
    return hit && Date.now() - hit.at < this.ttlMs ? hit : undefined;
  }

  /** Marks the start of a read whose row `keep` may store. */
  begin(): number {
    return this.generation;
  }

  /** The entry of a row read since `ticket`, kept when it is live and nothing may have gone unheard meanwhile. */
  keep(ticket: number, row: VerifiedRow): VerifiedEntry {
    const entry = { row, at: Date.now() };
    if (!row.revoked_at && this.ttlMs > 0 && ticket === this.generation && this.hearing()) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(row.id, entry);
    }
    return entry;
  }

  evict(id: string): void {
    this.entries.delete(id);
  }

  /** Forgets every token (the change feed went down or came back: a revocation meanwhile went unheard). */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** The caller of a verified token's row, built once per kept entry (nothing changes a caller after authentication). */
export function callerOf(entry: VerifiedEntry): Caller {
  const { row } = entry;
  entry.caller ??= {
    tenantId: row.tenant_id,
    userId: row.user_id,
    userName: row.display_name,
    ...(row.upn ? { upn: row.upn } : {}),
    method: 'token',
    tokenId: row.id,
    scopes: expandScopes(row.scopes),
    ...(row.workspace_ids ? { workspaceIds: row.workspace_ids } : {}),
  };
  return entry.caller;
}
