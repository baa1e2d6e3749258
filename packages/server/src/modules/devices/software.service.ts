import type { DeviceList } from '@patchwell/core/devices/devices.schema';
import type { SoftwareDevicesQuery, SoftwareList, SoftwareQuery } from '@patchwell/core/devices/software.schema';
import type { AppContext } from '../../context';
import { notFound } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';
import { findDevices } from './device-list.store';
import { toDevice } from './devices.service';
import { findZoneSoftware } from './software.store';

/** `o`, when given, must name the path's zone; a mismatch reveals nothing (404). */
async function zoneOf(ctx: AppContext, authz: Authz, orgId: number, o: number | undefined) {
  const zone = await requireZone(ctx, authz, orgId, 'Software', 'read');
  if (o !== undefined && o !== orgId) throw notFound();
  return zone;
}

/** `GET /api/orgs/{orgId}/packages` (Software.read): the zone's software aggregated by package. */
export async function listZoneSoftware(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  query: SoftwareQuery,
): Promise<SoftwareList> {
  const zone = await zoneOf(ctx, authz, orgId, query.o);
  const { rows, size } = await findZoneSoftware(ctx.db, zone.id, {
    search: query.search,
    osFamily: query.os_family,
    severity: query.severity,
    needsUpdate: query.needs_update,
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return {
    data: rows.map((r) => ({
      name: r.name,
      os_family: r.osFamily,
      installed_count: r.installedCount,
      versions: r.versions,
      needs_update_count: r.needsUpdateCount,
      severity: r.severity,
      cves: r.cves,
    })),
    size,
  };
}

/** `GET /api/orgs/{orgId}/packages/devices?name=` (Software.read and Endpoint.read): the devices having a package. */
export async function listSoftwareDevices(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  query: SoftwareDevicesQuery,
): Promise<DeviceList> {
  const zone = await zoneOf(ctx, authz, orgId, query.o);
  authz.require({ id: zone.id, accountId: zone.accountId }, 'Endpoint', 'read');
  const { rows, size } = await findDevices(
    ctx.db,
    zone.id,
    { hasPackage: query.name },
    { sort: { field: 'name', dir: 'asc' }, offset: query.page * query.limit, limit: query.limit, now: ctx.clock.now() },
  );
  return { data: rows.map(toDevice), size };
}
