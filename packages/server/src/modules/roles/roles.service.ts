import { can, canEnterZone, type Actor, type ZoneRef } from '@patchwell/core/zones/authz';
import {
  ACTIONS,
  ALL_PERMISSIONS,
  RESOURCE_ACTIONS,
  permissionKey,
  type Action,
  type Resource,
} from '@patchwell/core/zones/permissions';
import { ROLE_GRANTS, ZONE_ROLES, type ZoneRoleId } from '@patchwell/core/zones/roles';
import type { PermissionsInfo, RbacRole } from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { enterZone, requireZone } from '../zones/zone-access.service';
import { findZonesWithCount } from '../zones/zones.store';

/** What each fixed role is for (spec A section 6), shown next to its name. */
const ROLE_DESCRIPTIONS: Record<ZoneRoleId, string> = {
  1: 'Full rights on a zone.',
  2: 'Read rights on a zone.',
  3: 'Full read plus view and edit billing.',
  4: 'Create, read, modify and delete all policies and groups of a zone; add, remove and reboot devices.',
  5: 'Full rights on patch policies; read and execute on software and worklets.',
};

/** `GET /api/rbacroles?o=`: the fixed roles with what each grants (Role.read in `o`). */
export async function listRoles(ctx: AppContext, authz: Authz, zoneId: number | undefined): Promise<RbacRole[]> {
  await requireZone(ctx, authz, zoneId, 'Role', 'read');
  return ZONE_ROLES.map((role) => ({
    id: role.id,
    key: role.key,
    name: role.name,
    description: ROLE_DESCRIPTIONS[role.id],
    permissions: ALL_PERMISSIONS.filter((p) => ROLE_GRANTS[role.id].has(permissionKey(p.resource, p.action))).map((p) =>
      permissionKey(p.resource, p.action),
    ),
  }));
}

function keysIn(actor: Actor, zone: ZoneRef): string[] {
  return ALL_PERMISSIONS.filter((p) => can(actor, zone, p.resource, p.action)).map((p) =>
    permissionKey(p.resource, p.action),
  );
}

/**
 * `GET /api/permissions`: the permission matrix and the caller's own permission keys per
 * zone: in zone `o` only when given (404 when the caller may not enter it), otherwise in
 * every zone they may enter.
 */
export async function permissionsInfo(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
): Promise<PermissionsInfo> {
  const { actor } = authz;
  let zones: ZoneRef[];
  if (zoneId !== undefined) {
    const zone = await enterZone(ctx, authz, zoneId);
    zones = [{ id: zone.id, accountId: zone.accountId }];
  } else {
    authz.allow('the caller’s own permissions, in the zones they may enter');
    const rows = await findZonesWithCount(ctx.db, {
      accountId: actor.isGlobalAdmin ? actor.accountId : null,
      ids: actor.zoneRoles.map((r) => r.organizationId),
    });
    zones = rows.map((z) => ({ id: z.id, accountId: z.accountId })).filter((z) => canEnterZone(actor, z));
  }
  return {
    resources: Object.fromEntries(Object.entries(RESOURCE_ACTIONS).map(([r, actions]) => [r, [...actions]])),
    actions: [...ACTIONS],
    mine: Object.fromEntries(zones.map((z) => [String(z.id), keysIn(actor, z)])),
  };
}

/**
 * `GET /api/permissions/check`: may the caller do `action` on `resource` in zone `o`?
 * Runs exactly the check every endpoint runs, so it answers 403 or 404 as they would.
 */
export async function checkPermission(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  resource: Resource,
  action: Action,
): Promise<{ allowed: true }> {
  await requireZone(ctx, authz, zoneId, resource, action);
  return { allowed: true };
}
