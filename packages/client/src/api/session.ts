import { rest, type Transport } from '../transport.js';
import type { Result } from '../types.js';

/** The console session. */
export function sessionApi(t: Transport) {
  return {
    /**
     * Opens a console session with a token and keeps its CSRF token for changes. A browser keeps the cookie itself;
     * outside a browser the client keeps it from Set-Cookie.
     */
    signIn: async (token: string) => {
      const r = await t.run(
        'createSession',
        (i) => t.api.POST('/api/session', { ...i, body: { token } }),
        (body, response) => {
          const cookie = response.headers
            .getSetCookie?.()
            .map((c) => c.split(';')[0]!)
            .find((c) => c.startsWith('svc_session='));
          if (cookie) t.cookie = cookie;
          return rest<Result<'createSession'>>(body);
        },
      );
      t.csrfToken = r.csrfToken;
      return r;
    },
    /** Ends the console session. */
    signOut: () => t.run('deleteSession', (i) => t.api.DELETE('/api/session', i), rest<Result<'deleteSession'>>),
    /**
     * Where a browser goes to sign in with the cloud's identity provider (GET /api/auth/login answers a redirect to
     * it); `returnTo` is the console path to land on. Navigate to it; there is nothing for a script to fetch.
     */
    identityProviderSignInUrl: (returnTo?: string) =>
      `${t.baseUrl}/api/auth/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
    /** The redirect URI to register with the identity provider (GET /api/auth/callback, where it sends the browser back). */
    identityProviderRedirectUri: () => `${t.baseUrl}/api/auth/callback`,
  };
}
