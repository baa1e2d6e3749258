import { z } from 'zod';
import { ID_MAX } from '../constants';
import { isValidScheduleTimezone } from '../reports/schedules.schema';
import { ZWindowOccurrence } from './window-occurrence.schema';

/**
 * Maintenance windows (issue 15): per device group, the times its devices may start a
 * policy run or a remediation task. A window is one-off (a local start and end) or
 * recurring (days of the week, or a day of the month, at a local time for a duration),
 * always in an IANA timezone. The rules are in maintenance-windows.ts.
 */

export const MAINTENANCE_WINDOW_KINDS = ['one_off', 'weekly', 'monthly'] as const;
export type MaintenanceWindowKind = (typeof MAINTENANCE_WINDOW_KINDS)[number];

export const MAINTENANCE_WINDOW_KIND_LABELS: Record<MaintenanceWindowKind, string> = {
  one_off: 'One-off',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

/** The longest window: a week (a weekly window could otherwise never close). */
export const MAINTENANCE_WINDOW_MAX_MINUTES = 7 * 24 * 60;
/** Windows one zone may have. */
export const MAINTENANCE_WINDOWS_PER_ZONE_MAX = 200;

/** Texts of the form and of the API's 400s (server, console and tests use these). */
export const MAINTENANCE_WINDOW_TEXTS = {
  name: 'Enter a name of at most 100 characters.',
  group: 'Choose a device group of this zone.',
  timezone: 'Choose a valid timezone (such as Europe/Paris).',
  dateTime: 'Enter a date and time as YYYY-MM-DDTHH:MM.',
  endAfterStart: 'The end must be after the start.',
  tooLong: 'A maintenance window lasts at most 7 days.',
  time: 'Enter a time as HH:MM (24-hour).',
  days: 'Choose at least one day of the week.',
  daysTwice: 'Choose each day of the week once.',
  dayOfMonth: 'Choose a day of the month from 1 to 31.',
  duration: 'Enter a duration from 1 minute to 7 days (10080 minutes).',
  tooMany: `This zone already has ${MAINTENANCE_WINDOWS_PER_ZONE_MAX} maintenance windows. Delete one first.`,
  deleteConfirm: (name: string) => `Delete the maintenance window “${name}”?`,
  /** A policy result or remediation job waiting for its device's window. */
  waiting: (opensAt: Date | null) =>
    opensAt
      ? `The device is outside its maintenance window; this runs when the next one opens (${opensAt.toISOString()}).`
      : 'The device is outside its maintenance window and none will open; this runs if one is added.',
  empty: 'No maintenance windows yet. Devices of groups without one run policies at any time.',
} as const;

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A local wall time "YYYY-MM-DDTHH:MM" that names a real calendar day. */
export function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const localDateTime = z.string().refine(isLocalDateTime, MAINTENANCE_WINDOW_TEXTS.dateTime);
const time = z.string().regex(TIME, MAINTENANCE_WINDOW_TEXTS.time);
const duration = z
  .number({ error: MAINTENANCE_WINDOW_TEXTS.duration })
  .int(MAINTENANCE_WINDOW_TEXTS.duration)
  .min(1, MAINTENANCE_WINDOW_TEXTS.duration)
  .max(MAINTENANCE_WINDOW_MAX_MINUTES, MAINTENANCE_WINDOW_TEXTS.duration);

/** A one-off window: from `starts_at` to `ends_at`, both local wall times in the window's timezone. */
export const ZOneOffSchedule = z.object({
  kind: z.literal('one_off'),
  /** Local start, "YYYY-MM-DDTHH:MM". */
  starts_at: localDateTime,
  /** Local end, "YYYY-MM-DDTHH:MM"; after the start, at most 7 days later. */
  ends_at: localDateTime,
});

/** Every week on `days` (ISO: Monday 1 … Sunday 7) at `start_time` for `duration_minutes`. */
export const ZWeeklySchedule = z.object({
  kind: z.literal('weekly'),
  days: z
    .array(z.number().int().min(1).max(7), { error: MAINTENANCE_WINDOW_TEXTS.days })
    .min(1, MAINTENANCE_WINDOW_TEXTS.days)
    .max(7)
    .refine((days) => new Set(days).size === days.length, MAINTENANCE_WINDOW_TEXTS.daysTwice),
  /** Local start, "HH:MM". */
  start_time: time,
  /** Elapsed minutes (a window over a DST change lasts as long as any other). */
  duration_minutes: duration,
});

/** Every month on `day_of_month` (the month's last day when it has fewer) at `start_time`. */
export const ZMonthlySchedule = z.object({
  kind: z.literal('monthly'),
  day_of_month: z
    .number({ error: MAINTENANCE_WINDOW_TEXTS.dayOfMonth })
    .int(MAINTENANCE_WINDOW_TEXTS.dayOfMonth)
    .min(1, MAINTENANCE_WINDOW_TEXTS.dayOfMonth)
    .max(31, MAINTENANCE_WINDOW_TEXTS.dayOfMonth),
  start_time: time,
  duration_minutes: duration,
});

export const ZMaintenanceSchedule = z.discriminatedUnion('kind', [ZOneOffSchedule, ZWeeklySchedule, ZMonthlySchedule]);
export type MaintenanceSchedule = z.infer<typeof ZMaintenanceSchedule>;

/** Minutes from a one-off window's local start to its local end (wall clock). */
function oneOffMinutes(s: { starts_at: string; ends_at: string }): number {
  const ms = (v: string) => Date.parse(`${v}:00Z`);
  return (ms(s.ends_at) - ms(s.starts_at)) / 60_000;
}

/** The body of a create or an update: the whole window. */
export const ZMaintenanceWindowBody = z
  .object({
    name: z.string().trim().min(1, MAINTENANCE_WINDOW_TEXTS.name).max(100, MAINTENANCE_WINDOW_TEXTS.name),
    /** The device group whose devices the window governs (a group of the zone `o`). */
    server_group_id: z.number({ error: MAINTENANCE_WINDOW_TEXTS.group }).int().positive().max(ID_MAX),
    /** IANA timezone name, e.g. "Europe/Paris"; daylight saving follows it. */
    timezone: z.string().max(64).refine(isValidScheduleTimezone, MAINTENANCE_WINDOW_TEXTS.timezone),
    schedule: ZMaintenanceSchedule,
  })
  .superRefine((body, ctx) => {
    const s = body.schedule;
    if (s.kind !== 'one_off' || !isLocalDateTime(s.starts_at) || !isLocalDateTime(s.ends_at)) return;
    const minutes = oneOffMinutes(s);
    if (minutes <= 0) {
      ctx.addIssue({ code: 'custom', path: ['schedule', 'ends_at'], message: MAINTENANCE_WINDOW_TEXTS.endAfterStart });
    } else if (minutes > MAINTENANCE_WINDOW_MAX_MINUTES) {
      ctx.addIssue({ code: 'custom', path: ['schedule', 'ends_at'], message: MAINTENANCE_WINDOW_TEXTS.tooLong });
    }
  });
export type MaintenanceWindowBody = z.infer<typeof ZMaintenanceWindowBody>;
export type MaintenanceWindowInput = z.input<typeof ZMaintenanceWindowBody>;

export const ZMaintenanceWindow = z.object({
  id: z.number().int(),
  name: z.string(),
  server_group_id: z.number().int(),
  server_group_name: z.string(),
  timezone: z.string(),
  schedule: ZMaintenanceSchedule,
  /** The occurrence under way or the next one; null for a one-off window that has ended. */
  next: ZWindowOccurrence.nullable(),
  /** The window is open at the time of the answer. */
  is_open: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MaintenanceWindow = z.infer<typeof ZMaintenanceWindow>;

export const ZMaintenanceWindowList = z.object({ data: z.array(ZMaintenanceWindow), size: z.number().int() });
export type MaintenanceWindowList = z.infer<typeof ZMaintenanceWindowList>;

const zone = {
  o: z.coerce.number().int().positive().max(ID_MAX).optional(),
  org: z.coerce.number().int().positive().max(ID_MAX).optional(),
};

/** `GET /api/maintenance-windows?o=…[&server_group_id=…]`. */
export const ZMaintenanceWindowListQuery = z
  .object({ ...zone, server_group_id: z.coerce.number().int().positive().max(ID_MAX).optional() })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type MaintenanceWindowListQuery = z.infer<typeof ZMaintenanceWindowListQuery>;

export const ZMaintenanceWindowParams = z.object({ windowId: z.coerce.number().int().positive().max(ID_MAX) });
