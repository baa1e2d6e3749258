import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, organizations, userPrefs, userZoneRoles, users } from '../../db/schema';

/** The user and their account's fields the profile shows. */
export async function findProfileUser(db: Db, userId: number) {
  const [row] = await db
    .select({
      user: users,
      account: { name: accounts.name, createdAt: accounts.createdAt, completedQsg: accounts.completedQsg },
    })
    .from(users)
    .leftJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.id, userId));
  return row;
}

const zoneColumns = {
  id: organizations.id,
  uuid: organizations.uuid,
  name: organizations.name,
  parentId: organizations.parentId,
  plan: organizations.plan,
  trialEndTime: organizations.trialEndTime,
  trialExpired: organizations.trialExpired,
  disabled: organizations.disabled,
  createdAt: organizations.createdAt,
  saml: organizations.saml,
};

/**
 * Zones the user may enter, sorted by name, with their explicit role (null for a global
 * administrator's zones where none was given): every zone of the account for a global
 * administrator, otherwise the zones where they hold a role.
 */
export async function findUserZones(db: Db, user: { id: number; accountId: number | null; isGlobalAdmin: boolean }) {
  const roleJoin = and(eq(userZoneRoles.organizationId, organizations.id), eq(userZoneRoles.userId, user.id));
  const visible =
    user.isGlobalAdmin && user.accountId !== null
      ? or(eq(organizations.accountId, user.accountId), sql`${userZoneRoles.userId} is not null`)
      : sql`${userZoneRoles.userId} is not null`;
  return db
    .select({ ...zoneColumns, roleId: userZoneRoles.roleId })
    .from(organizations)
    .leftJoin(userZoneRoles, roleJoin)
    .where(visible)
    .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id));
}

export type ZoneRow = Awaited<ReturnType<typeof findUserZones>>[number];

/** Zones by id (for parents outside the user's own list). */
export async function findZonesByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db.select(zoneColumns).from(organizations).where(inArray(organizations.id, ids));
}

export async function findPrefs(db: Db, userId: number) {
  return db
    .select({ user_id: userPrefs.userId, pref_name: userPrefs.prefName, value: userPrefs.value })
    .from(userPrefs)
    .where(eq(userPrefs.userId, userId))
    .orderBy(asc(userPrefs.prefName));
}
