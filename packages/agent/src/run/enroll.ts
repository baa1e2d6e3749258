/** Enrolment: the device introduces itself with the zone's access key and gets its token. */
import type { AgentApi } from '../api/client.js';
import type { Platform } from '../platform/platform.js';
import type { AgentState } from '../state/state.js';
import { AGENT_VERSION } from '../version.js';

export async function enrollDevice(
  platform: Platform,
  api: AgentApi,
  accessKey: string,
  now: () => Date = () => new Date(),
): Promise<AgentState> {
  const [machineId, system] = await Promise.all([platform.machineId(), platform.system()]);
  const res = await api.enroll({
    access_key: accessKey,
    machine_id: machineId,
    hostname: system.hostname,
    os_family: platform.family,
    os_name: system.os_name,
    os_version: system.os_version,
    arch: system.arch,
    agent_version: AGENT_VERSION,
  });
  api.setToken(res.token);
  return {
    server: api.server,
    access_key: accessKey,
    machine_id: machineId,
    device_id: res.device_id,
    device_uuid: res.device_uuid,
    token: res.token,
    checkin_interval_s: res.checkin_interval_s,
    enrolled_at: now().toISOString(),
    last_checkin_at: null,
    inventory_hash: null,
  };
}
