import { ONE_DAY_MS } from '../constants';
import { isValidDate } from '../rules/datetime';

/**
 * Date ranges of the reports (spec B sections 3 and 5): the presets `last30days`,
 * `last7days`, `yesterday`, `today` and `custom`, in whole UTC days (the console shows times
 * in UTC). A custom range runs from the start of its first day to the end of its last; its
 * days must be real, in order, not in the future and at most {@link REPORT_MAX_DAYS_BACK}
 * days back. The schemas check the format; these check the dates against the clock.
 */

export const DATE_RANGE_PRESETS = ['last30days', 'last7days', 'yesterday', 'today', 'custom'] as const;
export type DateRangePreset = (typeof DATE_RANGE_PRESETS)[number];

/** How far back a report's dates may go (spec B section 9: data extracts go back up to 90 days). */
export const REPORT_MAX_DAYS_BACK = 90;

export const DATE_RANGE_ERRORS = {
  invalid: 'Must be a real date (YYYY-MM-DD).',
  required: 'Required for a custom range.',
  onlyCustom: 'Dates apply only to the custom range.',
  future: 'Must not be in the future.',
  tooOld: `Must be within the last ${REPORT_MAX_DAYS_BACK} days.`,
  order: 'Must be on or after the start date.',
} as const;

/** A half-open range of instants: `from` ≤ t < `to`. */
export type TimeRange = { from: Date; to: Date };

export type FieldIssues = Record<string, string[]>;

/** Midnight UTC of `date`'s day. */
export function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * ONE_DAY_MS);
}

/** `YYYY-MM-DD` of `date`'s UTC day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Midnight UTC of a `YYYY-MM-DD` day. */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** Every `YYYY-MM-DD` from `from`'s day to `to`'s day, both included. */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let d = startOfUtcDay(from); d <= to; d = addDays(d, 1)) days.push(utcDay(d));
  return days;
}

/** Checks one day against the clock: real, not in the future, at most 90 days back. */
export function checkReportDay(day: string, now: Date): string | undefined {
  if (!isValidDate(day)) return DATE_RANGE_ERRORS.invalid;
  const today = startOfUtcDay(now);
  const d = dayStart(day);
  if (d > today) return DATE_RANGE_ERRORS.future;
  if (d < addDays(today, -REPORT_MAX_DAYS_BACK)) return DATE_RANGE_ERRORS.tooOld;
  return undefined;
}

export type RangeInput = { preset: DateRangePreset; startDate?: string; endDate?: string };

/**
 * The instants a preset or custom range covers at `now`: `today` is today, `yesterday` the
 * day before, `last7days` and `last30days` end with today.
 */
export function resolveDateRange(
  input: RangeInput,
  now: Date,
): { range: TimeRange; errors?: undefined } | { range?: undefined; errors: FieldIssues } {
  const today = startOfUtcDay(now);
  const tomorrow = addDays(today, 1);
  const errors: FieldIssues = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (input.preset !== 'custom') {
    if (input.startDate) add('startDate', DATE_RANGE_ERRORS.onlyCustom);
    if (input.endDate) add('endDate', DATE_RANGE_ERRORS.onlyCustom);
    if (Object.keys(errors).length) return { errors };
  }
  switch (input.preset) {
    case 'today':
      return { range: { from: today, to: tomorrow } };
    case 'yesterday':
      return { range: { from: addDays(today, -1), to: today } };
    case 'last7days':
      return { range: { from: addDays(today, -6), to: tomorrow } };
    case 'last30days':
      return { range: { from: addDays(today, -29), to: tomorrow } };
    case 'custom':
      break;
  }
  if (!input.startDate) add('startDate', DATE_RANGE_ERRORS.required);
  if (!input.endDate) add('endDate', DATE_RANGE_ERRORS.required);
  const startIssue = input.startDate ? checkReportDay(input.startDate, now) : undefined;
  const endIssue = input.endDate ? checkReportDay(input.endDate, now) : undefined;
  if (startIssue) add('startDate', startIssue);
  if (endIssue) add('endDate', endIssue);
  if (Object.keys(errors).length || !input.startDate || !input.endDate) return { errors };
  const from = dayStart(input.startDate);
  const last = dayStart(input.endDate);
  if (last < from) return { errors: { endDate: [DATE_RANGE_ERRORS.order] } };
  return { range: { from, to: addDays(last, 1) } };
}
