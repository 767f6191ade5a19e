import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken } from './client';
import { endSession } from './query-client';
import type { Health, WhoAmI } from './types';

/** The deployment's health: which cloud, and whether it is the sandbox. */
export const useHealth = () =>
  useQuery({ queryKey: ['health'], queryFn: () => api<Health & { ok: true }>('GET', '/api/health'), staleTime: 60_000 });

/** The signed-in caller; null when there is no session (401), an error otherwise. */
export const useWhoAmI = () =>
  useQuery({
    queryKey: ['whoami'],
    queryFn: async (): Promise<WhoAmI | null> => {
      try {
        const me = await api<WhoAmI & { ok: true }>('GET', '/api/whoami');
        setCsrfToken(me.csrfToken);
        return me;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Signs in with an API token: the service sets the session cookie and answers the CSRF token. */
export const useSignIn = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api<{ csrfToken: string }>('POST', '/api/session', { token }),
    onSuccess: async (r) => {
      setCsrfToken(r.csrfToken);
      await qc.invalidateQueries({ queryKey: ['whoami'] });
    },
  });
};

/** Ends the console session and forgets every cached answer. */
export const useSignOut = () => {
  return useMutation({
    mutationFn: () => api('DELETE', '/api/session'),
    onSuccess: () => {
      setCsrfToken(undefined);
      endSession({ signedOut: true });
    },
  });
};
