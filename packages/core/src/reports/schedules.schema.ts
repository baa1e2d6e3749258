import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { resolveScheduleZone } from '../policies/timezones';

/**
 * Scheduled reports (issue 12): an administrator subscribes people to a report's CSV, sent
 * by mail daily, weekly (a day of the week) or monthly (a day of the month, the month's last
 * day when it has fewer) at a wall time in an IANA timezone, exactly once per due time.
 */

/** The reports that have a CSV today, and so can be mailed. */
export const REPORT_SCHEDULE_KINDS = ['prepatch', 'needs_attention', 'activity_log'] as const;
export const ZReportScheduleKind = z.enum(REPORT_SCHEDULE_KINDS);
export type ReportScheduleKind = z.infer<typeof ZReportScheduleKind>;

export const REPORT_SCHEDULE_KIND_LABELS: Record<ReportScheduleKind, string> = {
  prepatch: 'Prepatch',
  needs_attention: 'Needs attention',
  activity_log: 'Activity log',
};

export const REPORT_SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const ZReportScheduleFrequency = z.enum(REPORT_SCHEDULE_FREQUENCIES);
export type ReportScheduleFrequency = z.infer<typeof ZReportScheduleFrequency>;

/** Recipients one schedule may have. */
export const REPORT_SCHEDULE_RECIPIENTS_MAX = 50;
/** Schedules one zone may have. */
export const REPORT_SCHEDULES_PER_ZONE_MAX = 100;

/** Texts of the form and of the API's 400s (one place: server, console and tests use them). */
export const REPORT_SCHEDULE_TEXTS = {
  name: 'Enter a name of at most 100 characters.',
  time: 'Enter a time as HH:MM (24-hour).',
  timezone: 'Choose a valid timezone (such as Europe/Paris).',
  dayOfWeek: 'Choose the day of the week.',
  dayOfMonth: 'Choose a day of the month from 1 to 31.',
  recipientsRequired: 'Add at least one recipient.',
  recipientsMax: `Add at most ${REPORT_SCHEDULE_RECIPIENTS_MAX} recipients.`,
  recipientInvalid: (address: string) => `“${address}” is not a valid e-mail address.`,
  recipientDuplicate: (address: string) => `“${address}” is listed twice.`,
  tooMany: `This zone already has ${REPORT_SCHEDULES_PER_ZONE_MAX} scheduled reports. Delete one first.`,
} as const;

/** True for a timezone name the runtime's tzdata knows (IANA, e.g. "Europe/Paris"), or "UTC". */
export function isValidScheduleTimezone(name: string): boolean {
  // "UTC±HHMM" options are the policies' fixed offsets; a report's timezone is a place.
  return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name) && resolveScheduleZone(name) !== null;
}

const EMAIL = z.email();

/** Recipients: trimmed, lower-cased, 1 to 50 distinct valid addresses. */
export const ZRecipients = z.array(z.string().trim().toLowerCase().max(254)).superRefine((list, ctx) => {
  if (list.length === 0) ctx.addIssue({ code: 'custom', message: REPORT_SCHEDULE_TEXTS.recipientsRequired });
  if (list.length > REPORT_SCHEDULE_RECIPIENTS_MAX) {
    ctx.addIssue({ code: 'custom', message: REPORT_SCHEDULE_TEXTS.recipientsMax });
    return;
  }
  const seen = new Set<string>();
  for (const address of list) {
    if (!EMAIL.safeParse(address).success) {
      ctx.addIssue({ code: 'custom', message: REPORT_SCHEDULE_TEXTS.recipientInvalid(address) });
    } else if (seen.has(address)) {
      ctx.addIssue({ code: 'custom', message: REPORT_SCHEDULE_TEXTS.recipientDuplicate(address) });
    }
    seen.add(address);
  }
});

const ZScheduleFields = z.object({
  /** What the mail's subject calls it. */
  name: z.string().trim().min(1, REPORT_SCHEDULE_TEXTS.name).max(100, REPORT_SCHEDULE_TEXTS.name),
  /** Which report's CSV is attached. */
  kind: ZReportScheduleKind,
  frequency: ZReportScheduleFrequency,
  /** Weekly: ISO day of the week, Monday 1 … Sunday 7. */
  day_of_week: z
    .number()
    .int()
    .min(1, REPORT_SCHEDULE_TEXTS.dayOfWeek)
    .max(7, REPORT_SCHEDULE_TEXTS.dayOfWeek)
    .nullish(),
  /** Monthly: day of the month 1–31; a shorter month sends on its last day. */
  day_of_month: z
    .number()
    .int()
    .min(1, REPORT_SCHEDULE_TEXTS.dayOfMonth)
    .max(31, REPORT_SCHEDULE_TEXTS.dayOfMonth)
    .nullish(),
  /** Wall time, 24-hour HH:MM, in `timezone`. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, REPORT_SCHEDULE_TEXTS.time),
  /** IANA timezone name, e.g. "Europe/Paris"; daylight saving follows it. */
  timezone: z.string().max(64).refine(isValidScheduleTimezone, REPORT_SCHEDULE_TEXTS.timezone),
  /** Who receives it. */
  recipients: ZRecipients,
  /** A disabled schedule sends nothing. */
  enabled: z.boolean().default(true),
});

/** Weekly needs its day of the week and monthly its day of the month; the other day is dropped. */
function withDays<T extends z.infer<typeof ZScheduleFields>>(body: T, ctx: z.RefinementCtx) {
  if (body.frequency === 'weekly' && body.day_of_week == null) {
    ctx.addIssue({ code: 'custom', path: ['day_of_week'], message: REPORT_SCHEDULE_TEXTS.dayOfWeek });
  }
  if (body.frequency === 'monthly' && body.day_of_month == null) {
    ctx.addIssue({ code: 'custom', path: ['day_of_month'], message: REPORT_SCHEDULE_TEXTS.dayOfMonth });
  }
}

/** `POST /api/reports/schedules?o` and `PUT /api/reports/schedules/{scheduleId}?o`: the whole schedule. */
export const ZReportScheduleBody = ZScheduleFields.superRefine(withDays).transform((b) => ({
  ...b,
  day_of_week: b.frequency === 'weekly' ? (b.day_of_week ?? null) : null,
  day_of_month: b.frequency === 'monthly' ? (b.day_of_month ?? null) : null,
}));
export type ReportScheduleBody = z.output<typeof ZReportScheduleBody>;
export type ReportScheduleInput = z.input<typeof ZReportScheduleBody>;

const id = z.coerce.number().int().positive().max(ID_MAX);

export const ZReportScheduleParams = z.object({ scheduleId: id });

export const ZReportScheduleListQuery = z
  .object({ o: id.optional(), org: id.optional(), ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

export const REPORT_SEND_STATUSES = ['pending', 'sending', 'sent', 'failed', 'queued'] as const;
export const ZReportSendStatus = z.enum(REPORT_SEND_STATUSES);
export type ReportSendStatus = z.infer<typeof ZReportSendStatus>;

/** One mail of a schedule: one per due time, or one per "Send now". */
export const ZReportScheduleSend = z.object({
  id: z.number().int(),
  schedule_id: z.number().int(),
  /** The due time it is for (for "Send now", when it was asked). */
  due_at: z.string(),
  /** Asked with "Send now" rather than due. */
  manual: z.boolean(),
  /** pending, sending, sent, failed (retried up to 3 times), queued (no SMTP relay: in the outbox). */
  status: ZReportSendStatus,
  attempts: z.number().int(),
  /** Rows in the attached CSV, once built. */
  row_count: z.number().int().nullable(),
  error: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type ReportScheduleSend = z.infer<typeof ZReportScheduleSend>;

export const ZReportScheduleSendList = z.object({ data: z.array(ZReportScheduleSend), size: z.number().int() });
export type ReportScheduleSendList = z.infer<typeof ZReportScheduleSendList>;

export const ZReportSchedule = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: ZReportScheduleKind,
  frequency: ZReportScheduleFrequency,
  day_of_week: z.number().int().nullable(),
  day_of_month: z.number().int().nullable(),
  time: z.string(),
  timezone: z.string(),
  recipients: z.array(z.string()),
  enabled: z.boolean(),
  /** Who created it (e-mail); null when that user is gone. */
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The next due time; null while disabled. */
  next_due_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  /** The last failed send's error, until a later one succeeds. */
  last_error: z.string().nullable(),
});
export type ReportSchedule = z.infer<typeof ZReportSchedule>;

export const ZReportScheduleList = z.object({ data: z.array(ZReportSchedule), size: z.number().int() });
export type ReportScheduleList = z.infer<typeof ZReportScheduleList>;
