import { DATE_RANGE_PRESETS, resolveDateRange, type DateRangePreset } from '@patchwell/core/reports/date-range';

/** The activity log's filters, named as `GET /api/events` reads them (kept in the URL). */
export const ACTIVITY_FILTERS = [
  'preset',
  'startDate',
  'endDate',
  'user_id',
  'action',
  'object_type',
  'object_id',
] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number];

/** The preset the URL names; anything else is the default, the last 30 days. */
export function presetOf(value: string): DateRangePreset {
  return (DATE_RANGE_PRESETS as readonly string[]).includes(value) ? (value as DateRangePreset) : 'last30days';
}

/**
 * The API query of the URL's filters, or the date errors that keep it from being sent
 * (the server's rule, from core, checked against this browser's clock first).
 */
export function activityQueryOf(
  filters: Record<ActivityFilter, string>,
  now: Date,
): { query: Record<string, string>; dateErrors: Record<string, string[]> } {
  const preset = presetOf(filters.preset);
  const query: Record<string, string> = { preset };
  let dateErrors: Record<string, string[]> = {};
  if (preset === 'custom') {
    query.startDate = filters.startDate;
    query.endDate = filters.endDate;
    dateErrors = resolveDateRange({ preset, startDate: filters.startDate, endDate: filters.endDate }, now).errors ?? {};
  }
  for (const name of ['user_id', 'action', 'object_type', 'object_id'] as const) {
    if (filters[name]) query[name] = filters[name];
  }
  if (!query.object_type) delete query.object_id;
  return { query, dateErrors };
}
