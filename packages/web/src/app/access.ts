import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { canCreateZoneUnder, isSingleZoneRestricted } from '@patchwell/core/rules/tiers';
import { FEATURE_FLAGS, type FeatureFlag } from '@patchwell/core/shell/flags';
import { permissionKey, type Action, type Resource } from '@patchwell/core/zones/permissions';

/**
 * Is a feature flag on for this user? Flags arrive resolved in `profile.features`; without
 * a profile (before sign-in) every flag is at its default, except that flags which reveal
 * pages (all of them but automated vulnerability remediation) count as off.
 */
export function isFeatureOn(profile: Profile | null | undefined, name: FeatureFlag): boolean {
  if (!profile) return false;
  return profile.features[name] ?? FEATURE_FLAGS[name];
}

/** May the user do `action` on `resource` in the zone? Reads `profile.permissions[zoneId]`. */
export function can(
  profile: Profile | null | undefined,
  zoneId: number | undefined,
  resource: Resource,
  action: Action,
): boolean {
  if (!profile || zoneId === undefined) return false;
  return profile.permissions[String(zoneId)]?.includes(permissionKey(resource, action)) ?? false;
}

/** A `can` bound to one user and zone, for components. */
export type Can = (resource: Resource, action: Action) => boolean;
export function canFor(profile: Profile | null | undefined, zoneId: number | undefined): Can {
  return (resource, action) => can(profile, zoneId, resource, action);
}

/** Only a global administrator who has an account reaches the global view (spec A section 2). */
export function canAccessGlobal(profile: Profile | null | undefined): boolean {
  return !!profile && profile.is_global_admin && profile.account_id !== null;
}

/** Admins for the shell's purposes: Organization.manage in the zone, or global administrators. */
export function isZoneAdmin(profile: Profile | null | undefined, zoneId: number | undefined): boolean {
  return !!profile && (profile.is_global_admin || can(profile, zoneId, 'Organization', 'manage'));
}

/** Shows the zone switcher list: users with multi-org or an account (spec A section 6). */
export function hasZoneSwitcher(profile: Profile): boolean {
  return isFeatureOn(profile, 'mo') || profile.account_id !== null;
}

/** The Security tab (spec A section 2): not SAML-only or an admin, zone enabled, flag on. */
export function canSeeSecurity(profile: Profile, zoneId: number | undefined, zoneDisabled: boolean): boolean {
  return (
    isFeatureOn(profile, 'auth_milestone_2') &&
    !zoneDisabled &&
    (!profile.saml_enabled || can(profile, zoneId, 'Organization', 'manage'))
  );
}

/** APNS settings: Organization.manage plus the view-configurations flag. */
export function canSeeApns(profile: Profile, zoneId: number | undefined): boolean {
  return isFeatureOn(profile, 'configurations_routes') && can(profile, zoneId, 'Organization', 'manage');
}

/**
 * 'Create New Zone' in the organisation menu (spec A sections 2 and 6): Organization.create
 * in the current zone, the zone's parent at tier 3 (or on an unexpired trial), and not the
 * single-zone restriction. Global administrators manage zones in global setup instead.
 */
export function canOfferCreateZone(profile: Profile, zone: ProfileOrg | undefined, now: number = Date.now()): boolean {
  if (!zone || canAccessGlobal(profile)) return false;
  if (!can(profile, zone.id, 'Organization', 'create')) return false;
  const parent = profile.parent_org.find((p) => p.id === zone.parent_id) ?? zone;
  return canCreateZoneUnder(parent, now) && !isSingleZoneRestricted(profile.orgs.length, parent, now);
}
