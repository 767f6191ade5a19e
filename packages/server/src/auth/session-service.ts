import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../store/db.js';
import { AuthenticationError, ForbiddenError } from '../errors.js';
import type { Caller } from './caller.js';
import { expandScopes, type Scope } from './scopes.js';

export const SESSION_COOKIE = 'svc_session';
export const CSRF_HEADER = 'x-csrf-token';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

/** Console sessions: a random cookie value whose hash keys a server-side row, plus a CSRF token. */
export class SessionService {
  private constructor(
    private readonly db: Db,
    private readonly hours: number,
  ) {}

  static create(db: Db, hours: number): SessionService {
    return new SessionService(db, hours);
  }

  /** Opens a session for an authenticated caller; returns the cookie value and CSRF token. */
  async open(caller: Caller, method: 'token' | 'oidc', scopes: Scope[] = caller.scopes, tokenExpiresAt?: Date) {
    const cookie = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    let expires = Date.now() + this.hours * 3_600_000;
    if (tokenExpiresAt) expires = Math.min(expires, tokenExpiresAt.getTime());
    await this.db
      .insertInto('sessions')
      .values({
        id_hash: hash(cookie),
        tenant_id: caller.tenantId,
        user_id: caller.userId,
        token_id: method === 'token' ? (caller.tokenId ?? null) : null,
        scopes,
        csrf_token: csrfToken,
        method,
        expires_at: new Date(expires).toISOString(),
        groups: caller.groups ?? [],
      })
      .execute();
    return { cookie, csrfToken, expiresAt: new Date(expires) };
  }

  /** Resolves a session cookie; a session opened with a token dies with that token. */
  async verify(cookie: string): Promise<Caller> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('api_tokens', 'api_tokens.id', 'sessions.token_id')
      .select([
        'sessions.id_hash',
        'sessions.tenant_id',
        'sessions.user_id',
        'sessions.token_id',
        'sessions.scopes',
        'sessions.csrf_token',
        'sessions.expires_at',
        'users.display_name',
        'users.upn',
        'api_tokens.revoked_at',
        'api_tokens.expires_at as token_expires_at',
        'api_tokens.workspace_ids',
        'sessions.groups',
      ])
      .where('sessions.id_hash', '=', hash(cookie))
      .executeTakeFirst();
    if (!row || row.expires_at.getTime() <= Date.now()) {
      throw new AuthenticationError('The console session has ended; sign in again', 'session_expired');
    }
    if (row.token_id && (row.revoked_at || !row.token_expires_at || row.token_expires_at.getTime() <= Date.now())) {
      throw new AuthenticationError('The token this session was opened with is no longer valid', 'session_expired');
    }
    return {
      tenantId: row.tenant_id,
      userId: row.user_id,
      userName: row.display_name,
      ...(row.upn ? { upn: row.upn } : {}),
      method: 'session',
      tokenId: row.token_id ?? undefined,
      scopes: expandScopes(row.scopes),
      csrfToken: row.csrf_token,
      sessionIdHash: row.id_hash,
      groups: row.groups,
      // A session opened with a limited token keeps the token's limit.
      ...(row.workspace_ids ? { workspaceIds: row.workspace_ids } : {}),
    };
  }

  /** Ends the caller's session. */
  async end(caller: Caller): Promise<void> {
    if (caller.sessionIdHash) await this.db.deleteFrom('sessions').where('id_hash', '=', caller.sessionIdHash).execute();
  }
}

/** Refuses a cookie-authenticated state change without the session's CSRF token. */
export function checkCsrf(caller: Caller, presented: string | undefined): void {
  if (caller.method !== 'session' || !caller.csrfToken) return;
  const a = Buffer.from(presented ?? '');
  const b = Buffer.from(caller.csrfToken);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ForbiddenError(`A change made with the console session needs the ${CSRF_HEADER} header`, 'csrf_failed');
  }
}
