import { TZDate } from '@date-fns/tz';
import { addDays, addMinutes } from 'date-fns';
import type { MaintenanceSchedule } from './maintenance-windows.schema';

/**
 * When a maintenance window is open (pure; the server's engine and the console use it).
 *
 * Wall times are read in the window's IANA timezone with @date-fns/tz's TZDate:
 * - a start inside a spring-forward gap (02:30 on the night clocks jump 02:00 → 03:00)
 *   opens at the same distance past the gap (03:30), as TZDate resolves it;
 * - a start repeated by a fall-back (02:30 twice) opens at its later instant (TZDate's);
 * - a recurring window lasts its duration in elapsed minutes, so a 4-hour window over a
 *   DST change still lasts 4 hours; a one-off window ends at its local end time.
 * A monthly window on a day the month lacks (31 in April) opens on the month's last day.
 */

/** A window as the rules need it. */
export type WindowRule = {
  timezone: string;
  schedule: MaintenanceSchedule;
};

/** One occurrence of a window, absolute. */
export type Occurrence = { start: Date; end: Date };

const MAX_LOOKBACK_DAYS = 8; // a recurring window lasts at most 7 days
const MAX_LOOKAHEAD_DAYS = 62; // every month has the monthly window's day (clamped)

function parseLocal(value: string): [number, number, number, number, number] {
  const [date, time] = value.split('T') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return [y, m, d, h, min];
}

/** The instant of a local wall time (month 1–12) in `timezone`. */
export function localInstant(timezone: string, y: number, m: number, d: number, h: number, min: number): Date {
  return new Date(new TZDate(y, m - 1, d, h, min, timezone).getTime());
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Local calendar days from `from` (inclusive), `count` of them, as [y, m, d, isoWeekday]. */
function* localDays(timezone: string, from: Date, count: number): Generator<[number, number, number, number]> {
  const local = new TZDate(from.getTime(), timezone);
  // Walk whole days on a UTC calendar starting at the local date: no DST in the count.
  let day = new Date(Date.UTC(local.getFullYear(), local.getMonth(), local.getDate()));
  for (let i = 0; i < count; i++) {
    yield [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), day.getUTCDay() || 7];
    day = addDays(day, 1);
  }
}

/**
 * The occurrence of the window under way at `now`, else the next one to open; null when
 * none will (a one-off window that has ended).
 */
export function occurrenceAt(rule: WindowRule, now: Date): Occurrence | null {
  const s = rule.schedule;
  if (s.kind === 'one_off') {
    const start = localInstant(rule.timezone, ...parseLocal(s.starts_at));
    const end = localInstant(rule.timezone, ...parseLocal(s.ends_at));
    return end > now && end > start ? { start, end } : null;
  }
  const [hh, mm] = s.start_time.split(':').map(Number) as [number, number];
  const from = addDays(now, -MAX_LOOKBACK_DAYS);
  for (const [y, m, d, weekday] of localDays(rule.timezone, from, MAX_LOOKBACK_DAYS + MAX_LOOKAHEAD_DAYS)) {
    const opens = s.kind === 'weekly' ? s.days.includes(weekday) : d === Math.min(s.day_of_month, daysInMonth(y, m));
    if (!opens) continue;
    const start = localInstant(rule.timezone, y, m, d, hh, mm);
    const end = addMinutes(start, s.duration_minutes);
    if (end > now) return { start, end };
  }
  return null;
}

/** True when one of `windows` is open at `now`, or when there are none (no window: any time). */
export function isInside(windows: readonly WindowRule[], now: Date): boolean {
  if (!windows.length) return true;
  return windows.some((w) => {
    const o = occurrenceAt(w, now);
    return o !== null && o.start <= now;
  });
}

/**
 * The window a device waits for or works in: the open occurrence that started first, else
 * the one opening soonest; null when no window will open (or there are none).
 */
export function nextWindow(windows: readonly WindowRule[], now: Date): Occurrence | null {
  let best: Occurrence | null = null;
  for (const w of windows) {
    const o = occurrenceAt(w, now);
    if (o && (!best || o.start < best.start)) best = o;
  }
  return best;
}
