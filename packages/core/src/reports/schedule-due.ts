import { localToInstant, nextRun, scheduleZoneOf } from '../policies/schedule';
import type { ReportScheduleFrequency } from './schedules.schema';

/**
 * When a scheduled report is due (pure; the server's worker makes each due time send exactly
 * once with a unique claim). Daily and weekly reuse the policies' schedule arithmetic
 * (`nextRun`), so a wall time skipped by a spring-forward gap sends at the first instant
 * after it and a time repeated by a fall-back sends once, at its first occurrence. Monthly
 * sends on `day_of_month`, or on the month's last day when the month is shorter.
 */

export type DueSchedule = {
  frequency: ReportScheduleFrequency;
  /** ISO day of week, Monday 1 … Sunday 7 (weekly). */
  day_of_week: number | null;
  /** 1–31 (monthly). */
  day_of_month: number | null;
  /** HH:MM. */
  time: string;
  /** IANA name. */
  timezone: string;
};

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The policies' days mask: Monday 2 … Sunday 128. */
const EVERY_DAY = 0xfe;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The local calendar day (month 1–12) of an instant in the schedule's zone. */
function localDay(timezone: string, ms: number): { year: number; month: number; day: number } {
  const zone = scheduleZoneOf(timezone);
  const local = new Date(ms + zone.offsetAt(ms) * MINUTE_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

function monthlyAt(s: DueSchedule, year: number, month: number): number {
  const day = Math.min(s.day_of_month ?? 1, daysInMonth(year, month));
  return localToInstant(scheduleZoneOf(s.timezone), year, month, day, minutesOf(s.time));
}

/**
 * The first due time strictly after `after`.
 * @throws RangeError for an unknown timezone or a weekly/monthly schedule without its day.
 */
export function nextDueAt(s: DueSchedule, after: Date): Date {
  if (s.frequency === 'monthly') {
    if (!s.day_of_month) throw new RangeError('A monthly schedule needs day_of_month');
    // Two days back covers an `after` whose local date is already the next month.
    let { year, month } = localDay(s.timezone, after.getTime() - 2 * DAY_MS);
    for (let i = 0; i < 4; i++) {
      const t = monthlyAt(s, year, month);
      if (t > after.getTime()) return new Date(t);
      month += 1;
      if (month > 12) [year, month] = [year + 1, 1];
    }
    throw new RangeError('No monthly due time found');
  }
  if (s.frequency === 'weekly' && !s.day_of_week) throw new RangeError('A weekly schedule needs day_of_week');
  const days = s.frequency === 'daily' ? EVERY_DAY : 1 << (s.day_of_week as number);
  const next = nextRun({ schedule_days: days, schedule_time: s.time }, after, s.timezone);
  if (!next) throw new RangeError('No due time found');
  return next;
}

/**
 * The due time one period before `dueAt` (the day, week or month the mail covers): the same
 * wall time on the local day 1 or 7 days earlier, or the previous month's day (clamped).
 */
export function previousDueAt(s: DueSchedule, dueAt: Date): Date {
  const { year, month, day } = localDay(s.timezone, dueAt.getTime());
  if (s.frequency === 'monthly') {
    const [y, m] = month === 1 ? [year - 1, 12] : [year, month - 1];
    return new Date(monthlyAt(s, y, m));
  }
  const back = new Date(Date.UTC(year, month - 1, day - (s.frequency === 'daily' ? 1 : 7)));
  return new Date(
    localToInstant(
      scheduleZoneOf(s.timezone),
      back.getUTCFullYear(),
      back.getUTCMonth() + 1,
      back.getUTCDate(),
      minutesOf(s.time),
    ),
  );
}
