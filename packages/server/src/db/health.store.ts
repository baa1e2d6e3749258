import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** Throws unless the database answers `select 1`. */
export async function pingDb(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
