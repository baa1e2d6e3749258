import type { AppContext } from '../../context';
import { logAccountActivity } from '../activity/activity.service';
import { createSession, destroySession, type SessionUser } from './sessions.service';
import { addConsecutiveFailure, resetConsecutiveFailures } from './signin.store';
import { mailUnlockLink } from './unlock.service';

/**
 * Consecutive failed sign-ins lock a user for 15 minutes, doubled for each further lock
 * until a successful sign-in, at most a day: slow guessing stays slow, yet nobody who knows
 * an address can lock its owner out for good. The locked user gets an unlock link by e-mail.
 */
export const LOCKOUT = { lockAt: 5, firstLockS: 15 * 60, maxLockS: 24 * 60 * 60 } as const;

/** Who is signing in from where. */
export type SignInClient = {
  ip: string;
  userAgent: string | undefined;
  /** The session token the browser brought, if any: it ends, replaced by the new one. */
  previousToken: string | undefined;
  /** Where the unlock link points (http/link-origin.ts); null: no link can be mailed safely. */
  linkOrigin: string | null;
};

/** What finishing a sign-in needs of the user. */
export type SigningInUser = {
  id: number;
  accountId: number | null;
  accountRbacRole: string;
  email: string;
};

/** Writes a sign-in event of the user tried (an account-level event; none without an account). */
export async function logSignInEvent(
  ctx: AppContext,
  user: { id: number; accountId: number | null; email: string },
  clientAddress: string,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (!user.accountId) return;
  const actor = { userId: user.id, via: 'session' as const, clientAddress };
  await logAccountActivity(
    ctx,
    actor,
    user.accountId,
    action,
    { type: 'user', id: user.id, name: user.email },
    details,
  );
}

/**
 * The end of every successful sign-in, with or without a second factor: no failures and no
 * lock any more, the browser's previous session ends, a fresh one starts, `auth.signin` is logged.
 */
export async function completeSignIn(
  ctx: AppContext,
  user: SigningInUser,
  client: SignInClient,
  details: Record<string, unknown> = {},
): Promise<{ user: SessionUser; token: string }> {
  await resetConsecutiveFailures(ctx.db, user.id, ctx.clock.now());
  if (client.previousToken) await destroySession(ctx, client.previousToken);
  const session = await createSession(
    ctx,
    { id: user.id, accountId: user.accountId, isGlobalAdmin: user.accountRbacRole === 'global-admin' },
    { ip: client.ip, userAgent: client.userAgent },
  );
  await logSignInEvent(ctx, user, client.ip, 'auth.signin', details);
  return session;
}

/**
 * Locks the user now, as the password's lock does (15 minutes doubled per further lock, at
 * most a day) and mails the unlock link: for failures counted elsewhere (wrong second-factor codes).
 * @returns the lock's end, or null when the user was already locked.
 */
export async function lockNow(
  ctx: AppContext,
  user: { id: number; accountId: number | null; email: string; firstname: string },
  failures: number,
  linkOrigin: string | null,
): Promise<Date | null> {
  const until = await addConsecutiveFailure(ctx.db, user.id, { ...LOCKOUT, lockAt: 1 }, ctx.clock.now());
  if (until) {
    ctx.logger.warn({ userId: user.id, lockedUntil: until }, 'user locked after failed sign-in codes');
    await mailUnlockLink(ctx, user, until, failures, linkOrigin);
  }
  return until;
}
