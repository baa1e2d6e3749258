import { describe, expect, it } from 'vitest';
import { ZActivityQuery } from './activity.schema';
import { summarizeActivity } from './summary';

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
