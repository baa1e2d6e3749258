import type { AppContext } from '../../context';
import { AppError } from '../../domain/errors';
import { startSecondFactor } from '../mfa/challenge.service';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { RATE_LIMITS, releaseAttempts, takeAttempts } from './rate-limits.service';
import type { SessionUser } from './sessions.service';
import { completeSignIn, LOCKOUT, logSignInEvent, type SignInClient } from './signin-complete.service';
import { addConsecutiveFailure, findUserForSignIn } from './signin.store';
import { mailUnlockLink } from './unlock.service';

export { LOCKOUT, type SignInClient } from './signin-complete.service';

export type Credentials = { email: string; password: string };

/**
 * What a right password leads to: a session, or the second-factor step (`verify`: a code is
 * needed; `enrol`: a requirement asks the user to enrol first), with the token of the
 * pending challenge for its cookie. No session exists until that step is done.
 */
export type SignInResult =
  | { kind: 'session'; user: SessionUser; token: string }
  | { kind: 'second_factor'; purpose: 'verify' | 'enrol'; challengeToken: string };

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
  return new AppError('auth.invalid_credentials');
}

/**
 * Signs in with e-mail and password and starts a new session, ending the one the browser
 * brought. Unknown e-mails, wrong passwords and disabled users get the same 401 after the
 * same amount of work. A locked user gets 403 (with the minutes left), but only with the
 * right password, so guessing reveals nothing; an expired lock no longer counts.
 *
 * Each attempt is counted against the per-address and per-e-mail limits before the
 * password is checked, so a burst of simultaneous guesses cannot all pass the limit; the
 * right password then un-counts its own attempt (and only that one: other attempts of the
 * address or e-mail, finished or in flight, stay counted).
 * With the right password, a user with MFA (or under a requirement to have it) gets no
 * session yet but the second-factor step (modules/mfa/challenge.service.ts).
 * @returns the signed-in user and the raw session token for the cookie, or the pending second-factor step.
 * @throws AppError 401 `auth.invalid_credentials`, 403 `auth.locked` or `auth.email_unverified`, 429 `auth.rate_limited`.
 */
export async function signIn(ctx: AppContext, credentials: Credentials, client: SignInClient): Promise<SignInResult> {
  const now = ctx.clock.now();
  const email = credentials.email.trim().toLowerCase();
  const reservation = await takeAttempts(
    ctx,
    [
      { rule: RATE_LIMITS.signInPerAddress, key: client.ip },
      { rule: RATE_LIMITS.signInPerAccount, key: email },
    ],
    now,
  );

  const user = await findUserForSignIn(ctx.db, email);
  const passwordOk = user?.passwordHash
    ? await verifyPassword(user.passwordHash, credentials.password)
    : await verifyAgainstDummy(credentials.password);

  // Sign-ins are account-level events of the user tried; an unknown address has no account
  // to log under, and what was typed as an address (perhaps a password) is never stored.
  const logSignIn = async (action: string, details: Record<string, unknown> = {}) => {
    if (user) await logSignInEvent(ctx, user, client.ip, action, details);
  };

  if (!user || !passwordOk || user.status !== 'active') {
    // A failure: the attempt stays counted.
    let lockedUntil: Date | null = null;
    if (user && !passwordOk) {
      lockedUntil = await addConsecutiveFailure(ctx.db, user.id, LOCKOUT, now);
      if (lockedUntil) {
        ctx.logger.warn({ userId: user.id, lockedUntil }, 'user locked after failed sign-ins');
        if (user.status === 'active') await mailUnlockLink(ctx, user, lockedUntil, LOCKOUT.lockAt, client.linkOrigin);
      }
    }
    await logSignIn('auth.signin_failed', {
      reason: passwordOk ? `user ${user?.status}` : 'wrong password',
      ...(lockedUntil ? { locked_until: lockedUntil.toISOString() } : {}),
    });
    throw invalidCredentials();
  }
  // The right password is no failed guess, even for a locked user (who keeps getting 403, not 429).
  await releaseAttempts(ctx, reservation);
  const lockLeftMs = user.locked ? (user.lockedUntil?.getTime() ?? Infinity) - now.getTime() : 0;
  if (lockLeftMs > 0) {
    const minutes = Number.isFinite(lockLeftMs) ? Math.ceil(lockLeftMs / 60_000) : LOCKOUT.maxLockS / 60;
    await logSignIn('auth.signin_failed', { reason: 'locked' });
    throw new AppError('auth.locked', { wording: { minutes } });
  }
  // A sign-up that has not followed its verification link (told only to whoever knows the password).
  if (!user.emailVerified) {
    await logSignIn('auth.signin_failed', { reason: 'email not verified' });
    throw new AppError('auth.email_unverified');
  }

  const step = await startSecondFactor(ctx, user.id);
  if (step) {
    await logSignIn('auth.signin_second_factor', { step: step.purpose });
    return { kind: 'second_factor', purpose: step.purpose, challengeToken: step.token };
  }
  return { kind: 'session', ...(await completeSignIn(ctx, user, client)) };
}
