import { QUERY_CACHE_ENTRIES } from '@patchwell/core/constants';
import { BASE_TEXTS } from '@patchwell/core/texts.base';
import { MutationCache, QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { ApiError } from '../api/errors';
import { notify } from '../ui/notify';

/** What a failing query tells the user (set in a query's `meta.onError`). */
export type QueryErrorNotice = 'pageLoad' | 'config' | 'api' | 'none';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { onError?: QueryErrorNotice };
    mutationMeta: { onError?: 'api' | 'none' };
  }
}

/**
 * Keeps at most `max` queries in the cache (spec: the query cache holds 10 entries). When
 * the cache grows past it, the least recently used queries that no component is watching
 * and that are not fetching are removed; watched queries are never evicted.
 */
export function limitQueryCache(cache: QueryCache, max: number = QUERY_CACHE_ENTRIES): () => void {
  const lastUsed = new Map<string, number>();
  let tick = 0;
  const touch = (query: Query) => lastUsed.set(query.queryHash, ++tick);

  const evict = () => {
    const all = cache.getAll();
    let excess = all.length - max;
    if (excess <= 0) return;
    const candidates = all
      .filter((q) => q.getObserversCount() === 0 && q.state.fetchStatus !== 'fetching')
      .sort((a, b) => (lastUsed.get(a.queryHash) ?? 0) - (lastUsed.get(b.queryHash) ?? 0));
    for (const query of candidates) {
      if (excess <= 0) break;
      cache.remove(query);
      excess -= 1;
    }
  };

  return cache.subscribe((event) => {
    switch (event.type) {
      case 'added':
      case 'observerAdded':
        touch(event.query);
        evict();
        break;
      case 'observerRemoved':
        touch(event.query);
        evict();
        break;
      case 'updated':
        if (event.action.type === 'success') {
          touch(event.query);
          evict();
        }
        break;
      case 'removed':
        lastUsed.delete(event.query.queryHash);
        break;
      default:
        break;
    }
  });
}

/** Retry network failures and 5xx twice; a 4xx will not change by asking again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

function onQueryError(error: unknown, query: Query<unknown, unknown, unknown>) {
  const notice = query.meta?.onError ?? 'pageLoad';
  if (notice === 'none') return;
  // 401/403 lead to the session check and the login page; a snackbar would only add noise.
  if (error instanceof ApiError && (error.status === 401 || error.status === 403) && notice !== 'api') return;
  if (notice === 'config') notify.error(BASE_TEXTS.generic.configLoadFailed);
  else if (notice === 'api') notify.apiError(error);
  else notify.error(BASE_TEXTS.generic.pageLoadFailed);
}

export function createQueryClient(): QueryClient {
  const queryCache = new QueryCache({ onError: onQueryError });
  const mutationCache = new MutationCache({
    onError: (error, _vars, _ctx, mutation) => {
      if (mutation.meta?.onError === 'none') return;
      notify.apiError(error);
    },
  });
  const client = new QueryClient({
    queryCache,
    mutationCache,
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  limitQueryCache(queryCache);
  return client;
}

export const queryClient = createQueryClient();
