import {
  PASSWORD_RESET_TEXTS,
  VERIFICATION_LINK_HOURS,
  type VerifyEmailResult,
} from '@patchwell/core/auth/password-reset.schema';
import { ONE_HOUR_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../domain/errors';
import { logAccountActivity } from '../activity/activity.service';
import { sendMail } from '../mail/mail.service';
import { verificationMail } from './auth-mails';
import { consoleLink, linkTokenHash, newLinkToken, sendMailInBackground, type LinkClient } from './mailed-links';
import { RATE_LIMITS, takeAttempts } from './rate-limits.service';
import { findUserForLink, insertUserToken, markEmailVerified, spendToken } from './user-tokens.store';

/** Where sign-up sends the browser: the login page says to check the mailbox (spec A sections 2 and 8). */
export const VERIFICATION_REDIRECT = '/login?err=verification_email_sent';

type Unverified = { id: number; accountId: number | null; email: string; firstname: string };

/**
 * Stores a new verification link for the user (superseding earlier ones) and builds its
 * mail. The link works once, for {@link VERIFICATION_LINK_HOURS} hours: long enough for a
 * mail that waits in a queue or a weekend, short enough that an old mailbox leak is harmless.
 */
async function newVerificationMail(ctx: AppContext, user: Unverified, origin: string) {
  const now = ctx.clock.now();
  const { token, hash } = newLinkToken();
  const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_HOURS * ONE_HOUR_MS);
  await insertUserToken(ctx.db, {
    userId: user.id,
    purpose: 'email_verification',
    tokenHash: hash,
    createdAt: now,
    expiresAt,
  });
  const link = consoleLink(origin, 'verify-email', token);
  return {
    accountId: user.accountId,
    to: user.email,
    ...verificationMail({ firstname: user.firstname, link, expiresAt }),
    secrets: [token],
  };
}

/** After sign-up: mails the new user the verification link (awaited; sign-up reveals the address anyway). */
export async function mailVerificationLink(ctx: AppContext, user: Unverified, origin: string | null): Promise<void> {
  if (origin === null) {
    ctx.logger.warn(
      { userId: user.id },
      'no verification link mailed: set PATCHWELL_PUBLIC_URL (the sign-up came to an address that is not loopback)',
    );
    return;
  }
  const { outboxId, state } = await sendMail(ctx, await newVerificationMail(ctx, user, origin));
  ctx.logger.info({ userId: user.id, outboxId, state }, 'verification link mailed to a new sign-up');
}

/**
 * `POST /api/users/verification-email {email}` (public): a new link for an account waiting for
 * verification. The same answer, after the same work, for any address.
 * @throws AppError 429 `auth.rate_limited` per client address and per e-mail.
 */
export async function resendVerification(ctx: AppContext, email: string, client: LinkClient) {
  await takeAttempts(
    ctx,
    [
      { rule: RATE_LIMITS.linkPerAddress, key: client.ip },
      { rule: RATE_LIMITS.linkPerEmail, key: email },
    ],
    ctx.clock.now(),
  );
  const user = await findUserForLink(ctx.db, email);
  if (user && !user.emailVerified && user.status === 'active' && client.linkOrigin !== null) {
    sendMailInBackground(ctx, await newVerificationMail(ctx, user, client.linkOrigin), 'verification link');
    if (user.accountId) {
      const actor = { userId: user.id, via: 'session' as const, clientAddress: client.ip };
      const object = { type: 'user', id: user.id, name: user.email };
      await logAccountActivity(ctx, actor, user.accountId, 'user.verification_resent', object);
    }
  }
  return { message: PASSWORD_RESET_TEXTS.verificationResent };
}

/**
 * `POST /api/users/verify-email {token}` (public; the mailed token is the proof): marks the
 * address proven, so the user can sign in.
 * @throws AppError 410 `auth.verification_link_expired` for an unknown, used, superseded or expired link.
 */
export async function verifyEmail(ctx: AppContext, token: string, clientAddress: string): Promise<VerifyEmailResult> {
  const now = ctx.clock.now();
  const user = await ctx.db.transaction(async (tx) => {
    const userId = await spendToken(tx, linkTokenHash(token), 'email_verification', now);
    if (userId === undefined) throw new AppError('auth.verification_link_expired');
    const verified = await markEmailVerified(tx, userId);
    if (verified.accountId) {
      const actor = { userId, via: 'session' as const, clientAddress };
      const object = { type: 'user', id: userId, name: verified.email };
      await logAccountActivity(ctx, actor, verified.accountId, 'user.email_verified', object, {}, tx);
    }
    return verified;
  });
  ctx.logger.info({ userId: user.id }, 'e-mail address verified');
  return { email: user.email };
}
