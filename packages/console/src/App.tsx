import { lazy, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Spinner } from '@fluentui/react-components';
import { signInPath } from './api/query-client';
import { useWhoAmI } from './api/session';
import { claimTrackedJobs } from './api/tracked-jobs';
import { PageBoundary } from './components/PageBoundary';
import { ErrorMessage, WaitingForNetwork } from './components/RequestState';
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
const ReportDesignerPage = lazy(() => import('./pages/ReportDesignerPage'));
const AuditPage = lazy(() => import('./pages/AuditPage'));
const TokensPage = lazy(() => import('./pages/TokensPage'));

const loading = <Spinner label="Loading…" style={{ marginTop: 48 }} />;

/** Pages behind the session: sign-in first, then back to the page asked for. */
function RequireSession({ children }: { children: React.ReactNode }) {
  const me = useWhoAmI();
  const location = useLocation();
  const owner = me.data ? `${me.data.tenantId}/${me.data.userId}` : undefined;
  useEffect(() => {
    if (owner) claimTrackedJobs(owner);
  }, [owner]);
  if (me.isPending && me.fetchStatus === 'paused')
    return (
      <div style={{ padding: 24 }}>
        <WaitingForNetwork label="The console" />
      </div>
    );
  if (me.isPending) return loading;
  if (me.isError)
    return (
      <div style={{ padding: 24 }}>
        <ErrorMessage error={me.error} title="Could not reach the service" onRetry={() => void me.refetch()} />
      </div>
    );
  if (!me.data) return <Navigate to={signInPath(location.pathname + location.search)} replace />;
  return <>{children}</>;
}

/** Every routed page inside its own error boundary (components/PageBoundary.tsx): the shell survives a page's failure. */
const ROUTES: Array<[path: string, Page: React.ComponentType]> = [
  ['workspaces', WorkspacesPage],
  ['workspaces/:workspaceId', WorkspacePage],
  ['workspaces/:workspaceId/items/:itemId', ItemPage],
  ['workspaces/:workspaceId/thread', ThreadPage],
  ['apps', CatalogPage],
  ['apps/:appId', AppPage],
  ['jobs', JobsPage],
  ['jobs/:jobId', JobPage],
  ['identity', IdentityPage],
  ['reports', ReportsPage],
  ['reports/design', ReportDesignerPage],
  ['audit', AuditPage],
  ['tokens', TokensPage],
];

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
      <Route
        element={
          <RequireSession>
            <Shell />
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/workspaces" replace />} />
        {ROUTES.map(([path, Page]) => (
          <Route
            key={path}
            path={path}
            element={
              <PageBoundary>
                <Page />
              </PageBoundary>
            }
          />
        ))}
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
