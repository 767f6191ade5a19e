import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { queryClient } from './api/query-client';
import { App } from './App';
import { ThemeRoot } from './components/ThemeRoot';

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
