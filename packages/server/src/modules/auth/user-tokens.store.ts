import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { deleteBatch } from '../../db/batch.store';
import type { Db } from '../../db/client';
import { userTokens } from '../../db/auth.schema';
import { users } from '../../db/schema';

export type UserTokenPurpose = (typeof userTokens.purpose.enumValues)[number];

/** What a reset or verification needs of the user a link belongs to, by (lower-cased) e-mail. */
export async function findUserForLink(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      accountId: users.accountId,
      email: users.email,
      firstname: users.firstname,
      status: users.status,
      emailVerified: users.emailVerified,
    })
    .from(users)
    .where(eq(users.email, email));
  return row;
}

/**
 * Stores a new link's token hash; the user's earlier live links of the purpose are spent in
 * the same transaction, so only the newest one works.
 */
export async function insertUserToken(
  db: Db,
  row: { userId: number; purpose: UserTokenPurpose; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(userTokens)
      .set({ usedAt: row.createdAt })
      .where(and(eq(userTokens.userId, row.userId), eq(userTokens.purpose, row.purpose), isNull(userTokens.usedAt)));
    await tx.insert(userTokens).values(row);
  });
}

const live = (tokenHash: string, purpose: UserTokenPurpose, now: Date) =>
  and(
    eq(userTokens.tokenHash, tokenHash),
    eq(userTokens.purpose, purpose),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, now),
  );

/** The user of a live (unused, unexpired) link, or undefined. Reads only. */
export async function findLiveToken(db: Db, tokenHash: string, purpose: UserTokenPurpose, now: Date) {
  const [row] = await db
    .select({ userId: userTokens.userId, email: users.email, accountId: users.accountId, status: users.status })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(live(tokenHash, purpose, now));
  return row;
}

/**
 * Spends a live link in one statement (of two concurrent uses, one wins), inside the
 * caller's transaction. @returns its user id, or undefined for an unknown, used or expired link.
 */
export async function spendToken(
  db: Db,
  tokenHash: string,
  purpose: UserTokenPurpose,
  now: Date,
): Promise<number | undefined> {
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(live(tokenHash, purpose, now))
    .returning({ userId: userTokens.userId });
  return row?.userId;
}

/**
 * Sets a new password after a reset: clears any lock (the reset is the way back for a locked
 * account) and the unlock link, which the new password makes pointless. A reset link reached
 * the mailbox, so the address is proven too. Active users only.
 * @returns the user's e-mail and account, or undefined when the user is no longer active.
 */
export async function setPasswordAfterReset(db: Db, userId: number, passwordHash: string, now: Date) {
  const [row] = await db
    .update(users)
    .set({
      passwordHash,
      passwordChangedAt: now,
      locked: false,
      lockedUntil: null,
      failedSigninCount: 0,
      lockCount: 0,
      unlockTokenHash: null,
      unlockTokenExpiresAt: null,
      emailVerified: true,
    })
    .where(and(eq(users.id, userId), eq(users.status, 'active')))
    .returning({ id: users.id, email: users.email, accountId: users.accountId, firstname: users.firstname });
  return row;
}

/** Marks the user's address proven (the verification link was followed). */
export async function markEmailVerified(db: Db, userId: number) {
  const [row] = await db
    .update(users)
    .set({ emailVerified: true })
    .where(eq(users.id, userId))
    .returning({ id: users.id, email: users.email, accountId: users.accountId });
  return row!;
}

/** Deletes up to `limit` links that expired before `before` (the sweep); returns how many. */
export async function deleteExpiredTokens(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, userTokens, userTokens.id, lt(userTokens.expiresAt, before), limit);
}
