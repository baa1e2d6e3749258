import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginFailures, users } from '../../db/schema';

export type FailureKind = 'ip' | 'account';

/** What sign-in needs of a user, by (lower-cased) e-mail. */
export async function findUserForSignIn(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      accountId: users.accountId,
      accountRbacRole: users.accountRbacRole,
      passwordHash: users.passwordHash,
      status: users.status,
      locked: users.locked,
    })
    .from(users)
    .where(eq(users.email, email));
  return row;
}

/** Failures of one key since `since`: how many, and when the oldest happened. */
export async function countFailures(db: Db, kind: FailureKind, key: string, since: Date) {
  const [row] = await db
    .select({ n: count(), oldest: min(loginFailures.occurredAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key), gt(loginFailures.occurredAt, since)));
  return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Records a failed sign-in under each key and drops rows too old to matter for any limit. */
export async function recordFailure(
  db: Db,
  keys: { kind: FailureKind; key: string }[],
  at: Date,
  forgetBefore: Date,
): Promise<void> {
  await db.insert(loginFailures).values(keys.map((k) => ({ ...k, occurredAt: at })));
  await db.delete(loginFailures).where(lt(loginFailures.occurredAt, forgetBefore));
}

export async function clearFailures(db: Db, kind: FailureKind, key: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key)));
}

/**
 * Counts one more consecutive failure for a user and locks them on reaching `lockAt`,
 * in one statement so concurrent attempts cannot skip the lock.
 */
export async function addConsecutiveFailure(db: Db, userId: number, lockAt: number) {
  const [row] = await db
    .update(users)
    .set({
      failedSigninCount: sql`${users.failedSigninCount} + 1`,
      locked: sql`${users.locked} or ${users.failedSigninCount} + 1 >= ${lockAt}`,
    })
    .where(eq(users.id, userId))
    .returning({ locked: users.locked });
  return row;
}

export async function resetConsecutiveFailures(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ failedSigninCount: 0 }).where(eq(users.id, userId));
}
