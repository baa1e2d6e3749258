import { z } from 'zod';
import { isValidTime } from '../rules/datetime';
import { TEXTS } from '../texts';
import { DEFAULT_SCHEDULE_TIMEZONE, ZScheduleTimezone } from './timezones';

/**
 * Schedule bitmasks (spec B section 9, FIELD-NOTES 3.1): the decimal value of a binary
 * mask whose bit 0 is unused. Days: bit 1 Monday (2) … bit 7 Sunday (128). Weeks of the
 * month: bit n is the n-th occurrence of the chosen weekday in the month (1–5), so days 64
 * with weeks 4 is "the 2nd Saturday". Months: bit n is month n (January 2 … December 8192).
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Every day, Monday to Sunday (bits 1–7). */
export const EVERY_DAY = 254;
/** Every week of the month (bits 1–5). */
export const EVERY_WEEK = 62;
/** Every month (bits 1–12). */
export const EVERY_MONTH = 8190;

/** The mask bit of a weekday: Monday 2 … Sunday 128. */
export function dayBit(day: Weekday): number {
  return 1 << (WEEKDAYS.indexOf(day) + 1);
}

/** Weekdays set in a days mask, Monday first. */
export function daysOfMask(mask: number): Weekday[] {
  return WEEKDAYS.filter((d) => (mask & dayBit(d)) !== 0);
}

/** The days mask of a set of weekdays. */
export function maskOfDays(days: readonly Weekday[]): number {
  return days.reduce((mask, d) => mask | dayBit(d), 0);
}

/** Numbers 1..max whose bit is set (week-of-month occurrences or months). */
export function ordinalsOfMask(mask: number, max: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= max; n++) if (mask & (1 << n)) out.push(n);
  return out;
}

/** The mask of ordinals 1..n (weeks 1–5, months 1–12). */
export function maskOfOrdinals(ordinals: readonly number[]): number {
  return ordinals.reduce((mask, n) => mask | (1 << n), 0);
}

const BIT0_MESSAGE = 'Bit 0 is unused: the first value is 2.';

function bitmask(max: number) {
  return z
    .number()
    .int()
    .min(0, TEXTS.validation.numberBetween(0, max))
    .max(max, TEXTS.validation.numberBetween(0, max))
    .refine((v) => (v & 1) === 0, BIT0_MESSAGE);
}

/** The days mask, 0 (unscheduled: runs only on demand) to 254. */
export const ZScheduleDays = bitmask(EVERY_DAY);
/** The weeks-of-month mask, 0 to 62; 0 (or absent) means every week. */
export const ZScheduleWeeks = bitmask(EVERY_WEEK);
/** The months mask, 0 to 8190; 0 (or absent) means every month. */
export const ZScheduleMonths = bitmask(EVERY_MONTH);
/** The run time, 24-hour HH:mm. */
export const ZScheduleTime = z
  .string()
  .max(5, 'Enter a 24-hour time as HH:mm.')
  .refine(isValidTime, 'Enter a 24-hour time as HH:mm.');

/** The schedule fields of a policy, as the family spells them. */
export const ZPolicySchedule = z.object({
  /** Days mask (Monday 2 … Sunday 128); 0 = unscheduled, runs only on demand. */
  schedule_days: ZScheduleDays,
  /** Weeks-of-month mask (n-th occurrence of the weekday, bits 1–5). Default 62, every week. */
  schedule_weeks_of_month: ZScheduleWeeks.default(EVERY_WEEK),
  /** Months mask (bits 1–12). Default 8190, every month. */
  schedule_months: ZScheduleMonths.default(EVERY_MONTH),
  /** Run time, 24-hour HH:mm. */
  schedule_time: ZScheduleTime,
  /** True: run at `schedule_time` in `scheduled_timezone`; false: in each device's local time. */
  use_scheduled_timezone: z.boolean(),
  /** One of the 38 "UTC±HHMM" options. Default "UTC+0000". */
  scheduled_timezone: ZScheduleTimezone.default(DEFAULT_SCHEDULE_TIMEZONE),
});
export type PolicySchedule = z.infer<typeof ZPolicySchedule>;
export type PolicyScheduleInput = z.input<typeof ZPolicySchedule>;
