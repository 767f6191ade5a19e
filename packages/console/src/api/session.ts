import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken } from './client';
import { endSession, queryClient } from './query-client';
import { workspacesQuery } from './workspaces';
import type { Health, WhoAmI } from './types';

/** The deployment's health: which cloud, and whether it is the sandbox. */
export const useHealth = () =>
  useQuery({ queryKey: ['health'], queryFn: () => api<Health & { ok: true }>('GET', '/api/health'), staleTime: 60_000 });

// This browser had a session when it last looked: without it a page behind the session goes to sign-in at once (App.tsx).
const HINT = 'svc.session';

/** Whether this browser's last look found a session (a hint only: the service's answer decides). */
export function probablySignedIn(): boolean {
  try {
    return localStorage.getItem(HINT) === '1';
  } catch {
    return false;
  }
}

function rememberSession(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(HINT, '1');
    else localStorage.removeItem(HINT);
  } catch {
    // storage refused (private mode): the hint is an optimisation only
  }
}

/** The service answered the page as it answers a browser without a session cookie: nobody is signed in, no need to ask. */
export function noSession(): void {
  rememberSession(false);
  queryClient.setQueryData(whoAmIQuery.queryKey, null);
}

/** The caller's identity: null when there is no session (401), an error otherwise. Started once the first script runs. */
export const whoAmIQuery = {
  queryKey: ['whoami'],
  queryFn: async (): Promise<WhoAmI | null> => {
    try {
      const me = await api<WhoAmI & { ok: true }>('GET', '/api/whoami');
      setCsrfToken(me.csrfToken);
      rememberSession(true);
      return me;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        rememberSession(false);
        return null;
      }
      throw err;
    }
  },
  staleTime: 5 * 60_000,
  retry: false,
} as const;

/** The signed-in caller; null when there is no session (401), an error otherwise. */
export const useWhoAmI = () => useQuery(whoAmIQuery);

/** Signs in with an API token: the service sets the session cookie and answers the CSRF token. */
export const useSignIn = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api<{ csrfToken: string; whoami: WhoAmI }>('POST', '/api/session', { token }),
    onSuccess: (r) => {
      setCsrfToken(r.csrfToken);
      rememberSession(true);
      // The answer says who the session is (as whoami would): the page sign-in leads to, the workspace list, is the
      // one request left.
      void qc.prefetchQuery(workspacesQuery);
      qc.setQueryData(whoAmIQuery.queryKey, r.whoami);
    },
  });
};

/** Ends the console session and forgets every cached answer. */
export const useSignOut = () => {
  return useMutation({
    mutationFn: () => api('DELETE', '/api/session'),
    onSuccess: () => {
      setCsrfToken(undefined);
      rememberSession(false);
      endSession({ signedOut: true });
    },
  });
};
