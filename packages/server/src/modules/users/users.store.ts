import { and, asc, count, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations, userPrefs, userZoneRoles, users } from '../../db/schema';
import { deleteAttemptsOfKey } from '../auth/rate-limits.store';

export type UserRow = typeof users.$inferSelect;

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** By e-mail, which is stored lower-cased; pass it lower-cased. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row;
}

/** Whether another user than `exceptUserId` has this e-mail. */
export async function isEmailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      exceptUserId === undefined ? eq(users.email, email) : and(eq(users.email, email), ne(users.id, exceptUserId)),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertUser(db: Db, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

export async function updateUser(db: Db, id: number, patch: Partial<typeof users.$inferInsert>): Promise<UserRow> {
  const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
  return row!;
}

/** Deletes the user; roles, sessions, invitations, API keys and preferences go with it (foreign keys cascade). */
export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

/** A member of a zone (a user holding a role there) with that role, or undefined. */
export async function findMember(db: Db, userId: number, zoneId: number) {
  const [row] = await db
    .select({ user: users, roleId: userZoneRoles.roleId })
    .from(userZoneRoles)
    .innerJoin(users, eq(users.id, userZoneRoles.userId))
    .where(and(eq(userZoneRoles.userId, userId), eq(userZoneRoles.organizationId, zoneId)));
  return row;
}

/** The members of a zone with their role there, by e-mail. */
export async function listMembers(db: Db, zoneId: number) {
  return db
    .select({ user: users, roleId: userZoneRoles.roleId })
    .from(userZoneRoles)
    .innerJoin(users, eq(users.id, userZoneRoles.userId))
    .where(eq(userZoneRoles.organizationId, zoneId))
    .orderBy(asc(users.email));
}

/** Gives the user `roleId` in the zone, replacing the role held there. */
export async function setZoneRole(db: Db, userId: number, zoneId: number, roleId: number): Promise<void> {
  await db
    .insert(userZoneRoles)
    .values({ userId, organizationId: zoneId, roleId })
    .onConflictDoUpdate({ target: [userZoneRoles.userId, userZoneRoles.organizationId], set: { roleId } });
}

/** Gives the user `roleId` in the zone unless they already hold a role there. */
export async function addZoneRole(db: Db, userId: number, zoneId: number, roleId: number): Promise<void> {
  await db.insert(userZoneRoles).values({ userId, organizationId: zoneId, roleId }).onConflictDoNothing();
}

/** Takes the user out of the zone; false when they were not in it. */
export async function removeZoneRole(db: Db, userId: number, zoneId: number): Promise<boolean> {
  const removed = await db
    .delete(userZoneRoles)
    .where(and(eq(userZoneRoles.userId, userId), eq(userZoneRoles.organizationId, zoneId)))
    .returning({ userId: userZoneRoles.userId });
  return removed.length > 0;
}

/** Takes the user out of every zone not in `keepZoneIds`; returns the zones left. */
export async function removeZoneRolesExcept(db: Db, userId: number, keepZoneIds: number[]): Promise<number[]> {
  const removed = await db
    .delete(userZoneRoles)
    .where(
      keepZoneIds.length
        ? and(eq(userZoneRoles.userId, userId), notInArray(userZoneRoles.organizationId, keepZoneIds))
        : eq(userZoneRoles.userId, userId),
    )
    .returning({ zoneId: userZoneRoles.organizationId });
  return removed.map((r) => r.zoneId);
}

export async function countZonesOf(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(userZoneRoles).where(eq(userZoneRoles.userId, userId));
  return row?.n ?? 0;
}

/** The users of an account (or one of them), by e-mail. */
export async function listAccountUsers(db: Db, accountId: number, userId?: number): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(
      userId === undefined ? eq(users.accountId, accountId) : and(eq(users.accountId, accountId), eq(users.id, userId)),
    )
    .orderBy(asc(users.email));
}

/** The zone roles of these users, with the zone names, by zone name. */
export async function listZoneRolesOf(db: Db, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: userZoneRoles.userId,
      zoneId: organizations.id,
      zoneName: organizations.name,
      roleId: userZoneRoles.roleId,
    })
    .from(userZoneRoles)
    .innerJoin(organizations, eq(organizations.id, userZoneRoles.organizationId))
    .where(inArray(userZoneRoles.userId, userIds))
    .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id));
}

/** The zones of an account among `ids` (to check zone ids a request names). */
export async function findAccountZones(db: Db, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      // What the plan rules read (a role given in the zone may need its plan).
      plan: organizations.plan,
      trialEndTime: organizations.trialEndTime,
      trialExpired: organizations.trialExpired,
    })
    .from(organizations)
    .where(and(eq(organizations.accountId, accountId), inArray(organizations.id, ids)));
}

/** The account's first zone: its oldest top-level one. */
export async function findFirstZone(db: Db, accountId: number) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.accountId, accountId))
    .orderBy(sql`${organizations.parentId} is not null`, asc(organizations.id))
    .limit(1);
  return row;
}

/**
 * Unlocks a user after too many failed sign-ins: clears the lock and the consecutive
 * failure count, and the failed attempts counted against their e-mail for rate limiting.
 */
export async function unlockUser(db: Db, user: { id: number; email: string }): Promise<void> {
  await db
    .update(users)
    .set({ locked: false, lockedUntil: null, failedSigninCount: 0, unlockTokenHash: null, unlockTokenExpiresAt: null })
    .where(eq(users.id, user.id));
  await deleteAttemptsOfKey(db, 'account', user.email);
}

/** Creates or overwrites the user's preferences. */
export async function upsertPrefs(db: Db, userId: number, prefs: { pref_name: string; value: string }[]) {
  if (prefs.length === 0) return;
  await db
    .insert(userPrefs)
    .values(prefs.map((p) => ({ userId, prefName: p.pref_name, value: p.value })))
    .onConflictDoUpdate({
      target: [userPrefs.userId, userPrefs.prefName],
      set: { value: sql`excluded.value` },
    });
}

/** Sets `metadata[key]` to true unless it already is (no write then). */
export async function setMetadataFlag(db: Db, userId: number, key: string): Promise<void> {
  await db
    .update(users)
    .set({ metadata: sql`${users.metadata} || jsonb_build_object(${key}::text, true)` })
    .where(and(eq(users.id, userId), sql`coalesce(${users.metadata}->>${key}, 'false') <> 'true'`));
}
