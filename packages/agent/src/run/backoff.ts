/**
 * Exponential backoff with "full jitter" (AWS architecture blog): the n-th retry waits a
 * random time in [base·2^n / 2, base·2^n], capped, so a fleet that lost its server does not
 * come back in lockstep.
 */
export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 30 * 60_000;

/** Delay before retry number `attempt` (0-based). `random` returns [0, 1). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(attempt, 31));
  const half = ceiling / 2;
  return Math.max(BACKOFF_MIN_MS, Math.round(half + random() * half));
}

/** The check-in interval with ±10 % jitter. */
export function jitteredInterval(intervalS: number, random: () => number = Math.random): number {
  const ms = Math.max(1, intervalS) * 1000;
  return Math.round(ms * (0.9 + random() * 0.2));
}

/** The longest `Retry-After` honoured: a server asking for more is retried sooner anyway. */
export const RETRY_AFTER_MAX_MS = 5 * 60_000;

/**
 * Delay before retry number `attempt` after a failure the server may have timed with
 * `Retry-After`: the longer of the backoff and the server's wish (capped), so neither a
 * restarting server's hint nor the fleet's spread is lost.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | null | undefined,
  random: () => number = Math.random,
  maxBackoffMs: number = BACKOFF_MAX_MS,
): number {
  const backoff = Math.min(maxBackoffMs, backoffDelay(attempt, random));
  return Math.max(backoff, Math.min(RETRY_AFTER_MAX_MS, retryAfterMs ?? 0));
}
