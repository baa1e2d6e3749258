import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import {
  addConsecutiveFailure,
  clearFailures,
  countFailures,
  findUserForSignIn,
  recordFailure,
  resetConsecutiveFailures,
  type FailureKind,
} from './signin.store';

/**
 * Brute-force limits. Counted in the database, so every node of a cluster sees the same
 * numbers. The per-address limit stops one client trying many accounts; the per-account
 * limit stops many clients trying one account; the lock stops slow guessing for good.
 */
export const SIGNIN_LIMITS = {
  windowMinutes: 15,
  failuresPerAddress: 20,
  failuresPerAccount: 10,
  consecutiveFailuresToLock: 5,
} as const;

export type Credentials = { email: string; password: string };

/**
 * Reads `Authorization: Basic base64(email:password)`; null when absent or malformed. The
 * e-mail is split at the first colon (RFC 7617: the user-id has none), trimmed and
 * lower-cased; the password is kept exactly.
 */
export function parseBasicAuth(header: string | undefined): Credentials | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  return { email: decoded.slice(0, colon).trim().toLowerCase(), password: decoded.slice(colon + 1) };
}

function invalidCredentials(): AppError {
  return new AppError(AUTH_ERRORS.invalidCredentials.code, 401, AUTH_ERRORS.invalidCredentials.message);
}

async function assertUnderLimit(ctx: AppContext, kind: FailureKind, key: string, limit: number, now: Date) {
  const windowMs = SIGNIN_LIMITS.windowMinutes * ONE_MINUTE_MS;
  const { n, oldest } = await countFailures(ctx.db, kind, key, new Date(now.getTime() - windowMs));
  if (n < limit) return;
  // The count drops under the limit when the oldest failure in the window leaves it.
  const waitMs = Math.max(1000, (oldest ? oldest.getTime() + windowMs : now.getTime() + windowMs) - now.getTime());
  const minutes = Math.ceil(waitMs / ONE_MINUTE_MS);
  throw new AppError(AUTH_ERRORS.rateLimited.code, 429, AUTH_ERRORS.rateLimited.message(minutes), undefined, {
    'retry-after': String(Math.ceil(waitMs / 1000)),
  });
}

/**
 * Checks e-mail and password, enforcing the rate limits and the lock. Unknown e-mails,
 * wrong passwords and disabled users get the same 401 after the same amount of work.
 * A locked user gets 403, but only with the right password, so guessing reveals nothing.
 * @returns the user, for {@link createSession}.
 * @throws AppError 401 `auth.invalid_credentials`, 403 `auth.locked`, 429 `auth.rate_limited`.
 */
export async function verifyCredentials(ctx: AppContext, credentials: Credentials, meta: { ip: string }) {
  const now = ctx.clock.now();
  const email = credentials.email.trim().toLowerCase();
  await assertUnderLimit(ctx, 'ip', meta.ip, SIGNIN_LIMITS.failuresPerAddress, now);
  await assertUnderLimit(ctx, 'account', email, SIGNIN_LIMITS.failuresPerAccount, now);

  const user = await findUserForSignIn(ctx.db, email);
  const passwordOk = user?.passwordHash
    ? await verifyPassword(user.passwordHash, credentials.password)
    : await verifyAgainstDummy(credentials.password);

  if (!user || !passwordOk || user.status !== 'active') {
    const forgetBefore = new Date(now.getTime() - SIGNIN_LIMITS.windowMinutes * ONE_MINUTE_MS);
    const keys = [
      { kind: 'ip' as const, key: meta.ip },
      { kind: 'account' as const, key: email },
    ];
    await recordFailure(ctx.db, keys, now, forgetBefore);
    if (user && !passwordOk) {
      const after = await addConsecutiveFailure(ctx.db, user.id, SIGNIN_LIMITS.consecutiveFailuresToLock);
      if (after?.locked && !user.locked) ctx.logger.warn({ userId: user.id }, 'user locked after failed sign-ins');
    }
    throw invalidCredentials();
  }
  if (user.locked) throw new AppError(AUTH_ERRORS.locked.code, 403, AUTH_ERRORS.locked.message);

  await resetConsecutiveFailures(ctx.db, user.id);
  await clearFailures(ctx.db, 'account', email);
  return { id: user.id, accountId: user.accountId, isGlobalAdmin: user.accountRbacRole === 'global-admin' };
}
