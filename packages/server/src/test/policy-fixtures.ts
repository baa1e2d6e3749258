import type { InventoryPatch, InventorySoftware, OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { TestApp } from './app';
import {
  agentCall,
  buildZoneWithKey,
  checkinAs,
  enrollDevice,
  flushLastSeen,
  inventoryBody,
  type EnrolledDevice,
} from './agents';

/**
 * Test fixtures of the policies tests: a zone with its default group, devices enrolled
 * and inventoried through the agent API, and policy bodies of each type.
 */

export type TestZone = Awaited<ReturnType<typeof buildZoneWithKey>> & { o: number; defaultGroupId: number };

export async function buildPolicyZone(t: TestApp): Promise<TestZone> {
  const z = await buildZoneWithKey(t);
  const o = z.zone.id;
  const groups = await z.admin.get(`/api/servergroups?o=${o}`);
  const def = (groups.body as { id: number; default: boolean }[]).find((g) => g.default)!;
  return { ...z, o, defaultGroupId: def.id };
}

export function patch(name: string, severity: InventoryPatch['severity'], extra: Partial<InventoryPatch> = {}) {
  return {
    name,
    current_version: '1.0',
    version: '2.0',
    severity,
    cves: severity === 'none' ? [] : [`CVE-2026-${name.length}000`],
    kb: null,
    source: 'apt',
    reboot_required: false,
    published_at: '2026-02-01T00:00:00Z',
    ...extra,
  };
}

export type DeviceSetup = {
  patches?: ReturnType<typeof patch>[];
  software?: InventorySoftware[];
  osFamily?: OsFamily;
  timezone?: string;
};

/** A device enrolled and inventoried through the agent API (it checks in only when the test says so). */
export async function inventoriedDevice(
  t: TestApp,
  z: TestZone,
  hostname: string,
  setup: DeviceSetup = {},
): Promise<EnrolledDevice> {
  const osFamily = setup.osFamily ?? 'linux';
  const device = await enrollDevice(t, z.accessKey, { hostname, os_family: osFamily });
  const body = inventoryBody({ hostname, patches: setup.patches ?? [], software: setup.software ?? [] });
  body.system.os_family = osFamily;
  body.system.timezone = setup.timezone ?? 'UTC';
  const res = await agentCall(t, device.token, 'PUT', '/inventory', body);
  if (res.status !== 204) throw new Error(`inventory: ${res.status} ${res.text}`);
  return device;
}

/** A device inventoried, then online: it checked in and the server wrote its last-seen time. */
export async function onlineInventoriedDevice(
  t: TestApp,
  z: TestZone,
  hostname: string,
  setup: DeviceSetup = {},
): Promise<EnrolledDevice> {
  const device = await inventoriedDevice(t, z, hostname, setup);
  const res = await checkinAs(t, device.token);
  if (res.status !== 200) throw new Error(`checkin: ${res.status} ${res.text}`);
  await flushLastSeen(t);
  return device;
}

/** The commands a check-in hands the device. */
export async function commandsOf(t: TestApp, device: EnrolledDevice) {
  const res = await checkinAs(t, device.token);
  if (res.status !== 200) throw new Error(`checkin: ${res.status} ${res.text}`);
  return res.body.commands as { id: number; type: string; args: Record<string, unknown> }[];
}

export function postResult(t: TestApp, device: EnrolledDevice, commandId: number, body: Record<string, unknown>) {
  return agentCall(t, device.token, 'POST', `/commands/${commandId}/result`, body);
}

const unscheduled = { schedule_days: 0, schedule_time: '02:00', use_scheduled_timezone: true };

export function patchPolicyBody(groups: number[], configuration: Record<string, unknown>, extra = {}) {
  return {
    name: 'Patch policy',
    policy_type_name: 'patch',
    server_groups: groups,
    ...unscheduled,
    configuration: { auto_patch: true, notify_user: false, auto_reboot: false, ...configuration },
    notes: '',
    ...extra,
  };
}

export function customPolicyBody(groups: number[], configuration: Record<string, unknown> = {}, extra = {}) {
  return {
    name: 'Worklet policy',
    policy_type_name: 'custom',
    server_groups: groups,
    ...unscheduled,
    configuration: {
      os_family: 'Linux',
      evaluation_code: 'test -f /etc/hardened',
      remediation_code: 'touch /etc/hardened',
      auto_reboot: false,
      ...configuration,
    },
    ...extra,
  };
}

export function requiredSoftwareBody(groups: number[], configuration: Record<string, unknown> = {}, extra = {}) {
  return {
    name: 'Required software',
    policy_type_name: 'required_software',
    server_groups: groups,
    ...unscheduled,
    configuration: { package_name: 'nginx', package_version: 'latest', os_family: 'linux', ...configuration },
    ...extra,
  };
}
