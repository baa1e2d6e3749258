import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { Device } from '@patchwell/core/devices/devices.schema';
import { meetsTier } from '@patchwell/core/rules/tiers';
import { TEXTS } from '@patchwell/core/texts';
import { can, isFeatureOn } from '../../app/access';

/** Remote control needs tier 3: the Complete plan, or an unexpired trial (spec B section 6). */
export const REMOTE_CONTROL_TIER = 3;

/** May the zone open the remote-control page at all (the flag and tier 3; else the page is 404)? */
export function isRemoteControlOffered(profile: Profile, zone: ProfileOrg | undefined, now = Date.now()): boolean {
  return isFeatureOn(profile, 'remote_control') && !!zone && meetsTier(zone, REMOTE_CONTROL_TIER, now);
}

/**
 * The "Remote control" action of a device (spec B sections 6 and 8): hidden without the
 * remote-control flag; otherwise offered, or disabled with the spec's tooltip — the
 * permission first, then the plan, then the device offline, then still initializing.
 * Patchwell's agent serves Linux and macOS too, so the spec's Windows-only tooltip never applies.
 */
export type RemoteControlAction = { isVisible: false } | { isVisible: true; disabledReason: string | null };

export function remoteControlAction(
  profile: Profile,
  zone: ProfileOrg | undefined,
  device: Pick<Device, 'connected' | 'initializing'>,
  now = Date.now(),
): RemoteControlAction {
  if (!isFeatureOn(profile, 'remote_control') || !zone) return { isVisible: false };
  const reason = !can(profile, zone.id, 'Endpoint', 'control')
    ? TEXTS.remote.noPermission
    : !meetsTier(zone, REMOTE_CONTROL_TIER, now)
      ? TEXTS.remote.upgrade
      : !device.connected
        ? TEXTS.remote.offline
        : device.initializing
          ? TEXTS.remote.initializing
          : null;
  return { isVisible: true, disabledReason: reason };
}
