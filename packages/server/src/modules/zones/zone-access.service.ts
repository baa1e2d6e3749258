import { TEXTS } from '@patchwell/core/texts';
import { canEnterZone } from '@patchwell/core/zones/authz';
import type { Action, Resource } from '@patchwell/core/zones/permissions';
import { roleAllows } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import { forbidden, notFound, AppError, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { findZoneCached } from './zone-cache';
import { findZone, type ZoneRow } from './zones.store';

/**
 * The zone named by `o`, once the caller may do `action` on `resource` in it. A zone that
 * does not exist and one the caller may not see answer alike (404), so ids reveal nothing.
 * An API key bound to one zone stands for that zone when `o` is omitted.
 * @throws AppError 400 without a zone, 404 unknown or invisible zone, 403 missing permission.
 */
export async function requireZone(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  resource: Resource,
  action: Action,
): Promise<ZoneRow> {
  const id = zoneId ?? authz.actor.onlyZoneId ?? undefined;
  if (id === undefined) throw validationError({ o: [TEXTS.validation.namedRequired('Zone (o)')] });
  const zone = await findZoneCached(ctx.db, id);
  if (!zone) {
    authz.allow('nothing to protect: the zone does not exist');
    throw notFound();
  }
  authz.require({ id: zone.id, accountId: zone.accountId }, resource, action);
  if (zone.disabled && !allowedInDisabledZone(resource, action)) {
    throw new AppError('zones.disabled');
  }
  return zone;
}

// The zone's operations: what a disabled zone stops (its settings, users and billing stay
// manageable, so it can be set up and enabled again).
const OPERATIONAL: readonly Resource[] = [
  'PatchPolicy',
  'CustomPolicy',
  'RequiredSoftwarePolicy',
  'Endpoint',
  'ServerGroup',
  'Package',
  'Approval',
  'Task',
];

/**
 * What still works in a disabled zone (a trial zone beyond the first, or one a global
 * administrator disabled): reading everything, and managing the zone itself.
 */
function allowedInDisabledZone(resource: Resource, action: Action): boolean {
  return action === 'read' || !OPERATIONAL.includes(resource);
}

/**
 * The zone `zoneId` when the caller may enter it at all (any role there, or its account's
 * global administrator), for answers about the caller's own rights in it.
 * @throws AppError 404 unknown or invisible zone.
 */
export async function enterZone(ctx: AppContext, authz: Authz, zoneId: number): Promise<ZoneRow> {
  const zone = await findZoneCached(ctx.db, zoneId);
  if (!zone || !canEnterZone(authz.actor, { id: zone.id, accountId: zone.accountId })) throw notFound();
  authz.allow('the caller may enter the zone; only their own rights in it are shown');
  return zone;
}

/**
 * Account-scoped calls (`/api/accounts/{accountId}/…`) belong to the global administrators
 * of that account: another account answers 404, a user of the account without the global
 * role (or an API key bound to one zone) 403.
 * @throws AppError 404 another account, 403 not its global administrator.
 */
export function requireAccount(authz: Authz, accountId: number, resource: Resource, action: Action): void {
  const { actor } = authz;
  if (actor.accountId === null || actor.accountId !== accountId) throw notFound();
  const isAccountWide = actor.isGlobalAdmin && actor.onlyZoneId == null;
  if (!isAccountWide || !roleAllows({ roleId: null, isGlobalAdmin: true }, resource, action)) throw forbidden();
  authz.allow(`global administrator of account ${accountId}: ${resource}.${action}`);
}

/**
 * A zone of an account-scoped path (`/api/accounts/{accountId}/zones/{zoneId}`): the caller
 * passes {@link requireAccount} and the zone belongs to that account (else 404).
 */
export async function requireAccountZone(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  zoneId: number,
  resource: Resource,
  action: Action,
): Promise<ZoneRow> {
  requireAccount(authz, accountId, resource, action);
  const zone = await findZone(ctx.db, zoneId);
  if (!zone || zone.accountId !== accountId) throw notFound();
  return zone;
}
