import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZActivityEventList } from '@patchwell/core/activity/activity.schema';
import { api, encodeQuery, type QueryValue } from '../../api/client';

/** Activity log calls (`GET /api/events`, its CSV). Every call carries the zone as `o`. */
export const activityKeys = {
  all: ['activity'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['activity', zoneId, query] as const,
};

/** `GET /api/events?o=&preset=&startDate=&endDate=&user_id=&action=&object_type=&object_id=&page=&limit=`. */
export function useActivity(zoneId: number, query: Record<string, QueryValue>, enabled = true) {
  return useQuery({
    queryKey: activityKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/events', { query: { o: zoneId, ...query }, schema: ZActivityEventList, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The CSV of the same filters (`GET /api/events/csv`), as a download link. */
export function activityCsvHref(zoneId: number, query: Record<string, QueryValue>): string {
  return `/api/events/csv?${encodeQuery({ o: zoneId, ...query })}`;
}
