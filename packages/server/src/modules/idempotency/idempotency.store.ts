import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type IdempotencyScope = { userId: number; organizationId: number; key: string };

const scopeIs = (s: IdempotencyScope) =>
  and(
    eq(idempotencyKeys.userId, s.userId),
    eq(idempotencyKeys.organizationId, s.organizationId),
    eq(idempotencyKeys.key, s.key),
  );

/**
 * Claims a key for a request: inserts it (or takes over an expired one) in one statement, so
 * of two concurrent requests with the key exactly one claims it.
 * @returns `claimed`, or the live row that holds the key (undefined when it was freed meanwhile: claim again).
 */
export async function claimKey(
  db: Db,
  scope: IdempotencyScope,
  request: string,
  now: Date,
  expiresAt: Date,
): Promise<{ claimed: true } | { claimed: false; held: IdempotencyRow | undefined }> {
  // The user's expired keys go first: this keeps the table at the keys of the last day.
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, scope.userId), lte(idempotencyKeys.expiresAt, now)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ ...scope, request, createdAt: now, expiresAt })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length) return { claimed: true };
  const [held] = await db.select().from(idempotencyKeys).where(scopeIs(scope));
  return { claimed: false, held };
}

/** Keeps the answer of the request that claimed the key. */
export async function saveAnswer(db: Db, scope: IdempotencyScope, statusCode: number, body: unknown): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode, body: sql`${JSON.stringify(body ?? null)}::jsonb` })
    .where(scopeIs(scope));
}

/** Frees a key whose request failed, so that a retry runs it again. */
export async function releaseKey(db: Db, scope: IdempotencyScope): Promise<void> {
  await db.delete(idempotencyKeys).where(and(scopeIs(scope), isNull(idempotencyKeys.statusCode)));
}
