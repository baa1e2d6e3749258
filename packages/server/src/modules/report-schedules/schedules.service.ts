import {
  REPORT_SCHEDULES_PER_ZONE_MAX,
  type ReportSchedule,
  type ReportScheduleBody,
  type ReportScheduleList,
  type ReportScheduleSend,
  type ReportScheduleSendList,
} from '@patchwell/core/reports/schedules.schema';
import { nextDueAt } from '@patchwell/core/reports/schedule-due';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { AppError, notFound } from '../../domain/errors';
import { logActivity } from '../activity/activity.service';
import { requireZone } from '../zones/zone-access.service';
import {
  countSchedules,
  deleteSchedule,
  findSchedule,
  findSchedules,
  findSends,
  insertSchedule,
  insertSend,
  lockZoneSchedules,
  updateSchedule,
  type ScheduleFields,
  type ScheduleWithCreator,
  type SendRow,
} from './schedules.store';
import { deliverSend } from './schedules.worker';

/**
 * Scheduled reports (`/api/reports/schedules…`). Reading needs Report.read in zone `o`, like
 * every report. Changing a schedule needs Organization.manage, the right the zone's other
 * settings take (preferences, access key, session bounds): a schedule mails the zone's data
 * to any address, which is a zone administrator's decision, not a report reader's.
 */

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toSchedule(row: ScheduleWithCreator): ReportSchedule {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    frequency: row.frequency,
    day_of_week: row.dayOfWeek,
    day_of_month: row.dayOfMonth,
    time: row.time,
    timezone: row.timezone,
    recipients: row.recipients,
    enabled: row.enabled,
    created_by: row.createdByEmail,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    next_due_at: iso(row.nextDueAt),
    last_sent_at: iso(row.lastSentAt),
    last_error: row.lastError,
  };
}

function toSend(row: SendRow): ReportScheduleSend {
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    due_at: row.dueAt.toISOString(),
    manual: row.manual,
    status: row.status,
    attempts: row.attempts,
    row_count: row.rowCount,
    error: row.error,
    sent_at: iso(row.sentAt),
    created_at: row.createdAt.toISOString(),
  };
}

/** The stored fields of a body, with the next due time after `now` (none while disabled). */
function fieldsOf(body: ReportScheduleBody, now: Date): ScheduleFields {
  return {
    name: body.name,
    kind: body.kind,
    frequency: body.frequency,
    dayOfWeek: body.day_of_week,
    dayOfMonth: body.day_of_month,
    time: body.time,
    timezone: body.timezone,
    recipients: body.recipients,
    enabled: body.enabled,
    updatedAt: now,
    nextDueAt: body.enabled ? nextDueAt(body, now) : null,
  };
}

/** What an event says about a schedule (recipients counted, not listed: the log is read widely). */
const detailsOf = (b: ReportScheduleBody) => ({
  name: b.name,
  kind: b.kind,
  frequency: b.frequency,
  time: b.time,
  timezone: b.timezone,
  recipients: b.recipients.length,
  enabled: b.enabled,
});

/** `GET /api/reports/schedules` (Report.read). */
export async function listSchedules(
  ctx: AppContext,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
): Promise<ReportScheduleList> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const { rows, size } = await findSchedules(ctx.db, zone.id, { offset: query.page * query.limit, limit: query.limit });
  return { data: rows.map(toSchedule), size };
}

async function scheduleOr404(ctx: AppContext, zoneId: number, id: number) {
  const row = await findSchedule(ctx.db, zoneId, id);
  if (!row) throw notFound();
  return row;
}

/** `GET /api/reports/schedules/{scheduleId}` (Report.read). */
export async function getSchedule(ctx: AppContext, authz: Authz, o: number | undefined, id: number) {
  const zone = await requireZone(ctx, authz, o, 'Report', 'read');
  return toSchedule(await scheduleOr404(ctx, zone.id, id));
}

/**
 * `POST /api/reports/schedules` (Organization.manage).
 * @throws AppError 409 `report_schedules.too_many` past {@link REPORT_SCHEDULES_PER_ZONE_MAX}.
 */
export async function createSchedule(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: ReportScheduleBody,
): Promise<ReportSchedule> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  const now = ctx.clock.now();
  const created = await ctx.db.transaction(async (tx) => {
    await lockZoneSchedules(tx, zone.id);
    if ((await countSchedules(tx, zone.id)) >= REPORT_SCHEDULES_PER_ZONE_MAX) {
      throw new AppError('report_schedules.too_many');
    }
    const row = await insertSchedule(tx, {
      ...fieldsOf(body, now),
      organizationId: zone.id,
      createdBy: authz.userId,
      createdAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'report_schedule.create',
      { type: 'report_schedule', id: row.id, name: row.name },
      detailsOf(body),
      tx,
    );
    return row;
  });
  return toSchedule(await scheduleOr404(ctx, zone.id, created.id));
}

/** `PUT /api/reports/schedules/{scheduleId}` (Organization.manage): the whole schedule; its next due time is recomputed. */
export async function replaceSchedule(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: ReportScheduleBody,
): Promise<ReportSchedule> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const before = await findSchedule(tx, zone.id, id);
    if (!before) throw notFound();
    await updateSchedule(tx, zone.id, id, fieldsOf(body, now));
    await logActivity(
      ctx,
      authz,
      zone.id,
      'report_schedule.update',
      { type: 'report_schedule', id, name: body.name },
      {
        before: {
          name: before.name,
          kind: before.kind,
          frequency: before.frequency,
          time: before.time,
          timezone: before.timezone,
          recipients: before.recipients.length,
          enabled: before.enabled,
        },
        after: detailsOf(body),
      },
      tx,
    );
  });
  return toSchedule(await scheduleOr404(ctx, zone.id, id));
}

/** `DELETE /api/reports/schedules/{scheduleId}` (Organization.manage): with its sends; nothing more is mailed. */
export async function removeSchedule(ctx: AppContext, authz: Authz, o: number | undefined, id: number): Promise<void> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  await ctx.db.transaction(async (tx) => {
    const row = await deleteSchedule(tx, zone.id, id);
    if (!row) throw notFound();
    await logActivity(
      ctx,
      authz,
      zone.id,
      'report_schedule.delete',
      { type: 'report_schedule', id, name: row.name },
      { name: row.name, kind: row.kind },
      tx,
    );
  });
}

/**
 * `POST /api/reports/schedules/{scheduleId}/send` (Organization.manage): mails the report
 * now to the schedule's recipients, even while it is disabled (a test send), and answers
 * with the send's outcome. A relay failure is retried by the worker like a due send.
 */
export async function sendNow(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<ReportScheduleSend> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  const now = ctx.clock.now();
  const send = await ctx.db.transaction(async (tx) => {
    const schedule = await findSchedule(tx, zone.id, id);
    if (!schedule) throw notFound();
    const row = await insertSend(tx, {
      scheduleId: id,
      organizationId: zone.id,
      dueAt: now,
      manual: true,
      createdAt: now,
    });
    // The same millisecond twice: a double click; the first send stands.
    if (!row) throw new AppError('report_schedules.send_in_progress');
    await logActivity(
      ctx,
      authz,
      zone.id,
      'report_schedule.send_now',
      { type: 'report_schedule', id, name: schedule.name },
      { recipients: schedule.recipients.length },
      tx,
    );
    return row;
  });
  return toSend((await deliverSend(ctx, send.id)) ?? send);
}

/** `GET /api/reports/schedules/{scheduleId}/sends` (Report.read): its mails, latest due first. */
export async function listSends(
  ctx: AppContext,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
  id: number,
): Promise<ReportScheduleSendList> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  await scheduleOr404(ctx, zone.id, id);
  const { rows, size } = await findSends(ctx.db, id, { offset: query.page * query.limit, limit: query.limit });
  return { data: rows.map(toSend), size };
}
