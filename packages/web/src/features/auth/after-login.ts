import type { Profile } from '@patchwell/core/auth/profile.schema';
import { isValidRedirect } from '@patchwell/core/rules/redirect';
import { PATHS } from '../../app/paths';
import { chooseZone, withZone } from '../../app/zone';

const BASENAME = '/console';

/** A redirect may name the console path with or without the /console basename. */
export function normalizeRedirect(target: string | null | undefined): string | null {
  if (!isValidRedirect(target)) return null;
  if (target === BASENAME || target === `${BASENAME}/`) return null;
  const inside =
    target.startsWith(`${BASENAME}/`) || target.startsWith(`${BASENAME}?`) ? target.slice(BASENAME.length) : target;
  return isValidRedirect(inside) ? inside : null;
}

/**
 * Where to go after signing in (spec A section 2, 4): the validated `redirect`, else the
 * remembered last route, else the dashboard of the chosen zone.
 */
export function afterLoginPath(input: {
  redirect: string | null;
  lastRoute: string | null;
  profile: Profile;
  requestedZoneId: number | undefined;
  storedZoneId: number | undefined;
}): string {
  const redirect = normalizeRedirect(input.redirect);
  if (redirect) return redirect;
  const last = normalizeRedirect(input.lastRoute);
  if (last) return last;
  const zone = chooseZone(input.profile.orgs, input.requestedZoneId, input.storedZoneId);
  return withZone(PATHS.dashboard, zone?.id);
}
