import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Rows of a raw statement. Both drivers answer `db.execute` with an object holding `rows`
 * (PGlite's Results, node-postgres' QueryResult); the shared `Db` type only says unknown.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
