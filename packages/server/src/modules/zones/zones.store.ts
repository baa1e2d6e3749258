import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations } from '../../db/schema';

export type ZoneRow = typeof organizations.$inferSelect;

/** One zone by id, whatever its account; callers check access before using it. */
export async function findZone(db: Db, id: number): Promise<ZoneRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return row;
}
