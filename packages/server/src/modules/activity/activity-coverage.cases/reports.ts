import { ids, admin, q, inZone, scheduleBody, type Case } from './context';

/** Reports: data extracts and schedules. */
export const reportCases: Record<string, Case> = {
  'POST /api/reports/data-extracts': {
    run: () => admin().post(q('/api/reports/data-extracts'), { kind: 'software', preset: 'last7days' }),
    action: 'data_extract.request',
    zone: inZone,
  },
  'POST /api/reports/schedules': {
    run: async () => {
      const res = await admin().post(q('/api/reports/schedules'), scheduleBody);
      ids.schedule = res.body?.id;
      return res;
    },
    action: 'report_schedule.create',
    zone: inZone,
  },
  'PUT /api/reports/schedules/{scheduleId}': {
    run: () => admin().put(q(`/api/reports/schedules/${ids.schedule}`), { ...scheduleBody, time: '09:15' }),
    action: 'report_schedule.update',
    zone: inZone,
  },
  'POST /api/reports/schedules/{scheduleId}/send': {
    run: () => admin().post(q(`/api/reports/schedules/${ids.schedule}/send`)),
    action: 'report_schedule.send_now',
    zone: inZone,
  },
  'DELETE /api/reports/schedules/{scheduleId}': {
    run: () => admin().del(q(`/api/reports/schedules/${ids.schedule}`)),
    action: 'report_schedule.delete',
    zone: inZone,
  },
};
