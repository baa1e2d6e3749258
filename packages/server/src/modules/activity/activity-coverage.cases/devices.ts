import { o, ids, admin, q, multipart, inZone, type Case } from './context';

/** Devices and groups: create and edit groups, tag, edit, reboot, host imports. */
export const deviceCases: Record<string, Case> = {
  'POST /api/servergroups': {
    run: async () => {
      const res = await admin().post(q('/api/servergroups'), { name: 'Coverage group' });
      ids.group = res.body?.id;
      return res;
    },
    action: 'group.create',
    zone: inZone,
  },
  'PUT /api/servergroups/{id}': {
    run: () => admin().put(q(`/api/servergroups/${ids.group}`), { name: 'Coverage group 2', organization_id: o }),
    action: 'group.update',
    zone: inZone,
  },
  'POST /api/servergroups/{id}/servers': {
    run: () => admin().post(q(`/api/servergroups/${ids.group}/servers`), { ids: [ids.device] }),
    action: 'device.group',
    zone: inZone,
  },
  'POST /api/servers/batch': {
    run: () => admin().post(q('/api/servers/batch'), { action: 'tag', ids: [ids.device], tags: ['audited'] }),
    action: 'device.tag',
    zone: inZone,
  },
  'PUT /api/servers/{id}': {
    run: () => admin().put(q(`/api/servers/${ids.device}`), { notes: 'checked' }),
    action: 'device.update',
    zone: inZone,
  },
  'POST /api/servers/{id}/queues': {
    run: () => admin().post(q(`/api/servers/${ids.device}/queues`), { command_type_name: 'Reboot' }),
    action: 'device.reboot',
    zone: inZone,
  },
  'POST /api/servers/imports': {
    run: () => multipart(q('/api/servers/imports'), 'hosts.csv', 'hostname\nimported-host-1\n'),
    action: 'host_import.create',
    zone: inZone,
  },
  'DELETE /api/servers/imports/{id}': {
    run: async () => {
      const list = await admin().get(q('/api/servers/imports'));
      return admin().del(q(`/api/servers/imports/${list.body.data[0].id}`));
    },
    action: 'host_import.delete',
    zone: inZone,
  },
};

/** Removing a group and a device, once the cases before no longer need them. */
export const deviceRemovalCases: Record<string, Case> = {
  'DELETE /api/servergroups/{id}': {
    run: () => admin().del(q(`/api/servergroups/${ids.group}`)),
    action: 'group.delete',
    zone: inZone,
  },
  'DELETE /api/servers/{id}': {
    run: () => admin().del(q(`/api/servers/${ids.device2}`)),
    action: 'device.remove',
    zone: inZone,
  },
};
