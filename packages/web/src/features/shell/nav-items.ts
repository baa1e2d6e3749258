import type { Profile } from '@patchwell/core/auth/profile.schema';
import { canSeeApns, canSeeSecurity, canFor, isFeatureOn, isZoneAdmin } from '../../app/access';
import { PATHS } from '../../app/paths';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';

export type NavItem = { label: string; to: string; children?: NavItem[] };

/** Whether `pathname` is the item's page or a page under it (the link shows as current). */
export function isUnder(pathname: string, item: NavItem): boolean {
  const base = item.to.split('?')[0] ?? '';
  return pathname === base || pathname.startsWith(`${base}/`);
}

/**
 * The top navigation (spec A section 2): Devices, Software, Manage (Policies, Groups,
 * Tasks or Remediations by the automated-vulnerability-remediation flag, Worklet Catalog)
 * and Reports. Every link carries the zone.
 */
export function mainNavItems(profile: Profile, zoneId: number | undefined): NavItem[] {
  const z = (path: string) => withZone(path, zoneId);
  const avr = isFeatureOn(profile, 'automated_vulnerability_remediation');
  return [
    { label: CONSOLE_TEXTS.nav.devices, to: z(PATHS.devices) },
    { label: CONSOLE_TEXTS.nav.software, to: z(PATHS.software) },
    {
      label: CONSOLE_TEXTS.nav.manage,
      to: z(PATHS.manageHome),
      children: [
        { label: CONSOLE_TEXTS.nav.policies, to: z(PATHS.policiesHome) },
        { label: CONSOLE_TEXTS.nav.groups, to: z(PATHS.groups) },
        avr
          ? { label: CONSOLE_TEXTS.nav.remediations, to: z(PATHS.remediations) }
          : // The tasks list is admin only; everyone else reviews the uploaded batches.
            {
              label: CONSOLE_TEXTS.nav.tasks,
              to: z(isZoneAdmin(profile, zoneId) ? PATHS.tasksList : PATHS.taskBatches),
            },
        { label: CONSOLE_TEXTS.nav.workletCatalog, to: z(PATHS.workletCatalog) },
      ],
    },
    { label: CONSOLE_TEXTS.nav.reports, to: z(PATHS.reportsHome) },
  ];
}

/**
 * The secondary (account) menu: Profile labelled with the user's full name, Billing
 * (Billing.read), Users (Users.read), Keys, Security, APNS settings (spec A section 2).
 * Logout is added by the menu itself.
 */
export function accountMenuItems(profile: Profile, zoneId: number | undefined, zoneDisabled: boolean): NavItem[] {
  const z = (path: string) => withZone(path, zoneId);
  const can = canFor(profile, zoneId);
  const fullName = `${profile.firstname} ${profile.lastname}`.trim() || profile.email;
  const items: NavItem[] = [{ label: fullName, to: z(PATHS.profile) }];
  if (can('Billing', 'read')) items.push({ label: CONSOLE_TEXTS.account.billing, to: z(PATHS.billing) });
  if (can('Users', 'read')) items.push({ label: CONSOLE_TEXTS.account.users, to: z(PATHS.users) });
  items.push({ label: CONSOLE_TEXTS.account.keys, to: z(PATHS.keys) });
  if (canSeeSecurity(profile, zoneId, zoneDisabled))
    items.push({ label: CONSOLE_TEXTS.account.security, to: z(PATHS.security) });
  if (canSeeApns(profile, zoneId)) items.push({ label: CONSOLE_TEXTS.account.apns, to: z(PATHS.apnsSettings) });
  return items;
}
