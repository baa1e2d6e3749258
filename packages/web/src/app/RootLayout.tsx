import { useEffect, useSyncExternalStore } from 'react';
import { Outlet, useLocation } from 'react-router';
import { trackPageView } from './analytics';
import { chunkFailure } from './chunks';
import { ChunkReloadModal } from './ChunkReloadModal';
import { GlobalLoader } from './GlobalLoader';

/** Sends one page-view event per navigation, after the page has set its title. */
function PageViewTracker() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    // Child effects (the page's title) run first; a frame later the title is final.
    const id = window.setTimeout(() => trackPageView(pathname, search, document.title), 0);
    return () => window.clearTimeout(id);
  }, [pathname, search]);
  return null;
}

/** The root of every route: loader bar, page-view tracking, the chunk-failure modal. */
export function RootLayout() {
  const hasChunkFailed = useSyncExternalStore(chunkFailure.subscribe, chunkFailure.hasFailed, chunkFailure.hasFailed);
  return (
    <>
      <GlobalLoader />
      <PageViewTracker />
      <Outlet />
      {hasChunkFailed && <ChunkReloadModal />}
    </>
  );
}
