import {
  ZMaintenanceWindow,
  ZMaintenanceWindowList,
  type MaintenanceWindowBody,
} from '@patchwell/core/maintenance/maintenance-windows.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Maintenance windows of the zone's device groups (ServerGroup rights). */
export const maintenanceKeys = {
  all: ['maintenance-windows'] as const,
  list: (zoneId: number) => ['maintenance-windows', zoneId] as const,
};

/** `GET /api/maintenance-windows?o=`. */
export function useMaintenanceWindows(zoneId: number) {
  return useQuery({
    queryKey: maintenanceKeys.list(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/maintenance-windows', { query: { o: zoneId }, schema: ZMaintenanceWindowList, signal }),
  });
}

/** `POST /api/maintenance-windows?o=`. */
export function createMaintenanceWindow(zoneId: number, body: MaintenanceWindowBody) {
  return api.request('/api/maintenance-windows', {
    method: 'POST',
    query: { o: zoneId },
    body,
    schema: ZMaintenanceWindow,
  });
}

/** `PUT /api/maintenance-windows/{id}?o=`: the whole window. */
export function updateMaintenanceWindow(zoneId: number, id: number, body: MaintenanceWindowBody) {
  return api.request(`/api/maintenance-windows/${id}`, {
    method: 'PUT',
    query: { o: zoneId },
    body,
    schema: ZMaintenanceWindow,
  });
}

export function deleteMaintenanceWindow(zoneId: number, id: number) {
  return api.request(`/api/maintenance-windows/${id}`, { method: 'DELETE', query: { o: zoneId } });
}
