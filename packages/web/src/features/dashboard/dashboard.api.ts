import { ZDashboard } from '@patchwell/core/devices/devices.schema';
import { ZFleetDashboard } from '@patchwell/core/reports/dashboard.schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { PAGE_DATA_FRESH_MS } from '../../app/page-data';

export const dashboardKeys = {
  zone: (zoneId: number) => ['dashboard', zoneId] as const,
  fleet: (zoneId: number) => ['dashboard', 'fleet', zoneId] as const,
};

/** `GET /api/dashboard?o=`: device counts by status, OS and compliance, and pending patches. */
export function useDashboard(zoneId: number) {
  return useQuery({
    queryKey: dashboardKeys.zone(zoneId),
    queryFn: ({ signal }) => api.request('/api/dashboard', { query: { o: zoneId }, schema: ZDashboard, signal }),
  });
}

/** `GET /api/reports/dashboard?o=`: the fleet at a glance (computed at most every five minutes). */
export function fleetDashboardQuery(zoneId: number) {
  return queryOptions({
    queryKey: dashboardKeys.fleet(zoneId),
    staleTime: PAGE_DATA_FRESH_MS,
    queryFn: ({ signal }) =>
      api.request('/api/reports/dashboard', { query: { o: zoneId }, schema: ZFleetDashboard, signal }),
  });
}

export function useFleetDashboard(zoneId: number) {
  return useQuery(fleetDashboardQuery(zoneId));
}
