import type {
  GlobalDeviceList,
  GlobalDeviceSortField,
  GlobalDevicesQuery,
} from '@patchwell/core/devices/global-devices.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { requireAccount } from '../zones/zone-access.service';
import { toDevice } from './devices.service';
import { findAccountDevices, type GlobalDeviceSort } from './global-devices.store';

function sortOf(sort: string | undefined): GlobalDeviceSort {
  const [field, dir] = (sort ?? 'name:asc').split(':') as [GlobalDeviceSortField, 'asc' | 'desc'];
  return { field, dir };
}

/**
 * `GET /api/accounts/{accountId}/devices`: the devices of every zone of the account, with
 * their zone, for its global administrators (Endpoint.read through the global role).
 * @throws AppError 404 another account, 403 a user of the account without global access.
 */
export async function listAccountDevices(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  query: GlobalDevicesQuery,
): Promise<GlobalDeviceList> {
  requireAccount(authz, accountId, 'Endpoint', 'read');
  const { rows, size } = await findAccountDevices(ctx.db, accountId, {
    search: query.search,
    sort: sortOf(query.sort),
    offset: query.page * query.limit,
    limit: query.limit,
    now: ctx.clock.now(),
  });
  return { data: rows.map((row) => ({ ...toDevice(row), zone_id: row.zoneId, zone_name: row.zoneName })), size };
}
