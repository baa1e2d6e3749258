import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

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

/** After a successful sign-in: no consecutive failures, and when it happened (the users list shows it). */
export async function resetConsecutiveFailures(db: Db, userId: number, signedInAt: Date): Promise<void> {
  await db.update(users).set({ failedSigninCount: 0, lastSigninAt: signedInAt }).where(eq(users.id, userId));
}
