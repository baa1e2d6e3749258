import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, userZoneRoles, users } from '../../db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * The key with this hash and what authenticating it needs of its owner, in one query:
 * status, lock, account role and the owner's current zone roles.
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
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return (
    row && {
      ...row,
      roles: row.roles.map((r) => ({ organizationId: Number(r.o), roleId: Number(r.r) })),
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
