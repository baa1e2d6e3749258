import { TEXTS } from '@patchwell/core/texts';
import type { Action, Resource } from '@patchwell/core/zones/permissions';
import type { AppContext } from '../../context';
import { notFound, type Authz } from '../../http/authz';
import { validationError } from '../../http/errors';
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
  const zone = await findZone(ctx.db, id);
  if (!zone) {
    authz.allow('nothing to protect: the zone does not exist');
    throw notFound();
  }
  authz.require({ id: zone.id, accountId: zone.accountId }, resource, action);
  return zone;
}
