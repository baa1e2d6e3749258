import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { ALL_PERMISSIONS, permissionKey } from '@patchwell/core/zones/permissions';
import { GLOBAL_ADMIN_ROLE_NAME, roleAllows, roleById } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { createNotifiedCache, type NotifiedCache } from '../../db/notified-cache';
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

/** What the profile is made of, read from the database (see {@link profileInputs}). */
type ProfileInputs = {
  found: NonNullable<Awaited<ReturnType<typeof findProfileUser>>>;
  zones: ZoneRow[];
  current: ZoneRow | undefined;
  parents: ZoneFields[];
  samlLogin: ((zoneId: number) => string) | null;
  features: Awaited<ReturnType<typeof featuresFor>>;
  prefs: Awaited<ReturnType<typeof findPrefs>>;
  /** Each zone's permission keys (they depend on the role only). */
  permissions: Record<string, string[]>;
};

/**
 * Profiles this node read, by user and `o`: the console asks for its profile on every page.
 * The change feed drops a user's entries when the user, their zone roles or their
 * preferences change, and every entry when any zone, account, flag or SSO setting changes
 * (migration 20261128140340's triggers; decision 0020). What depends on the time (trial
 * ends, the lock, the session) is worked out on each request.
 */
const PROFILE_CACHE_TTL_MS = 30_000;
const PROFILE_CACHE_MAX = 10_000;
const profileCaches = new WeakMap<Db, NotifiedCache<ProfileInputs>>();

async function profileInputs(
  ctx: AppContext,
  user: { id: number; accountId: number | null; isGlobalAdmin: boolean },
  zoneId: number | undefined,
): Promise<ProfileInputs> {
  let cache = profileCaches.get(ctx.db);
  if (!cache) {
    cache = createNotifiedCache<ProfileInputs>(ctx.db, { ttlMs: PROFILE_CACHE_TTL_MS, max: PROFILE_CACHE_MAX });
    profileCaches.set(ctx.db, cache);
  }
  // The session's view of the user is part of the key: a cached profile never outlives it.
  const key = `${user.id}:${user.accountId ?? ''}:${user.isGlobalAdmin}:${zoneId ?? ''}`;
  const kept = cache.get(key);
  if (kept) return kept;
  const since = cache.version();
  const found = await findProfileUser(ctx.db, user.id);
  if (!found) throw notFound();
  const zones = await findUserZones(ctx.db, user);
  const current = zones.find((z) => z.id === zoneId) ?? zones[0];

  // The parent organisation of a zone is its parent, or the zone itself at the top (spec A §6 tier rules).
  const byId = new Map<number, ZoneFields>(zones.map((z) => [z.id, z]));
  const missingParents = [
    ...new Set(zones.map((z) => z.parentId).filter((p): p is number => p !== null && !byId.has(p))),
  ];
  for (const z of await findZonesByIds(ctx.db, missingParents)) byId.set(z.id, z);
  const parentIds = [...new Set(zones.map((z) => z.parentId ?? z.id))];
  const parents = parentIds.map((id) => byId.get(id)).filter((z): z is ZoneFields => z !== undefined);

  const inputs: ProfileInputs = {
    found,
    zones,
    current,
    parents,
    samlLogin: zones.some((z) => z.saml?.enabled) ? await samlLoginFor(ctx, found.user) : null,
    features: await featuresFor(ctx, user.accountId, current?.id ?? null),
    prefs: await findPrefs(ctx.db, found.user.id),
    permissions: Object.fromEntries(
      zones.map((z) => [String(z.id), permissionKeys({ roleId: z.roleId, isGlobalAdmin: user.isGlobalAdmin })]),
    ),
  };
  cache.set(key, [`u:${user.id}`], inputs, since);
  return inputs;
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
  const { found, zones, current, parents, samlLogin, features, prefs, permissions } = await profileInputs(
    ctx,
    user,
    zoneId,
  );
  const now = ctx.clock.now();
  const { user: u, account } = found;
  const roleName = (z: ZoneRow) =>
    user.isGlobalAdmin ? GLOBAL_ADMIN_ROLE_NAME : (roleById(z.roleId ?? 0)?.name ?? 'Unknown role');
  const metadata = u.metadata ?? {};
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
    features,
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
    prefs,
    permissions,
    session: { expires_at: session.expiresAt.toISOString(), idle_timeout_minutes: session.idleTimeoutMinutes },
  };
}
