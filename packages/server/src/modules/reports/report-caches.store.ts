import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reportCaches } from '../../db/reports.schema';

/** The only SQL that writes `report_caches`. */

export type CachedReport<T> = { computedAt: Date; payload: T };

export async function findReportCache<T>(db: Db, zoneId: number, report: string): Promise<CachedReport<T> | undefined> {
  const [row] = await db
    .select({ computedAt: reportCaches.computedAt, payload: reportCaches.payload })
    .from(reportCaches)
    .where(and(eq(reportCaches.organizationId, zoneId), eq(reportCaches.report, report)));
  return row && { computedAt: row.computedAt, payload: row.payload as T };
}

/** Stores a report's figures, unless a row computed later is there already (another node's). */
export async function saveReportCache(
  db: Db,
  zoneId: number,
  report: string,
  computedAt: Date,
  payload: unknown,
): Promise<void> {
  await db
    .insert(reportCaches)
    .values({ organizationId: zoneId, report, computedAt, payload })
    .onConflictDoUpdate({
      target: [reportCaches.organizationId, reportCaches.report],
      set: { computedAt, payload },
      setWhere: sql`${reportCaches.computedAt} <= ${computedAt.toISOString()}::timestamptz`,
    });
}
