import { describe, expect, it } from 'vitest';
import { meetsTier, tierRank } from './tiers';

const now = Date.UTC(2026, 10, 21);
const future = new Date(now + 86_400_000).toISOString();
const past = new Date(now - 86_400_000).toISOString();

describe('tierRank', () => {
  it('ranks patch 1, manage 2, tier3 3', () => {
    expect(tierRank('patch')).toBe(1);
    expect(tierRank('manage')).toBe(2);
    expect(tierRank('tier3')).toBe(3);
  });
  it('understands the upper-case keys BASIC, FULL and TIER3', () => {
    expect(tierRank('BASIC')).toBe(1);
    expect(tierRank('FULL')).toBe(2);
    expect(tierRank('TIER3')).toBe(3);
  });
  it('ranks unknown or missing plans 0', () => {
    expect(tierRank('gold')).toBe(0);
    expect(tierRank(null)).toBe(0);
  });
});

describe('meetsTier', () => {
  it('lets an unexpired trial qualify whatever its plan', () => {
    expect(meetsTier({ plan: 'patch', trial_end_time: future, trial_expired: false }, 3, now)).toBe(true);
  });
  it('falls back to the plan rank when the trial expired', () => {
    expect(meetsTier({ plan: 'patch', trial_end_time: past, trial_expired: false }, 3, now)).toBe(false);
    expect(meetsTier({ plan: 'patch', trial_end_time: future, trial_expired: true }, 3, now)).toBe(false);
    expect(meetsTier({ plan: 'tier3', trial_end_time: past, trial_expired: true }, 3, now)).toBe(true);
  });
  it('requires the plan rank to reach the tier', () => {
    expect(meetsTier({ plan: 'manage', trial_end_time: null, trial_expired: false }, 2, now)).toBe(true);
    expect(meetsTier({ plan: 'manage', trial_end_time: null, trial_expired: false }, 3, now)).toBe(false);
  });
});
