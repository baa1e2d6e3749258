import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { entitlement, type Entitlement, type Feature } from '@patchwell/core/rules/entitlements';
import { can } from '../../app/access';
import { PATHS } from '../../app/paths';
import { parentOrgOf, withZone } from '../../app/zone';

/**
 * Whose plan decides: the zone's own (policies, keys of a zone, its MFA requirement, remote
 * control), or the account's, held by the zone's parent organisation (SAML connections and
 * domains, zone creation), as the server's `requireAccountFeature` reads it.
 */
export type EntitlementScope = 'zone' | 'account';

export type ConsoleEntitlement = Entitlement & {
  /** Where 'Upgrade Now' leads: set only for users with Billing.read in the zone (spec A section 4). */
  billingPath: string | undefined;
};

/** What the current zone may do with `feature`, and where its user may upgrade. */
export function entitlementIn(
  profile: Profile,
  zone: ProfileOrg | undefined,
  feature: Feature,
  scope: EntitlementScope = 'zone',
  now: number = Date.now(),
): ConsoleEntitlement {
  const subject = scope === 'account' || feature === 'create_zone' ? (parentOrgOf(profile, zone) ?? zone) : zone;
  const billingPath = zone && can(profile, zone.id, 'Billing', 'read') ? withZone(PATHS.billing, zone.id) : undefined;
  // No zone chosen yet: nothing to gate (the pages need one and ask for it themselves).
  if (!subject) return { kind: 'available', billingPath };
  return { ...entitlement(subject, feature, now), billingPath };
}
