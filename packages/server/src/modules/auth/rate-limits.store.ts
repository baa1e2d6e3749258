import { and, count, eq, gt, inArray, lt, min, sql } from 'drizzle-orm';
import { deleteBatch } from '../../db/batch.store';
import type { Db } from '../../db/client';
import { loginFailures } from '../../db/schema';

/** What a counted attempt is: see `login_failures` in db/schema.ts. */
export type AttemptKind = (typeof loginFailures.kind.enumValues)[number];

export type AttemptCount = { n: number; oldest: Date | null };

/** An attempt to count under `key`, allowed while fewer than `limit` were counted since `since`. */
export type LimitedAttempt = { kind: AttemptKind; key: string; since: Date; limit: number };

/**
 * Either every attempt was recorded (`ids`: the rows, in the order given, to delete should the
 * attempt turn out not to count), or none was: `refused` is the index of the first at its limit.
 */
export type ReserveResult =
  { recorded: true; ids: number[] } | { recorded: false; refused: number; count: AttemptCount };

// First half of the two-part advisory lock key of per-key counters; any constant works.
const ATTEMPT_LOCK_CLASS = 7_461_011;

/** Attempts of one key since `since`: how many, and when the oldest happened. */
async function countAttempts(db: Db, kind: AttemptKind, key: string, since: Date): Promise<AttemptCount> {
  const [row] = await db
    .select({ n: count(), oldest: min(loginFailures.occurredAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key), gt(loginFailures.occurredAt, since)));
  return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/**
 * Records one attempt under each key only if every key is under its limit, as one step:
 * per-key advisory locks make concurrent attempts (on any node) take turns, so a burst
 * cannot all pass the count before any of them is recorded. Nothing is recorded when one
 * key is at its limit.
 */
export async function recordAttemptsUnderLimits(db: Db, attempts: LimitedAttempt[], at: Date): Promise<ReserveResult> {
  // Every caller takes the locks in the same (sorted) order, so two of them never wait on each other.
  const lockNames = [...new Set(attempts.map((a) => `${a.kind}:${a.key}`))].sort();
  return db.transaction(async (tx) => {
    for (const name of lockNames) {
      await tx.execute(sql`select pg_advisory_xact_lock(${ATTEMPT_LOCK_CLASS}, hashtext(${name}))`);
    }
    for (const [index, attempt] of attempts.entries()) {
      const before = await countAttempts(tx, attempt.kind, attempt.key, attempt.since);
      if (before.n >= attempt.limit) return { recorded: false, refused: index, count: before };
    }
    const rows = await tx
      .insert(loginFailures)
      .values(attempts.map((a) => ({ kind: a.kind, key: a.key, occurredAt: at })))
      .returning({ id: loginFailures.id });
    return { recorded: true, ids: rows.map((r) => r.id) };
  });
}

/** Deletes every attempt counted under one key (an administrator unlocking a user clears their e-mail's). */
export async function deleteAttemptsOfKey(db: Db, kind: AttemptKind, key: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key)));
}

/** Deletes the attempts with these ids (and no other). */
export async function deleteAttempts(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(loginFailures).where(inArray(loginFailures.id, ids));
}

/** Deletes up to `limit` attempts older than `before`; returns how many (see {@link deleteBatch}). */
export async function deleteAttemptsBefore(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, loginFailures, loginFailures.id, lt(loginFailures.occurredAt, before), limit);
}
