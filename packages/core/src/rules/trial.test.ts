import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ONE_DAY_MS } from '../constants';
import { trialDaysLeft, trialState } from './trial';

const now = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('trialDaysLeft', () => {
  it('counts ceil((end - now) / day) + 1', () => {
    expect(trialDaysLeft(now + 10 * ONE_DAY_MS, now)).toBe(11);
    expect(trialDaysLeft(now + 10 * ONE_DAY_MS + 1, now)).toBe(12);
    expect(trialDaysLeft(now + 1, now)).toBe(2);
  });

  it('is at least 1, even past the end', () => {
    expect(trialDaysLeft(now - 5 * ONE_DAY_MS, now)).toBe(1);
    expect(trialDaysLeft(now, now)).toBe(1);
  });

  it('never increases as time passes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -60, max: 60 }), fc.nat(ONE_DAY_MS * 3), (days, step) => {
        const end = now + days * ONE_DAY_MS;
        expect(trialDaysLeft(end, now + step)).toBeLessThanOrEqual(trialDaysLeft(end, now));
      }),
    );
  });
});

describe('trialState', () => {
  it('is none without a trial end', () => {
    expect(trialState({ trial_end_time: null, trial_expired: false }, now)).toEqual({ kind: 'none' });
  });
  it('is expired when flagged or past the end', () => {
    const end = new Date(now + ONE_DAY_MS).toISOString();
    expect(trialState({ trial_end_time: end, trial_expired: true }, now)).toEqual({ kind: 'expired' });
    expect(trialState({ trial_end_time: new Date(now - 1).toISOString(), trial_expired: false }, now)).toEqual({
      kind: 'expired',
    });
  });
  it('shows the days left while active', () => {
    const end = new Date(now + 3 * ONE_DAY_MS).toISOString();
    expect(trialState({ trial_end_time: end, trial_expired: false }, now)).toEqual({ kind: 'active', daysLeft: 4 });
  });
});
