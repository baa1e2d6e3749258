import { ZBannerList } from '@patchwell/core/shell/banner.schema';
import { ZClientConfig, type ClientConfig } from '@patchwell/core/shell/config.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const CONFIG_QUERY_KEY = ['shared', 'config'] as const;
export const BANNERS_QUERY_KEY = ['banners'] as const;

/** `GET /api/shared/js/config?json=true`: help links, support and docs URLs, countries. */
export function configQuery() {
  return {
    queryKey: CONFIG_QUERY_KEY,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.request('/api/shared/js/config', {
        query: { json: true },
        schema: ZClientConfig,
        signal,
        skipAuthCheck: true,
      }),
    staleTime: Infinity,
    gcTime: Infinity,
    meta: { onError: 'config' as const },
  };
}

export function useClientConfig(): ClientConfig | undefined {
  return useQuery(configQuery()).data;
}

/** `GET /api/banners`: the server's alert banners. A failure just shows none. */
export function useBanners() {
  return useQuery({
    queryKey: BANNERS_QUERY_KEY,
    queryFn: ({ signal }) => api.request('/api/banners', { schema: ZBannerList, signal }),
    staleTime: 5 * 60_000,
    meta: { onError: 'none' },
  });
}

/** The help link with this label, as the config names it ('Knowledge Base', ...). */
export function helpLink(config: ClientConfig | undefined, label: string): string | undefined {
  return config?.help_links.find((l) => l.label.toLowerCase() === label.toLowerCase())?.url;
}
