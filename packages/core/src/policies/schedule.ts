import { EVERY_MONTH, EVERY_WEEK } from './policy-schedule.schema';
import { resolveScheduleZone, type ScheduleZone } from './timezones';

/**
 * Next-run arithmetic of the bitmask schedule (pure; the server's scheduler makes a run
 * happen exactly once with database locks, this file only says when).
 *
 * Semantics, decided and tested against a minute-by-minute reference:
 * - A day D is a run day when its weekday's bit is in `schedule_days` (Monday 2 …
 *   Sunday 128), its occurrence in the month (days 1–7 are the 1st, 8–14 the 2nd, …,
 *   29–31 the 5th) is in `schedule_weeks_of_month`, and its month is in `schedule_months`.
 *   A weeks or months mask of 0 (or absent) means "every", as in older policies that only
 *   had days; days 0 means unscheduled, so there is no next run.
 * - The run of day D happens at the first instant whose local date is D and whose local
 *   time is at or after `schedule_time`. Hence a time skipped by a spring-forward gap runs
 *   at the first valid instant after it (02:30 on a 02:00→03:00 day runs at 03:00), and a
 *   time repeated by a fall-back overlap runs once, at its first occurrence.
 * - Fixed "UTC±HHMM" zones have no DST; IANA zones (a device's local time) follow tzdata.
 */

/** The schedule fields nextRun needs. */
export type Schedule = {
  /** Days mask, Monday 2 … Sunday 128; 0 = unscheduled. */
  schedule_days: number;
  /** Weeks-of-month mask (bits 1–5); 0 or absent = every week. */
  schedule_weeks_of_month?: number | null;
  /** Months mask (bits 1–12); 0 or absent = every month. */
  schedule_months?: number | null;
  /** 24-hour HH:mm. */
  schedule_time: string;
};

/** Where the schedule's wall time is read: a zone name, or a device's own zone. */
export type ScheduleTz = string | { deviceTz: string | null | undefined };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The Gregorian calendar repeats after 400 years, so a pattern absent for that long never occurs. */
const MAX_MONTHS_SCANNED = 400 * 12;

function parseTime(value: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!m) throw new RangeError(`Invalid schedule_time: ${value}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * The zone of a schedule. A named zone must resolve (else RangeError: a policy's own
 * setting is validated on save). A device's zone comes from its agent and may be missing
 * or unknown to this runtime; such a device runs on UTC rather than never.
 */
export function scheduleZoneOf(tz: ScheduleTz): ScheduleZone {
  if (typeof tz === 'string') {
    const zone = resolveScheduleZone(tz);
    if (!zone) throw new RangeError(`Unknown timezone: ${tz}`);
    return zone;
  }
  return (tz.deviceTz && resolveScheduleZone(tz.deviceTz)) || (resolveScheduleZone('UTC') as ScheduleZone);
}

/**
 * The instant at which wall time `minutes` of local day (year, month 1–12, day) happens in
 * `zone`, per the rule above: the first instant of that day at or after that wall time.
 */
export function localToInstant(zone: ScheduleZone, year: number, month: number, day: number, minutes: number): number {
  const wall = Date.UTC(year, month - 1, day) + minutes * MINUTE_MS;
  // Offsets a day either side bracket any transition near this wall time.
  const offsets = new Set([zone.offsetAt(wall - DAY_MS), zone.offsetAt(wall), zone.offsetAt(wall + DAY_MS)]);
  let best: number | null = null;
  for (const o of offsets) {
    const t = wall - o * MINUTE_MS;
    if (zone.offsetAt(t) === o && (best === null || t < best)) best = t;
  }
  if (best !== null) return best;
  // A gap: the wall time never shows. Find the transition instant between the instant it
  // would have had with the later offset (still before the change) and with the earlier one.
  const candidates = [...offsets].map((o) => wall - o * MINUTE_MS).sort((a, b) => a - b);
  let lo = Math.floor((candidates[0] as number) / MINUTE_MS);
  let hi = Math.ceil((candidates[candidates.length - 1] as number) / MINUTE_MS);
  const before = zone.offsetAt(lo * MINUTE_MS);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zone.offsetAt(mid * MINUTE_MS) === before) lo = mid;
    else hi = mid;
  }
  return hi * MINUTE_MS;
}

/** Local calendar date (year, month 1–12) of an instant in a zone. */
function localYearMonth(zone: ScheduleZone, ms: number): { year: number; month: number } {
  const local = new Date(ms + zone.offsetAt(ms) * MINUTE_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1 };
}

/** Days of a month (ascending) that the days and weeks masks select. */
function runDaysOfMonth(year: number, month: number, days: number, weeks: number): number[] {
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
  // getUTCDay: Sunday 0 … Saturday 6; the mask wants Monday 1 … Sunday 7.
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay() || 7;
  const out: number[] = [];
  for (let d = 1; d <= length; d++) {
    const weekday = ((firstWeekday - 1 + d - 1) % 7) + 1;
    const occurrence = Math.ceil(d / 7);
    if (days & (1 << weekday) && weeks & (1 << occurrence)) out.push(d);
  }
  return out;
}

/** True when the schedule never runs by itself (days 0): it runs only on demand. */
export function isUnscheduled(schedule: Pick<Schedule, 'schedule_days'>): boolean {
  return (schedule.schedule_days & 0xfe) === 0;
}

/**
 * The first run strictly after `after`, or null when the schedule is unscheduled.
 * `tz` is a "UTC±HHMM" option or IANA name, or `{ deviceTz }` to use a device's local time.
 */
export function nextRun(schedule: Schedule, after: Date, tz: ScheduleTz): Date | null {
  const days = schedule.schedule_days & 0xfe;
  if (days === 0) return null;
  const weeks = schedule.schedule_weeks_of_month ? schedule.schedule_weeks_of_month & EVERY_WEEK : EVERY_WEEK;
  const months = schedule.schedule_months ? schedule.schedule_months & EVERY_MONTH : EVERY_MONTH;
  if (weeks === 0 || months === 0) return null;
  const minutes = parseTime(schedule.schedule_time);
  const zone = scheduleZoneOf(tz);
  const afterMs = after.getTime();
  if (Number.isNaN(afterMs)) throw new RangeError('Invalid date');
  // Start two days back: around a fall-back at midnight a day's run can follow `after`
  // even though `after` already shows a later local date.
  let { year, month } = localYearMonth(zone, afterMs - 2 * DAY_MS);
  for (let i = 0; i < MAX_MONTHS_SCANNED; i++) {
    if (months & (1 << month)) {
      for (const day of runDaysOfMonth(year, month, days, weeks)) {
        // UTC offsets stay within a day, so a wall time a day before `after` cannot follow it.
        if (Date.UTC(year, month - 1, day) + minutes * MINUTE_MS + DAY_MS <= afterMs) continue;
        const t = localToInstant(zone, year, month, day, minutes);
        if (t > afterMs) return new Date(t);
      }
    }
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return null;
}

/**
 * The scheduled runs in (`since`, `now`], oldest first, at most `limit` of them. The
 * engine passes the last run (or the policy's creation) as `since`: any result means a
 * run is owed, and a catch-up policy runs once for all of them at the next check-in.
 */
export function missedRuns(schedule: Schedule, since: Date, now: Date, tz: ScheduleTz, limit = 100): Date[] {
  const out: Date[] = [];
  let cursor = since;
  while (out.length < limit) {
    const next = nextRun(schedule, cursor, tz);
    if (!next || next.getTime() > now.getTime()) break;
    out.push(next);
    cursor = next;
  }
  return out;
}

/** Whether a run is due: a scheduled time has passed since `since` (last run or creation). */
export function isDue(schedule: Schedule, since: Date, now: Date, tz: ScheduleTz): boolean {
  const next = nextRun(schedule, since, tz);
  return next !== null && next.getTime() <= now.getTime();
}

/**
 * Where a policy's schedule is read: its chosen "UTC±HHMM" zone when
 * `use_scheduled_timezone`, else the device's local zone.
 */
export function policyScheduleTz(
  policy: { use_scheduled_timezone: boolean; scheduled_timezone?: string | null },
  deviceTz?: string | null,
): ScheduleTz {
  return policy.use_scheduled_timezone ? (policy.scheduled_timezone ?? 'UTC+0000') : { deviceTz };
}
