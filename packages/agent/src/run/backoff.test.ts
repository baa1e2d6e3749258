import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../api/client.js';
import { BACKOFF_MAX_MS, BACKOFF_MIN_MS, backoffDelay, jitteredInterval, retryDelay } from './backoff.js';

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

describe('retryDelay and Retry-After', () => {
  it('takes the longer of the backoff and the server’s Retry-After, capped', () => {
    expect(retryDelay(0, null, () => 0)).toBe(BACKOFF_MIN_MS);
    expect(retryDelay(0, 5_000, () => 0)).toBe(5_000);
    expect(retryDelay(4, 5_000, () => 0)).toBe(8_000);
    expect(retryDelay(0, 24 * 3_600_000, () => 0)).toBe(5 * 60_000);
    expect(retryDelay(20, null, () => 0.999, 2_000)).toBe(2_000);
  });

  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('5')).toBe(5_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:00:10 GMT', Date.parse('2026-11-25T12:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
