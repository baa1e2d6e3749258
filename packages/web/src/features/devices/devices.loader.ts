import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import { queryClient as defaultQueryClient } from '../../app/query-client';
import { requestedZoneId } from '../../app/zone';
import { activeFilters, apiPaging, readTableQuery, type TableQuery } from '../../ui/table/table-query';
import { groupsQuery } from '../groups/groups.api';
import { DEVICE_FILTERS, type DeviceFilter } from './device-filters';
import { devicesQuery } from './devices.api';

/** What the devices page asks `GET /api/servers` for, from its table state. */
export function deviceListParams(query: TableQuery<DeviceFilter>) {
  return { ...apiPaging(query), ...activeFilters(query.filters) };
}

/**
 * The devices route's loader: the page of devices the address asks for, and the zone's
 * groups (its filter), asked beside the shell's loader and in the cache when the page first
 * renders. The page's rows are then drawn in the first render, which React slices (main.tsx),
 * instead of in a second one when the answer arrives, which a query's store subscription
 * makes one task. A failure is left to the page's own query, which shows it.
 */
export function devicesLoader(client: QueryClient = defaultQueryClient) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    // Without a zone the shell's loader redirects to the address with one; this runs again then.
    const zoneId = requestedZoneId(url.searchParams);
    if (zoneId === undefined) return null;
    const params = deviceListParams(readTableQuery(url.searchParams, DEVICE_FILTERS));
    await Promise.allSettled([
      client.ensureQueryData(devicesQuery(zoneId, params)),
      client.ensureQueryData(groupsQuery(zoneId)),
    ]);
    return null;
  };
}

/**
 * Only on the way into the page: a new page, sort or filter of the list is the page's own
 * query (it keeps the rows shown while the next ones load), not a navigation that waits.
 */
export function devicesShouldRevalidate({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}
