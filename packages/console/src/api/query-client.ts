import { QueryClient } from '@tanstack/react-query';
import { ApiError, onUnauthenticated } from './client';
import { forgetTrackedJobs } from './tracked-jobs';

/**
 * The console's one QueryClient. Queries wait for the network while the browser is offline (fetchStatus 'paused');
 * mutations never do: TanStack would hold an offline mutation and send it on reconnect, even after the user cancelled
 * the dialog that started it, so a mutation is tried at once ('always') and fails with the offline message of `api`.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // Retry only what may pass on a second try: not a refusal the service meant.
      retry: (count, err) => count < 2 && (!(err instanceof ApiError) || err.status === 0 || err.status >= 500),
    },
    mutations: { networkMode: 'always', retry: false },
  },
});

// How the last session of this page ended: the user's sign-out (the next user is not sent on to the last one's page)
// or a 401 under the console (the sign-in page says so).
let ended: 'signed-out' | 'expired' | undefined;

/** Where a page without a session goes: sign-in, then back to the page, unless the user signed out on purpose. */
export const signInPath = (here: string) =>
  ended === 'signed-out' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(here)}${ended === 'expired' ? '&ended=1' : ''}`;

/**
 * The session ended: signed out, or under the console (expired, token revoked: a 401). Forgets the old user's answers;
 * a sign-out also forgets the jobs this browser followed for them.
 */
export function endSession(options: { signedOut: boolean }): void {
  ended = options.signedOut ? 'signed-out' : 'expired';
  // Set first, so RequireSession sends the page to sign-in (with next=) before anything refetches.
  queryClient.setQueryData(['whoami'], null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'whoami' && q.queryKey[0] !== 'health' });
  queryClient.getMutationCache().clear();
  if (options.signedOut) forgetTrackedJobs();
}

// A 401 from any call means the session is gone: back to sign-in, which returns to this page afterwards.
onUnauthenticated(() => {
  if (queryClient.getQueryData(['whoami'])) endSession({ signedOut: false });
});
