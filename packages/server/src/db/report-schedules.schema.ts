import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  ReportScheduleFrequency,
  ReportScheduleKind,
  ReportSendStatus,
} from '@patchwell/core/reports/schedules.schema';
import { organizations, users } from './schema';

/**
 * Scheduled reports (issue 12), written only by `modules/report-schedules`. Times come
 * from the service's clock, as in schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A zone's subscription of people to a report's CSV by mail. */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<ReportScheduleKind>().notNull(),
    frequency: text('frequency').$type<ReportScheduleFrequency>().notNull(),
    /** ISO day of week (weekly). */
    dayOfWeek: smallint('day_of_week'),
    /** 1–31 (monthly), clamped to the month's last day. */
    dayOfMonth: smallint('day_of_month'),
    /** HH:MM wall time in `timezone`. */
    time: text('time').notNull(),
    /** IANA name. */
    timezone: text('timezone').notNull(),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
    updatedAt: tstz('updated_at').notNull(),
    /** The next due time the worker claims; null while disabled. */
    nextDueAt: tstz('next_due_at'),
    lastSentAt: tstz('last_sent_at'),
    /** The latest failed send's error, cleared by a later success. */
    lastError: text('last_error'),
  },
  (t) => [
    index('report_schedules_org_idx').on(t.organizationId, t.id),
    index('report_schedules_due_idx')
      .on(t.nextDueAt)
      .where(sql`${t.enabled} and ${t.nextDueAt} is not null`),
  ],
);

/**
 * One mail of a schedule per due time: the unique `(schedule_id, due_at)` is what makes a
 * due time send exactly once however many nodes claim it. It keeps the CSV it attaches
 * until it is sent (or given up), so a retry sends the report as of its due time.
 */
export const reportScheduleSends = pgTable(
  'report_schedule_sends',
  {
    id: serial('id').primaryKey(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    dueAt: tstz('due_at').notNull(),
    /** Asked with "Send now". */
    manual: boolean('manual').notNull().default(false),
    status: text('status').$type<ReportSendStatus>().notNull().default('pending'),
    /** Claims by a worker; each is a fencing token for its writes. */
    attempts: integer('attempts').notNull().default(0),
    claimedAt: tstz('claimed_at'),
    /** A failed send is tried again from this time on. */
    retryAt: tstz('retry_at'),
    csv: text('csv'),
    /** The mail's body (the summary), built with the CSV. */
    summary: text('summary'),
    rowCount: integer('row_count'),
    error: text('error'),
    /** The outbox messages of its attempts (the mail module's ids). */
    outboxIds: jsonb('outbox_ids').$type<number[]>().notNull().default([]),
    sentAt: tstz('sent_at'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('report_schedule_sends_due_unique').on(t.scheduleId, t.dueAt),
    index('report_schedule_sends_open_idx')
      .on(t.dueAt)
      .where(sql`${t.status} in ('pending', 'sending', 'failed')`),
  ],
);
