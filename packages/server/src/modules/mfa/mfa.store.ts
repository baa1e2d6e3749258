import { and, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { MfaFactorType } from '@patchwell/core/auth/mfa.schema';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { mfaChallenges, mfaEmailCodes, mfaFactors, mfaRecoveryCodes } from '../../db/mfa.schema';
import { accounts, organizations, userZoneRoles, users } from '../../db/schema';

/** A connection or a transaction. */
export type Exec = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export type FactorRow = typeof mfaFactors.$inferSelect;

/** What the factor's mails and log events need of a user. */
export async function findFactorUser(db: Exec, userId: number) {
  const [row] = await db
    .select({ id: users.id, accountId: users.accountId, email: users.email, firstname: users.firstname })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function findFactor(db: Exec, userId: number): Promise<FactorRow | undefined> {
  const [row] = await db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId));
  return row;
}

/**
 * Stores a pending enrolment, replacing an earlier pending one; a confirmed factor is kept.
 * @returns false when the user already has a confirmed factor.
 */
export async function upsertPendingFactor(
  db: Exec,
  input: { userId: number; type: MfaFactorType; secretEncrypted: string | null; now: Date },
): Promise<boolean> {
  const values = {
    userId: input.userId,
    type: input.type,
    secretEncrypted: input.secretEncrypted,
    createdAt: input.now,
    confirmedAt: null,
    lastTotpStep: null,
    failedCodes: 0,
  };
  const rows = await db
    .insert(mfaFactors)
    .values(values)
    .onConflictDoUpdate({ target: mfaFactors.userId, set: values, setWhere: isNull(mfaFactors.confirmedAt) })
    .returning({ userId: mfaFactors.userId });
  return rows.length === 1;
}

/** Confirms the pending factor and marks the user's profile (`tfa_enabled`). @returns false when nothing was pending. */
export async function confirmFactor(db: Exec, userId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaFactors)
    .set({ confirmedAt: now, failedCodes: 0 })
    .where(and(eq(mfaFactors.userId, userId), isNull(mfaFactors.confirmedAt)))
    .returning({ userId: mfaFactors.userId });
  if (rows.length === 0) return false;
  await db.update(users).set({ tfaEnabled: true }).where(eq(users.id, userId));
  return true;
}

/** Removes the user's factor, codes and challenges: MFA off (`tfa_enabled` false). @returns whether a factor existed. */
export async function deleteFactor(db: Exec, userId: number): Promise<boolean> {
  const rows = await db
    .delete(mfaFactors)
    .where(eq(mfaFactors.userId, userId))
    .returning({ confirmedAt: mfaFactors.confirmedAt });
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db.delete(mfaEmailCodes).where(eq(mfaEmailCodes.userId, userId));
  await db.update(users).set({ tfaEnabled: false }).where(eq(users.id, userId));
  return rows.some((r) => r.confirmedAt !== null);
}

/** Replaces all recovery codes of the user by these (hashed). */
export async function replaceRecoveryCodes(db: Exec, userId: number, hashes: string[], now: Date): Promise<void> {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db.insert(mfaRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
}

/** Spends a recovery code, once (of two concurrent uses one wins). */
export async function useRecoveryCode(db: Exec, userId: number, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length === 1;
}

export async function countRecoveryCodesLeft(db: Exec, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** Stores a new e-mailed code; earlier live codes of the user stop working. */
export async function insertEmailCode(
  db: Exec,
  input: { userId: number; codeHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .update(mfaEmailCodes)
    .set({ usedAt: input.now })
    .where(and(eq(mfaEmailCodes.userId, input.userId), isNull(mfaEmailCodes.usedAt)));
  await db.insert(mfaEmailCodes).values({
    userId: input.userId,
    codeHash: input.codeHash,
    createdAt: input.now,
    expiresAt: input.expiresAt,
  });
}

/** Spends a live e-mailed code, once. */
export async function useEmailCode(db: Exec, userId: number, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaEmailCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaEmailCodes.userId, userId),
        eq(mfaEmailCodes.codeHash, codeHash),
        isNull(mfaEmailCodes.usedAt),
        gt(mfaEmailCodes.expiresAt, now),
      ),
    )
    .returning({ id: mfaEmailCodes.id });
  return rows.length === 1;
}

/**
 * Accepts a TOTP time step for the user if it is later than the last accepted one, in one
 * statement: a code can be used once, even by two concurrent requests.
 */
export async function acceptTotpStep(db: Exec, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(mfaFactors)
    .set({ lastTotpStep: step })
    .where(and(eq(mfaFactors.userId, userId), or(isNull(mfaFactors.lastTotpStep), lt(mfaFactors.lastTotpStep, step))))
    .returning({ userId: mfaFactors.userId });
  return rows.length === 1;
}

/** Counts one more wrong sign-in code. @returns the count of wrong codes in a row. */
export async function addFailedCode(db: Exec, userId: number): Promise<number> {
  const [row] = await db
    .update(mfaFactors)
    .set({ failedCodes: sql`${mfaFactors.failedCodes} + 1` })
    .where(eq(mfaFactors.userId, userId))
    .returning({ failedCodes: mfaFactors.failedCodes });
  return row?.failedCodes ?? 0;
}

export async function resetFailedCodes(db: Exec, userId: number): Promise<void> {
  await db.update(mfaFactors).set({ failedCodes: 0 }).where(eq(mfaFactors.userId, userId));
}

export async function insertChallenge(
  db: Exec,
  input: { id: string; userId: number; purpose: 'verify' | 'enrol'; now: Date; expiresAt: Date },
): Promise<void> {
  // One pending sign-in per user: a new password sign-in replaces the earlier step.
  await db.delete(mfaChallenges).where(eq(mfaChallenges.userId, input.userId));
  await db.insert(mfaChallenges).values({
    id: input.id,
    userId: input.userId,
    purpose: input.purpose,
    createdAt: input.now,
    expiresAt: input.expiresAt,
  });
}

/** A live challenge with what the second step needs of its user. */
export async function findChallenge(db: Exec, id: string, now: Date) {
  const [row] = await db
    .select({
      purpose: mfaChallenges.purpose,
      user: {
        id: users.id,
        accountId: users.accountId,
        accountRbacRole: users.accountRbacRole,
        email: users.email,
        firstname: users.firstname,
        status: users.status,
        locked: users.locked,
        lockedUntil: users.lockedUntil,
      },
    })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.id, mfaChallenges.userId))
    .where(and(eq(mfaChallenges.id, id), gt(mfaChallenges.expiresAt, now)));
  return row;
}

export type ChallengeRow = NonNullable<Awaited<ReturnType<typeof findChallenge>>>;

/** Ends a challenge. @returns whether it was still there (of two concurrent completions one wins). */
export async function deleteChallenge(db: Exec, id: string): Promise<boolean> {
  const rows = await db.delete(mfaChallenges).where(eq(mfaChallenges.id, id)).returning({ id: mfaChallenges.id });
  return rows.length === 1;
}

export async function deleteUserChallenges(db: Exec, userId: number): Promise<void> {
  await db.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
}

/** Sweeps challenges and e-mailed codes past their end. */
export async function deleteExpired(db: Exec, now: Date): Promise<void> {
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, now));
  await db.delete(mfaEmailCodes).where(or(lt(mfaEmailCodes.expiresAt, now), isNotNull(mfaEmailCodes.usedAt)));
}

/** A zone whose requirement reaches a user, with what the plan rules read of it. */
export type MfaRequirementRow = {
  plan: (typeof organizations.$inferSelect)['plan'];
  trialEndTime: Date | null;
  trialExpired: boolean;
};

/**
 * The zones whose second-factor requirement reaches the user: their account's top-level zone
 * when the account requires it (the account's plan is that zone's), and every zone requiring
 * it where they hold a role (a global administrator reaches every zone of the account). The
 * service decides with the plan rules whether each one still applies.
 */
export async function findMfaRequirements(db: Exec, userId: number): Promise<MfaRequirementRow[]> {
  return queryRows<MfaRequirementRow>(
    db as Db,
    sql`
    select o.plan, o.trial_end_time as "trialEndTime", o.trial_expired as "trialExpired"
      from ${users} u join ${accounts} a on a.id = u.account_id
      join lateral (select * from ${organizations} t where t.account_id = a.id and t.parent_id is null
                    order by t.id limit 1) o on true
     where u.id = ${userId} and a.require_mfa
    union all
    select o.plan, o.trial_end_time, o.trial_expired
      from ${organizations} o
     where o.require_mfa
       and (o.id in (select r.organization_id from ${userZoneRoles} r where r.user_id = ${userId})
            or o.account_id = (select u.account_id from ${users} u
                                where u.id = ${userId} and u.account_rbac_role = 'global-admin'))`,
  );
}

/**
 * A user of the zone's account whom an administrator of zone `zoneId` may manage: a member of
 * that zone, or a global administrator of its account (who reaches every zone).
 */
export async function findManagedUser(db: Exec, userId: number, zoneId: number) {
  const [row] = await db
    .select({ id: users.id, email: users.email, accountId: users.accountId, tfaEnabled: users.tfaEnabled })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, zoneId))
    .where(
      and(
        eq(users.id, userId),
        eq(users.accountId, organizations.accountId),
        or(
          eq(users.accountRbacRole, 'global-admin'),
          sql`exists (select 1 from ${userZoneRoles} r where r.user_id = ${users.id} and r.organization_id = ${zoneId})`,
        ),
      ),
    );
  return row;
}
