import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import type { Device } from '../../devices/devices.types';
import { CONSOLE_TEXTS } from '../../../texts';
import type { MenuAction } from '../../../ui/menu/menu-entry';
import { remoteControlAction } from '../remote-access';

/** The remote-control page of a device in the current zone. */
export const remoteControlPath = (deviceId: number, zoneId: number | undefined) =>
  withZone(pathTo(PATHS.remoteControl, { deviceId }), zoneId);

/**
 * "Remote control" in a device's row menu (spec B sections 2 and 8): absent without the
 * flag; disabled with the spec's tooltip when the permission, the plan or the device's state
 * stands in the way.
 */
export function remoteControlEntry(
  profile: Profile,
  zone: ProfileOrg | undefined,
  zoneId: number | undefined,
  device: Pick<Device, 'id' | 'connected' | 'initializing'>,
): MenuAction | null {
  const action = remoteControlAction(profile, zone, device);
  if (!action.isVisible) return null;
  const label = CONSOLE_TEXTS.remote.rowAction;
  if (action.disabledReason) return { label, disabledReason: action.disabledReason };
  return { label, to: remoteControlPath(device.id, zoneId) };
}
