import { and, asc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { serverGroups } from '../../db/devices.schema';
import { maintenanceWindows } from '../../db/maintenance.schema';
import type { Exec, Tx } from '../commands/commands.store';

/** The only SQL that writes `maintenance_windows`. */

export type WindowRow = typeof maintenanceWindows.$inferSelect;
export type WindowWithGroup = WindowRow & { groupName: string };
type NewWindow = typeof maintenanceWindows.$inferInsert;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const withGroup = { window: maintenanceWindows, groupName: serverGroups.name };

/**
 * SQL true when the device of group `groupId` may start work at `now`: its group has no
 * window, or one of them is open (the materialized occurrence holds `now`). A window whose
 * occurrence ended and was not yet moved on reads as closed, never as open. One probe of
 * `maintenance_windows_group_idx` per device, so it filters a whole fleet in one statement.
 */
export function insideWindowSql(groupId: AnyPgColumn | SQL, now: Date): SQL {
  return sql`(not exists (select 1 from ${maintenanceWindows} mw where mw.group_id = ${groupId})
           or exists (select 1 from ${maintenanceWindows} mw where mw.group_id = ${groupId}
                        and mw.next_start_at <= ${ts(now)} and mw.next_end_at > ${ts(now)}))`;
}

/** Serialises creations in one zone, so the count and the insert that follows it agree. */
export async function lockZoneWindows(tx: Tx, zoneId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('maintenance_windows'), ${zoneId})`);
}

export async function countWindows(exec: Exec, zoneId: number): Promise<number> {
  const [row] = await exec
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(maintenanceWindows)
    .where(eq(maintenanceWindows.organizationId, zoneId));
  return row?.n ?? 0;
}

export async function insertWindow(exec: Exec, row: NewWindow): Promise<WindowRow> {
  const [created] = await exec.insert(maintenanceWindows).values(row).returning();
  return created!;
}

export async function updateWindow(
  exec: Exec,
  zoneId: number,
  id: number,
  set: Pick<NewWindow, 'name' | 'groupId' | 'timezone' | 'schedule' | 'nextStartAt' | 'nextEndAt' | 'updatedAt'>,
): Promise<void> {
  await exec
    .update(maintenanceWindows)
    .set(set)
    .where(and(eq(maintenanceWindows.organizationId, zoneId), eq(maintenanceWindows.id, id)));
}

export async function deleteWindow(exec: Exec, zoneId: number, id: number): Promise<void> {
  await exec
    .delete(maintenanceWindows)
    .where(and(eq(maintenanceWindows.organizationId, zoneId), eq(maintenanceWindows.id, id)));
}

/** One window of the zone (undefined when it is another zone's). */
export async function findWindow(db: Exec, zoneId: number, id: number): Promise<WindowWithGroup | undefined> {
  const [row] = await db
    .select(withGroup)
    .from(maintenanceWindows)
    .innerJoin(serverGroups, eq(serverGroups.id, maintenanceWindows.groupId))
    .where(and(eq(maintenanceWindows.organizationId, zoneId), eq(maintenanceWindows.id, id)))
    .limit(1);
  return row ? { ...row.window, groupName: row.groupName } : undefined;
}

/** The zone's windows (or one group's), by group name, then name. */
export async function findWindows(db: Db, zoneId: number, groupId?: number): Promise<WindowWithGroup[]> {
  const rows = await db
    .select(withGroup)
    .from(maintenanceWindows)
    .innerJoin(serverGroups, eq(serverGroups.id, maintenanceWindows.groupId))
    .where(
      and(
        eq(maintenanceWindows.organizationId, zoneId),
        groupId === undefined ? undefined : eq(maintenanceWindows.groupId, groupId),
      ),
    )
    .orderBy(
      asc(sql`lower(${serverGroups.name})`),
      asc(sql`lower(${maintenanceWindows.name})`),
      asc(maintenanceWindows.id),
    );
  return rows.map((r) => ({ ...r.window, groupName: r.groupName }));
}

/** The rules of the windows of the groups (all the zone's groups when `groupIds` is null). */
export async function findGroupRules(
  exec: Exec,
  zoneId: number,
  groupIds: number[] | null,
): Promise<Pick<WindowRow, 'groupId' | 'timezone' | 'schedule'>[]> {
  return exec
    .select({
      groupId: maintenanceWindows.groupId,
      timezone: maintenanceWindows.timezone,
      schedule: maintenanceWindows.schedule,
    })
    .from(maintenanceWindows)
    .where(
      and(
        eq(maintenanceWindows.organizationId, zoneId),
        groupIds ? inArray(maintenanceWindows.groupId, groupIds.length ? groupIds : [-1]) : undefined,
      ),
    );
}

/** Locks up to `limit` windows whose stored occurrence ended by `now` (the tick moves them on). */
export async function lockEndedWindows(tx: Tx, now: Date, limit: number): Promise<WindowRow[]> {
  return tx
    .select()
    .from(maintenanceWindows)
    .where(lte(maintenanceWindows.nextEndAt, now))
    .orderBy(asc(maintenanceWindows.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function setNextOccurrence(
  exec: Exec,
  id: number,
  next: { start: Date; end: Date } | null,
): Promise<void> {
  await exec
    .update(maintenanceWindows)
    .set({ nextStartAt: next?.start ?? null, nextEndAt: next?.end ?? null })
    .where(eq(maintenanceWindows.id, id));
}
