// The spec's format is DATE_FORMAT (core/constants, date-fns' notation): "yyyy-MM-dd h:mm a 'UTC'".
// The browser's own Intl writes it here, so the console loads no date library for it (date-fns'
// formatter and locale were 5.5 KiB gzipped on every list page); format-date.test.ts holds the
// two to the same text.
const UTC_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

/** An ISO time in the spec's format, in UTC ('2026-01-02 3:04 PM UTC'); '—' when absent. */
export function formatUtc(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value: text } of UTC_PARTS.formatToParts(date)) part[type] = text;
  return `${part.year?.padStart(4, '0')}-${part.month}-${part.day} ${part.hour}:${part.minute} ${part.dayPeriod} UTC`;
}

/** A day (`2026-03-02`) as a chart's axis writes it: `Mar 2`. */
export function formatShortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
