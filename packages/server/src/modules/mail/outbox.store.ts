import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';

export type OutboxRow = typeof outbox.$inferSelect;

export async function insertMessage(db: Db, row: typeof outbox.$inferInsert): Promise<OutboxRow> {
  const [created] = await db.insert(outbox).values(row).returning();
  return created!;
}

/** Records the outcome of one delivery attempt: sent (error cleared) or failed. */
export async function recordDelivery(
  db: Db,
  id: number,
  outcome: { sentAt: Date; error?: undefined } | { sentAt?: undefined; error: string },
): Promise<void> {
  await db
    .update(outbox)
    .set({ sentAt: outcome.sentAt ?? null, error: outcome.error ?? null })
    .where(eq(outbox.id, id));
}

/** A page of an account's messages, latest first, and how many it has in all. */
export async function listMessages(db: Db, accountId: number, page: { offset: number; limit: number }) {
  const where = eq(outbox.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(outbox)
      .where(where)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(outbox).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
