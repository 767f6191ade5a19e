import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { queryClient } from './api/query-client';
import { App } from './App';
import { ThemeRoot } from './components/ThemeRoot';
import { probablySignedIn, whoAmIQuery } from './api/session';
import { workspacesQuery } from './api/workspaces';
import { SignedIn } from './signed-in-page';

// Whether there is a session decides the first page: asked at once. A browser that had one last time also starts
// loading the pages behind it now, rather than after the answer (App.tsx loads them on demand otherwise).
void queryClient.prefetchQuery(whoAmIQuery);
// The workspace list, where most visits land, is asked for beside them too (a 401 there is left to whoami to act on).
if (probablySignedIn()) {
  void SignedIn.preload().catch(() => undefined);
  if (location.pathname === '/' || location.pathname === '/workspaces') void queryClient.prefetchQuery(workspacesQuery);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeRoot>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </ThemeRoot>
  </StrictMode>,
);
