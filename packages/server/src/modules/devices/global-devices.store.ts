import { and, asc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { GlobalDeviceSortField } from '@patchwell/core/devices/global-devices.schema';
import type { Db } from '../../db/client';
import { organizations } from '../../db/schema';
import { devicePresence, devices, serverGroups } from '../../db/devices.schema';
import { toListRow, type DeviceListRow } from './device-list.store';
import { likeEscape } from './devices.store';
import { presenceFields } from './presence.store';

export type GlobalDeviceRow = DeviceListRow & { zoneId: number; zoneName: string };
export type GlobalDeviceSort = { field: GlobalDeviceSortField; dir: 'asc' | 'desc' };

const SORT_COLUMNS: Record<GlobalDeviceSortField, SQL> = {
  name: sql`lower(coalesce(${devices.customName}, ${devices.hostname}))`,
  zone_name: sql`lower(${organizations.name})`,
  os_name: sql`${devices.osName}`,
  group_name: sql`lower(${serverGroups.name})`,
  last_seen_at: sql`${devicePresence.lastSeenAt}`,
  pending_patches: sql`${devices.pendingPatches}`,
  compliance: sql`${devices.compliance}`,
};

function accountWhere(accountId: number, search: string | undefined): SQL {
  const parts: (SQL | undefined)[] = [eq(organizations.accountId, accountId), isNull(devices.removedAt)];
  const text = search?.trim();
  if (text) {
    const pattern = `%${likeEscape(text)}%`;
    parts.push(
      sql`(${ilike(devices.hostname, pattern)} or ${ilike(devices.customName, pattern)} or ${ilike(organizations.name, pattern)} or array_to_string(${devices.ipAddrs} || ${devices.ipAddrsPrivate}, ' ') ilike ${pattern})`,
    );
  }
  return and(...parts)!;
}

/** One page of the devices of every zone of the account matching `search`, and how many match. */
export async function findAccountDevices(
  db: Db,
  accountId: number,
  options: { search?: string; sort: GlobalDeviceSort; offset: number; limit: number; now: Date },
): Promise<{ rows: GlobalDeviceRow[]; size: number }> {
  const where = accountWhere(accountId, options.search);
  const column = SORT_COLUMNS[options.sort.field];
  const order = options.sort.dir === 'asc' ? sql`${column} asc nulls first` : sql`${column} desc nulls last`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        device: devices,
        groupName: serverGroups.name,
        zoneName: organizations.name,
        ...presenceFields(options.now),
      })
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .innerJoin(serverGroups, eq(serverGroups.id, devices.groupId))
      .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
      .where(where)
      .orderBy(order, asc(devices.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...toListRow(r), zoneId: r.device.organizationId, zoneName: r.zoneName })),
    size: total?.n ?? 0,
  };
}
