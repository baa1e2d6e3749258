import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_DATE_ERRORS, ZActivityQuery } from './activity.schema';
import { resolveDateRange, utcDay } from './date-range';
import { summarizeActivity } from './summary';

const now = new Date('2026-03-02T09:30:00Z');
const range = (preset: Parameters<typeof resolveDateRange>[0]['preset'], startDate?: string, endDate?: string) =>
  resolveDateRange({ preset, startDate, endDate }, now);

describe('resolveDateRange', () => {
  it('turns presets into whole UTC days ending today', () => {
    expect(range('today').range).toEqual({ from: new Date('2026-03-02T00:00Z'), to: new Date('2026-03-03T00:00Z') });
    expect(range('yesterday').range).toEqual({
      from: new Date('2026-03-01T00:00Z'),
      to: new Date('2026-03-02T00:00Z'),
    });
    expect(range('last7days').range?.from).toEqual(new Date('2026-02-24T00:00Z'));
    expect(range('last30days').range?.from).toEqual(new Date('2026-02-01T00:00Z'));
  });

  it('takes a custom range from its first day’s start to its last day’s end', () => {
    expect(range('custom', '2026-02-01', '2026-02-01').range).toEqual({
      from: new Date('2026-02-01T00:00Z'),
      to: new Date('2026-02-02T00:00Z'),
    });
  });

  it('refuses future days, days over 90 back and reversed ranges', () => {
    expect(range('custom', '2026-03-01', '2026-03-03').errors).toEqual({ endDate: [ACTIVITY_DATE_ERRORS.future] });
    expect(range('custom', '2025-12-01', '2026-03-01').errors).toEqual({ startDate: [ACTIVITY_DATE_ERRORS.tooOld] });
    expect(range('custom', '2026-03-01', '2026-02-28').errors).toEqual({ endDate: [ACTIVITY_DATE_ERRORS.order] });
    expect(range('custom', '2025-12-02', '2026-03-02').errors).toBeUndefined();
  });

  it('accepts every ordered pair of days within the last 90 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 0, max: 90 }), (a, b) => {
        const day = (n: number) => utcDay(new Date(now.getTime() - n * 86_400_000));
        const [start, end] = [Math.max(a, b), Math.min(a, b)];
        const result = range('custom', day(start), day(end));
        expect(result.errors).toBeUndefined();
        expect(result.range!.to.getTime() - result.range!.from.getTime()).toBe((start - end + 1) * 86_400_000);
      }),
    );
  });
});

describe('ZActivityQuery', () => {
  it('defaults to the last 30 days and reads dates alone as a custom range', () => {
    expect(ZActivityQuery.parse({ o: '3' })).toMatchObject({ o: 3, preset: 'last30days', page: 0, limit: 25 });
    expect(ZActivityQuery.parse({ org: '3', startDate: '2026-02-01', endDate: '2026-02-02' })).toMatchObject({
      o: 3,
      preset: 'custom',
    });
  });

  it('refuses impossible dates and dates with another preset', () => {
    expect(ZActivityQuery.safeParse({ startDate: '2026-02-30', endDate: '2026-03-01' }).success).toBe(false);
    expect(ZActivityQuery.safeParse({ preset: 'today', endDate: '2026-03-01' }).success).toBe(false);
    expect(ZActivityQuery.safeParse({ object_id: '4' }).success).toBe(false);
  });
});

describe('summarizeActivity', () => {
  it('lists the changed fields, then the facts', () => {
    expect(summarizeActivity({ changes: { name: { from: 'Old', to: 'New' } }, devices: 3 })).toBe(
      'name: Old → New; devices: 3',
    );
    expect(summarizeActivity({ changes: { notes: { from: null, to: 'x'.repeat(200) } } })).toMatch(/^notes: — → x+…$/);
  });
});
