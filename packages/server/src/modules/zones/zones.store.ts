import { and, asc, count, eq, inArray, isNull, lte, min, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orgPrefs, organizations, sessions, userZoneRoles, users } from '../../db/schema';

export type ZoneRow = typeof organizations.$inferSelect;
export type ZoneWithCount = ZoneRow & { userCount: number };

/** One zone by id, whatever its account; callers check access before using it. */
export async function findZone(db: Db, id: number): Promise<ZoneRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return row;
}

// How many users hold a role in the zone (global administrators without one are not counted).
const userCount =
  sql<number>`(select count(*) from ${userZoneRoles} where ${userZoneRoles.organizationId} = ${organizations.id})`
    .mapWith(Number)
    .as('user_count');

async function zonesWithCount(db: Db, where: SQL | undefined): Promise<ZoneWithCount[]> {
  return db
    .select({ zone: organizations, userCount })
    .from(organizations)
    .where(where)
    .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id))
    .then((rows) => rows.map((r) => ({ ...r.zone, userCount: r.userCount })));
}

export async function findZoneWithCount(db: Db, id: number): Promise<ZoneWithCount | undefined> {
  const [row] = await zonesWithCount(db, eq(organizations.id, id));
  return row;
}

/** Zones of `accountId` (when given) and zones with these ids, sorted by name, with their user counts. */
export async function findZonesWithCount(
  db: Db,
  scope: { accountId: number | null; ids: number[] },
): Promise<ZoneWithCount[]> {
  const parts: SQL[] = [];
  if (scope.accountId !== null) parts.push(eq(organizations.accountId, scope.accountId));
  if (scope.ids.length) parts.push(inArray(organizations.id, scope.ids));
  if (!parts.length) return [];
  return zonesWithCount(db, or(...parts));
}

export async function countAccountZones(db: Db, accountId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(organizations).where(eq(organizations.accountId, accountId));
  return row?.n ?? 0;
}

/** The account's first top-level zone (its parent organisation when there is one). */
export async function findTopLevelZone(db: Db, accountId: number): Promise<ZoneRow | undefined> {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.accountId, accountId), isNull(organizations.parentId)))
    .orderBy(asc(organizations.id))
    .limit(1);
  return row;
}

export async function insertZone(db: Db, row: typeof organizations.$inferInsert): Promise<ZoneRow> {
  const [created] = await db.insert(organizations).values(row).returning();
  return created!;
}

export async function insertZoneRole(db: Db, row: typeof userZoneRoles.$inferInsert): Promise<void> {
  await db.insert(userZoneRoles).values(row);
}

export async function updateZone(
  db: Db,
  id: number,
  patch: Partial<Pick<ZoneRow, 'name' | 'disabled'>>,
): Promise<ZoneRow | undefined> {
  const [row] = await db.update(organizations).set(patch).where(eq(organizations.id, id)).returning();
  return row;
}

/**
 * Sets the zone's plan (billing's plan change calls it, in its transaction); returns the
 * plan it had, or undefined for an unknown zone. The zone row is locked while it changes.
 */
export async function setZonePlan(db: Db, id: number, plan: ZoneRow['plan']): Promise<ZoneRow['plan'] | undefined> {
  const [before] = await db
    .select({ plan: organizations.plan })
    .from(organizations)
    .where(eq(organizations.id, id))
    .for('update');
  if (!before) return undefined;
  await db.update(organizations).set({ plan }).where(eq(organizations.id, id));
  return before.plan;
}

/** Stores a zone's access key (hash and encrypted copy); with `onlyIfMissing`, only when it has none yet. */
export async function setAccessKey(
  db: Db,
  id: number,
  key: { hash: string; encrypted: string },
  options: { onlyIfMissing?: boolean } = {},
): Promise<boolean> {
  const where = options.onlyIfMissing
    ? and(eq(organizations.id, id), isNull(organizations.accessKeyEncrypted))
    : eq(organizations.id, id);
  const rows = await db
    .update(organizations)
    .set({ accessKeyHash: key.hash, accessKeyEncrypted: key.encrypted })
    .where(where)
    .returning({ id: organizations.id });
  return rows.length > 0;
}

/** The zone an agent's access key belongs to (agents enrol with it). */
export async function findZoneByAccessKeyHash(db: Db, hash: string): Promise<ZoneRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.accessKeyHash, hash)).limit(1);
  return row;
}

export type SessionBounds = { maxLifetimeMinutes: number; idleTimeoutMinutes: number };

/**
 * Sets the session bounds of `zoneIds` (all of one account) and, in the same transaction,
 * recomputes `expires_at` of every session those bounds govern: sessions of users holding
 * a role in those zones and of the account's global administrators. A user's bounds are
 * the strictest among all the zones they may enter (as sessions.service computes them),
 * so the periodic sweep, which trusts `expires_at`, never ends a session that a raised
 * bound keeps alive nor keeps one that a lowered bound ended (docs/decisions/0006).
 */
export async function setSessionBounds(
  db: Db,
  accountId: number,
  zoneIds: number[],
  bounds: SessionBounds,
): Promise<void> {
  if (!zoneIds.length) return;
  await db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set({
        sessionMaxLifetimeMinutes: bounds.maxLifetimeMinutes,
        sessionIdleTimeoutMinutes: bounds.idleTimeoutMinutes,
      })
      .where(and(eq(organizations.accountId, accountId), inArray(organizations.id, zoneIds)));
    const ids = sql.join(
      zoneIds.map((id) => sql`${id}`),
      sql`, `,
    );
    await tx.execute(sql`
      with affected as (
        select ${userZoneRoles.userId} as user_id from ${userZoneRoles}
          where ${userZoneRoles.organizationId} in (${ids})
        union
        select ${users.id} from ${users}
          where ${users.accountRbacRole} = 'global-admin' and ${users.accountId} = ${accountId}
      ),
      user_bounds as (
        select a.user_id,
               min(z.session_max_lifetime_minutes) as max_lifetime,
               min(z.session_idle_timeout_minutes) as idle_timeout
        from affected a
        join ${users} u on u.id = a.user_id
        join ${organizations} z
          on z.id in (select r.organization_id from ${userZoneRoles} r where r.user_id = a.user_id)
          or (u.account_rbac_role = 'global-admin' and z.account_id = u.account_id)
        group by a.user_id
      )
      update ${sessions} s
      set expires_at = least(
        s.created_at + b.max_lifetime * interval '1 minute',
        s.last_seen_at + b.idle_timeout * interval '1 minute')
      from user_bounds b
      where s.user_id = b.user_id`);
  });
}

/** The strictest bounds among the account's zones, or undefined when it has none. */
export async function findAccountSessionBounds(db: Db, accountId: number): Promise<SessionBounds | undefined> {
  const [row] = await db
    .select({
      maxLifetimeMinutes: sql<number | null>`min(${organizations.sessionMaxLifetimeMinutes})`.mapWith(Number),
      idleTimeoutMinutes: sql<number | null>`min(${organizations.sessionIdleTimeoutMinutes})`.mapWith(Number),
      zones: count(),
    })
    .from(organizations)
    .where(eq(organizations.accountId, accountId));
  if (!row || row.zones === 0 || row.maxLifetimeMinutes === null || row.idleTimeoutMinutes === null) return undefined;
  return { maxLifetimeMinutes: row.maxLifetimeMinutes, idleTimeoutMinutes: row.idleTimeoutMinutes };
}

export async function findAccountZoneIds(db: Db, accountId: number): Promise<number[]> {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.accountId, accountId));
  return rows.map((r) => r.id);
}

export async function listZonePrefs(db: Db, zoneId: number) {
  return db
    .select({ organization_id: orgPrefs.organizationId, pref_name: orgPrefs.prefName, value: orgPrefs.value })
    .from(orgPrefs)
    .where(eq(orgPrefs.organizationId, zoneId))
    .orderBy(asc(orgPrefs.prefName));
}

/** Creates or overwrites each preference of the zone. */
export async function upsertZonePrefs(
  db: Db,
  zoneId: number,
  prefs: { pref_name: string; value: string }[],
): Promise<void> {
  if (!prefs.length) return;
  // The last value of a name sent twice wins (one row per name, or the upsert would fail).
  const byName = new Map(prefs.map((p) => [p.pref_name, p.value]));
  await db
    .insert(orgPrefs)
    .values([...byName].map(([prefName, value]) => ({ organizationId: zoneId, prefName, value })))
    .onConflictDoUpdate({
      target: [orgPrefs.organizationId, orgPrefs.prefName],
      set: { value: sql`excluded.value` },
    });
}

/** Users holding a role in the zone, with that role, sorted by name. */
export async function listZoneMembers(db: Db, zoneId: number) {
  return db
    .select({
      id: users.id,
      uuid: users.uuid,
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
      status: users.status,
      locked: users.locked,
      tfaEnabled: users.tfaEnabled,
      accountRbacRole: users.accountRbacRole,
      createdAt: users.createdAt,
      lastSigninAt: users.lastSigninAt,
      roleId: userZoneRoles.roleId,
    })
    .from(userZoneRoles)
    .innerJoin(users, eq(users.id, userZoneRoles.userId))
    .where(eq(userZoneRoles.organizationId, zoneId))
    .orderBy(asc(sql`lower(${users.firstname})`), asc(sql`lower(${users.lastname})`), asc(users.id));
}

/** A transaction of the zones' store. */
export type ZonesTx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Up to `limit` zones whose trial ended by `now` and is not yet marked, locked for `tx`
 * (`FOR UPDATE SKIP LOCKED`): two nodes never claim the same zone, and once marked it is
 * never claimed again, so each trial's end is handled exactly once.
 */
export async function claimEndedTrials(tx: ZonesTx, now: Date, limit: number): Promise<ZoneRow[]> {
  return tx
    .select()
    .from(organizations)
    .where(and(lte(organizations.trialEndTime, now), eq(organizations.trialExpired, false)))
    .orderBy(asc(organizations.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The id of the account's first zone (the earliest created). */
export async function findFirstZoneId(tx: ZonesTx, accountId: number): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: min(organizations.id) })
    .from(organizations)
    .where(eq(organizations.accountId, accountId));
  return row?.id ?? undefined;
}

/** Marks a zone's trial as ended, disabling the zone when `disable`. */
export async function markTrialEnded(tx: ZonesTx, id: number, disable: boolean): Promise<void> {
  await tx
    .update(organizations)
    .set(disable ? { trialExpired: true, disabled: true } : { trialExpired: true })
    .where(eq(organizations.id, id));
}
