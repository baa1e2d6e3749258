import { ZDashboard } from '@patchwell/core/devices/devices.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const dashboardKeys = { zone: (zoneId: number) => ['dashboard', zoneId] as const };

/** `GET /api/dashboard?o=`: device counts by status, OS and compliance, and pending patches. */
export function useDashboard(zoneId: number) {
  return useQuery({
    queryKey: dashboardKeys.zone(zoneId),
    queryFn: ({ signal }) => api.request('/api/dashboard', { query: { o: zoneId }, schema: ZDashboard, signal }),
  });
}
