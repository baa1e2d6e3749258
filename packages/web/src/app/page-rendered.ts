import { CONSOLE_RENDERED_ELEMENT_ID } from '@patchwell/core/constants';
import type { ConsolePageState } from '@patchwell/core/shell/page-render';
import type { QueryClient } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';
import { takeDataBlock } from './data-block';

/**
 * Whether the server drew this page (decision 0030, server/src/http/console-render.ts): its
 * markup is in `container` and the data it was drawn from in its data block, which this puts
 * in `client` (taken once). The console then hydrates the markup instead of drawing anew.
 */
export function takeRenderedPage(client: QueryClient, container: HTMLElement): boolean {
  const state = takeDataBlock(CONSOLE_RENDERED_ELEMENT_ID) as Partial<ConsolePageState> | undefined;
  // Checked by hand: zod is not in the login page's download, which this module is part of.
  const queries =
    typeof state === 'object' && state !== null && Array.isArray(state.queries) ? state.queries : undefined;
  if (!queries || !container.firstElementChild) return false;
  for (const { key, data, updatedAt } of queries) {
    if (Array.isArray(key) && data !== undefined)
      client.setQueryData(key, data, { updatedAt: Number(updatedAt) || undefined });
  }
  return true;
}

/**
 * Resolves once the router has run the first page's loaders and loaded its route modules:
 * hydrating before would draw the loading state over the server's page. On a drawn page the
 * loaders find their data in the cache and ask nothing.
 */
export function routerReady(router: Pick<DataRouter, 'state' | 'subscribe'>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/**
 * Whether the router's first page is the one the server drew: the same address (the router's
 * includes its basename, as the document's does), no error
 * (a loader that redirected or failed draws another page, which the console then draws anew).
 */
export function isDrawnPage(router: Pick<DataRouter, 'state'>, location: Pick<Location, 'pathname' | 'search'>) {
  const { state } = router;
  return !state.errors && state.location.pathname === location.pathname && state.location.search === location.search;
}
