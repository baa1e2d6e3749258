import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, BACKOFF_MIN_MS, backoffDelay, jitteredInterval } from './backoff.js';

describe('backoffDelay', () => {
  it('starts at one second and doubles', () => {
    expect(backoffDelay(0, () => 0.999)).toBeLessThanOrEqual(1_000);
    expect(backoffDelay(0, () => 0)).toBe(BACKOFF_MIN_MS);
    expect(backoffDelay(3, () => 0.999)).toBeLessThanOrEqual(8_000);
    expect(backoffDelay(3, () => 0)).toBe(4_000);
  });

  it('never exceeds 30 minutes, even after many failures', () => {
    for (const attempt of [20, 40, 1000]) {
      expect(backoffDelay(attempt, () => 0.999999)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
      expect(backoffDelay(attempt, () => 0)).toBe(BACKOFF_MAX_MS / 2);
    }
  });

  it('spreads retries (jitter) instead of a fixed delay', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(10)));
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe('jitteredInterval', () => {
  it('stays within ±10 % of the interval', () => {
    expect(jitteredInterval(60, () => 0)).toBe(54_000);
    expect(jitteredInterval(60, () => 0.999999)).toBeLessThanOrEqual(66_000);
    for (let i = 0; i < 100; i++) {
      const ms = jitteredInterval(60);
      expect(ms).toBeGreaterThanOrEqual(54_000);
      expect(ms).toBeLessThanOrEqual(66_000);
    }
  });
});
