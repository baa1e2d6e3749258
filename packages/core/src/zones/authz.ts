import type { Action, Resource } from './permissions';
import { GLOBAL_ADMIN_ROLE_NAME, roleAllows, roleById } from './roles';

/**
 * Who is asking: what the server knows of a signed-in user (or an API key acting for
 * one). `accountId` is the account the user belongs to; a global administrator's rights
 * reach every zone of that account and no further.
 */
export type Actor = {
  accountId: number | null;
  isGlobalAdmin: boolean;
  /** The one role the user holds in each zone they belong to. */
  zoneRoles: readonly { organizationId: number; roleId: number }[];
  /** An API key bound to one zone narrows the actor to that zone. */
  onlyZoneId?: number | null;
};

/** The zone an action concerns: its id and the account that owns it. */
export type ZoneRef = { id: number; accountId: number };

/** The role id the actor holds in `zoneId`, or null. */
export function roleIn(actor: Actor, zoneId: number): number | null {
  return actor.zoneRoles.find((r) => r.organizationId === zoneId)?.roleId ?? null;
}

/** May the actor see that the zone exists at all? (Otherwise it answers 404.) */
export function canEnterZone(actor: Actor, zone: ZoneRef): boolean {
  if (actor.onlyZoneId != null && actor.onlyZoneId !== zone.id) return false;
  if (actor.isGlobalAdmin && actor.accountId === zone.accountId) return true;
  return roleIn(actor, zone.id) !== null;
}

/** May the actor do `action` on `resource` in `zone`? The one question every check asks. */
export function can(actor: Actor, zone: ZoneRef, resource: Resource, action: Action): boolean {
  if (!canEnterZone(actor, zone)) return false;
  const isGlobalAdmin = actor.isGlobalAdmin && actor.accountId === zone.accountId;
  return roleAllows({ roleId: roleIn(actor, zone.id), isGlobalAdmin }, resource, action);
}

/** The ids of the zones among `zones` where the actor may do `action` on `resource`. */
export function zonesWhere(actor: Actor, zones: readonly ZoneRef[], resource: Resource, action: Action): number[] {
  return zones.filter((z) => can(actor, z, resource, action)).map((z) => z.id);
}

/** The role name shown for the actor in a zone ('Role: {name}'). */
export function roleNameIn(actor: Actor, zone: ZoneRef): string | null {
  if (actor.isGlobalAdmin && actor.accountId === zone.accountId) return GLOBAL_ADMIN_ROLE_NAME;
  const id = roleIn(actor, zone.id);
  return id === null ? null : (roleById(id)?.name ?? null);
}
