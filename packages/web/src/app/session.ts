import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from 'react-router';
import { isApiError } from '../api/errors';
import { checkSession, logout, profileQuery } from '../features/auth/session.api';
import { BANNERS_QUERY_KEY } from '../features/shell/shell.api';
import { takePageProfile } from './page-profile';
import { consolePath, loginPath } from './paths';
import { queryClient as defaultQueryClient } from './query-client';
import { rememberCurrentOrg, storedCurrentOrg } from './storage';
import { chooseZone, requestedZoneId, withZone } from './zone';

/** What every signed-in page knows: the user, and the current zone (none if the user has no zone). */
export type ShellContext = {
  profile: Profile;
  zone: ProfileOrg | undefined;
  zoneId: number | undefined;
};

/**
 * The signed-in routes' loader (spec A section 4):
 * 1. check the session; failure → /login?redirect=<here> (+ err=session-expired on 401);
 * 2. load the profile (cached for 30 minutes; asked beside the check); failure → log out,
 *    /login?redirect=<here>; a page opened by address may have come with both answered (the
 *    profile sent with the page, with the alert banners, `page-profile.ts`);
 * 3. choose the zone (requested `o`/`org` the user has, else the stored one, else the first),
 *    store it, and make sure the URL carries it as `o`.
 */
export async function loadShell(request: Request, client: QueryClient = defaultQueryClient): Promise<ShellContext> {
  const url = new URL(request.url);
  const here = consolePath(url);

  const requested = requestedZoneId(url.searchParams);
  const sent = takePageProfile(request.url, requested);
  if (sent) client.setQueryData(profileQuery(requested).queryKey, sent.profile);
  if (sent?.banners) client.setQueryData(BANNERS_QUERY_KEY, sent.banners);
  const profile = sent?.profile ?? (await askProfile(request, here, requested, client));

  const zone = chooseZone(profile.orgs, requested, storedCurrentOrg());
  if (zone) {
    rememberCurrentOrg(zone.id);
    if (url.searchParams.get('o') !== String(zone.id) || url.searchParams.has('org')) {
      throw redirect(withZone(here, zone.id));
    }
  }
  return { profile, zone, zoneId: zone?.id };
}

/**
 * Steps 1 and 2 by asking the server. Both requests at once: every signed-in page opened by
 * address waits one round trip, not two. The profile's answer counts only once the session
 * check has passed (without a session it is a 401 too, and the check's failure decides where
 * to go).
 */
async function askProfile(
  request: Request,
  here: string,
  requested: number | undefined,
  client: QueryClient,
): Promise<Profile> {
  const profileRequest = client.fetchQuery(profileQuery(requested));
  profileRequest.catch(() => undefined);
  try {
    await checkSession();
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw redirect(loginPath({ redirect: here, expired: isApiError(error, 401) }));
  }
  try {
    return await profileRequest;
  } catch (error) {
    if (request.signal.aborted) throw error;
    await logout().catch(() => undefined);
    client.clear();
    throw redirect(loginPath({ redirect: here, expired: isApiError(error, 401) }));
  }
}

// All loaders of one navigation receive the same Request: the shell is loaded once for it,
// and guard loaders of child routes wait for the same result.
const perRequest = new WeakMap<Request, Promise<ShellContext>>();

export function requireShell(request: Request): Promise<ShellContext> {
  let pending = perRequest.get(request);
  if (!pending) {
    pending = loadShell(request);
    perRequest.set(request, pending);
  }
  return pending.catch((error: unknown) => {
    throw freshRedirect(error);
  });
}

/**
 * The router prefixes the basename to a thrown redirect by rewriting its Location header in
 * place. The shell loader and a guard loader of the same navigation would throw the same
 * Response, prefixed twice (/console/console/…), so each caller gets its own copy.
 */
export function freshRedirect(error: unknown): unknown {
  return error instanceof Response && error.status >= 300 && error.status < 400 ? error.clone() : error;
}

/** Log out (spec A section 4): end the session, go to login, forget cached data. */
export async function signOut(
  navigate: (to: string) => void | Promise<void>,
  options: Parameters<typeof loginPath>[0] = {},
  client: QueryClient = defaultQueryClient,
): Promise<void> {
  await logout().catch(() => undefined);
  // The signed-in pages go first: cleared under them, their queries would fetch again without
  // a session, and the 401s would be taken for an expired one (login with 'session expired').
  await navigate(loginPath(options));
  client.clear();
}
