import { Component, type ErrorInfo, type ReactNode, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Spinner } from '@fluentui/react-components';

/** Where the one automatic reload after a failed chunk is remembered (per tab), so a chunk that stays missing never loops. */
const RELOAD_KEY = 'svc.chunkReload';

/** True for an error of loading a page's code: the chunk's file is gone (a redeploy) or could not be fetched (offline). */
export function isChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

const reloadedHere = () => sessionStorage.getItem(RELOAD_KEY) === location.pathname;

/** Reloads the app with a fresh index.html (and so the current chunk names); the user asked for it, so no memory of it. */
function reload() {
  sessionStorage.removeItem(RELOAD_KEY);
  location.reload();
}

interface State {
  error?: unknown;
  reloading?: boolean;
}

/**
 * One page's error boundary: the shell and its navigation stay usable whatever the page throws. A page whose code
 * cannot be loaded reloads the app once (a redeploy replaced the chunk names), then says so with a Reload button;
 * any other error is shown with its message, never a blank page.
 */
class Boundary extends Component<{ children: ReactNode; path: string }, State> {
  state: State = {};

  // Another page (the navigation still works) starts without the error of the last one.
  componentDidUpdate(prev: { path: string }) {
    if (prev.path !== this.props.path && this.state.error !== undefined) this.setState({ error: undefined, reloading: false });
  }

  static getDerivedStateFromError(error: unknown): State {
    // Offline, a reload would only show the browser's own error page: say so instead, with Reload for later.
    if (isChunkError(error) && navigator.onLine && !reloadedHere()) return { error, reloading: true };
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    if (this.state.reloading) {
      sessionStorage.setItem(RELOAD_KEY, location.pathname);
      location.reload();
      return;
    }
    console.error('a page failed to render', error, info.componentStack);
  }

  render() {
    const { error, reloading } = this.state;
    if (error === undefined) return this.props.children;
    if (reloading) return <Spinner label="Loading a new version of the console…" style={{ marginTop: 48 }} />;
    const chunk = isChunkError(error);
    return (
      <MessageBar intent="error" layout="multiline" role="alert" data-testid="page-error">
        <MessageBarBody>
          <MessageBarTitle>{chunk ? 'This page could not be loaded' : 'This page stopped working'}</MessageBarTitle>
          {chunk && !navigator.onLine
            ? 'Its code could not be downloaded: you are offline. Reload once the connection is back.'
            : chunk
              ? 'Its code could not be downloaded: the connection dropped, or the console was updated since this tab opened. Reload to get the current version.'
              : 'Something went wrong while showing it. The rest of the console still works: use the navigation, or reload to try this page again.'}
          {!chunk && (
            <details>
              <summary>Technical details</summary>
              <code>{error instanceof Error ? error.message : String(error)}</code>
            </details>
          )}
        </MessageBarBody>
        <MessageBarActions>
          <Button appearance="primary" onClick={reload}>
            Reload
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
}

/** Mounted only once the page's code has arrived: a later failed chunk may reload once again. */
function Loaded() {
  useEffect(() => {
    if (reloadedHere()) sessionStorage.removeItem(RELOAD_KEY);
  }, []);
  return null;
}

const loading = <Spinner label="Loading…" style={{ marginTop: 48 }} />;

/**
 * A routed page inside its own error boundary and loading state. `outer` marks one that holds other pages' boundaries
 * (the signed-in part of the console): its code arriving says nothing of the page's, so it leaves the reload memory to them.
 */
export function PageBoundary({ children, outer = false }: { children: ReactNode; outer?: boolean }) {
  const { pathname } = useLocation();
  return (
    <Boundary path={pathname}>
      <Suspense fallback={loading}>
        {children}
        {!outer && <Loaded />}
      </Suspense>
    </Boundary>
  );
}
