import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { deleteBatch } from '../../db/batch.store';
import type { Db } from '../../db/client';
import { organizations, sessions, userZoneRoles, users } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

export type ZoneAccess = {
  /** Smallest maximum lifetime among the user's zones (null: the user has none). */
  maxLifetimeMinutes: number | null;
  idleTimeoutMinutes: number | null;
  /** The user's explicit role per zone. */
  roles: { organizationId: number; roleId: number }[];
};

const qb = new QueryBuilder();

/**
 * A one-row subquery, to join laterally to a query on `users`: the user's zone roles and the
 * strictest session bounds among the zones they belong to (a global administrator belongs to
 * every zone of the account). Two index lookups (zones the user holds a role in; the
 * account's zones, for a global administrator only), never a scan of all zones.
 */
function zoneAccessOfUser() {
  const zoneFields = {
    id: organizations.id,
    maxLifetimeMinutes: organizations.sessionMaxLifetimeMinutes,
    idleTimeoutMinutes: organizations.sessionIdleTimeoutMinutes,
  };
  const heldZones = qb
    .select({ ...zoneFields, roleId: sql<number | null>`${userZoneRoles.roleId}`.as('role_id') })
    .from(userZoneRoles)
    .innerJoin(organizations, eq(organizations.id, userZoneRoles.organizationId))
    .where(eq(userZoneRoles.userId, users.id));
  const accountZones = qb
    .select({ ...zoneFields, roleId: sql<number | null>`null::integer`.as('role_id') })
    .from(organizations)
    .where(and(eq(users.accountRbacRole, 'global-admin'), eq(organizations.accountId, users.accountId)));
  const zones = heldZones.unionAll(accountZones).as('zones');
  return qb
    .select({
      maxLifetimeMinutes: sql<number | null>`min(${zones.maxLifetimeMinutes})`.as('max_lifetime_minutes'),
      idleTimeoutMinutes: sql<number | null>`min(${zones.idleTimeoutMinutes})`.as('idle_timeout_minutes'),
      roles: sql<{ o: number; r: number }[]>`coalesce(
        json_agg(json_build_object('o', ${zones.id}, 'r', ${zones.roleId}) order by ${zones.id})
          filter (where ${zones.roleId} is not null),
        '[]'::json)`.as('roles'),
    })
    .from(zones)
    .as('zone_access');
}

function toZoneAccess(row: {
  maxLifetimeMinutes: number | null;
  idleTimeoutMinutes: number | null;
  roles: { o: number; r: number }[];
}): ZoneAccess {
  return {
    maxLifetimeMinutes: row.maxLifetimeMinutes,
    idleTimeoutMinutes: row.idleTimeoutMinutes,
    roles: row.roles.map((r) => ({ organizationId: Number(r.o), roleId: Number(r.r) })),
  };
}

/** The user's zone roles and session bounds (see {@link zoneAccessOfUser}), in one round trip. */
export async function findZoneAccess(db: Db, userId: number): Promise<ZoneAccess> {
  const access = zoneAccessOfUser();
  const [row] = await db
    .select({
      maxLifetimeMinutes: access.maxLifetimeMinutes,
      idleTimeoutMinutes: access.idleTimeoutMinutes,
      roles: access.roles,
    })
    .from(users)
    .crossJoinLateral(access)
    .where(eq(users.id, userId));
  return row ? toZoneAccess(row) : { maxLifetimeMinutes: null, idleTimeoutMinutes: null, roles: [] };
}

function prepareFindSession(db: Db) {
  const access = zoneAccessOfUser();
  return db
    .select({
      session: { createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt },
      user: {
        id: users.id,
        accountId: users.accountId,
        accountRbacRole: users.accountRbacRole,
        status: users.status,
      },
      maxLifetimeMinutes: access.maxLifetimeMinutes,
      idleTimeoutMinutes: access.idleTimeoutMinutes,
      roles: access.roles,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .crossJoinLateral(access)
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('find_session');
}

// Runs on every request, so it is built once per database and, on PostgreSQL, a named
// statement: each connection plans it once instead of per request (most of its cost).
const findSessionQueries = new WeakMap<Db, ReturnType<typeof prepareFindSession>>();

/**
 * The session with what validation needs of its user, and the user's zone access (see
 * {@link zoneAccessOfUser}), or undefined: one query per request.
 */
export async function findSession(db: Db, id: string) {
  let query = findSessionQueries.get(db);
  if (!query) findSessionQueries.set(db, (query = prepareFindSession(db)));
  const [row] = await query.execute({ id });
  return row && { session: row.session, user: row.user, access: toZoneAccess(row) };
}

/** Moves the session's last use and expiry; false when the session no longer exists. */
export async function touchSession(db: Db, id: string, lastSeenAt: Date, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ lastSeenAt, expiresAt })
    .where(eq(sessions.id, id))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Deletes a session; returns whose it was (null when there was none). */
export async function deleteSession(
  db: Db,
  id: string,
): Promise<{ userId: number; email: string; accountId: number | null } | null> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.id, id))
    .returning({
      userId: sessions.userId,
      email: sql<string>`(select ${users.email} from ${users} where ${users.id} = ${sessions.userId})`,
      accountId: sql<number | null>`(select ${users.accountId} from ${users} where ${users.id} = ${sessions.userId})`,
    });
  return row ?? null;
}

/**
 * Ends every session of a user (or all but `exceptId`): their next request is unauthenticated.
 * Used when a user is disabled, deleted from their last zone or changes their password.
 */
export async function deleteUserSessions(db: Db, userId: number, exceptId?: string): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(
      exceptId === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, exceptId)),
    )
    .returning({ id: sessions.id });
  return ended.length;
}

/** Deletes up to `limit` sessions that expired before `now`; returns how many (see {@link deleteBatch}). */
export async function deleteExpiredSessions(db: Db, now: Date, limit: number): Promise<number> {
  return deleteBatch(db, sessions, sessions.id, lt(sessions.expiresAt, now), limit);
}
