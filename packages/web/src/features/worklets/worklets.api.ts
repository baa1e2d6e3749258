import { ZWorkletCatalogEntry, ZWorkletCatalogList } from '@patchwell/core/worklets/worklet-catalog.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type QueryValue } from '../../api/client';

/** Worklet catalogue calls (spec B section 7: the list answers `{ results, size }`). */
export const workletKeys = {
  all: ['worklet-catalog'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['worklet-catalog', zoneId, 'list', query] as const,
  detail: (zoneId: number, id: string) => ['worklet-catalog', zoneId, 'detail', id] as const,
};

/** `GET /api/worklet-catalog?o=&page=&limit=&os_family=&category=&search=`. */
export function useWorkletCatalog(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: workletKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/worklet-catalog', { query: { o: zoneId, ...query }, schema: ZWorkletCatalogList, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/worklet-catalog/{id}?o=` by slug or UUID. */
export function useWorklet(zoneId: number, id: string | null) {
  return useQuery({
    queryKey: workletKeys.detail(zoneId, id ?? ''),
    queryFn: ({ signal }) =>
      api.request(`/api/worklet-catalog/${encodeURIComponent(id ?? '')}`, {
        query: { o: zoneId },
        schema: ZWorkletCatalogEntry,
        signal,
      }),
    enabled: id !== null && id !== '',
    meta: { onError: 'none' },
  });
}
