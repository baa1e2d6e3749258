import { ids, admin, q, inZone, type Case } from './context';

/** Maintenance windows: create, edit, delete (on the zone's default group). */
const body = async () => {
  const groups = await admin().get(q('/api/servergroups'));
  const def = (groups.body as { id: number; default: boolean }[]).find((g) => g.default)!;
  return {
    name: 'Coverage window',
    server_group_id: def.id,
    timezone: 'UTC',
    schedule: { kind: 'weekly', days: [6], start_time: '22:00', duration_minutes: 120 },
  };
};

export const maintenanceWindowCases: Record<string, Case> = {
  'POST /api/maintenance-windows': {
    run: async () => {
      const res = await admin().post(q('/api/maintenance-windows'), await body());
      ids.maintenanceWindow = res.body?.id;
      return res;
    },
    action: 'maintenance_window.create',
    zone: inZone,
  },
  'PUT /api/maintenance-windows/{windowId}': {
    run: async () =>
      admin().put(q(`/api/maintenance-windows/${ids.maintenanceWindow}`), { ...(await body()), name: 'Renamed' }),
    action: 'maintenance_window.update',
    zone: inZone,
  },
  'DELETE /api/maintenance-windows/{windowId}': {
    run: () => admin().del(q(`/api/maintenance-windows/${ids.maintenanceWindow}`)),
    action: 'maintenance_window.delete',
    zone: inZone,
  },
};
