import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { Device } from '@patchwell/core/devices/devices.schema';
import { hasFeature } from '@patchwell/core/rules/entitlements';
import { TEXTS } from '@patchwell/core/texts';
import { can, isFeatureOn } from '../../app/access';

/** May the zone open the remote-control page at all (the flag and tier 3; else the page is 404)? */
export function isRemoteControlOffered(profile: Profile, zone: ProfileOrg | undefined, now = Date.now()): boolean {
  // Tier 3 (Complete, or an unexpired trial; spec B section 6), from core's entitlements.
  return isFeatureOn(profile, 'remote_control') && !!zone && hasFeature(zone, 'remote_control', now);
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
    : !hasFeature(zone, 'remote_control', now)
      ? TEXTS.remote.upgrade
      : !device.connected
        ? TEXTS.remote.offline
        : device.initializing
          ? TEXTS.remote.initializing
          : null;
  return { isVisible: true, disabledReason: reason };
}
