import { ClientConfigShape } from '@patchwell/core/shell/config.parse';
import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

// The signed-out pages read the config: it is checked without zod, so they load none.

export const CONFIG_QUERY_KEY = ['shared', 'config'] as const;

/** `GET /api/shared/js/config?json=true`: help links, support and docs URLs, countries. */
export function configQuery() {
  return {
    queryKey: CONFIG_QUERY_KEY,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.request('/api/shared/js/config', {
        query: { json: true },
        schema: ClientConfigShape,
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

/** The help link with this label, as the config names it ('Knowledge Base', ...). */
export function helpLink(config: ClientConfig | undefined, label: string): string | undefined {
  return config?.help_links.find((l) => l.label.toLowerCase() === label.toLowerCase())?.url;
}
