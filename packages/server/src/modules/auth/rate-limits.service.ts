import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import {
  clearAttempts,
  countAttempts,
  recordAttemptUnderLimit,
  recordAttempts,
  type AttemptCount,
  type AttemptKind,
} from './rate-limits.store';

/** At most `limit` attempts of one kind and key within a sliding window of `windowMinutes`. */
export type RateLimit = {
  kind: AttemptKind;
  limit: number;
  windowMinutes: number;
  /** The 429 message, given the minutes until the next attempt is allowed. */
  message: (minutes: number) => string;
};

/**
 * Limits on authentication, counted in the database so every node of a cluster sees the
 * same numbers. Sign-in counts failures: per address (one client trying many accounts) and
 * per e-mail (many clients trying one account). Sign-up counts every attempt that passes
 * the schema, since each may cost an argon2 hash.
 */
export const RATE_LIMITS = {
  signInPerAddress: { kind: 'ip', limit: 20, windowMinutes: 15, message: AUTH_ERRORS.rateLimited.message },
  signInPerAccount: { kind: 'account', limit: 10, windowMinutes: 15, message: AUTH_ERRORS.rateLimited.message },
  signUpPerAddress: { kind: 'signup', limit: 10, windowMinutes: 60, message: AUTH_ERRORS.signUpRateLimited.message },
} as const satisfies Record<string, RateLimit>;

/** How long counted attempts matter: the longest window. Older rows are swept. */
export const ATTEMPT_RETENTION_MS = Math.max(...Object.values(RATE_LIMITS).map((r) => r.windowMinutes)) * ONE_MINUTE_MS;

const windowStart = (rule: RateLimit, now: Date) => new Date(now.getTime() - rule.windowMinutes * ONE_MINUTE_MS);

/** 429 `auth.rate_limited` with Retry-After: the count drops under the limit when the oldest attempt leaves the window. */
function rateLimited(rule: RateLimit, { oldest }: AttemptCount, now: Date): AppError {
  const windowMs = rule.windowMinutes * ONE_MINUTE_MS;
  const waitMs = Math.max(1000, (oldest ?? now).getTime() + windowMs - now.getTime());
  return new AppError(AUTH_ERRORS.rateLimited.code, 429, rule.message(Math.ceil(waitMs / ONE_MINUTE_MS)), undefined, {
    'retry-after': String(Math.ceil(waitMs / 1000)),
  });
}

/**
 * Throws unless `key` is under the limit; records nothing (sign-in records failures afterwards).
 * @throws AppError 429 `auth.rate_limited`.
 */
export async function assertUnderLimit(ctx: AppContext, rule: RateLimit, key: string, now: Date): Promise<void> {
  const counted = await countAttempts(ctx.db, rule.kind, key, windowStart(rule, now));
  if (counted.n >= rule.limit) throw rateLimited(rule, counted, now);
}

/**
 * Counts this attempt against the limit, atomically across concurrent requests and nodes.
 * A refused attempt is not counted, so waiting out Retry-After is enough.
 * @throws AppError 429 `auth.rate_limited`.
 */
export async function takeAttempt(ctx: AppContext, rule: RateLimit, key: string, now: Date): Promise<void> {
  const counted = await recordAttemptUnderLimit(
    ctx.db,
    { kind: rule.kind, key },
    now,
    windowStart(rule, now),
    rule.limit,
  );
  if (!counted.recorded) throw rateLimited(rule, counted, now);
}

/** Records a failed attempt under each rule's key. */
export async function recordFailures(
  ctx: AppContext,
  failures: { rule: RateLimit; key: string }[],
  now: Date,
): Promise<void> {
  await recordAttempts(
    ctx.db,
    failures.map((f) => ({ kind: f.rule.kind, key: f.key })),
    now,
  );
}

/** Forgets the counted attempts of a key (a successful sign-in clears its e-mail's failures). */
export async function clearLimit(ctx: AppContext, rule: RateLimit, key: string): Promise<void> {
  await clearAttempts(ctx.db, rule.kind, key);
}
