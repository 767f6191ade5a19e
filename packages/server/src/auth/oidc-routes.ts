import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicErrors } from '../http/schemas.js';
import { ServiceError } from '../errors.js';
import { LOGIN_TTL_SECONDS, type OidcSignIn } from './oidc.js';
import { RETURN_TO_MAX_LENGTH, returnPath } from './return-path.js';
import { SESSION_COOKIE, type SessionService } from './session-service.js';
import type { SignInSubject } from '../audit/audit-types.js';

/** Binds a started sign-in to the browser that started it: holds the state, httpOnly, for ten minutes. */
const OIDC_STATE_COOKIE = 'svc_oidc_state';
const COOKIE_PATH = '/api/auth';

const Redirect = (description: string) => ({
  description,
  type: 'null',
  headers: { location: { type: 'string', description: 'where the browser goes next' } },
});

/** Longest refusal message the console's sign-in page is sent (a provider's error_description can run long). */
const MESSAGE_MAX = 600;

/**
 * Where a browser goes when the sign-in fails: the console's own sign-in page, which shows the code and the reason
 * next to the ways to sign in again.
 */
function failurePage(err: ServiceError, requestId: string): string {
  const q = new URLSearchParams({ error: err.code, message: err.message.slice(0, MESSAGE_MAX), requestId });
  return `/sign-in?${q.toString()}`;
}

/** GET /api/auth/login and /api/auth/callback: console sign-in with the cloud's identity provider. */
export const oidcRoutes =
  (deps: {
    signIn?: OidcSignIn;
    sessions: SessionService;
    secureCookies: (req: { protocol: string }) => boolean;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const configured = (): OidcSignIn => {
      if (!deps.signIn)
        throw new ServiceError(
          404,
          'oidc_not_configured',
          'Sign-in with the identity provider is not configured on this deployment (SVC_OIDC_CLIENT_ID); sign in with an API token',
        );
      return deps.signIn;
    };

    app.get(
      '/api/auth/login',
      {
        config: { public: true, signIn: true },
        schema: {
          operationId: 'startOidcSignIn',
          tags: ['session'],
          security: [],
          summary:
            'Sign in to the console with the cloud’s identity provider: redirects to its authorize endpoint (authorization code with PKCE S256)',
          querystring: Type.Object(
            {
              returnTo: Type.Optional(
                Type.String({
                  maxLength: RETURN_TO_MAX_LENGTH,
                  // What the document can say of a same-origin path (returnPath also refuses one that resolves elsewhere).
                  pattern: '^/(?![/\\\\])[^\\s\\u0000-\\u001f\\u007f-\\u009f]*$',
                  description:
                    'the console path to land on once signed in (default /): a path on this site, with one leading / and no control characters or whitespace',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            302: Redirect('to the identity provider; a short-lived httpOnly cookie binds the sign-in to this browser'),
            ...publicErrors(400, 404, 502),
          },
        },
      },
      async (req, reply) => {
        const returnTo = returnPath(req.query.returnTo);
        const signIn = configured();
        const redirectUri = signIn.settings.redirectUri ?? `${req.protocol}://${req.host}/api/auth/callback`;
        const { url, state } = await signIn.begin(redirectUri, returnTo);
        reply.setCookie(OIDC_STATE_COOKIE, state, {
          httpOnly: true,
          sameSite: 'lax',
          path: COOKIE_PATH,
          secure: deps.secureCookies(req),
          maxAge: LOGIN_TTL_SECONDS,
        });
        reply.header('cache-control', 'no-store');
        return reply.redirect(url, 302);
      },
    );

    app.get(
      '/api/auth/callback',
      {
        config: { public: true, signIn: true },
        schema: {
          operationId: 'completeOidcSignIn',
          tags: ['session'],
          security: [],
          summary:
            'Where the identity provider sends the browser back: exchanges the code, checks the id token, sets the session cookie and redirects to the console',
          querystring: Type.Object(
            {
              code: Type.Optional(Type.String({ maxLength: 8192 })),
              state: Type.Optional(Type.String({ maxLength: 512 })),
              error: Type.Optional(Type.String({ maxLength: 200 })),
              error_description: Type.Optional(Type.String({ maxLength: 4096 })),
            },
            {
              additionalProperties: Type.String({ maxLength: 4096 }),
              description: 'the identity provider adds parameters of its own (session_state, error_codes, trace_id, …)',
            },
          ),
          response: {
            302: Redirect('to the console, signed in (the session cookie is set)'),
            303: Redirect(
              'a browser (Accept: text/html) whose sign-in failed goes to the console’s /sign-in page with the failure in its query: error (the code), message and requestId; API callers get the error envelope',
            ),
            ...publicErrors(400, 401, 403, 404, 502),
          },
        },
      },
      async (req, reply) => {
        const browserState = req.cookies[OIDC_STATE_COOKIE];
        reply.clearCookie(OIDC_STATE_COOKIE, { path: COOKIE_PATH }); // one use, whatever the outcome
        reply.header('cache-control', 'no-store');
        // The audit trail's actor and tenant: filled in as far as the sign-in gets (http/audit-trail.ts).
        const seen: SignInSubject = { method: 'oidc' };
        req.signInSubject = seen;
        try {
          const done = await configured().complete(req.query as Record<string, string | undefined>, browserState, seen);
          const session = await deps.sessions.open(done.caller, 'oidc', done.caller.scopes);
          reply.setCookie(SESSION_COOKIE, session.cookie, {
            httpOnly: true,
            sameSite: 'lax',
            path: '/',
            secure: deps.secureCookies(req),
            expires: session.expiresAt,
          });
          return reply.redirect(done.returnTo, 302);
        } catch (err) {
          // API callers get the error envelope from the one error handler; a browser goes to the console's sign-in page,
          // which reads the failure, also when it was not foreseen.
          if (err instanceof ServiceError) Object.assign(seen, { reason: err.code, message: err.message });
          if (!(req.headers.accept ?? '').includes('text/html')) throw err;
          if (!(err instanceof ServiceError)) req.log.error({ err }, 'unexpected error in the sign-in callback');
          const failure =
            err instanceof ServiceError
              ? err
              : new ServiceError(
                  500,
                  'internal',
                  'The sign-in could not be completed because of an unexpected error; quote the request id to an administrator',
                );
          // The audit trail records the refusal's own status, not the redirect's.
          seen.status = failure.status;
          Object.assign(seen, { reason: failure.code, message: failure.message });
          return (reply as unknown as FastifyReply).redirect(failurePage(failure, req.id), 303);
        }
      },
    );
  };
