import { agentCall, checkinAs, enrollDevice, flushLastSeen, inventoryBody } from '../../../test/agents';
import { t, z, ids, strings, admin, q, inZone, accountId, type Case } from './context';

/** Remote control and shell: the zone's settings, a session's start, the user's consent, its end. */
export const remoteCases: Record<string, Case> = {
  'PUT /api/remote-settings': {
    run: () => admin().put(q('/api/remote-settings'), { shell_enabled: true }),
    action: 'zone.remote_settings',
    zone: inZone,
  },
  'POST /api/servers/{id}/remote-sessions': {
    run: async () => {
      await admin().put(`/api/accounts/${accountId}/flags`, { remote_control: true });
      const device = await enrollDevice(t, z.accessKey, { hostname: 'audited-remote' });
      await agentCall(t, device.token, 'PUT', '/inventory', inventoryBody({ hostname: 'audited-remote' }));
      await checkinAs(t, device.token);
      await flushLastSeen(t);
      strings.remoteDeviceToken = device.token;
      const res = await admin().post(q(`/api/servers/${device.id}/remote-sessions`), { kind: 'control' });
      ids.remoteSession = res.body?.id;
      return res;
    },
    action: 'remote_session.started',
    zone: inZone,
  },
  'POST /api/agent/v1/remote-sessions/{id}/consent': {
    run: () =>
      agentCall(t, strings.remoteDeviceToken!, 'POST', `/remote-sessions/${ids.remoteSession}/consent`, {
        granted: true,
      }),
    action: 'remote_session.consent',
    zone: inZone,
  },
  'POST /api/remote-sessions/{id}/end': {
    run: () => admin().post(q(`/api/remote-sessions/${ids.remoteSession}/end`)),
    action: 'remote_session.ended',
    zone: inZone,
  },
};
