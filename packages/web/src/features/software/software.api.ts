import { ZSoftwareDeviceList, ZSoftwareList } from '@patchwell/core/devices/software.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type QueryValue } from '../../api/client';

/** Software calls (docs/api/devices-agent-contract.md, "Groups, software, info, dashboard"). */
export const softwareKeys = {
  all: ['software'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['software', zoneId, 'list', query] as const,
  devices: (zoneId: number, name: string) => ['software', zoneId, 'devices', name] as const,
};

/** `GET /api/orgs/{orgId}/packages?o=&page=&limit=&search=&os_family=&severity=&needs_update=`. */
export function useSoftware(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: softwareKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request(`/api/orgs/${zoneId}/packages`, { query: { o: zoneId, ...query }, schema: ZSoftwareList, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The first devices having a package: `GET /api/orgs/{orgId}/packages/devices?name=`. */
export const SOFTWARE_DEVICES_LIMIT = 50;
export function useSoftwareDevices(zoneId: number, name: string) {
  return useQuery({
    queryKey: softwareKeys.devices(zoneId, name),
    queryFn: ({ signal }) =>
      api.request(`/api/orgs/${zoneId}/packages/devices`, {
        query: { o: zoneId, name, limit: SOFTWARE_DEVICES_LIMIT },
        schema: ZSoftwareDeviceList,
        signal,
      }),
  });
}
