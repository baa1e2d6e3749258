import { useQuery } from '@tanstack/react-query';
import {
  ZReportSchedule,
  ZReportScheduleList,
  ZReportScheduleSend,
  ZReportScheduleSendList,
  type ReportScheduleBody,
} from '@patchwell/core/reports/schedules.schema';
import { api, type QueryValue } from '../../../api/client';

/** Scheduled reports' calls (`/api/reports/schedules…`). Every call carries the zone as `o`. */
export const scheduleKeys = {
  all: (zoneId: number) => ['reports', zoneId, 'schedules'] as const,
  list: (zoneId: number, query: Record<string, QueryValue>) => ['reports', zoneId, 'schedules', 'list', query] as const,
  sends: (zoneId: number, id: number) => ['reports', zoneId, 'schedules', id, 'sends'] as const,
};

/** `GET /api/reports/schedules?o&page&limit`. */
export function useReportSchedules(zoneId: number, query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: scheduleKeys.list(zoneId, query),
    queryFn: ({ signal }) =>
      api.request('/api/reports/schedules', { query: { o: zoneId, ...query }, schema: ZReportScheduleList, signal }),
  });
}

/** `GET /api/reports/schedules/{id}/sends?o&limit=10`: the last ten. */
export function useScheduleSends(zoneId: number, id: number) {
  return useQuery({
    queryKey: scheduleKeys.sends(zoneId, id),
    queryFn: ({ signal }) =>
      api.request(`/api/reports/schedules/${id}/sends`, {
        query: { o: zoneId, limit: 10 },
        schema: ZReportScheduleSendList,
        signal,
      }),
  });
}

export function createReportSchedule(zoneId: number, body: ReportScheduleBody) {
  return api.request('/api/reports/schedules', { method: 'POST', query: { o: zoneId }, body, schema: ZReportSchedule });
}

export function updateReportSchedule(zoneId: number, id: number, body: ReportScheduleBody) {
  return api.request(`/api/reports/schedules/${id}`, {
    method: 'PUT',
    query: { o: zoneId },
    body,
    schema: ZReportSchedule,
  });
}

export function deleteReportSchedule(zoneId: number, id: number) {
  return api.request(`/api/reports/schedules/${id}`, { method: 'DELETE', query: { o: zoneId } });
}

export function sendReportScheduleNow(zoneId: number, id: number) {
  return api.request(`/api/reports/schedules/${id}/send`, {
    method: 'POST',
    query: { o: zoneId },
    schema: ZReportScheduleSend,
  });
}
