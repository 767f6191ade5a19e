import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { hasScope } from '../auth/scopes.js';
import { checkCsrf, CSRF_HEADER, SESSION_COOKIE, type SessionService } from '../auth/session-service.js';
import type { TokenService } from '../auth/token-service.js';
import { AuthenticationError, ForbiddenError } from '../errors.js';
import { addressKey, type RateLimiter } from './rate-limit.js';
import { tenantContext } from '../tenancy/tenant-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public sign-in route: limited per client address (SVC_SIGNIN_RATE_LIMIT_PER_MINUTE), as it costs a store write or a token check. */
    signIn?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The caller of a bearer token this process verified and keeps, without the store; undefined when it must be read. */
function keptCaller(req: FastifyRequest, tokens: TokenService): Caller | undefined {
  const m = BEARER.exec(req.headers.authorization ?? '');
  return m ? tokens.verifyKept(m[1]!) : undefined;
}

/** Reads the caller from the bearer token or the session cookie; throws 401 when neither is valid. */
async function resolveCaller(req: FastifyRequest, tokens: TokenService, sessions: SessionService): Promise<Caller> {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = BEARER.exec(header);
    if (!m) throw new AuthenticationError('The Authorization header must be "Bearer svc_pat_<id>_<secret>"', 'invalid_token');
    return tokens.verify(m[1]!);
  }
  const cookie = req.cookies?.[SESSION_COOKIE];
  if (cookie) return sessions.verify(cookie);
  throw new AuthenticationError('Send "Authorization: Bearer svc_pat_<id>_<secret>" or sign in to the console');
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the Authorization header is "Bearer <expected>", compared in constant time (digests of equal length). */
function bearerIs(header: string | undefined, expected: string): boolean {
  const m = BEARER.exec(header ?? '');
  return m ? timingSafeEqual(digest(m[1]!), digest(expected)) : false;
}

/**
 * The one authentication hook: every non-public route gets a caller, its scope checked, CSRF enforced, and its rate
 * limit per caller; the sign-in routes get theirs per client address (req.ip, which SVC_TRUST_PROXY decides). A route
 * that needs the `metrics` scope also takes the deployment's static SVC_METRICS_TOKEN (no caller: it reads metrics only).
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { tokens: TokenService; sessions: SessionService; limiter: RateLimiter; signInLimiter: RateLimiter; metricsToken?: string },
) {
  // Not async: a token this process has verified and kept is checked without a promise (or the store), and the
  // request goes on in the same turn; any other caller is read as before.
  app.addHook('onRequest', (req, _reply, done) => {
    const { config, url, schema } = req.routeOptions; // one read: the getter builds the object anew each time
    let kept: Caller | undefined;
    try {
      if (config.signIn) deps.signInLimiter.limit(addressKey(req.ip));
      // Public routes, unmatched paths (JSON 404) and the console's static files need no caller.
      if (config.public || !url || (schema as { hide?: boolean } | undefined)?.hide) return done();
      if (config.scope === 'metrics' && deps.metricsToken && bearerIs(req.headers.authorization, deps.metricsToken)) {
        deps.limiter.limit('metrics-token');
        return done();
      }
      kept = keptCaller(req, deps.tokens);
    } catch (err) {
      return done(err as Error);
    }
    const admit = (caller: Caller) => {
      try {
        req.caller = caller;
        deps.limiter.limit(caller.tokenId ?? caller.sessionIdHash ?? caller.userId);
        if (config.scope && !hasScope(caller.scopes, config.scope)) {
          throw new ForbiddenError(`This operation needs the '${config.scope}' scope`, 'missing_scope');
        }
        if (!SAFE_METHODS.has(req.method)) checkCsrf(caller, req.headers[CSRF_HEADER] as string | undefined);
      } catch (err) {
        return done(err as Error);
      }
      done();
    };
    if (kept) return admit(kept);
    resolveCaller(req, deps.tokens, deps.sessions).then(admit, (err: Error) => done(err));
  });
  // The rest of the request runs as its caller's tenant's work (the next hooks and the handler start inside `done`).
  app.addHook('onRequest', (req, _reply, done) => (req.caller ? tenantContext.run(req.caller.tenantId, done) : done()));
}
