import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { ALL_PERMISSIONS, permissionKey } from '@patchwell/core/zones/permissions';
import { GLOBAL_ADMIN_ROLE_NAME, roleAllows, roleById } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import { notFound } from '../../domain/errors';
import { samlLoginFor } from '../saml-signin/saml-signin.service';
import { featuresFor } from '../shell/shell.service';
import { hasFeature } from '@patchwell/core/rules/entitlements';
import { isTrialExpired, tierSubject } from '../zones/entitlements.service';
import { findPrefs, findProfileUser, findUserZones, findZonesByIds, type ZoneRow } from './profile.store';

type ZoneFields = Omit<ZoneRow, 'roleId'>;

function toProfileOrg(zone: ZoneFields, now: Date, samlLogin: ((zoneId: number) => string) | null): ProfileOrg {
  // A zone that left the plan keeps its "require SSO" setting, unenforced: its users sign in with passwords.
  const samlEnabled = Boolean(zone.saml?.enabled) && hasFeature(tierSubject(zone, now), 'sso', now.getTime());
  // Where 'Continue To Login' goes for a zone that requires SAML: its stored address, else
  // the sign-in through the user's own connection.
  const samlRedirect = zone.saml?.redirect ?? (samlEnabled && samlLogin ? samlLogin(zone.id) : null);
  return {
    id: zone.id,
    zone_id: zone.uuid,
    name: zone.name,
    parent_id: zone.parentId,
    plan: zone.plan,
    trial_end_time: zone.trialEndTime?.toISOString() ?? null,
    trial_expired: isTrialExpired(zone, now),
    disabled: zone.disabled,
    create_time: zone.createdAt.toISOString(),
    saml: { enabled: samlEnabled, redirect: samlRedirect },
  };
}

/** Every permission key a role grants, for the console to show or hide actions. */
function permissionKeys(role: { roleId: number | null; isGlobalAdmin: boolean }): string[] {
  return ALL_PERMISSIONS.filter((p) => roleAllows(role, p.resource, p.action)).map((p) =>
    permissionKey(p.resource, p.action),
  );
}

/**
 * The signed-in user's profile (`GET /api/users/self`). `zoneId` is the `o` of the page:
 * the role name and feature flags are those of that zone, or of the first zone (by name)
 * when `o` is absent or not one of the user's zones.
 */
export async function getProfile(
  ctx: AppContext,
  user: { id: number; accountId: number | null; isGlobalAdmin: boolean },
  session: { expiresAt: Date; idleTimeoutMinutes: number },
  zoneId: number | undefined,
): Promise<Profile> {
  const now = ctx.clock.now();
  const found = await findProfileUser(ctx.db, user.id);
  if (!found) throw notFound();
  const { user: u, account } = found;
  const zones = await findUserZones(ctx.db, user);

  const current = zones.find((z) => z.id === zoneId) ?? zones[0];
  const roleName = (z: ZoneRow) =>
    user.isGlobalAdmin ? GLOBAL_ADMIN_ROLE_NAME : (roleById(z.roleId ?? 0)?.name ?? 'Unknown role');

  // The parent organisation of a zone is its parent, or the zone itself at the top (spec A §6 tier rules).
  const byId = new Map<number, ZoneFields>(zones.map((z) => [z.id, z]));
  const missingParents = [
    ...new Set(zones.map((z) => z.parentId).filter((p): p is number => p !== null && !byId.has(p))),
  ];
  for (const z of await findZonesByIds(ctx.db, missingParents)) byId.set(z.id, z);
  const parentIds = [...new Set(zones.map((z) => z.parentId ?? z.id))];
  const parents = parentIds.map((id) => byId.get(id)).filter((z): z is ZoneFields => z !== undefined);

  const metadata = u.metadata ?? {};
  const samlLogin = zones.some((z) => z.saml?.enabled) ? await samlLoginFor(ctx, u) : null;
  return {
    id: u.id,
    uuid: u.uuid,
    firstname: u.firstname,
    lastname: u.lastname,
    email: u.email,
    account_id: u.accountId,
    account_name: account?.name ?? null,
    account_created_at: account?.createdAt.toISOString() ?? null,
    account_completed_qsg: account?.completedQsg ?? false,
    account_rbac_role: u.accountRbacRole,
    is_global_admin: user.isGlobalAdmin,
    orgs: zones.map((z) => toProfileOrg(z, now, samlLogin)),
    rbac_roles: zones.map((z) => ({ id: z.roleId ?? 1, name: roleName(z), organization_id: z.id })),
    rbac_role: current ? roleName(current) : null,
    parent_org: parents.map((p) => ({
      id: p.id,
      plan: p.plan,
      trial_end_time: p.trialEndTime?.toISOString() ?? null,
      trial_expired: isTrialExpired(p, now),
    })),
    features: await featuresFor(ctx, user.accountId, current?.id ?? null),
    locked: u.locked && (u.lockedUntil === null || u.lockedUntil.getTime() > now.getTime()),
    saml_enabled: u.samlEnabled,
    tfa_enabled: u.tfaEnabled,
    sso_enabled: u.samlEnabled,
    ext_auth0_skip_mfa: false,
    // Device groups and tags that restrict a user arrive with the devices issue; none restrict anyone yet.
    server_groups: [],
    tags: [],
    status: u.status,
    metadata: {
      overviewReportRun: metadata.overviewReportRun === true,
      prepatchReportRun: metadata.prepatchReportRun === true,
    },
    prefs: await findPrefs(ctx.db, u.id),
    permissions: Object.fromEntries(
      zones.map((z) => [String(z.id), permissionKeys({ roleId: z.roleId, isGlobalAdmin: user.isGlobalAdmin })]),
    ),
    session: { expires_at: session.expiresAt.toISOString(), idle_timeout_minutes: session.idleTimeoutMinutes },
  };
}
