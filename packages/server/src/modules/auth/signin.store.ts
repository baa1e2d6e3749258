import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

/** What sign-in needs of a user, by (lower-cased) e-mail. */
export async function findUserForSignIn(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      accountId: users.accountId,
      accountRbacRole: users.accountRbacRole,
      email: users.email,
      firstname: users.firstname,
      passwordHash: users.passwordHash,
      status: users.status,
      locked: users.locked,
      lockedUntil: users.lockedUntil,
      emailVerified: users.emailVerified,
    })
    .from(users)
    .where(eq(users.email, email));
  return row;
}

/** A lock still holding at `now` (a lock without an end predates expiring locks: it holds). */
const lockHolds = (now: Date) =>
  sql`(${users.locked} and (${users.lockedUntil} is null or ${users.lockedUntil} > ${now}))`;

/** How a failure changes the lock: the growth of lock lengths, in seconds. */
export type LockGrowth = { lockAt: number; firstLockS: number; maxLockS: number };

/**
 * Counts one more consecutive failure for a user who is not locked at `now`, and locks them
 * on reaching `lockAt`: for `firstLockS` doubled per earlier lock since their last
 * successful sign-in, at most `maxLockS`. One statement, so concurrent attempts can neither
 * skip the lock nor lock twice; failures during a lock count for nothing.
 * @returns the new lock's end when this failure locked the user, else null.
 */
export async function addConsecutiveFailure(
  db: Db,
  userId: number,
  growth: LockGrowth,
  now: Date,
): Promise<Date | null> {
  const reaches = sql`${users.failedSigninCount} + 1 >= ${growth.lockAt}`;
  const lockS = sql`least(${growth.maxLockS}::float8, ${growth.firstLockS}::float8 * power(2, least(${users.lockCount}, 30)))`;
  const [row] = await db
    .update(users)
    .set({
      failedSigninCount: sql`case when ${reaches} then 0 else ${users.failedSigninCount} + 1 end`,
      locked: sql`${users.locked} or ${reaches}`,
      lockedUntil: sql`case when ${reaches} then ${now}::timestamptz + make_interval(secs => ${lockS}) else ${users.lockedUntil} end`,
      lockCount: sql`case when ${reaches} then ${users.lockCount} + 1 else ${users.lockCount} end`,
    })
    .where(and(eq(users.id, userId), sql`not ${lockHolds(now)}`))
    .returning({ lockedUntil: users.lockedUntil });
  const until = row?.lockedUntil;
  return until && until.getTime() > now.getTime() ? until : null;
}

/** After a successful sign-in: no failures, no lock, no unlock link, and when it happened (the users list shows it). */
export async function resetConsecutiveFailures(db: Db, userId: number, signedInAt: Date): Promise<void> {
  await db
    .update(users)
    .set({
      failedSigninCount: 0,
      locked: false,
      lockedUntil: null,
      lockCount: 0,
      unlockTokenHash: null,
      unlockTokenExpiresAt: null,
      lastSigninAt: signedInAt,
    })
    .where(eq(users.id, userId));
}

/** Stores the hash of a new unlock link's token; it replaces any earlier link. */
export async function setUnlockToken(db: Db, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await db
    .update(users)
    .set({ unlockTokenHash: tokenHash, unlockTokenExpiresAt: expiresAt })
    .where(eq(users.id, userId));
}

/**
 * Uses an unlock link: lifts the lock of the user whose live token it is and spends the
 * token, in one statement (of two concurrent uses one wins). The lock count stays, so a
 * guesser who goes on meets a longer lock next time.
 * @returns the user unlocked, or undefined for an unknown, spent or expired token.
 */
export async function useUnlockToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .update(users)
    .set({ locked: false, lockedUntil: null, failedSigninCount: 0, unlockTokenHash: null, unlockTokenExpiresAt: null })
    .where(and(eq(users.unlockTokenHash, tokenHash), gt(users.unlockTokenExpiresAt, now)))
    .returning({ id: users.id, email: users.email, accountId: users.accountId });
  return row;
}
