import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { deviceDetails, devicePatches, devicePresence, deviceSoftware, devices } from '../../db/devices.schema';
import { onlineAt } from './presence.store';

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceDetailRow = typeof deviceDetails.$inferSelect.detail;

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The device's system details from its last inventory, or null before its first. */
export async function findDeviceDetail(db: Db, deviceId: number): Promise<DeviceDetailRow | null> {
  const [row] = await db
    .select({ detail: deviceDetails.detail })
    .from(deviceDetails)
    .where(eq(deviceDetails.deviceId, deviceId))
    .limit(1);
  return row?.detail ?? null;
}

export async function countPackages(db: Db, deviceId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(deviceSoftware)
    .where(eq(deviceSoftware.deviceId, deviceId));
  return row?.n ?? 0;
}

export async function updateDevice(
  db: Db,
  zoneId: number,
  id: number,
  patch: Partial<Pick<DeviceRow, 'customName' | 'groupId' | 'checkinIntervalS' | 'tags' | 'notes'>>,
): Promise<void> {
  await db
    .update(devices)
    .set(patch)
    .where(and(eq(devices.organizationId, zoneId), eq(devices.id, id)));
}

/** Marks the zone's devices among `ids` removed; returns their token hashes (for the cache). */
export async function removeDevices(db: Db, zoneId: number, ids: number[], now: Date): Promise<string[]> {
  const rows = await db
    .update(devices)
    .set({ removedAt: now })
    .where(and(eq(devices.organizationId, zoneId), inArray(devices.id, ids), isNull(devices.removedAt)))
    .returning({ tokenHash: devices.tokenHash });
  return rows.map((r) => r.tokenHash);
}

/** Adds or removes tags on the zone's live devices among `ids`; returns the ids it changed. */
export async function changeTags(
  db: Db,
  zoneId: number,
  ids: number[],
  tags: string[],
  add: boolean,
): Promise<number[]> {
  const tagArray = sql`array[${sql.join(
    tags.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  const value = add
    ? sql`array(select distinct unnest(${devices.tags} || ${tagArray}) order by 1)`
    : sql`array(select t from unnest(${devices.tags}) as t where t <> all(${tagArray}))`;
  const rows = await db
    .update(devices)
    .set({ tags: value })
    .where(and(eq(devices.organizationId, zoneId), inArray(devices.id, ids), isNull(devices.removedAt)))
    .returning({ id: devices.id });
  return rows.map((r) => r.id);
}

/** Ids of the zone's (not removed) devices among `ids`. */
export async function findZoneDeviceIds(db: Db, zoneId: number, ids: number[]): Promise<number[]> {
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.organizationId, zoneId), inArray(devices.id, ids), isNull(devices.removedAt)));
  return rows.map((r) => r.id);
}

export type PackageRow = {
  name: string;
  version: string;
  source: string | null;
  patchVersion: string | null;
  severity: string | null;
  cves: string[] | null;
  kb: string | null;
  rebootRequired: boolean | null;
};

/**
 * A device's packages: installed software with its available update, plus updates for
 * nothing installed (a new KB), which have version ''.
 */
export async function findDevicePackages(
  db: Db,
  deviceId: number,
  options: { search?: string; needsUpdate?: boolean; offset: number; limit: number },
): Promise<{ rows: PackageRow[]; size: number }> {
  const search = options.search?.trim() ? `%${likeEscape(options.search.trim())}%` : null;
  const base = sql`
    select s.name, s.version, s.source, p.version as patch_version, p.severity, p.cves, p.kb, p.reboot_required
      from ${deviceSoftware} s
      left join lateral (select * from ${devicePatches} dp where dp.device_id = s.device_id and dp.name = s.name
                          order by dp.id limit 1) p on true
     where s.device_id = ${deviceId}
    union all
    select p.name, '' as version, p.source, p.version, p.severity, p.cves, p.kb, p.reboot_required
      from ${devicePatches} p
     where p.device_id = ${deviceId}
       and not exists (select 1 from ${deviceSoftware} s where s.device_id = p.device_id and s.name = p.name)`;
  const conditions: SQL[] = [];
  if (search) conditions.push(sql`x.name ilike ${search}`);
  if (options.needsUpdate === true) conditions.push(sql`x.patch_version is not null`);
  if (options.needsUpdate === false) conditions.push(sql`x.patch_version is null`);
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const [page, total] = await Promise.all([
    queryRows<Record<string, unknown>>(
      db,
      sql`select * from (${base}) x ${where} order by lower(x.name), x.version limit ${options.limit} offset ${options.offset}`,
    ),
    queryRows<{ n: string | number }>(db, sql`select count(*) as n from (${base}) x ${where}`),
  ]);
  return {
    rows: page.map((r) => ({
      name: String(r.name),
      version: String(r.version),
      source: (r.source as string | null) ?? null,
      patchVersion: (r.patch_version as string | null) ?? null,
      severity: (r.severity as string | null) ?? null,
      cves: (r.cves as string[] | null) ?? null,
      kb: (r.kb as string | null) ?? null,
      rebootRequired: (r.reboot_required as boolean | null) ?? null,
    })),
    size: Number(total[0]?.n ?? 0),
  };
}

export type DashboardCounts = {
  total: number;
  online: number;
  needsReboot: number;
  byOs: { osFamily: OsFamily; count: number }[];
  compliance: Record<'compliant' | 'pending' | 'needs_attention', number>;
  patches: { pending: number; critical: number; high: number };
};

/** Counts for the dashboard, from the zone's live rows. */
export async function dashboardCounts(db: Db, zoneId: number, now: Date): Promise<DashboardCounts> {
  const live = and(eq(devices.organizationId, zoneId), isNull(devices.removedAt));
  const [[totals], byOs, byCompliance, patches] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)`.mapWith(Number),
        online: sql<number>`count(*) filter (where ${onlineAt(now)})`.mapWith(Number),
        needsReboot: sql<number>`count(*) filter (where ${devices.needsReboot})`.mapWith(Number),
      })
      .from(devices)
      .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
      .where(live),
    db
      .select({ osFamily: devices.osFamily, count: sql<number>`count(*)`.mapWith(Number) })
      .from(devices)
      .where(live)
      .groupBy(devices.osFamily)
      .orderBy(devices.osFamily),
    db
      .select({ compliance: devices.compliance, count: sql<number>`count(*)`.mapWith(Number) })
      .from(devices)
      .where(live)
      .groupBy(devices.compliance),
    db
      .select({
        pending: sql<number>`count(*)`.mapWith(Number),
        critical: sql<number>`count(*) filter (where ${devicePatches.severity} = 'critical')`.mapWith(Number),
        high: sql<number>`count(*) filter (where ${devicePatches.severity} = 'high')`.mapWith(Number),
      })
      .from(devicePatches)
      .innerJoin(devices, eq(devices.id, devicePatches.deviceId))
      .where(live),
  ]);
  const compliance = { compliant: 0, pending: 0, needs_attention: 0 };
  for (const row of byCompliance) compliance[row.compliance] = row.count;
  return {
    total: totals?.total ?? 0,
    online: totals?.online ?? 0,
    needsReboot: totals?.needsReboot ?? 0,
    byOs,
    compliance,
    patches: patches[0] ?? { pending: 0, critical: 0, high: 0 },
  };
}
