import './app/zod-config';
// The login page's share of Mantine's styles; other pages load the rest (app/chunks.ts).
import './app/mantine-styles';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode, startTransition, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { api } from './api/client';
import { onPreloadError } from './app/chunks';
import { pressAgain, takeEarlyPress } from './app/early-press';
import { takePageConfig } from './app/page-config';
import { isDrawnPage, routerReady, takeRenderedPage } from './app/page-rendered';
import { CONFIG_QUERY_KEY } from './features/shell/config.api';
import { globalLoader } from './app/loader';
import { consolePath } from './app/paths';
import { Providers } from './app/Providers';
import { queryClient } from './app/query-client';
import { BASENAME, createAppRouter } from './app/router';
import { createAuthFailureHandler } from './app/auth-failure';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
// Before the router starts: its first loaders find the drawn page's data in the cache.
const isDrawn = takeRenderedPage(queryClient, container);
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

const app = (
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);

/** Runs `then` once its tree is on the page (for a hydrated page: once React answers presses). */
function WhenCommitted({ then, children }: { then: () => void; children: ReactNode }) {
  useEffect(then, [then]);
  return children;
}

// In a transition, React renders (or hydrates) the first page in slices of a few milliseconds
// and lets the browser answer input between them, instead of one long task as the scripts arrive.
if (isDrawn) {
  // A page the server drew (decision 0030) is hydrated once the router stands on it. Not
  // awaited at the top: this module's chunk must finish running for the page's chunks, which
  // import from it, to load at all.
  void routerReady(router).then(() => {
    // Taken either way: holding presses stops here. On another page the press is dropped.
    let early = takeEarlyPress();
    if (isDrawnPage(router, window.location)) {
      startTransition(
        () =>
          void hydrateRoot(
            container,
            <WhenCommitted
              then={() => {
                // Once, whatever renders the root again.
                pressAgain(early);
                early = null;
              }}
            >
              {app}
            </WhenCommitted>,
          ),
      );
    } else {
      container.replaceChildren();
      startTransition(() => createRoot(container).render(app));
    }
  });
} else {
  startTransition(() => createRoot(container).render(app));
}
