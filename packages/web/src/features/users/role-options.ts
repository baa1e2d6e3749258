import { ZONE_ROLES } from '@patchwell/core/zones/roles';

/** The fixed zone roles as select options (value is the role id as a string). */
export const ZONE_ROLE_OPTIONS = ZONE_ROLES.map((r) => ({ value: String(r.id), label: r.name }));

/** A role id chosen in a select ('' when none). */
export function parseRoleId(value: string): number | undefined {
  return /^\d+$/.test(value) ? Number(value) : undefined;
}
