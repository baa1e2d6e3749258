import { DATE_FORMAT } from '@patchwell/core/constants';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatShortDay, formatUtc } from './format-date';

/** date-fns' rendering of the spec's DATE_FORMAT, in UTC (what formatUtc must write). */
const specText = (iso: string) => {
  const date = new Date(iso);
  return format(new Date(date.getTime() + date.getTimezoneOffset() * 60_000), DATE_FORMAT);
};

describe('formatUtc', () => {
  it('writes the spec’s format in UTC', () => {
    expect(formatUtc('2026-01-02T15:04:00Z')).toBe('2026-01-02 3:04 PM UTC');
    expect(formatUtc('2026-11-25T00:07:59.999+02:00')).toBe('2026-11-24 10:07 PM UTC');
  });

  it('agrees with DATE_FORMAT through midnight, noon, month and year ends and leap days', () => {
    const instants = [
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:59:00Z',
      '2026-06-30T11:59:59Z',
      '2026-06-30T12:00:00Z',
      '2026-06-30T12:01:00Z',
      '2026-12-31T23:59:00Z',
      '2028-02-29T09:05:00Z',
      '1999-12-31T23:30:00-05:00',
      '0999-03-04T05:06:00Z',
    ];
    // Every 7 hours and 13 minutes through a year: each hour of the day, both halves of it.
    for (let t = Date.UTC(2027, 0, 1); t < Date.UTC(2028, 0, 1); t += (7 * 60 + 13) * 60_000)
      instants.push(new Date(t).toISOString());
    for (const iso of instants) expect(formatUtc(iso), iso).toBe(specText(iso));
  });

  it('writes a dash for no time or an unreadable one', () => {
    expect(formatUtc(null)).toBe('—');
    expect(formatUtc(undefined)).toBe('—');
    expect(formatUtc('')).toBe('—');
    expect(formatUtc('not a date')).toBe('—');
  });
});

describe('formatShortDay', () => {
  it('writes a day as a chart axis does, the same day in any time zone', () => {
    expect(['2026-03-02', '2026-12-31', '2028-02-29'].map(formatShortDay)).toEqual(['Mar 2', 'Dec 31', 'Feb 29']);
  });
});
