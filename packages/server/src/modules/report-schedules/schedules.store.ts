import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { reportScheduleSends, reportSchedules } from '../../db/report-schedules.schema';
import { users } from '../../db/schema';
import type { Exec } from '../commands/commands.store';

/** The only SQL that writes `report_schedules` and `report_schedule_sends`. */

export type ScheduleRow = typeof reportSchedules.$inferSelect;
export type ScheduleWithCreator = ScheduleRow & { createdByEmail: string | null };
export type SendRow = typeof reportScheduleSends.$inferSelect;
type NewSchedule = typeof reportSchedules.$inferInsert;
export type ScheduleFields = Omit<NewSchedule, 'id' | 'organizationId' | 'createdBy' | 'createdAt'>;

export async function insertSchedule(db: Exec, row: NewSchedule): Promise<ScheduleRow> {
  const [created] = await db.insert(reportSchedules).values(row).returning();
  return created!;
}

/** Rewrites a schedule of the zone; undefined when it is not there. */
export async function updateSchedule(
  db: Exec,
  zoneId: number,
  id: number,
  fields: ScheduleFields,
): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .update(reportSchedules)
    .set(fields)
    .where(and(eq(reportSchedules.organizationId, zoneId), eq(reportSchedules.id, id)))
    .returning();
  return row;
}

/** Deletes a schedule of the zone with its sends (cascade); the deleted row, or undefined. */
export async function deleteSchedule(db: Exec, zoneId: number, id: number): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .delete(reportSchedules)
    .where(and(eq(reportSchedules.organizationId, zoneId), eq(reportSchedules.id, id)))
    .returning();
  return row;
}

/** Serialises schedule creation in a zone, so the count and the insert that follows agree. */
export async function lockZoneSchedules(tx: Exec, zoneId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('report_schedules'), ${zoneId})`);
}

export async function countSchedules(db: Exec, zoneId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reportSchedules).where(eq(reportSchedules.organizationId, zoneId));
  return row?.n ?? 0;
}

const withCreator = { schedule: reportSchedules, createdByEmail: users.email };

export async function findSchedules(
  db: Db,
  zoneId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: ScheduleWithCreator[]; size: number }> {
  const where = eq(reportSchedules.organizationId, zoneId);
  const [rows, [total]] = await Promise.all([
    db
      .select(withCreator)
      .from(reportSchedules)
      .leftJoin(users, eq(users.id, reportSchedules.createdBy))
      .where(where)
      .orderBy(asc(reportSchedules.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(reportSchedules).where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r.schedule, createdByEmail: r.createdByEmail })), size: total?.n ?? 0 };
}

export async function findSchedule(db: Exec, zoneId: number, id: number): Promise<ScheduleWithCreator | undefined> {
  const [row] = await db
    .select(withCreator)
    .from(reportSchedules)
    .leftJoin(users, eq(users.id, reportSchedules.createdBy))
    .where(and(eq(reportSchedules.organizationId, zoneId), eq(reportSchedules.id, id)));
  return row && { ...row.schedule, createdByEmail: row.createdByEmail };
}

/** A page of a schedule's sends, latest due first. */
export async function findSends(
  db: Db,
  scheduleId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: SendRow[]; size: number }> {
  const where = eq(reportScheduleSends.scheduleId, scheduleId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(reportScheduleSends)
      .where(where)
      .orderBy(desc(reportScheduleSends.dueAt), desc(reportScheduleSends.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(reportScheduleSends).where(where),
  ]);
  return { rows, size: total?.n ?? 0 };
}

export async function findSend(db: Db, id: number): Promise<SendRow | undefined> {
  const [row] = await db.select().from(reportScheduleSends).where(eq(reportScheduleSends.id, id));
  return row;
}

// ---------------------------------------------------------------- the worker's claims

/**
 * Locks up to `limit` enabled schedules due at `now`, skipping rows another node holds
 * (`FOR UPDATE SKIP LOCKED`); the caller records their sends and moves their due times
 * in the same transaction.
 */
export async function lockDueSchedules(tx: Exec, now: Date, limit: number): Promise<ScheduleRow[]> {
  return tx
    .select()
    .from(reportSchedules)
    .where(
      and(eq(reportSchedules.enabled, true), sql`${reportSchedules.nextDueAt} <= ${now.toISOString()}::timestamptz`),
    )
    .orderBy(asc(reportSchedules.nextDueAt), asc(reportSchedules.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Records the send of one due time. The unique `(schedule_id, due_at)` makes this the
 * exactly-once guarantee: a second claim of the same due time (another node, a replayed
 * tick) inserts nothing and returns undefined.
 */
export async function insertSend(
  db: Exec,
  row: { scheduleId: number; organizationId: number; dueAt: Date; manual: boolean; createdAt: Date },
): Promise<SendRow | undefined> {
  const [created] = await db.insert(reportScheduleSends).values(row).onConflictDoNothing().returning();
  return created;
}

export async function setNextDue(db: Exec, id: number, nextDueAt: Date | null): Promise<void> {
  await db.update(reportSchedules).set({ nextDueAt }).where(eq(reportSchedules.id, id));
}

/** A claimed send with what the worker needs of its schedule. */
export type ClaimedSend = SendRow & { schedule: ScheduleRow };

/**
 * Claims one send to work on: pending; failed with attempts left and its retry time come;
 * or sending but abandoned (claimed before `staleBefore`, its node stopped) with attempts
 * left. Its schedule must still be enabled (a "Send now" goes even when it is disabled).
 * The claim raises `attempts`, the fencing token of every later write. `onlyId` claims that
 * send alone ("Send now" sends at once).
 */
export async function claimSend(
  db: Db,
  options: { now: Date; staleBefore: Date; maxAttempts: number; onlyId?: number },
): Promise<ClaimedSend | undefined> {
  const now = options.now.toISOString();
  const only = options.onlyId === undefined ? sql`true` : sql`s.id = ${options.onlyId}`;
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`update ${reportScheduleSends} t
           set status = 'sending', attempts = t.attempts + 1, claimed_at = ${now}::timestamptz
         where t.id = (select s.id from ${reportScheduleSends} s
                         join ${reportSchedules} r on r.id = s.schedule_id
                        where ${only}
                          and (r.enabled or s.manual)
                          and s.attempts < ${options.maxAttempts}
                          and (s.status = 'pending'
                               or (s.status = 'failed' and s.retry_at <= ${now}::timestamptz)
                               or (s.status = 'sending' and s.claimed_at < ${options.staleBefore.toISOString()}::timestamptz))
                        order by s.due_at, s.id
                        limit 1
                        for update of s skip locked)
        returning t.id`,
  );
  if (!row) return undefined;
  const [claimed] = await db
    .select({ send: reportScheduleSends, schedule: reportSchedules })
    .from(reportScheduleSends)
    .innerJoin(reportSchedules, eq(reportSchedules.id, reportScheduleSends.scheduleId))
    .where(eq(reportScheduleSends.id, row.id));
  return claimed && { ...claimed.send, schedule: claimed.schedule };
}

/**
 * Sends whose node stopped mid-way on their last attempt (claimed before `staleBefore`)
 * become failed with `error`, so they do not read as sending for ever.
 */
export async function failAbandonedSends(
  db: Db,
  staleBefore: Date,
  maxAttempts: number,
  error: string,
): Promise<number> {
  const rows = await db
    .update(reportScheduleSends)
    .set({ status: 'failed', error, retryAt: null, csv: null })
    .where(
      and(
        eq(reportScheduleSends.status, 'sending'),
        sql`${reportScheduleSends.claimedAt} < ${staleBefore.toISOString()}::timestamptz`,
        sql`${reportScheduleSends.attempts} >= ${maxAttempts}`,
      ),
    )
    .returning({ id: reportScheduleSends.id });
  return rows.length;
}

/** The claim's fence: its send, still `sending` under the same attempt. */
const fence = (claim: { id: number; attempts: number }) =>
  and(
    eq(reportScheduleSends.id, claim.id),
    eq(reportScheduleSends.status, 'sending'),
    eq(reportScheduleSends.attempts, claim.attempts),
  );

/** Keeps the CSV and summary built for a claimed send (a retry attaches the same). False when the claim was lost. */
export async function saveSendContent(
  db: Exec,
  claim: { id: number; attempts: number },
  content: { csv: string; summary: string; rowCount: number },
): Promise<boolean> {
  const rows = await db
    .update(reportScheduleSends)
    .set(content)
    .where(fence(claim))
    .returning({ id: reportScheduleSends.id });
  return rows.length > 0;
}

/**
 * Records the outcome of a claimed send and, on the schedule, when it was last sent or
 * why it failed. A finished send (sent, queued or given up) drops its CSV.
 */
export async function finishSend(
  db: Db,
  claim: { id: number; attempts: number; scheduleId: number },
  outcome: {
    status: 'sent' | 'queued' | 'failed';
    at: Date;
    error: string | null;
    retryAt: Date | null;
    outboxId: number | null;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = outcome.status !== 'failed' || outcome.retryAt === null;
    const rows = await tx
      .update(reportScheduleSends)
      .set({
        status: outcome.status,
        error: outcome.error,
        retryAt: outcome.retryAt,
        sentAt: outcome.status === 'failed' ? null : outcome.at,
        ...(done ? { csv: null } : {}),
        ...(outcome.outboxId !== null
          ? { outboxIds: sql`${reportScheduleSends.outboxIds} || ${JSON.stringify([outcome.outboxId])}::jsonb` }
          : {}),
      })
      .where(fence(claim))
      .returning({ id: reportScheduleSends.id });
    if (!rows.length) return false;
    await tx
      .update(reportSchedules)
      .set(
        outcome.status === 'failed'
          ? { lastError: outcome.error }
          : { lastSentAt: outcome.at, lastError: outcome.status === 'queued' ? outcome.error : null },
      )
      .where(eq(reportSchedules.id, claim.scheduleId));
    return true;
  });
}
