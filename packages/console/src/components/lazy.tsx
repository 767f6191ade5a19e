import { type ComponentProps, type ComponentType, Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
}

/**
 * Catches a part whose code could not be downloaded (offline, or a redeploy removed the old file) so the page around
 * it stays, and says so with Try again (downloads it anew) and Reload.
 */
class PartBoundary extends Component<BoundaryProps, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div style={{ position: 'fixed', left: '50%', bottom: 24, transform: 'translateX(-50%)', zIndex: 1000, width: 'min(560px, 90vw)' }}>
        <MessageBar intent="error" layout="multiline" role="alert" data-testid="part-load-failed">
          <MessageBarBody>
            <MessageBarTitle>This part of the console could not be loaded</MessageBarTitle>
            The browser could not download it: it may be offline, or the console was updated since this page opened.
          </MessageBarBody>
          <MessageBarActions>
            <Button
              onClick={() => {
                this.props.onRetry();
                this.setState({ failed: false });
              }}
            >
              Try again
            </Button>
            <Button onClick={() => window.location.reload()}>Reload</Button>
          </MessageBarActions>
        </MessageBar>
      </div>
    );
  }
}

/**
 * A component whose code loads on its first render, not with the first page. Nothing shows while it loads: it is
 * meant for what opens on a click (dialogs, drawers), where the wait is one small download on demand. A failed
 * download shows a message in place of the part, never a blank console.
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props, as React.lazy takes them.
export function lazyPart<T extends ComponentType<any>>(load: () => Promise<T>): ComponentType<ComponentProps<T>> {
  const make = () => lazy(async () => ({ default: await load() }));
  // One loader for every instance; replaced by Try again, since React keeps a failed one's error.
  let Part = make();
  return (props: ComponentProps<T>) => {
    const [, setAttempt] = useState(0);
    return (
      <PartBoundary
        onRetry={() => {
          Part = make();
          setAttempt((n) => n + 1);
        }}
      >
        <Suspense fallback={null}>
          <Part {...props} />
        </Suspense>
      </PartBoundary>
    );
  };
}

/**
 * Like lazyPart for a dialog rendered closed (`open={false}`) until the user opens it: its code loads when it first
 * opens, and it stays mounted afterwards so its closing transition still plays.
 */
// biome-ignore lint/suspicious/noExplicitAny: any dialog's props, as React.lazy takes them.
export function lazyDialog<T extends ComponentType<any>>(load: () => Promise<T>): ComponentType<ComponentProps<T>> {
  const Part = lazyPart(load);
  return (props: ComponentProps<T>) => {
    const [opened, setOpened] = useState(false);
    if (props.open && !opened) setOpened(true);
    return opened || props.open ? <Part {...props} /> : null;
  };
}

/** A page whose code loads on demand, with `preload()` to start that load early (while another page shows). */
export interface LazyPage<P extends object> {
  (props: P): ReactNode;
  preload(): Promise<unknown>;
  /** Whether its code has arrived (it then renders at once). */
  isLoaded(): boolean;
}

/**
 * Like React.lazy for a routed page, except that once its code has arrived (preloaded, or shown before) it renders at
 * once: React.lazy suspends on its first render even when the module is already loaded, and React reveals suspended
 * content no sooner than its fallback throttle allows (about 300 ms), which a page behind the sign-in paid in full.
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  const Page = (props: P) => {
    // Chosen once per mount, so the page is never remounted when its code arrives while it shows.
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready {...props} /> : <Lazy {...props} />;
  };
  Page.preload = preload;
  Page.isLoaded = () => loaded !== undefined;
  return Page;
}

/**
 * Whether a lazy page's code has arrived, starting its download if not: a caller that shows its own loading state
 * until then renders the page at once, where rendering it earlier would suspend and wait out React's reveal throttle.
 * A failed download answers true as well, so the page renders and its boundary reports the failure.
 */
// biome-ignore lint/suspicious/noExplicitAny: any page's props.
export function useLoaded(page: LazyPage<any>): boolean {
  const [loaded, setLoaded] = useState(page.isLoaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    const done = () => {
      if (live) setLoaded(true);
    };
    page.preload().then(done, done);
    return () => {
      live = false;
    };
  }, [loaded, page]);
  return loaded;
}
