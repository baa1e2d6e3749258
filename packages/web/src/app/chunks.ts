import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/** A route's code could not be downloaded (usually: a new version replaced the old files). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(cause: unknown) {
    super('A part of the console failed to load.', { cause });
  }
}

type Listener = () => void;
let failed = false;
const listeners = new Set<Listener>();

/** Chunk failures seen outside the router (Vite's preload errors) switch the reload modal on. */
export const chunkFailure = {
  report() {
    if (failed) return;
    failed = true;
    listeners.forEach((l) => l());
  },
  hasFailed: () => failed,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// What browsers and Vite say when a module, or the CSS preloaded with it, cannot be downloaded.
const DOWNLOAD_FAILURES = [
  'Failed to fetch dynamically imported module', // Chromium
  'error loading dynamically imported module', // Firefox
  'Importing a module script failed', // Safari
  'Unable to preload CSS', // Vite's CSS preload
];

/** Whether `error` says that a part of the console could not be downloaded. */
export function isChunkLoadFailure(error: unknown): boolean {
  return error instanceof Error && DOWNLOAD_FAILURES.some((text) => error.message.includes(text));
}

/**
 * The `vite:preloadError` listener. Vite's build runs a whole `import('./m').then((m) => m.f())`
 * chain inside its preload helper, so the event also carries what `f()` rejects with: the
 * session check's 401, say. Only a failed download switches the reload modal on (and is taken
 * from the caller, as Vite allows by preventDefault); any other error goes back to its caller.
 */
export function onPreloadError(event: Event & { payload?: unknown }): void {
  if (!isChunkLoadFailure(event.payload)) return;
  event.preventDefault();
  chunkFailure.report();
}

/**
 * What the login page does without: the rest of Mantine's styles (main.tsx loads the login
 * page's share). Every other page waits for them, so the login page stays light and no page
 * renders without its components' styles. (The confirm-modal host loads with the first
 * confirmation: ui/modals-host.ts.)
 */
export const loadBeyondLogin = () => import('./mantine-styles-rest');

/**
 * A react-router `lazy` for a page module: loads `load()`, takes the named component, and
 * turns a failed download into ChunkLoadError so the error boundary shows the reload modal.
 * The page also waits for the rest of Mantine's styles, unless `isFirstPage` (the login page).
 * `route` adds what else the module gives its route (a loader that asks for the page's data).
 */
export function lazyPage<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  {
    isFirstPage = false,
    route,
  }: { isFirstPage?: boolean; route?: (module: M) => Pick<RouteObject, 'loader' | 'shouldRevalidate'> } = {},
) {
  return async () => {
    let module: M;
    try {
      // The styles are asked for first, so their <link> precedes the page's own CSS, which may
      // override Mantine's (as when styles.css came first, in the entry).
      const styles = isFirstPage ? undefined : loadBeyondLogin();
      [module] = await Promise.all([load(), styles]);
    } catch (error) {
      chunkFailure.report();
      throw new ChunkLoadError(error);
    }
    return { Component: pick(module), ...route?.(module) };
  };
}

/**
 * A route loader whose code is downloaded on first use, so loaders (and the schemas they
 * validate with) stay out of the first page's bundle. `make` builds the loader from the
 * module once.
 */
export function lazyLoader<M, A, R>(load: () => Promise<M>, make: (module: M) => (args: A) => R) {
  let loader: ((args: A) => R) | undefined;
  return async (args: A): Promise<Awaited<R>> => {
    if (!loader) {
      let module: M;
      try {
        module = await load();
      } catch (error) {
        chunkFailure.report();
        throw new ChunkLoadError(error);
      }
      loader = make(module);
    }
    return await loader(args);
  };
}
