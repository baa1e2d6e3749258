import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../domain/errors';
import { deleteAttempts, recordAttemptsUnderLimits, type AttemptCount, type AttemptKind } from './rate-limits.store';

/** At most `limit` attempts of one kind and key within a sliding window of `windowMinutes`. */
export type RateLimit = {
  kind: AttemptKind;
  limit: number;
  windowMinutes: number;
  /** The 429's catalogue entry, worded with the minutes until the next attempt is allowed. */
  error: 'auth.sign_in_rate_limited' | 'auth.sign_up_rate_limited' | 'auth.link_rate_limited';
};

/**
 * Limits on authentication, counted in the database so every node of a cluster sees the
 * same numbers. Sign-in counts failures: per address (one client trying many accounts) and
 * per e-mail (many clients trying one account). Sign-up counts every attempt that passes
 * the schema, since each may cost an argon2 hash. Mailed links count every request, per
 * address and per e-mail, so nobody can flood a mailbox.
 */
export const RATE_LIMITS = {
  signInPerAddress: { kind: 'ip', limit: 20, windowMinutes: 15, error: 'auth.sign_in_rate_limited' },
  signInPerAccount: { kind: 'account', limit: 10, windowMinutes: 15, error: 'auth.sign_in_rate_limited' },
  signUpPerAddress: { kind: 'signup', limit: 10, windowMinutes: 60, error: 'auth.sign_up_rate_limited' },
  /** Mailed links (password reset, verification resend): each request may send a mail. */
  linkPerAddress: { kind: 'link_ip', limit: 10, windowMinutes: 60, error: 'auth.link_rate_limited' },
  linkPerEmail: { kind: 'link_email', limit: 3, windowMinutes: 60, error: 'auth.link_rate_limited' },
} as const satisfies Record<string, RateLimit>;

/** How long counted attempts matter: the longest window. Older rows are swept. */
export const ATTEMPT_RETENTION_MS = Math.max(...Object.values(RATE_LIMITS).map((r) => r.windowMinutes)) * ONE_MINUTE_MS;

/** Attempts counted by {@link takeAttempts}; {@link releaseAttempts} un-counts exactly these. */
export type Reservation = { ids: number[] };

const windowStart = (rule: RateLimit, now: Date) => new Date(now.getTime() - rule.windowMinutes * ONE_MINUTE_MS);

/** 429 `auth.rate_limited` with Retry-After: the count drops under the limit when the oldest attempt leaves the window. */
function rateLimited(rule: RateLimit, { oldest }: AttemptCount, now: Date): AppError {
  const windowMs = rule.windowMinutes * ONE_MINUTE_MS;
  const waitMs = Math.max(1000, (oldest ?? now).getTime() + windowMs - now.getTime());
  return new AppError(rule.error, {
    wording: { minutes: Math.ceil(waitMs / ONE_MINUTE_MS) },
    headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  });
}

/**
 * Counts this attempt against every given limit, atomically across concurrent requests and
 * nodes, before the work it guards. When one limit is reached nothing is counted (so waiting
 * out Retry-After is enough), and the 429 is that of the first such limit.
 * @throws AppError 429 `auth.rate_limited`.
 */
export async function takeAttempts(
  ctx: AppContext,
  attempts: { rule: RateLimit; key: string }[],
  now: Date,
): Promise<Reservation> {
  const result = await recordAttemptsUnderLimits(
    ctx.db,
    attempts.map(({ rule, key }) => ({ kind: rule.kind, key, since: windowStart(rule, now), limit: rule.limit })),
    now,
  );
  if (!result.recorded) throw rateLimited(attempts[result.refused]!.rule, result.count, now);
  return { ids: result.ids };
}

/** Un-counts the attempts of a reservation (a successful sign-in is no failure); other attempts of the keys stay. */
export async function releaseAttempts(ctx: AppContext, reservation: Reservation): Promise<void> {
  await deleteAttempts(ctx.db, reservation.ids);
}
