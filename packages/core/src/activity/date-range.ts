import { ACTIVITY_DATE_ERRORS, ACTIVITY_MAX_DAYS_BACK, type DateRangePreset } from './activity.schema';

const DAY_MS = 86_400_000;

/** Midnight UTC of `date`'s day. */
function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** `YYYY-MM-DD` of `date`'s UTC day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A half-open range of instants: `from` ≤ t < `to`. */
export type TimeRange = { from: Date; to: Date };

export type RangeInput = { preset: DateRangePreset; startDate?: string; endDate?: string };

/**
 * The instants a preset or custom range covers at `now`, in whole UTC days: `today` is
 * today, `yesterday` the day before, `last7days` and `last30days` end with today. A custom
 * range runs from the start of `startDate` to the end of `endDate`, which must be real days,
 * in order, not in the future and starting at most 90 days back (spec B section 5).
 * The dates' format is the schema's job; this checks them against the clock.
 */
export function resolveDateRange(
  input: RangeInput,
  now: Date,
): { range: TimeRange; errors?: undefined } | { range?: undefined; errors: Record<string, string[]> } {
  const today = startOfUtcDay(now);
  const tomorrow = addDays(today, 1);
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
      return customRange(input.startDate, input.endDate, today);
  }
}

function customRange(startDate: string | undefined, endDate: string | undefined, today: Date) {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const start = startDate ? new Date(`${startDate}T00:00:00Z`) : undefined;
  const end = endDate ? new Date(`${endDate}T00:00:00Z`) : undefined;
  if (!start || Number.isNaN(start.getTime())) add('startDate', ACTIVITY_DATE_ERRORS.required);
  if (!end || Number.isNaN(end.getTime())) add('endDate', ACTIVITY_DATE_ERRORS.required);
  if (start && start > today) add('startDate', ACTIVITY_DATE_ERRORS.future);
  if (start && start < addDays(today, -ACTIVITY_MAX_DAYS_BACK)) add('startDate', ACTIVITY_DATE_ERRORS.tooOld);
  if (end && end > today) add('endDate', ACTIVITY_DATE_ERRORS.future);
  if (end && end < addDays(today, -ACTIVITY_MAX_DAYS_BACK)) add('endDate', ACTIVITY_DATE_ERRORS.tooOld);
  if (start && end && end < start) add('endDate', ACTIVITY_DATE_ERRORS.order);
  if (Object.keys(errors).length || !start || !end) return { errors };
  return { range: { from: start, to: addDays(end, 1) } };
}
