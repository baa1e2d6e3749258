import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, encodeQuery, type QueryValue } from '../../api/client';
import {
  ZAgentInfo,
  ZDeviceBatchResult,
  ZDeviceCommandList,
  ZDeviceDetail,
  ZDeviceList,
  ZDevicePackageList,
} from '@patchwell/core/devices/devices.schema';
import type { BatchBody, DeviceCommand, QueueCommandType, UpdateDeviceBody } from './devices.types';
import { PAGE_DATA_FRESH_MS } from '../../app/page-data';

/** Device calls (docs/api/devices-agent-contract.md, "Devices"). Every call carries the zone as `o`. */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['devices', zoneId, 'list', query] as const,
  detail: (zoneId: number, id: number) => ['devices', zoneId, 'detail', id] as const,
  packages: (zoneId: number, id: number, query: Record<string, QueryValue>) =>
    ['devices', zoneId, 'detail', id, 'packages', query] as const,
  commands: (zoneId: number, id: number, query: Record<string, QueryValue>) =>
    ['devices', zoneId, 'detail', id, 'commands', query] as const,
  info: (zoneId: number) => ['agent-info', zoneId] as const,
};

/** Is a command still waiting for its device? */
export const isCommandOpen = (c: DeviceCommand) => c.status === 'pending' || c.status === 'in_progress';

/** While a device has an open command, its details refresh this often (live status). */
export const LIVE_STATUS_POLL_MS = 5_000;

/** `GET /api/servers?o=&page=&limit=&sort=&<filters>`: the page's query and its route loader's. */
export function devicesQuery(zoneId: number, query: Record<string, QueryValue>) {
  return queryOptions({
    queryKey: deviceKeys.list(zoneId, query),
    staleTime: PAGE_DATA_FRESH_MS,
    queryFn: ({ signal }) =>
      api.request('/api/servers', { query: { o: zoneId, ...query }, schema: ZDeviceList, signal }),
  });
}

export function useDevices(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({ ...devicesQuery(zoneId, query), placeholderData: keepPreviousData });
}

/** The CSV export of the filtered list (`GET /api/servers/export.csv`), as a download link. */
export function devicesExportHref(zoneId: number, query: Record<string, QueryValue>): string {
  return `/api/servers/export.csv?${encodeQuery({ o: zoneId, ...query })}`;
}

/** `GET /api/servers/{id}?o=`; polls every 5 s while a command is pending or running. */
export function useDevice(zoneId: number, id: number) {
  return useQuery({
    queryKey: deviceKeys.detail(zoneId, id),
    queryFn: ({ signal }) => api.request(`/api/servers/${id}`, { query: { o: zoneId }, schema: ZDeviceDetail, signal }),
    refetchInterval: (q) => (q.state.data?.commands.some(isCommandOpen) ? LIVE_STATUS_POLL_MS : false),
    meta: { onError: 'none' },
  });
}

/** `GET /api/servers/{id}/packages?o=&page=&limit=&search=&needs_update=`. */
export function useDevicePackages(zoneId: number, id: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: deviceKeys.packages(zoneId, id, query),
    queryFn: ({ signal }) =>
      api.request(`/api/servers/${id}/packages`, {
        query: { o: zoneId, ...query },
        schema: ZDevicePackageList,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/servers/{id}/commands?o=&page=&limit=`; polls with the details while one is open. */
export function useDeviceCommands(zoneId: number, id: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: deviceKeys.commands(zoneId, id, query),
    queryFn: ({ signal }) =>
      api.request(`/api/servers/${id}/commands`, {
        query: { o: zoneId, ...query },
        schema: ZDeviceCommandList,
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(isCommandOpen) ? LIVE_STATUS_POLL_MS : false),
  });
}

/** `PUT /api/servers/{id}?o=` (Endpoint.manage): answers the updated details. */
export function updateDevice(zoneId: number, id: number, body: UpdateDeviceBody) {
  return api.request(`/api/servers/${id}`, { method: 'PUT', query: { o: zoneId }, body, schema: ZDeviceDetail });
}

/** `DELETE /api/servers/{id}?o=` (Endpoint.delete): the agent is told to stop. */
export function removeDevice(zoneId: number, id: number) {
  return api.request(`/api/servers/${id}`, { method: 'DELETE', query: { o: zoneId } });
}

/** `POST /api/servers/{id}/queues?o=`: scan (GetOS), patch all, reboot... */
export function queueCommand(zoneId: number, id: number, type: QueueCommandType, args?: Record<string, unknown>) {
  return api.request(`/api/servers/${id}/queues`, {
    method: 'POST',
    query: { o: zoneId },
    body: { command_type_name: type, ...(args ? { args } : {}) },
  });
}

/** `POST /api/servers/batch?o=`: tags, group, scan, reboot or remove on up to 500 devices. */
export function batchDevices(zoneId: number, body: BatchBody) {
  return api.request('/api/servers/batch', {
    method: 'POST',
    query: { o: zoneId },
    body,
    schema: ZDeviceBatchResult,
  });
}

/** `GET /api/info?o=`: install commands and (for Organization.manage) the zone's access key. */
export function useAgentInfo(zoneId: number, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.info(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/info', { query: { o: zoneId, internal: 1 }, schema: ZAgentInfo, signal }),
    enabled,
  });
}
