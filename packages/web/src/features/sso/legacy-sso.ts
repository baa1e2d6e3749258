import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { isFeatureOn, isZoneAdmin } from '../../app/access';
import { PATHS } from '../../app/paths';

/**
 * The legacy single-sign-on warnings (spec A sections 2 and 4, flag saml_migration_warning):
 * a zone still signing in through its legacy SAML setting (`saml.enabled` of the zone) should
 * move to an account SAML connection. Only admins (Organization.manage in the zone, or global
 * administrators) are told.
 */

/** The day legacy single sign-on stopped being supported. */
export const LEGACY_SSO_CUTOFF = '18 November 2022';

export type LegacySsoState = { showBanner: boolean; showModal: boolean };

export function legacySsoState(
  profile: Profile,
  zone: ProfileOrg | undefined,
  zoneId: number | undefined,
  pathname: string,
  wasModalShown: boolean,
): LegacySsoState {
  if (!isFeatureOn(profile, 'saml_migration_warning') || !isZoneAdmin(profile, zoneId)) {
    return { showBanner: false, showModal: false };
  }
  const hasLegacy = !!zone?.saml.enabled;
  return {
    // On the security tab the banner explains the setting being looked at, legacy or not.
    showBanner: hasLegacy || pathname === PATHS.security,
    showModal: hasLegacy && !wasModalShown,
  };
}
