import { useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Spinner } from '@fluentui/react-components';
import { signInPath } from './api/query-client';
import { probablySignedIn, useWhoAmI } from './api/session';
import { claimTrackedJobs } from './api/tracked-jobs';
import { useLoaded } from './components/lazy';
import { PageBoundary } from './components/PageBoundary';
import { ErrorMessage, WaitingForNetwork } from './components/RequestState';
import { SignInPage } from './pages/SignInPage';
import { SignedIn } from './signed-in-page';

/** Pages behind the session: sign-in first, then back to the page asked for. */
function RequireSession() {
  const me = useWhoAmI();
  const location = useLocation();
  // The shell's code may arrive after the answer: its own spinner until then, not a suspended page (see lazyPage).
  const shellLoaded = useLoaded(SignedIn);
  const owner = me.data ? `${me.data.tenantId}/${me.data.userId}` : undefined;
  useEffect(() => {
    if (owner) claimTrackedJobs(owner);
  }, [owner]);
  // A browser that had no session last time goes to the sign-in form at once, not after the service's answer (the form
  // leaves for the page asked for if the answer finds a session after all).
  if (me.isPending && !probablySignedIn()) return <Navigate to={signInPath(location.pathname + location.search)} replace />;
  if (me.isPending && me.fetchStatus === 'paused')
    return (
      <div style={{ padding: 24 }}>
        <WaitingForNetwork label="The console" />
      </div>
    );
  if (me.isPending) return <Spinner label="Loading…" style={{ marginTop: 48 }} />;
  if (me.isError)
    return (
      <div style={{ padding: 24 }}>
        <ErrorMessage error={me.error} title="Could not reach the service" onRetry={() => void me.refetch()} />
      </div>
    );
  if (!me.data) return <Navigate to={signInPath(location.pathname + location.search)} replace />;
  if (!shellLoaded) return <Spinner label="Loading…" style={{ marginTop: 48 }} />;
  return (
    <PageBoundary outer>
      <SignedIn />
    </PageBoundary>
  );
}

export function App() {
  return (
    <Routes>
      <Route
        path="/sign-in"
        element={
          <PageBoundary>
            <SignInPage />
          </PageBoundary>
        }
      />
      <Route path="*" element={<RequireSession />} />
    </Routes>
  );
}
