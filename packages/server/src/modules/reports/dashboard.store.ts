import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { devicePatches, devices } from '../../db/devices.schema';

/**
 * The dashboard's own SQL: what the other reports do not count already (those figures come
 * from their stores). Every count is over the zone's enrolled devices.
 */

type Num = string | number;
const DAY_MS = 86_400_000;

/**
 * The zone's devices with a critical patch pending that was published more than `days`
 * whole days before `now` (the devices list's `critical_older_than` filter, the same rule).
 */
export async function countMissingCritical(db: Db, zoneId: number, now: Date, days: number): Promise<number> {
  const cutoff = new Date(now.getTime() - (days + 1) * DAY_MS).toISOString();
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${devices} d
         where d.organization_id = ${zoneId} and d.removed_at is null and d.pending_patches > 0
           and exists (select 1 from ${devicePatches} p
                        where p.device_id = d.id and p.severity = 'critical'
                          and p.published_at <= ${cutoff}::timestamptz)`,
  );
  return Number(row?.n ?? 0);
}

export type VulnerableSoftwareRow = { name: string; devices: number; criticalDevices: number };

/** The patch names with pending high or critical patches on the most devices, most first. */
export async function findVulnerableSoftware(db: Db, zoneId: number, limit: number): Promise<VulnerableSoftwareRow[]> {
  const rows = await queryRows<{ name: string; devices: Num; critical: Num }>(
    db,
    sql`select p.name, count(distinct p.device_id) as devices,
               count(distinct p.device_id) filter (where p.severity = 'critical') as critical
          from ${devicePatches} p join ${devices} d on d.id = p.device_id
         where d.organization_id = ${zoneId} and d.removed_at is null and p.severity in ('critical', 'high')
         group by p.name
         order by count(distinct p.device_id) desc, p.name
         limit ${limit}`,
  );
  return rows.map((r) => ({ name: r.name, devices: Number(r.devices), criticalDevices: Number(r.critical) }));
}
