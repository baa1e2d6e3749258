import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZGlobalDeviceList } from '@patchwell/core/devices/global-devices.schema';
import { api, type QueryValue } from '../../api/client';

export const globalDeviceKeys = {
  list: (accountId: number, query: Record<string, QueryValue>) => ['global-devices', accountId, query] as const,
};

/** `GET /api/accounts/{accountId}/devices?page=&limit=&sort=&search=`: every zone's devices. */
export function useGlobalDevices(accountId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: globalDeviceKeys.list(accountId, query),
    queryFn: ({ signal }) =>
      api.request(`/api/accounts/${accountId}/devices`, { query, schema: ZGlobalDeviceList, signal }),
    placeholderData: keepPreviousData,
  });
}
