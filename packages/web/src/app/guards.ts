import type { Profile } from '@patchwell/core/auth/profile.schema';
import { hasFeature } from '@patchwell/core/rules/entitlements';
import type { QueryClient } from '@tanstack/react-query';
import { data, redirect, type LoaderFunctionArgs } from 'react-router';
import { checkSession, cachedProfile } from '../features/auth/session.api';
import { configQuery } from '../features/shell/config.api';
import { can, canAccessGlobal, canSeeApns, canSeeSecurity, isFeatureOn, isZoneAdmin } from './access';
import { trackDeprecatedRoute } from './analytics';
import { PATHS, consolePath, settingsTabPath } from './paths';
import { queryClient as defaultQueryClient } from './query-client';
import { requireShell, type ShellContext } from './session';
import { requestedZoneId, withZone, parentOrgOf } from './zone';

/** A guard's verdict: null to allow, a path (without `o`) to fall back to, or NOT_FOUND. */
export const NOT_FOUND = Symbol('not-found');
export type Verdict = null | string | typeof NOT_FOUND;
export type Check = (ctx: ShellContext, url: URL) => Verdict;

export function notFound(): never {
  throw data(null, { status: 404, statusText: 'Not Found' });
}

/** A route loader that loads the shell, applies the checks in order, then runs `then`. */
export function guard(checks: Check[], then?: (ctx: ShellContext, url: URL) => never | null) {
  return async ({ request }: LoaderFunctionArgs) => {
    const ctx = await requireShell(request);
    const url = new URL(request.url);
    for (const check of checks) {
      const verdict = check(ctx, url);
      if (verdict === NOT_FOUND) notFound();
      if (verdict !== null) throw redirect(withZone(verdict, ctx.zoneId));
    }
    return then ? then(ctx, url) : null;
  };
}

// --- checks (spec A section 2: guarded pages fall back to /reports, /manage, /settings or /dashboard) ---

export const needsPermission =
  (resource: Parameters<typeof can>[2], action: Parameters<typeof can>[3], fallback: string): Check =>
  ({ profile, zoneId }) =>
    can(profile, zoneId, resource, action) ? null : fallback;

export const needsFlag =
  (flag: Parameters<typeof isFeatureOn>[1], on: boolean, fallback: string): Check =>
  ({ profile }) =>
    isFeatureOn(profile, flag) === on ? null : fallback;

/** Admin-only pages (the tasks list, spec B sections 2 and 6): zone administrators and global administrators. */
export const needsZoneAdmin =
  (fallback: string): Check =>
  ({ profile, zoneId }) =>
    isZoneAdmin(profile, zoneId) ? null : fallback;

export const needsGlobalAccess: Check = ({ profile }) => (canAccessGlobal(profile) ? null : NOT_FOUND);

export const needsSecurity: Check = ({ profile, zone, zoneId }) =>
  canSeeSecurity(profile, zoneId, zone?.disabled ?? false) ? null : PATHS.profile;

export const needsApns: Check = ({ profile, zoneId }) => (canSeeApns(profile, zoneId) ? null : PATHS.profile);

/** Creating a zone needs the current zone's parent at tier 3 or higher, else 404 (spec A section 2). */
export const needsTier3Parent: Check = ({ profile, zone }) => {
  const parent = parentOrgOf(profile, zone) ?? zone;
  return parent && hasFeature(parent, 'create_zone') ? null : NOT_FOUND;
};

/** /devices/{id}/remote-control: the remote-control flag and tier 3 (Complete, or a trial), else 404. */
export const needsRemoteControl: Check = ({ profile, zone }) =>
  isFeatureOn(profile, 'remote_control') && zone && hasFeature(zone, 'remote_control') ? null : NOT_FOUND;

/** The remote-control page's loader: it is outside the shell, so it hands the page the shell's context. */
export async function remoteControlLoader(args: LoaderFunctionArgs): Promise<ShellContext> {
  await guard([needsRemoteControl])(args);
  return requireShell(args.request);
}

/**
 * /global/devices: a global administrator with the global-devices-table flag; otherwise the
 * dashboard of the requested or first zone, else 404.
 */
export const needsGlobalDevices: Check = ({ profile }, url) => {
  if (profile.is_global_admin && isFeatureOn(profile, 'global_devices_table')) return null;
  const requested = requestedZoneId(url.searchParams);
  const zone = profile.orgs.find((o) => o.id === requested) ?? profile.orgs[0];
  return zone ? withZone(PATHS.dashboard, zone.id) : NOT_FOUND;
};

// --- redirects ---

/** Query parameters of `url` minus the consumed ones, as `?a=b` or ''. */
function carry(url: URL, consumed: string[]): URLSearchParams {
  const params = new URLSearchParams(url.search);
  for (const key of consumed) params.delete(key);
  return params;
}

function join(path: string, params: URLSearchParams): string {
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** An index route that forwards to `to`, keeping the query. */
export function forward(to: string, checks: Check[] = []) {
  return guard(checks, (ctx, url) => {
    throw redirect(withZone(join(to, carry(url, [])), ctx.zoneId));
  });
}

/** A legacy alias: tracked as a deprecated route visit, then redirected (query kept, `consumed` dropped). */
export function legacy(target: (url: URL, ctx: ShellContext) => string, consumed: string[] = [], checks: Check[] = []) {
  return guard(checks, (ctx, url) => {
    const to = withZone(join(target(url, ctx), carry(url, consumed)), ctx.zoneId);
    trackDeprecatedRoute(consolePath(url), to);
    throw redirect(to);
  });
}

/** /settings and /settings?tab=X → /settings/X (api becomes keys). */
export const settingsIndex = guard([], (ctx, url) => {
  throw redirect(withZone(join(settingsTabPath(url.searchParams.get('tab')), carry(url, ['tab'])), ctx.zoneId));
});

/** /manage/maintenance-windows: a legacy route while the maintenance-windows flag is off. */
export const maintenanceWindows = guard([], (ctx, url) => {
  if (isFeatureOn(ctx.profile, 'maintenance_windows')) return null;
  const to = withZone(join(PATHS.policiesHome, carry(url, [])), ctx.zoneId);
  trackDeprecatedRoute(consolePath(url), to);
  throw redirect(to);
});

// --- public routes ---

/** The signed-in layout's loader: session, profile and zone (see loadShell). */
export const shellLoader = ({ request }: LoaderFunctionArgs) => requireShell(request);

/** /signup: signed-in users go to the dashboard. */
export async function signupLoader() {
  const isSignedIn = await checkSession().then(
    () => true,
    () => false,
  );
  if (isSignedIn) throw redirect(PATHS.dashboard);
  return null;
}

/**
 * /forgot-password and /password-reset exist only with the first authentication milestone
 * flag. Flags come with the profile; before sign-in (the usual case: a forgotten password)
 * the server's default of the flag decides, from the public client configuration.
 */
export async function authMilestone1Loader(client: QueryClient = defaultQueryClient) {
  const profile: Profile | undefined = cachedProfile(client);
  const on = profile
    ? isFeatureOn(profile, 'auth_milestone_1')
    : await client.fetchQuery(configQuery()).then(
        (config) => config.password_reset_enabled,
        () => false,
      );
  if (!on) notFound();
  return null;
}
