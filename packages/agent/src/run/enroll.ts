/** Enrolment: the device introduces itself with the zone's access key and gets its token. */
import type { AgentApi } from '../api/client.js';
import type { Platform } from '../platform/platform.js';
import type { AgentState } from '../state/state.js';
import { AGENT_VERSION } from '../version.js';

/**
 * Enrols this machine in the access key's zone. `machineId` replaces the platform's (a second
 * agent on one machine, or a clone whose machine id was not reset): the zone knows a device
 * by its machine id, so two agents with the same one share one device.
 */
export async function enrollDevice(
  platform: Platform,
  api: AgentApi,
  accessKey: string,
  now: () => Date = () => new Date(),
  machineIdOverride?: string,
): Promise<AgentState> {
  const [machineId, system] = await Promise.all([machineIdOverride ?? platform.machineId(), platform.system()]);
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
