import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { queryClient, signInPath } from './api/query-client';
import { App } from './App';
import { ThemeRoot } from './components/ThemeRoot';
import { noSession, whoAmIQuery } from './api/session';
import { workspacesQuery } from './api/workspaces';
import { keepTypedToken, PRERENDERED } from './prerendered';
import { SignedIn } from './signed-in-page';

const root = document.getElementById('root')!;
// The service sent the sign-in page drawn (prerender.tsx): it does so only to a browser without a session cookie.
const prerendered = root.dataset.prerendered === PRERENDERED;

// Whether there is a session decides the first page. The service sends the sign-in page drawn when the browser has no
// session cookie, and this page when it has one: then the session is likely, and the pages behind it and the workspace
// list (where most visits land) load beside the session check, whose answer decides (the service preloads both
// requests; a 401 on the list is left to whoami to act on).
if (prerendered) {
  noSession();
  // Where RequireSession would send it: the sign-in page the browser shows already, then back to the page asked for.
  if (location.pathname !== '/sign-in') history.replaceState(null, '', signInPath(location.pathname + location.search));
} else {
  void queryClient.prefetchQuery(whoAmIQuery);
  void SignedIn.preload().catch(() => undefined);
  if (location.pathname === '/' || location.pathname === '/workspaces') void queryClient.prefetchQuery(workspacesQuery);
}

const app = (
  <StrictMode>
    <ThemeRoot>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </ThemeRoot>
  </StrictMode>
);
const reactRoot = createRoot(root);
if (prerendered) {
  // Drawn over the prerendered form in this one task, so no key typed meanwhile is lost: what the field holds now is
  // the live form's first value. Then the prerendered page's styles go (the live page inserted its own).
  keepTypedToken(root);
  flushSync(() => reactRoot.render(app));
  delete root.dataset.prerendered;
  for (const style of document.querySelectorAll('style[data-prerendered]')) style.remove();
} else {
  reactRoot.render(app);
}
