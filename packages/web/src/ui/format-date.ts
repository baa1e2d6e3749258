import { DATE_FORMAT } from '@patchwell/core/constants';
import { format } from 'date-fns';

/** An ISO time in the spec's format, in UTC ('2026-01-02 3:04 PM UTC'); '—' when absent. */
export function formatUtc(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  // date-fns formats in local time: shift the instant so local fields show UTC's.
  return format(new Date(date.getTime() + date.getTimezoneOffset() * 60_000), DATE_FORMAT);
}
