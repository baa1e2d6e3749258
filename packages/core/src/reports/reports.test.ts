import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_RANGE_ERRORS, daysBetween, resolveDateRange, utcDay } from './date-range';
import { PATCH_AGE_BOUNDS, PATCH_AGE_BUCKETS, patchAgeBucket } from './patch-age';

const DAY = 86_400_000;
const NOW = new Date('2026-03-02T09:00:00Z');
const daysAgo = (n: number, extraMs = 0) => new Date(NOW.getTime() - n * DAY - extraMs);

describe('patch age buckets', () => {
  it('puts the spec’s edges where it says: 15 under 15, 16-30, 31-60, 61-89, 90+', () => {
    expect(patchAgeBucket(daysAgo(0), NOW)).toBe('0-15');
    expect(patchAgeBucket(daysAgo(15, DAY - 1), NOW)).toBe('0-15');
    expect(patchAgeBucket(daysAgo(16), NOW)).toBe('16-30');
    expect(patchAgeBucket(daysAgo(30), NOW)).toBe('16-30');
    expect(patchAgeBucket(daysAgo(31), NOW)).toBe('31-60');
    expect(patchAgeBucket(daysAgo(60), NOW)).toBe('31-60');
    expect(patchAgeBucket(daysAgo(61), NOW)).toBe('61-89');
    expect(patchAgeBucket(daysAgo(89), NOW)).toBe('61-89');
    expect(patchAgeBucket(daysAgo(90), NOW)).toBe('90+');
    expect(patchAgeBucket(daysAgo(2000), NOW)).toBe('90+');
    expect(patchAgeBucket(null, NOW)).toBe('unknown');
    expect(patchAgeBucket(new Date(NOW.getTime() + 5 * DAY), NOW)).toBe('0-15');
  });

  it('gives every whole day exactly one bucket', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), (days) => {
        const matching = PATCH_AGE_BUCKETS.filter((b) => {
          const { min, max } = PATCH_AGE_BOUNDS[b];
          return days >= min && (max === null || days <= max);
        });
        expect(matching).toEqual([patchAgeBucket(daysAgo(days), NOW)]);
      }),
    );
  });
});

describe('report date ranges', () => {
  const resolve = (preset: Parameters<typeof resolveDateRange>[0]['preset'], startDate?: string, endDate?: string) =>
    resolveDateRange({ preset, startDate, endDate }, NOW);

  it('resolves the presets in whole UTC days ending with today', () => {
    expect(resolve('today').range).toEqual({
      from: new Date('2026-03-02T00:00:00Z'),
      to: new Date('2026-03-03T00:00:00Z'),
    });
    expect(resolve('yesterday').range).toEqual({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
    });
    expect(resolve('last7days').range?.from).toEqual(new Date('2026-02-24T00:00:00Z'));
    expect(resolve('last30days').range?.from).toEqual(new Date('2026-02-01T00:00:00Z'));
  });

  it('takes a custom range of real days, in order, up to 90 days back and not in the future', () => {
    expect(resolve('custom', '2025-12-02', '2026-03-02').range).toEqual({
      from: new Date('2025-12-02T00:00:00Z'),
      to: new Date('2026-03-03T00:00:00Z'),
    });
    expect(resolve('custom', '2025-12-01', '2026-03-02').errors).toEqual({ startDate: [DATE_RANGE_ERRORS.tooOld] });
    expect(resolve('custom', '2026-03-01', '2026-03-03').errors).toEqual({ endDate: [DATE_RANGE_ERRORS.future] });
    expect(resolve('custom', '2026-03-01', '2026-02-28').errors).toEqual({ endDate: [DATE_RANGE_ERRORS.order] });
    expect(resolve('custom', '2026-02-30', '2026-03-01').errors).toEqual({ startDate: [DATE_RANGE_ERRORS.invalid] });
    expect(resolve('custom').errors).toEqual({
      startDate: [DATE_RANGE_ERRORS.required],
      endDate: [DATE_RANGE_ERRORS.required],
    });
    expect(resolve('today', '2026-03-01').errors).toEqual({ startDate: [DATE_RANGE_ERRORS.onlyCustom] });
  });

  it('never gives a range longer than 91 days or ending after today', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 120 }), (a, b) => {
        const r = resolve('custom', utcDay(daysAgo(a)), utcDay(daysAgo(b))).range;
        if (!r) return;
        expect(r.to.getTime() - r.from.getTime()).toBeLessThanOrEqual(91 * DAY);
        expect(r.to.getTime()).toBeLessThanOrEqual(new Date('2026-03-03T00:00:00Z').getTime());
      }),
    );
  });

  it('lists the days of a range', () => {
    expect(daysBetween(new Date('2026-02-27T10:00:00Z'), NOW)).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
  });
});
