import './app/zod-config';
// The login page's share of Mantine's styles; other pages load the rest (app/chunks.ts).
import './app/mantine-styles';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { api } from './api/client';
import { onPreloadError } from './app/chunks';
import { takePageConfig } from './app/page-config';
import { CONFIG_QUERY_KEY } from './features/shell/config.api';
import { globalLoader } from './app/loader';
import { consolePath } from './app/paths';
import { Providers } from './app/Providers';
import { queryClient } from './app/query-client';
import { BASENAME, createAppRouter } from './app/router';
import { createAuthFailureHandler } from './app/auth-failure';

const router = createAppRouter();

// The configuration sent with the page: the pages that read it do not ask for it first.
const pageConfig = takePageConfig();
if (pageConfig) queryClient.setQueryData(CONFIG_QUERY_KEY, pageConfig);

api.configure({
  onRequestStart: () => globalLoader.start(),
  onRequestEnd: () => globalLoader.finish(),
  onAuthFailure: createAuthFailureHandler({
    navigate: (to) => void router.navigate(to),
    currentPath: () => consolePath(window.location, BASENAME),
    onExpired: () => queryClient.clear(),
  }),
});

// Vite reports a failed preload of a lazily loaded chunk's dependencies here.
window.addEventListener('vite:preloadError', onPreloadError);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// In a transition, React renders the first page in slices of a few milliseconds and lets the
// browser answer input between them, instead of one long task as the scripts arrive.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
