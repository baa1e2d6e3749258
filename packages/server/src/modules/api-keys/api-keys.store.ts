import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, organizations, userZoneRoles, users } from '../../db/schema';

type PlanRow = {
  plan: (typeof organizations.$inferSelect)['plan'];
  trialEndTime: Date | string | null;
  trialExpired: boolean;
};

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * The key with this hash and what authenticating it needs of its owner, in one query:
 * status, lock, account role and the owner's current zone roles; and the plan that governs
 * it (its zone's, or for a key of every zone the account's top-level zone's).
 */
export async function findKeyForAuth(db: Db, keyHash: string) {
  const [row] = await db
    .select({
      key: {
        id: apiKeys.id,
        organizationId: apiKeys.organizationId,
        expiresAt: apiKeys.expiresAt,
        revokedAt: apiKeys.revokedAt,
        lastUsedAt: apiKeys.lastUsedAt,
      },
      owner: {
        id: users.id,
        accountId: users.accountId,
        accountRbacRole: users.accountRbacRole,
        status: users.status,
        locked: users.locked,
      },
      roles: sql<{ o: number; r: number }[]>`coalesce((
        select json_agg(json_build_object('o', ${userZoneRoles.organizationId}, 'r', ${userZoneRoles.roleId}))
        from ${userZoneRoles} where ${userZoneRoles.userId} = ${users.id}), '[]'::json)`,
      plan: sql<PlanRow | null>`(
        select json_build_object('plan', o.plan, 'trialEndTime', o.trial_end_time, 'trialExpired', o.trial_expired)
          from ${organizations} o
         where o.id = coalesce(${apiKeys.organizationId}, (
           select t.id from ${organizations} t where t.account_id = ${users.accountId} and t.parent_id is null
            order by t.id limit 1)))`,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return (
    row && {
      ...row,
      roles: row.roles.map((r) => ({ organizationId: Number(r.o), roleId: Number(r.r) })),
      // json_build_object gives the time as text.
      plan: row.plan && {
        ...row.plan,
        trialEndTime: row.plan.trialEndTime === null ? null : new Date(row.plan.trialEndTime),
      },
    }
  );
}

/** Records a use; callers do it at most once a minute per key. */
export async function touchKey(db: Db, id: number, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}

/** The user's keys that are not revoked, newest first. */
export async function listUserKeys(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findUserKey(db: Db, userId: number, id: number): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  return row;
}

export async function insertKey(db: Db, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [created] = await db.insert(apiKeys).values(row).returning();
  return created!;
}

export async function revokeKey(db: Db, id: number, at: Date): Promise<void> {
  await db.update(apiKeys).set({ revokedAt: at }).where(eq(apiKeys.id, id));
}
