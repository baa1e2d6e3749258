import { tzOffset } from '@date-fns/tz';
import { z } from 'zod';

/**
 * The 38 schedule timezone options of spec B section 9 ("UTC-1200 to UTC+1400, including
 * half and quarter hours"), spelled as the product family's `scheduled_timezone`
 * ("UTC+0000"). They are fixed offsets, so a policy scheduled in one of them never moves
 * with daylight saving; DST only matters when a policy runs in each device's local time.
 */
export const SCHEDULE_TIMEZONES = [
  'UTC-1200',
  'UTC-1100',
  'UTC-1000',
  'UTC-0930',
  'UTC-0900',
  'UTC-0800',
  'UTC-0700',
  'UTC-0600',
  'UTC-0500',
  'UTC-0400',
  'UTC-0330',
  'UTC-0300',
  'UTC-0200',
  'UTC-0100',
  'UTC+0000',
  'UTC+0100',
  'UTC+0200',
  'UTC+0300',
  'UTC+0330',
  'UTC+0400',
  'UTC+0430',
  'UTC+0500',
  'UTC+0530',
  'UTC+0545',
  'UTC+0600',
  'UTC+0630',
  'UTC+0700',
  'UTC+0800',
  'UTC+0845',
  'UTC+0900',
  'UTC+0930',
  'UTC+1000',
  'UTC+1030',
  'UTC+1100',
  'UTC+1200',
  'UTC+1245',
  'UTC+1300',
  'UTC+1400',
] as const;
export const ZScheduleTimezone = z.enum(SCHEDULE_TIMEZONES);
export type ScheduleTimezone = z.infer<typeof ZScheduleTimezone>;
/** The family's default `scheduled_timezone`. */
export const DEFAULT_SCHEDULE_TIMEZONE: ScheduleTimezone = 'UTC+0000';

const UTC_OFFSET = /^UTC([+-])(\d{2})(\d{2})$/;

/** Minutes east of UTC of a "UTC±HHMM" option, or null when the text is not one. */
export function parseUtcOffset(value: string): number | null {
  const m = UTC_OFFSET.exec(value);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 14 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** A timezone the schedule can compute with: its UTC offset, in minutes, at an instant. */
export type ScheduleZone = {
  /** The name it was resolved from. */
  name: string;
  /** Minutes east of UTC at the instant `ms` (epoch milliseconds). */
  offsetAt(ms: number): number;
};

const zoneCache = new Map<string, ScheduleZone | null>();
const HOUR_MS = 3_600_000;
/** Cached hour boundaries per zone; cleared when it grows past this (a few years of hours). */
const OFFSET_CACHE_MAX = 50_000;

/**
 * The offset function of an IANA zone. Reading tzdata through Intl costs microseconds, and
 * the scheduler asks for many devices, so offsets at whole hours are cached: when both ends
 * of an hour agree, no transition falls inside it (tzdata never has two within an hour),
 * and only hours holding a transition are asked minute-exactly.
 */
function ianaOffset(name: string): (ms: number) => number {
  const hours = new Map<number, number>();
  const atHour = (h: number) => {
    let o = hours.get(h);
    if (o === undefined) {
      if (hours.size >= OFFSET_CACHE_MAX) hours.clear();
      o = tzOffset(name, new Date(h));
      hours.set(h, o);
    }
    return o;
  };
  return (ms) => {
    const h = Math.floor(ms / HOUR_MS) * HOUR_MS;
    const o = atHour(h);
    return o === atHour(h + HOUR_MS) ? o : tzOffset(name, new Date(ms));
  };
}

function isIanaZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves a schedule timezone: one of the "UTC±HHMM" options (a fixed offset) or an
 * IANA name such as a device reports ("Europe/Berlin", with its DST rules). Null when
 * the name is neither.
 */
export function resolveScheduleZone(name: string): ScheduleZone | null {
  const cached = zoneCache.get(name);
  if (cached !== undefined) return cached;
  let zone: ScheduleZone | null = null;
  const fixed = parseUtcOffset(name);
  if (fixed !== null) zone = { name, offsetAt: () => fixed };
  else if (name.length > 0 && isIanaZone(name)) zone = { name, offsetAt: ianaOffset(name) };
  zoneCache.set(name, zone);
  return zone;
}
