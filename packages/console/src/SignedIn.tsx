import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { PageBoundary } from './components/PageBoundary';
import { Shell } from './components/Shell';
import { WorkspacesPage } from './pages/WorkspacesPage';

// Everything behind the session: loaded once the caller has a session, or while the sign-in page shows.
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

/** The pages behind the session, in the shell (App.tsx's RequireSession lets only a signed-in caller here). */
export default function SignedIn() {
  return (
    <Routes>
      <Route element={<Shell />}>
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
