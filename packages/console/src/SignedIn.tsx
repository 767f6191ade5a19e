import { Navigate, Route, Routes } from 'react-router-dom';
import { lazyPage } from './components/lazy';
import { PageBoundary } from './components/PageBoundary';
import { Shell } from './components/Shell';
import { WorkspacesPage } from './pages/WorkspacesPage';

// Everything behind the session: loaded once the caller has a session, or while the sign-in page shows.
// The first page a signed-in user meets is the workspace list; every other page loads on demand.
const WorkspacePage = lazyPage(() => import('./pages/WorkspacePage'));
const ItemPage = lazyPage(() => import('./pages/ItemPage'));
const ThreadPage = lazyPage(() => import('./pages/ThreadPage'));
const CatalogPage = lazyPage(() => import('./pages/CatalogPage'));
const AppPage = lazyPage(() => import('./pages/AppPage'));
const JobsPage = lazyPage(() => import('./pages/JobsPage'));
const JobPage = lazyPage(() => import('./pages/JobPage'));
const IdentityPage = lazyPage(() => import('./pages/IdentityPage'));
const ReportsPage = lazyPage(() => import('./pages/ReportsPage'));
const ReportDesignerPage = lazyPage(() => import('./pages/ReportDesignerPage'));
const AuditPage = lazyPage(() => import('./pages/AuditPage'));
const TokensPage = lazyPage(() => import('./pages/TokensPage'));

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
