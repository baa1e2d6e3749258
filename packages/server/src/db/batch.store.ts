import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Deletes up to `limit` rows of `table` matching `where`; returns how many. One short
 * statement per call, so housekeeping never holds many row locks for long; rows another
 * transaction holds (another node sweeping, a request updating) are skipped, not waited for.
 */
export async function deleteBatch(db: Db, table: PgTable, id: PgColumn, where: SQL, limit: number): Promise<number> {
  const batch = db.select({ id }).from(table).where(where).limit(limit).for('update', { skipLocked: true });
  const deleted = await db.delete(table).where(inArray(id, batch)).returning({ id });
  return deleted.length;
}
