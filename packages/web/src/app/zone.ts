import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { GLOBAL_ADMIN_ROLE_NAME } from '@patchwell/core/zones/roles';

/** Read a zone id from `o` (or its alias `org`): a positive integer, else undefined. */
export function parseZoneId(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return undefined;
  const id = Number(value.trim());
  return id > 0 ? id : undefined;
}

/** The zone a URL asks for: `o`, else `org`. */
export function requestedZoneId(search: URLSearchParams): number | undefined {
  return parseZoneId(search.get('o')) ?? parseZoneId(search.get('org'));
}

/**
 * The current zone after the profile loads (spec A section 4): the requested zone if the
 * user has it, else the stored current org if the user still has it, else the first zone
 * in the (name-sorted) list. Undefined only when the user has no zone at all.
 */
export function chooseZone(
  orgs: readonly ProfileOrg[],
  requested: number | undefined,
  stored: number | undefined,
): ProfileOrg | undefined {
  return (
    (requested !== undefined ? orgs.find((o) => o.id === requested) : undefined) ??
    (stored !== undefined ? orgs.find((o) => o.id === stored) : undefined) ??
    orgs[0]
  );
}

/** `path` with `o` set to the zone (other query parameters kept, `org` dropped). */
export function withZone(path: string, zoneId: number | undefined, extra?: Record<string, string>): string {
  const [pathname = '', query = ''] = path.split('?', 2);
  const params = new URLSearchParams(query);
  params.delete('org');
  if (zoneId !== undefined) params.set('o', String(zoneId));
  for (const [k, v] of Object.entries(extra ?? {})) params.set(k, v);
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** The user's role name in a zone ('Global Administrator' for global administrators). */
export function zoneRoleName(profile: Profile, zoneId: number | undefined): string | undefined {
  if (profile.is_global_admin) return GLOBAL_ADMIN_ROLE_NAME;
  if (zoneId === undefined) return undefined;
  return profile.rbac_roles.find((r) => r.organization_id === zoneId)?.name ?? profile.rbac_role ?? undefined;
}

/** The parent organisation of a zone, which holds the plan and trial of the account. */
export function parentOrgOf(profile: Profile, zone: ProfileOrg | undefined) {
  if (!zone) return undefined;
  return profile.parent_org.find((p) => p.id === zone.parent_id);
}
