import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import { deleteBatch } from '../../db/batch.store';
import type { Db } from '../../db/client';
import { organizations, sessions, userZoneRoles, users } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

/** The session with what validation needs of its user, or undefined. */
export async function findSession(db: Db, id: string) {
  const [row] = await db
    .select({
      session: sessions,
      user: {
        id: users.id,
        accountId: users.accountId,
        accountRbacRole: users.accountRbacRole,
        status: users.status,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id));
  return row;
}

export type ZoneAccess = {
  /** Smallest maximum lifetime among the user's zones (null: the user has none). */
  maxLifetimeMinutes: number | null;
  idleTimeoutMinutes: number | null;
  /** The user's explicit role per zone. */
  roles: { organizationId: number; roleId: number }[];
};

/**
 * The user's zone roles and the strictest session bounds among the zones they belong to
 * (a global administrator belongs to every zone of the account), in one round trip.
 */
export async function findZoneAccess(
  db: Db,
  user: { id: number; accountId: number | null; isGlobalAdmin: boolean },
): Promise<ZoneAccess> {
  const allZonesOfAccount =
    user.isGlobalAdmin && user.accountId !== null ? eq(organizations.accountId, user.accountId) : sql`false`;
  const [row] = await db
    .select({
      maxLifetimeMinutes: sql<number | null>`min(${organizations.sessionMaxLifetimeMinutes})`,
      idleTimeoutMinutes: sql<number | null>`min(${organizations.sessionIdleTimeoutMinutes})`,
      roles: sql<{ o: number; r: number }[]>`coalesce(
        json_agg(json_build_object('o', ${userZoneRoles.organizationId}, 'r', ${userZoneRoles.roleId}))
          filter (where ${userZoneRoles.roleId} is not null),
        '[]'::json)`,
    })
    .from(organizations)
    .leftJoin(userZoneRoles, and(eq(userZoneRoles.organizationId, organizations.id), eq(userZoneRoles.userId, user.id)))
    .where(or(isNotNull(userZoneRoles.userId), allZonesOfAccount));
  return {
    maxLifetimeMinutes: row?.maxLifetimeMinutes ?? null,
    idleTimeoutMinutes: row?.idleTimeoutMinutes ?? null,
    roles: (row?.roles ?? []).map((r) => ({ organizationId: Number(r.o), roleId: Number(r.r) })),
  };
}

export async function touchSession(db: Db, id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Deletes up to `limit` sessions that expired before `now`; returns how many (see {@link deleteBatch}). */
export async function deleteExpiredSessions(db: Db, now: Date, limit: number): Promise<number> {
  return deleteBatch(db, sessions, sessions.id, lt(sessions.expiresAt, now), limit);
}
