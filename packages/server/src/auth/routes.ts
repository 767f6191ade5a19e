import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../store/paging.js';
import { errors, Id, Name, Ok, PageQuery, publicErrors } from '../http/schemas.js';
import { AuthenticationError } from '../errors.js';
import { SCOPES } from './scopes.js';
import type { Caller } from './caller.js';
import { SESSION_COOKIE, type SessionService } from './session-service.js';
import { MAX_EXPIRY_DAYS, type TokenService } from './token-service.js';

const ScopeSchema = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
  {
    description:
      'read, write, install, reports, tokens, admin (implies the tenant scopes before it), metrics, operator (deployment-wide; implies metrics)',
  },
);

export const ApiTokenSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    scopes: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    userId: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()], {
      description:
        'the token this one was minted with (directly or through a console session opened with it); revoking that token revokes this one',
    }),
    workspaceIds: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'the workspaces the token is limited to (404 elsewhere); null when unlimited',
    }),
  },
  { $id: 'ApiToken' },
);

/** What the service knows of a caller (whoami, and the session sign-in opens). */
const callerFields = {
  tenantId: Type.String(),
  userId: Type.String(),
  userName: Type.String(),
  authMethod: Type.Union([Type.Literal('token'), Type.Literal('session')]),
  scopes: Type.Array(Type.String()),
  tokenId: Type.Union([Type.String(), Type.Null()]),
  groups: Type.Array(Type.String(), { description: 'the identity provider’s group ids of a signed-in user (a token carries none)' }),
  workspaceIds: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'the workspaces the token (or the one the session was opened with) is limited to; null when unlimited',
  }),
  csrfToken: Type.Optional(Type.String({ description: 'for console sessions: send it as X-CSRF-Token on changes' })),
};
const WhoAmI = Type.Object({ ok: Ok, ...callerFields });

/** The caller as whoami describes it. */
function describeCaller(c: Caller) {
  return {
    tenantId: c.tenantId,
    userId: c.userId,
    userName: c.userName,
    authMethod: c.method,
    scopes: c.scopes,
    tokenId: c.tokenId ?? null,
    groups: c.groups ?? [],
    workspaceIds: c.workspaceIds ?? null,
    ...(c.csrfToken ? { csrfToken: c.csrfToken } : {}),
  };
}

/** Routes of the caller, API tokens and console sessions. */
export const authRoutes =
  (deps: {
    tokens: TokenService;
    sessions: SessionService;
    secureCookies: (req: { protocol: string }) => boolean;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/whoami',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'whoami',
          tags: ['caller'],
          summary: 'The current caller: tenant, user, how it authenticated, scopes',
          response: { 200: WhoAmI, ...errors() },
        },
      },
      async (req) => ({ ok: true as const, ...describeCaller(req.caller!) }),
    );

    app.get(
      '/api/tokens',
      {
        config: { scope: 'tokens' },
        schema: {
          operationId: 'listTokens',
          tags: ['tokens'],
          summary: 'List live API tokens (never their secrets): the caller’s own with the tokens scope, every one of the tenant with admin',
          querystring: PageQuery,
          response: {
            200: Type.Object({ ok: Ok, tokens: Type.Array(Type.Ref(ApiTokenSchema)), nextCursor: Type.Optional(Type.String()) }),
            ...errors(),
          },
        },
      },
      async (req) => ({ ok: true as const, ...(await deps.tokens.list(req.caller!, pageRequest(req.query))) }),
    );

    app.post(
      '/api/tokens',
      {
        config: { scope: 'tokens' },
        schema: {
          operationId: 'createToken',
          tags: ['tokens'],
          summary: 'Create a scoped API token; the secret is shown only in this answer',
          body: Type.Object(
            {
              name: Name(100, 'what the token is for; at least one visible character'),
              scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length }),
              expiresInDays: Type.Optional(
                Type.Integer({
                  minimum: 1,
                  maximum: MAX_EXPIRY_DAYS,
                  description: 'default 30, at most 90; never beyond the expiry of the token the request is made with (see expiryCapped)',
                }),
              ),
              workspaceIds: Type.Optional(
                Type.Array(Id('a workspace the caller can see'), {
                  minItems: 1,
                  maxItems: 100,
                  description:
                    'limit the token to these workspaces (404 elsewhere; it cannot create workspaces); a token made with a limited one is limited to a subset of its list (default: the same list)',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            201: Type.Object({
              ok: Ok,
              token: Type.Ref(ApiTokenSchema),
              secret: Type.String({ description: 'svc_pat_<id>_<secret>, shown once' }),
              expiryCapped: Type.Boolean({
                description:
                  'true when the expiry was cut to that of the token the request was made with: a token never outlives its parent',
              }),
            }),
            ...errors(404),
          },
        },
      },
      async (req, reply) => reply.status(201).send({ ok: true as const, ...(await deps.tokens.issue(req.caller!, req.body)) }),
    );

    app.delete(
      '/api/tokens/:tokenId',
      {
        config: { scope: 'tokens' },
        schema: {
          operationId: 'revokeToken',
          tags: ['tokens'],
          summary:
            'Revoke a token, effective on the next request: one of the caller’s own with the tokens scope, any of the tenant with admin; another user’s token is 404 without admin',
          params: Type.Object({ tokenId: Id('token id') }),
          response: { 200: Type.Object({ ok: Ok, revoked: Type.String() }), ...errors(404) },
        },
      },
      async (req) => {
        await deps.tokens.revoke(req.caller!, req.params.tokenId);
        return { ok: true as const, revoked: req.params.tokenId };
      },
    );

    app.post(
      '/api/session',
      {
        config: { public: true, signIn: true },
        schema: {
          operationId: 'createSession',
          tags: ['session'],
          summary: 'Sign in to the console with an API token; sets the session cookie',
          security: [],
          body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
          response: {
            200: Type.Object({
              ok: Ok,
              csrfToken: Type.String(),
              expiresAt: Type.String({ format: 'date-time' }),
              userName: Type.String(),
              tenantId: Type.String(),
              whoami: Type.Object(callerFields, {
                description: 'the caller as GET /api/whoami answers it with the new session cookie (so a console need not ask)',
              }),
            }),
            ...publicErrors(400, 401, 413, 415),
          },
        },
      },
      async (req, reply) => {
        const caller = await deps.tokens.verify(req.body.token);
        // The audit trail's actor: this public route has no caller of its own (http/audit-trail.ts).
        req.signInSubject = {
          tenantId: caller.tenantId,
          userId: caller.userId,
          userName: caller.userName,
          tokenId: caller.tokenId,
          method: 'token',
        };
        const row = await deps.tokens.expiry(caller.tokenId!);
        const session = await deps.sessions.open(caller, 'token', caller.scopes, row);
        reply.setCookie(SESSION_COOKIE, session.cookie, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          secure: deps.secureCookies(req),
          expires: session.expiresAt,
        });
        return {
          ok: true as const,
          csrfToken: session.csrfToken,
          expiresAt: session.expiresAt.toISOString(),
          userName: caller.userName,
          tenantId: caller.tenantId,
          // Read back as the cookie will be: exactly what whoami answers under the session.
          whoami: describeCaller(await deps.sessions.verify(session.cookie)),
        };
      },
    );

    app.delete(
      '/api/session',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'deleteSession',
          tags: ['session'],
          summary: 'Sign out: end the console session',
          response: { 200: Type.Object({ ok: Ok }), ...errors() },
        },
      },
      async (req, reply) => {
        if (req.caller!.method !== 'session') throw new AuthenticationError('There is no console session to end', 'no_session');
        await deps.sessions.end(req.caller!);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return { ok: true as const };
      },
    );
  };
