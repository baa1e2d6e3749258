import { ZBannerList } from '@patchwell/core/shell/banner.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const BANNERS_QUERY_KEY = ['banners'] as const;

/** `GET /api/banners`: the server's alert banners. A failure just shows none. */
export function useBanners() {
  return useQuery({
    queryKey: BANNERS_QUERY_KEY,
    queryFn: ({ signal }) => api.request('/api/banners', { schema: ZBannerList, signal }),
    staleTime: 5 * 60_000,
    meta: { onError: 'none' },
  });
}
