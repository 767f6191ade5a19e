import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';
import type { Transaction } from 'kysely';
import type { Database, StoreRow } from '../store/schema.js';
import { afterCursor, toPage, type PageRequest } from '../store/paging.js';
import { AuthenticationError, ForbiddenError, InputError, NotFoundError } from '../errors.js';
import type { Caller } from './caller.js';
import { hasScope, isScope, type Scope } from './scopes.js';
import { hashSecret, newToken, parseToken, secretMatches } from './token-format.js';
import { callerOf, type VerifiedEntry, VerifiedTokens } from './verified-tokens.js';

/** A token as listed: never with its secret. */
export interface ApiToken {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  userId: string;
  /** The token this one was minted with, directly or through a console session opened with it. */
  parentId: string | null;
  /** The workspaces the token is limited to; null when unlimited. */
  workspaceIds: string[] | null;
}

export const DEFAULT_EXPIRY_DAYS = 30;
export const MAX_EXPIRY_DAYS = 90;
const LAST_USED_EVERY_MS = 60_000;
const DAY_MS = 86_400_000;

const TOKEN_COLUMNS = [
  'id',
  'name',
  'scopes',
  'created_at',
  'expires_at',
  'last_used_at',
  'user_id',
  'parent_id',
  'workspace_ids',
] as const;
type TokenRow = StoreRow<'api_tokens', (typeof TOKEN_COLUMNS)[number]>;

function toApiToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
    userId: row.user_id,
    parentId: row.parent_id,
    workspaceIds: row.workspace_ids,
  };
}

/** The ids among `ids` of workspaces the caller can see (its access service). */
export type VisibleWorkspaces = (caller: Caller, ids: string[]) => Promise<Set<string>>;

/** Whose tokens the caller manages: undefined (every user's of the tenant) with admin, else the caller's own user. */
function managedOwner(caller: Caller): string | undefined {
  return hasScope(caller.scopes, 'admin') ? undefined : caller.userId;
}

/** Issues, verifies, lists and revokes scoped API tokens, always within the caller's tenant. */
export class TokenService {
  private readonly lastUsedWritten = new Map<string, number>();

  private constructor(
    private readonly db: Db,
    private readonly verified: VerifiedTokens,
    private readonly notify?: (id: string) => Promise<void>,
    private readonly visible?: VisibleWorkspaces,
  ) {}

  /**
   * `hearing` says whether other processes' revocations reach this one (the store's change feed is up); while they do
   * not, no verified token is kept.
   */
  static create(
    db: Db,
    options: { cacheMs?: number; notify?: (id: string) => Promise<void>; visible?: VisibleWorkspaces; hearing?: () => boolean } = {},
  ): TokenService {
    const verified = new VerifiedTokens(options.cacheMs ?? 30_000, options.hearing ?? (() => true));
    return new TokenService(db, verified, options.notify, options.visible);
  }

  /** Forgets a cached token (a revocation heard from another process). */
  evict(tokenId: string): void {
    this.verified.evict(tokenId);
  }

  /** Forgets every cached token (the change feed went down or came back: a revocation meanwhile went unheard). */
  forgetAll(): void {
    this.verified.forgetAll();
  }

  private async lookup(id: string): Promise<VerifiedEntry | undefined> {
    const hit = this.verified.get(id);
    if (hit) return hit;
    const ticket = this.verified.begin();
    const row = await this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        'api_tokens.id',
        'api_tokens.tenant_id',
        'api_tokens.user_id',
        'api_tokens.scopes',
        'api_tokens.secret_hash',
        'api_tokens.expires_at',
        'api_tokens.revoked_at',
        'api_tokens.workspace_ids',
        'users.display_name',
        'users.upn',
      ])
      .where('api_tokens.id', '=', id)
      .executeTakeFirst();
    return row && this.verified.keep(ticket, row);
  }

  /**
   * Mints a token for the caller's user; never with scopes the caller lacks. A token minted with a token (or a session
   * opened with one) records it as its parent and never outlives it: the expiry is cut to the parent's, and
   * `expiryCapped` says so. Returns the secret once.
   */
  async issue(caller: Caller, input: { name: string; scopes: string[]; expiresInDays?: number; workspaceIds?: string[] }) {
    const unknown = input.scopes.filter((s) => !isScope(s));
    if (unknown.length) throw new InputError(`body/scopes contains unknown scope '${unknown[0]}'`, 'scopes');
    const scopes = input.scopes.filter(isScope);
    const missing = scopes.filter((s) => !hasScope(caller.scopes, s));
    if (missing.length) {
      throw new ForbiddenError(`A token cannot grant scope '${missing[0]}' that the caller does not hold`, 'scope_escalation');
    }
    const workspaceIds = await this.limitOf(caller, input.workspaceIds);
    const requested = Date.now() + (input.expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS;
    const token = newToken();
    return this.db.transaction().execute(async (trx) => {
      const parentExpiry = caller.tokenId ? await liveParentExpiry(trx, caller.tokenId) : Infinity;
      const expires = Math.min(requested, parentExpiry);
      const row = await trx
        .insertInto('api_tokens')
        .values({
          id: token.id,
          tenant_id: caller.tenantId,
          user_id: caller.userId,
          name: input.name,
          scopes: [...new Set(scopes)],
          secret_hash: hashSecret(token.secret),
          expires_at: new Date(expires).toISOString(),
          parent_id: caller.tokenId ?? null,
          workspace_ids: workspaceIds,
        })
        .returning(TOKEN_COLUMNS)
        .executeTakeFirstOrThrow();
      return { token: toApiToken(row), secret: token.value, expiryCapped: expires < requested };
    });
  }

  /**
   * The workspaces a new token is limited to: those asked (each one the caller can see, else 404), or the caller's own
   * limit when it has one (a child never reaches beyond its parent); null for unlimited.
   */
  private async limitOf(caller: Caller, asked: string[] | undefined): Promise<string[] | null> {
    if (asked === undefined) return caller.workspaceIds ? [...caller.workspaceIds] : null;
    const ids = [...new Set(asked)];
    const seen = this.visible ? await this.visible(caller, ids) : new Set<string>();
    const hidden = ids.find((id) => !seen.has(id));
    if (hidden !== undefined) throw new NotFoundError('Workspace', hidden);
    return ids;
  }

  /** Seeds a known token (SVC_BOOTSTRAP_TOKEN) for a user when its id is absent. */
  async seed(value: string, tenantId: string, userId: string, scopes: Scope[]): Promise<boolean> {
    const parsed = parseToken(value);
    if (!parsed) throw new InputError('bootstrap token has the wrong format');
    // Several processes may start at once on a fresh store: the first insert wins, the others find it there.
    const inserted = await this.db
      .insertInto('api_tokens')
      .values({
        id: parsed.id,
        tenant_id: tenantId,
        user_id: userId,
        name: 'bootstrap',
        scopes,
        secret_hash: hashSecret(parsed.secret),
        expires_at: new Date(Date.now() + MAX_EXPIRY_DAYS * DAY_MS).toISOString(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Resolves a presented bearer value to its caller, or throws 401 with the reason. */
  async verify(value: string): Promise<Caller> {
    const parsed = this.parse(value);
    return this.accept(parsed, await this.lookup(parsed.id));
  }

  /**
   * `verify` without the store, for a token whose row this process keeps (the verified-token cache): its caller, or
   * undefined when the row must be read. Refuses exactly as `verify` does.
   */
  verifyKept(value: string): Caller | undefined {
    const parsed = this.parse(value);
    const entry = this.verified.get(parsed.id);
    return entry && this.accept(parsed, entry);
  }

  private parse(value: string): { id: string; secret: string } {
    const parsed = parseToken(value);
    if (!parsed) throw new AuthenticationError('The bearer token is not a svc_pat_<id>_<secret> token', 'invalid_token');
    return parsed;
  }

  private accept({ secret }: { secret: string }, entry: VerifiedEntry | undefined): Caller {
    const row = entry?.row;
    // Same answer for an unknown id and a wrong secret, so ids cannot be probed.
    if (!row || !secretMatches(secret, (entry.secretHash ??= Buffer.from(row.secret_hash, 'hex')))) {
      throw new AuthenticationError('The token is not valid', 'invalid_token');
    }
    if (row.revoked_at) throw new AuthenticationError('The token has been revoked', 'token_revoked');
    if (row.expires_at.getTime() <= Date.now()) throw new AuthenticationError('The token has expired', 'token_expired');
    this.touch(row.id);
    return callerOf(entry);
  }

  /** When a token expires (for bounding a session opened with it). */
  async expiry(tokenId: string): Promise<Date> {
    const row = await this.db.selectFrom('api_tokens').select('expires_at').where('id', '=', tokenId).executeTakeFirstOrThrow();
    return row.expires_at;
  }

  // Records last use at most once a minute per token, off the request's path.
  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastUsedWritten.set(id, now);
    void this.db
      .updateTable('api_tokens')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', id)
      .execute()
      .catch(() => this.lastUsedWritten.delete(id));
  }

  /** Lists the live tokens (not revoked) the caller manages, newest last, without secrets. */
  async list(caller: Caller, page: PageRequest) {
    let q = this.db
      .selectFrom('api_tokens')
      .select(TOKEN_COLUMNS)
      .where('tenant_id', '=', caller.tenantId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.limit + 1);
    const owner = managedOwner(caller);
    if (owner) q = q.where('user_id', '=', owner);
    if (page.cursor) q = q.where(afterCursor(page.cursor));
    const { rows, nextCursor } = toPage(await q.execute(), page.limit);
    return { tokens: rows.map(toApiToken), nextCursor };
  }

  /**
   * Revokes a token the caller manages at once, with every token minted from it (transitively) and their console
   * sessions; 404 for unknown ids and ids the caller does not manage alike. Every process forgets them (NOTIFY).
   */
  async revoke(caller: Caller, tokenId: string): Promise<void> {
    const revoked = await this.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      let q = trx
        .updateTable('api_tokens')
        .set({ revoked_at: now })
        .where('id', '=', tokenId)
        .where('tenant_id', '=', caller.tenantId)
        .where('revoked_at', 'is', null);
      const owner = managedOwner(caller);
      if (owner) q = q.where('user_id', '=', owner);
      if (!(await q.returning('id').executeTakeFirst())) throw new NotFoundError('Token', tokenId);
      // One generation per statement: each sees the children committed meanwhile (a mint holds its parent's row
      // until its child is written), so no token minted during the revocation escapes it.
      const ids = [tokenId];
      for (let generation = [tokenId]; generation.length > 0; ) {
        const children = await trx
          .updateTable('api_tokens')
          .set({ revoked_at: now })
          .where('parent_id', 'in', generation)
          .where('revoked_at', 'is', null)
          .returning('id')
          .execute();
        generation = children.map((c) => c.id);
        ids.push(...generation);
      }
      await trx.deleteFrom('sessions').where('token_id', 'in', ids).execute();
      return ids;
    });
    for (const id of revoked) this.verified.evict(id);
    for (const id of revoked) await this.notify?.(id);
  }
}

/**
 * The expiry of the token a new one is minted with, its row held (FOR SHARE) until the new one is written, so that a
 * revocation of the parent waits for the child and revokes it too; 401 when the parent was revoked or expired meanwhile.
 */
async function liveParentExpiry(trx: Transaction<Database>, parentId: string): Promise<number> {
  const parent = await trx
    .selectFrom('api_tokens')
    .select(['expires_at', 'revoked_at'])
    .where('id', '=', parentId)
    .forShare()
    .executeTakeFirst();
  if (!parent || parent.revoked_at) throw new AuthenticationError('The token this request was made with has been revoked', 'token_revoked');
  if (parent.expires_at.getTime() <= Date.now())
    throw new AuthenticationError('The token this request was made with has expired', 'token_expired');
  return parent.expires_at.getTime();
}

/** The tenant main seeds at start (its admin token), and the one a single-tenant OIDC registration signs into. */
export const DEFAULT_TENANT = 'default';

/** Creates the default tenant and its first admin user when absent; returns their ids. */
export async function ensureTenant(db: Db, tenantId: string, name: string, admin: { id?: string; displayName: string }) {
  await db
    .insertInto('tenants')
    .values({ id: tenantId, name })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_admin', '=', true)
    .orderBy('created_at')
    .executeTakeFirst();
  if (existing) return { tenantId, userId: existing.id };
  // Processes starting at once on a fresh store all get here: they insert the same id, one row is kept.
  const userId = admin.id ?? firstAdminId(tenantId);
  await db
    .insertInto('users')
    .values({ id: userId, tenant_id: tenantId, display_name: admin.displayName, email: null, oidc_subject: null, is_admin: true })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return { tenantId, userId };
}

/** The id of a tenant's first admin, the same in every process (a UUID from the tenant id). */
function firstAdminId(tenantId: string): string {
  const h = createHash('sha256').update(`first-admin:${tenantId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
