import type { Device } from '../devices/devices.schema';
import type { DeviceFilter, DeviceFilterField } from './device-filters.schema';

/**
 * Whether a policy targets a device. Pure; the server applies the same rules in SQL for
 * lists and must agree with these (its tests compare against this function).
 *
 * - Groups: the device's group must be one of the policy's `server_groups`; a policy with
 *   no group targets nothing.
 * - Filters (only when `device_filters_enabled`): AND across filters, OR within a
 *   filter's values. `is` holds when any device value equals any filter value, `contains`
 *   when any device value contains any filter value; `is not` and `does not contain` are
 *   their exact negations (so a device without tags "is not" any tag).
 * - Comparisons ignore case and surrounding spaces. A device's IP values are its public
 *   and private addresses; its tags are each a value. OS family accepts "macOS" for mac.
 */

/** The device fields targeting reads. */
export type TargetableDevice = Pick<
  Device,
  'server_group_id' | 'tags' | 'hostname' | 'ip_addrs' | 'ip_addrs_private' | 'os_family' | 'os_version'
>;

/** The policy fields targeting reads. */
export type PolicyTargets = {
  /** Target group ids. */
  server_groups: readonly number[];
  /** Its configuration's filter settings. */
  configuration: { device_filters_enabled?: boolean; device_filters?: readonly DeviceFilter[] };
};

const OS_ALIASES: Record<string, string> = { macos: 'mac', darwin: 'mac', osx: 'mac' };

function norm(field: DeviceFilterField, value: string): string {
  const v = value.trim().toLowerCase();
  return field === 'os_family' ? (OS_ALIASES[v] ?? v) : v;
}

/** The device's values for a filter field. */
export function deviceValues(device: TargetableDevice, field: DeviceFilterField): string[] {
  switch (field) {
    case 'tag':
      return device.tags;
    case 'hostname':
      return [device.hostname];
    case 'ip_addr':
      return [...device.ip_addrs, ...device.ip_addrs_private];
    case 'os_family':
      return [device.os_family];
    case 'os_version':
      return [device.os_version];
  }
}

/** Whether one device filter holds for a device. */
export function deviceFilterMatches(filter: DeviceFilter, device: TargetableDevice): boolean {
  const have = deviceValues(device, filter.field).map((v) => norm(filter.field, v));
  const want = filter.value.map((v) => norm(filter.field, v));
  const equal = () => have.some((h) => want.includes(h));
  const contains = () => have.some((h) => want.some((w) => h.includes(w)));
  switch (filter.op) {
    case 'in':
      return equal();
    case 'not_in':
      return !equal();
    case 'like_any':
      return contains();
    case 'not_like_any':
      return !contains();
  }
}

/** Whether the device passes the policy's device filters (all hold, or filters are off). */
export function deviceFiltersMatch(policy: PolicyTargets, device: TargetableDevice): boolean {
  if (!policy.configuration.device_filters_enabled) return true;
  return (policy.configuration.device_filters ?? []).every((f) => deviceFilterMatches(f, device));
}

/** Whether the policy targets the device: one of its groups, and its filters hold. */
export function isTargeted(policy: PolicyTargets, device: TargetableDevice): boolean {
  return policy.server_groups.includes(device.server_group_id) && deviceFiltersMatch(policy, device);
}
