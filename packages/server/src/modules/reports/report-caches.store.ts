import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { reportCaches } from '../../db/reports.schema';

/** The only SQL that writes `report_caches`. */

export type CachedReport<T> = { computedAt: Date; payload: T };

const iso = (d: Date) => d.toISOString();

export async function findReportCache<T>(db: Db, zoneId: number, report: string): Promise<CachedReport<T> | undefined> {
  const [row] = await db
    .select({ computedAt: reportCaches.computedAt, payload: reportCaches.payload })
    .from(reportCaches)
    .where(and(eq(reportCaches.organizationId, zoneId), eq(reportCaches.report, report)));
  return row && { computedAt: row.computedAt, payload: row.payload as T };
}

/**
 * Stores a report's figures, unless a row computed later is there already (another node's).
 * `requestedAt`: a request computed them (a report computed ahead leaves the request time be).
 */
export async function saveReportCache(
  db: Db,
  zoneId: number,
  report: string,
  computedAt: Date,
  payload: unknown,
  requestedAt?: Date,
): Promise<void> {
  await db
    .insert(reportCaches)
    .values({ organizationId: zoneId, report, computedAt, payload, requestedAt: requestedAt ?? null })
    .onConflictDoUpdate({
      target: [reportCaches.organizationId, reportCaches.report],
      set: { computedAt, payload, ...(requestedAt ? { requestedAt } : {}) },
      setWhere: sql`${reportCaches.computedAt} <= ${iso(computedAt)}::timestamptz`,
    });
}

/** Records that someone asked for the report at `now`, unless that was recorded less than `everyMs` before. */
export async function touchReportCache(
  db: Db,
  zoneId: number,
  report: string,
  now: Date,
  everyMs: number,
): Promise<void> {
  await db
    .update(reportCaches)
    .set({ requestedAt: now })
    .where(
      and(
        eq(reportCaches.organizationId, zoneId),
        eq(reportCaches.report, report),
        sql`(${reportCaches.requestedAt} is null or ${reportCaches.requestedAt} < ${iso(new Date(now.getTime() - everyMs))}::timestamptz)`,
      ),
    );
}

/**
 * Claims one zone's report to compute ahead: asked for since `requestedSince`, computed at
 * or before `computedBy`, and not claimed since `claimedSince` (a claim older than that is a
 * node that died computing it). The row is locked `FOR UPDATE SKIP LOCKED` and the claim
 * written in the same statement, so however many nodes look at once, one claims it; the
 * oldest figures first. Returns the zone, or null when none is due.
 */
export async function claimReportRefresh(
  db: Db,
  report: string,
  due: { now: Date; computedBy: Date; requestedSince: Date; claimedSince: Date },
): Promise<number | null> {
  const [row] = await queryRows<{ organization_id: number }>(
    db,
    sql`update ${reportCaches} c set refresh_claimed_at = ${iso(due.now)}::timestamptz
         where (c.organization_id, c.report) = (
               select organization_id, report from ${reportCaches}
                where report = ${report}
                  and requested_at >= ${iso(due.requestedSince)}::timestamptz
                  and computed_at <= ${iso(due.computedBy)}::timestamptz
                  and (refresh_claimed_at is null or refresh_claimed_at < ${iso(due.claimedSince)}::timestamptz)
                order by computed_at
                limit 1
                for update skip locked)
        returning c.organization_id`,
  );
  return row ? Number(row.organization_id) : null;
}
