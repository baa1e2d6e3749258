import type { QueryClient } from '@tanstack/react-query';
import { pageDataLoader, type PageDataAsk } from '../../app/page-data';
import { activeFilters, apiPaging, readTableQuery, type TableQuery } from '../../ui/table/table-query';
import { groupsQuery } from '../groups/groups.api';
import { DEVICE_FILTERS, type DeviceFilter } from './device-filters';
import { devicesQuery } from './devices.api';

/** What the devices page asks `GET /api/servers` for, from its table state. */
export function deviceListParams(query: TableQuery<DeviceFilter>) {
  return { ...apiPaging(query), ...activeFilters(query.filters) };
}

/** The devices route's loader. */
export const devicesLoader = (client?: QueryClient) => pageDataLoader(devicesData, client);

/** What the devices page draws: the page of devices the address asks for, and the zone's groups (its filter). */
export const devicesData: PageDataAsk = (c, zoneId, url) => [
  c.ensureQueryData(devicesQuery(zoneId, deviceListParams(readTableQuery(url.searchParams, DEVICE_FILTERS)))),
  c.ensureQueryData(groupsQuery(zoneId)),
];
