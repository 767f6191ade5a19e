import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { checkCsrf, CSRF_HEADER, SESSION_COOKIE, type SessionService } from '../auth/session-service.js';
import type { TokenService } from '../auth/token-service.js';
import { AuthenticationError, ForbiddenError, RateLimitError } from '../errors.js';
import type { RateLimiter } from './rate-limit.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads the caller from the bearer token or the session cookie; throws 401 when neither is valid. */
export async function resolveCaller(req: FastifyRequest, tokens: TokenService, sessions: SessionService): Promise<Caller> {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new AuthenticationError('The Authorization header must be "Bearer svc_pat_<id>_<secret>"', 'invalid_token');
    return tokens.verify(m[1]!);
  }
  const cookie = req.cookies?.[SESSION_COOKIE];
  if (cookie) return sessions.verify(cookie);
  throw new AuthenticationError('Send "Authorization: Bearer svc_pat_<id>_<secret>" or sign in to the console');
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the Authorization header is "Bearer <expected>", compared in constant time (digests of equal length). */
export function bearerIs(header: string | undefined, expected: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? timingSafeEqual(digest(m[1]!), digest(expected)) : false;
}

/**
 * The one authentication hook: every non-public route gets a caller, its scope checked, CSRF enforced. A route that
 * needs the `metrics` scope also takes the deployment's static SVC_METRICS_TOKEN (no caller: it reads metrics only).
 */
export function registerAuthentication(app: FastifyInstance, deps: { tokens: TokenService; sessions: SessionService; limiter: RateLimiter; metricsToken?: string }) {
  const limit = (key: string, reply: { header(name: string, value: string): unknown }) => {
    const wait = deps.limiter.take(key);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new RateLimitError(wait);
    }
  };
  app.addHook('onRequest', async (req, reply) => {
    const config = req.routeOptions.config;
    // Public routes, unmatched paths (JSON 404) and the console's static files need no caller.
    if (config.public || !req.routeOptions.url || (req.routeOptions.schema as { hide?: boolean } | undefined)?.hide) return;
    if (config.scope === 'metrics' && deps.metricsToken && bearerIs(req.headers.authorization, deps.metricsToken)) return limit('metrics-token', reply);
    const caller = await resolveCaller(req, deps.tokens, deps.sessions);
    req.caller = caller;
    limit(caller.tokenId ?? caller.sessionIdHash ?? caller.userId, reply);
    if (config.scope && !hasScope(caller.scopes, config.scope)) {
      throw new ForbiddenError(`This operation needs the '${config.scope}' scope`, 'missing_scope');
    }
    if (!SAFE_METHODS.has(req.method)) checkCsrf(caller, req.headers[CSRF_HEADER] as string | undefined);
  });
}
