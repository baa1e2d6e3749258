import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { devices, serverGroups } from '../../db/devices.schema';
import { policies } from '../../db/policies.schema';
import { refreshCompliance } from './compliance.store';

export type GroupRow = typeof serverGroups.$inferSelect;
export type GroupWithCount = GroupRow & { serverCount: number };

/** Name of the group every zone has and devices enrol into. */
export const DEFAULT_GROUP_NAME = 'Default Group';

/**
 * The zone's default group, created on first use. Two requests racing both end with the
 * same row: the partial unique index lets only one insert win.
 */
export async function ensureDefaultGroup(db: Db, zoneId: number, now: Date): Promise<GroupRow> {
  const [existing] = await db
    .select()
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.isDefault, true)))
    .limit(1);
  if (existing) return existing;
  await db
    .insert(serverGroups)
    .values({ organizationId: zoneId, name: DEFAULT_GROUP_NAME, isDefault: true, createdAt: now })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.isDefault, true)))
    .limit(1);
  return row!;
}

// Qualified by hand: drizzle leaves columns of a single-table select unqualified, which a
// correlated subquery would resolve against its own table.
const serverCount =
  sql<number>`(select count(*) from ${devices} d where d.group_id = "server_groups"."id" and d.removed_at is null)`
    .mapWith(Number)
    .as('server_count');

/** The zone's groups with their device counts, default first, then by name. */
export async function findGroups(db: Db, zoneId: number): Promise<GroupWithCount[]> {
  const rows = await db
    .select({ group: serverGroups, serverCount })
    .from(serverGroups)
    .where(eq(serverGroups.organizationId, zoneId))
    .orderBy(sql`${serverGroups.isDefault} desc`, asc(sql`lower(${serverGroups.name})`), asc(serverGroups.id));
  return rows.map((r) => ({ ...r.group, serverCount: r.serverCount }));
}

/** One group of the zone (undefined when it is another zone's). */
export async function findGroup(db: Db, zoneId: number, id: number): Promise<GroupWithCount | undefined> {
  const [row] = await db
    .select({ group: serverGroups, serverCount })
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.id, id)))
    .limit(1);
  return row ? { ...row.group, serverCount: row.serverCount } : undefined;
}

/** Whether another group of the zone has this name (ignoring case). */
export async function isGroupNameTaken(db: Db, zoneId: number, name: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: serverGroups.id })
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), sql`lower(${serverGroups.name}) = lower(${name})`));
  return rows.some((r) => r.id !== exceptId);
}

export async function insertGroup(db: Db, row: typeof serverGroups.$inferInsert): Promise<GroupRow> {
  const [created] = await db.insert(serverGroups).values(row).returning();
  return created!;
}

/** Updates a group; a changed check-in interval is copied onto its devices in the same transaction. */
export async function updateGroup(
  db: Db,
  zoneId: number,
  id: number,
  patch: Partial<Pick<GroupRow, 'name' | 'parentId' | 'refreshInterval' | 'checkinIntervalS' | 'notes'>>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(serverGroups)
      .set(patch)
      .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.id, id)));
    if (patch.checkinIntervalS !== undefined) {
      await tx
        .update(devices)
        .set({ checkinIntervalS: patch.checkinIntervalS })
        .where(and(eq(devices.organizationId, zoneId), eq(devices.groupId, id)));
    }
  });
}

/** Deletes a group after moving its devices (and child groups' parent link) to `defaultGroup`. */
export async function deleteGroup(db: Db, zoneId: number, id: number, defaultGroup: GroupRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(devices)
      .set({ groupId: defaultGroup.id, checkinIntervalS: defaultGroup.checkinIntervalS })
      .where(and(eq(devices.organizationId, zoneId), eq(devices.groupId, id)));
    await tx
      .update(serverGroups)
      .set({ parentId: null })
      .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.parentId, id)));
    const deleted = await tx
      .delete(serverGroups)
      .where(and(eq(serverGroups.organizationId, zoneId), eq(serverGroups.id, id), eq(serverGroups.isDefault, false)))
      .returning({ id: serverGroups.id });
    // Policies target groups by id in an array, which no foreign key guards: the group
    // leaves their targets in the same transaction (a saving policy holds a key-share lock
    // on its groups, so it cannot slip the id back in between).
    if (deleted.length) {
      await tx
        .update(policies)
        .set({ serverGroups: sql`array_remove(${policies.serverGroups}, ${id}::int)` })
        .where(and(eq(policies.organizationId, zoneId), sql`${id}::int = any(${policies.serverGroups})`));
    }
  });
}

/** Moves the zone's devices among `ids` into `group`; returns how many moved. */
export async function moveDevicesToGroup(
  db: Db,
  zoneId: number,
  ids: number[],
  group: GroupRow,
  now: Date,
): Promise<number> {
  const moved = await db
    .update(devices)
    .set({ groupId: group.id, checkinIntervalS: group.checkinIntervalS })
    .where(and(eq(devices.organizationId, zoneId), inArray(devices.id, ids), isNull(devices.removedAt)))
    .returning({ id: devices.id });
  // Which policies' statuses count for them changed with their group.
  await refreshCompliance(
    db,
    moved.map((m) => m.id),
    now,
  );
  return moved.length;
}
