import { and, count, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { HostImportStatus } from '@patchwell/core/devices/host-imports.schema';
import type { Db } from '../../db/client';
import { deviceImports } from '../../db/host-imports.schema';
import { queryRows } from '../../db/raw';
import { devices, serverGroups } from '../../db/devices.schema';
import { likeEscape } from './devices.store';

export type HostImportRow = typeof deviceImports.$inferSelect;
export type HostImportListRow = HostImportRow & { groupName: string | null };
export type NewHostImport = typeof deviceImports.$inferInsert;

/** The zone's groups by lowercased name (names are unique per zone, case-insensitively). */
export async function findGroupsByName(
  db: Db,
  zoneId: number,
): Promise<Map<string, { id: number; name: string; isDefault: boolean }>> {
  const rows = await db
    .select({ id: serverGroups.id, name: serverGroups.name, isDefault: serverGroups.isDefault })
    .from(serverGroups)
    .where(eq(serverGroups.organizationId, zoneId));
  return new Map(rows.map((g) => [g.name.toLowerCase(), g]));
}

/** Enrolled (not removed) devices of the zone whose short host name is one of `shorts`. */
export async function findDevicesByShortName(
  db: Db,
  zoneId: number,
  shorts: string[],
): Promise<{ id: number; hostname: string }[]> {
  if (!shorts.length) return [];
  return db
    .select({ id: devices.id, hostname: sql<string>`lower(${devices.hostname})` })
    .from(devices)
    .where(
      and(
        eq(devices.organizationId, zoneId),
        isNull(devices.removedAt),
        sql`split_part(lower(${devices.hostname}), '.', 1) in ${shorts}`,
      ),
    );
}

const awaiting = (zoneId: number) =>
  and(eq(deviceImports.organizationId, zoneId), eq(deviceImports.status, 'awaiting_agent'));

/** Host names of the zone's imports awaiting their agent whose short name is one of `shorts`. */
export async function findAwaitingByShortNames(db: Db, zoneId: number, shorts: string[]): Promise<string[]> {
  if (!shorts.length) return [];
  const rows = await db
    .select({ hostname: deviceImports.hostname })
    .from(deviceImports)
    .where(and(awaiting(zoneId), sql`split_part(${deviceImports.hostname}, '.', 1) in ${shorts}`));
  return rows.map((r) => r.hostname);
}

/**
 * Inserts the rows (call inside the import's transaction) in one statement with one
 * parameter: building a 5,000-row VALUES list of ~50,000 parameters costs seconds in drizzle
 * and the driver. A host another import made awaiting meanwhile is skipped by the unique
 * index, not failed. Returns the rows written.
 */
export async function insertHostImports(db: Db, rows: NewHostImport[]): Promise<{ id: number; hostname: string }[]> {
  if (!rows.length) return [];
  const json = JSON.stringify(
    rows.map((r) => ({
      organization_id: r.organizationId,
      hostname: r.hostname,
      ip_addrs: r.ipAddrs ?? [],
      os_family: r.osFamily ?? null,
      group_id: r.groupId ?? null,
      tags: r.tags ?? [],
      serial: r.serial ?? '',
      notes: r.notes ?? '',
      imported_by: r.importedBy ?? null,
      imported_at: r.importedAt.toISOString(),
    })),
  );
  return queryRows<{ id: number; hostname: string }>(
    db,
    sql`insert into ${deviceImports} (organization_id, hostname, ip_addrs, os_family, group_id, tags, serial, notes, imported_by, imported_at)
      select organization_id, hostname, ip_addrs, os_family, group_id, tags, serial, notes, imported_by, imported_at
      from jsonb_to_recordset(${json}::jsonb) as x(organization_id integer, hostname text, ip_addrs text[],
        os_family text, group_id integer, tags text[], serial text, notes text, imported_by integer, imported_at timestamptz)
      on conflict do nothing
      returning id, hostname`,
  );
}

export type HostImportFilter = { status?: HostImportStatus; search?: string };

function filterWhere(zoneId: number, f: HostImportFilter): SQL | undefined {
  const search = f.search?.trim();
  return and(
    eq(deviceImports.organizationId, zoneId),
    f.status ? eq(deviceImports.status, f.status) : undefined,
    search ? ilike(deviceImports.hostname, `%${likeEscape(search.toLowerCase())}%`) : undefined,
  );
}

/** A page of the zone's imports, newest first, with their group's name. */
export async function findHostImports(
  db: Db,
  zoneId: number,
  filter: HostImportFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: HostImportListRow[]; size: number }> {
  const where = filterWhere(zoneId, filter);
  const rows = await db
    .select({ row: deviceImports, groupName: serverGroups.name })
    .from(deviceImports)
    .leftJoin(serverGroups, eq(serverGroups.id, deviceImports.groupId))
    .where(where)
    .orderBy(desc(deviceImports.importedAt), desc(deviceImports.id))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(deviceImports).where(where);
  return { rows: rows.map((r) => ({ ...r.row, groupName: r.groupName })), size: total?.n ?? 0 };
}

/** One import of the zone (undefined when it is another zone's). */
export async function findHostImport(db: Db, zoneId: number, id: number): Promise<HostImportRow | undefined> {
  const [row] = await db
    .select()
    .from(deviceImports)
    .where(and(eq(deviceImports.organizationId, zoneId), eq(deviceImports.id, id)))
    .limit(1);
  return row;
}

/** Deletes the import if it still awaits its agent; returns whether it did. */
/** Deletes an import still awaiting its agent; returns its host name, or null when none was deleted. */
export async function deleteAwaitingHostImport(db: Db, zoneId: number, id: number): Promise<string | null> {
  const [deleted] = await db
    .delete(deviceImports)
    .where(and(awaiting(zoneId), eq(deviceImports.id, id)))
    .returning({ hostname: deviceImports.hostname });
  return deleted?.hostname ?? null;
}

/**
 * The awaiting imports of the zone sharing `short` as their short host name, locked for
 * this transaction; rows another enrolment holds are skipped, so two agents never claim one.
 */
export async function lockAwaitingByShortName(db: Db, zoneId: number, short: string): Promise<HostImportRow[]> {
  return db
    .select()
    .from(deviceImports)
    .where(and(awaiting(zoneId), sql`split_part(${deviceImports.hostname}, '.', 1) = ${short}`))
    .orderBy(deviceImports.id)
    .for('update', { skipLocked: true });
}

/** Marks the import enrolled by `deviceId`. */
export async function markEnrolled(db: Db, id: number, deviceId: number, now: Date): Promise<void> {
  await db
    .update(deviceImports)
    .set({ status: 'enrolled', enrolledDeviceId: deviceId, enrolledAt: now })
    .where(eq(deviceImports.id, id));
}

/** The group's check-in interval, when the group still exists in the zone. */
export async function findZoneGroup(
  db: Db,
  zoneId: number,
  groupId: number,
): Promise<{ id: number; checkinIntervalS: number } | undefined> {
  const [group] = await db
    .select({ id: serverGroups.id, checkinIntervalS: serverGroups.checkinIntervalS })
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.id, groupId)))
    .limit(1);
  return group;
}

/** Applies an import's group, tags and notes to the device; returns the device as updated. */
export async function applyImportToDevice(
  db: Db,
  deviceId: number,
  set: { groupId?: number; checkinIntervalS?: number; tags: string[]; notes: string },
): Promise<typeof devices.$inferSelect | undefined> {
  const [device] = await db.update(devices).set(set).where(eq(devices.id, deviceId)).returning();
  return device;
}
