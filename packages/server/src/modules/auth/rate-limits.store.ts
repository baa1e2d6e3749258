import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import { deleteBatch } from '../../db/batch.store';
import type { Db } from '../../db/client';
import { loginFailures } from '../../db/schema';

/** What a counted attempt is: see `login_failures` in db/schema.ts. */
export type AttemptKind = (typeof loginFailures.kind.enumValues)[number];

export type AttemptCount = { n: number; oldest: Date | null };

// First half of the two-part advisory lock key of per-key counters; any constant works.
const ATTEMPT_LOCK_CLASS = 7_461_011;

/** Attempts of one key since `since`: how many, and when the oldest happened. */
export async function countAttempts(db: Db, kind: AttemptKind, key: string, since: Date): Promise<AttemptCount> {
  const [row] = await db
    .select({ n: count(), oldest: min(loginFailures.occurredAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key), gt(loginFailures.occurredAt, since)));
  return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Records one attempt under each key. */
export async function recordAttempts(db: Db, keys: { kind: AttemptKind; key: string }[], at: Date): Promise<void> {
  await db.insert(loginFailures).values(keys.map((k) => ({ ...k, occurredAt: at })));
}

/**
 * Records an attempt only if fewer than `limit` were recorded since `since`, as one step:
 * a per-key advisory lock makes concurrent attempts (on any node) take turns, so a burst
 * cannot all pass the count before any of them is recorded.
 * @returns whether it was recorded, and the count before it.
 */
export async function recordAttemptUnderLimit(
  db: Db,
  attempt: { kind: AttemptKind; key: string },
  at: Date,
  since: Date,
  limit: number,
): Promise<AttemptCount & { recorded: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${ATTEMPT_LOCK_CLASS}, hashtext(${`${attempt.kind}:${attempt.key}`}))`,
    );
    const before = await countAttempts(tx, attempt.kind, attempt.key, since);
    if (before.n >= limit) return { ...before, recorded: false };
    await recordAttempts(tx, [attempt], at);
    return { ...before, recorded: true };
  });
}

export async function clearAttempts(db: Db, kind: AttemptKind, key: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key)));
}

/** Deletes up to `limit` attempts older than `before`; returns how many (see {@link deleteBatch}). */
export async function deleteAttemptsBefore(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, loginFailures, loginFailures.id, lt(loginFailures.occurredAt, before), limit);
}
