import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Spinner } from '@fluentui/react-components';
import { useWhoAmI } from './api/session';
import { ErrorMessage } from './components/RequestState';
import { Shell } from './components/Shell';
import { SignInPage } from './pages/SignInPage';
import { WorkspacesPage } from './pages/WorkspacesPage';

// The first page a signed-in user meets is the workspace list; every other page loads on demand.
const WorkspacePage = lazy(() => import('./pages/WorkspacePage'));
const ItemPage = lazy(() => import('./pages/ItemPage'));
const ThreadPage = lazy(() => import('./pages/ThreadPage'));
const CatalogPage = lazy(() => import('./pages/CatalogPage'));
const AppPage = lazy(() => import('./pages/AppPage'));
const JobsPage = lazy(() => import('./pages/JobsPage'));
const JobPage = lazy(() => import('./pages/JobPage'));
const IdentityPage = lazy(() => import('./pages/IdentityPage'));
const ReportsPage = lazy(() => import('./pages/ReportsPage'));
const AuditPage = lazy(() => import('./pages/AuditPage'));
const TokensPage = lazy(() => import('./pages/TokensPage'));

const loading = <Spinner label="Loading…" style={{ marginTop: 48 }} />;

/** Pages behind the session: sign-in first, then back to the page asked for. */
function RequireSession({ children }: { children: React.ReactNode }) {
  const me = useWhoAmI();
  const location = useLocation();
  if (me.isPending) return loading;
  if (me.isError)
    return (
      <div style={{ padding: 24 }}>
        <ErrorMessage error={me.error} title="Could not reach the service" onRetry={() => void me.refetch()} />
      </div>
    );
  if (!me.data) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route
        element={
          <RequireSession>
            <Shell />
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/workspaces" replace />} />
        <Route path="workspaces" element={<WorkspacesPage />} />
        <Route
          path="workspaces/:workspaceId"
          element={
            <Suspense fallback={loading}>
              <WorkspacePage />
            </Suspense>
          }
        />
        <Route
          path="workspaces/:workspaceId/items/:itemId"
          element={
            <Suspense fallback={loading}>
              <ItemPage />
            </Suspense>
          }
        />
        <Route
          path="workspaces/:workspaceId/thread"
          element={
            <Suspense fallback={loading}>
              <ThreadPage />
            </Suspense>
          }
        />
        <Route
          path="apps"
          element={
            <Suspense fallback={loading}>
              <CatalogPage />
            </Suspense>
          }
        />
        <Route
          path="apps/:appId"
          element={
            <Suspense fallback={loading}>
              <AppPage />
            </Suspense>
          }
        />
        <Route
          path="jobs"
          element={
            <Suspense fallback={loading}>
              <JobsPage />
            </Suspense>
          }
        />
        <Route
          path="jobs/:jobId"
          element={
            <Suspense fallback={loading}>
              <JobPage />
            </Suspense>
          }
        />
        <Route
          path="identity"
          element={
            <Suspense fallback={loading}>
              <IdentityPage />
            </Suspense>
          }
        />
        <Route
          path="reports"
          element={
            <Suspense fallback={loading}>
              <ReportsPage />
            </Suspense>
          }
        />
        <Route
          path="audit"
          element={
            <Suspense fallback={loading}>
              <AuditPage />
            </Suspense>
          }
        />
        <Route
          path="tokens"
          element={
            <Suspense fallback={loading}>
              <TokensPage />
            </Suspense>
          }
        />
        <Route
          path="*"
          element={
            <div style={{ padding: 24 }}>
              This page does not exist. <a href="/workspaces">Go to workspaces</a>
            </div>
          }
        />
      </Route>
    </Routes>
  );
}
