import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import {
  PASSWORD_RESET_LINK_MINUTES,
  PASSWORD_RESET_TEXTS,
  type PasswordResetBody,
  type PasswordResetDone,
  type PasswordResetRequested,
  type PasswordResetTokenState,
} from '@patchwell/core/auth/password-reset.schema';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError, validationError } from '../../domain/errors';
import { logAccountActivity } from '../activity/activity.service';
import { sendMail } from '../mail/mail.service';
import { passwordChangedMail, passwordResetMail } from './auth-mails';
import { consoleLink, linkTokenHash, newLinkToken, sendMailInBackground, type LinkClient } from './mailed-links';
import { hashPassword, isCommonPassword } from './passwords';
import { RATE_LIMITS, takeAttempts } from './rate-limits.service';
import { deleteUserSessions } from './sessions.store';
import {
  findLiveToken,
  findUserForLink,
  insertUserToken,
  setPasswordAfterReset,
  spendToken,
} from './user-tokens.store';

const actorOf = (userId: number, clientAddress: string) => ({ userId, via: 'session' as const, clientAddress });

/**
 * `POST /api/passwordReset {email}` (public): mails the account's user a single-use link,
 * valid for an hour, that sets a new password; a newer link supersedes it. The answer is the
 * same, after the same work (a rate-limit count and one lookup), whether or not the address
 * has an account, and the mail leaves in the background. Users who cannot sign in anyway
 * (disabled, invited and not yet accepted) get no link.
 * @throws AppError 429 `auth.rate_limited` per client address and per e-mail.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  client: LinkClient,
): Promise<PasswordResetRequested> {
  const now = ctx.clock.now();
  await takeAttempts(
    ctx,
    [
      { rule: RATE_LIMITS.linkPerAddress, key: client.ip },
      { rule: RATE_LIMITS.linkPerEmail, key: email },
    ],
    now,
  );
  const user = await findUserForLink(ctx.db, email);
  const { token, hash } = newLinkToken();
  if (user?.status === 'active' && client.linkOrigin !== null) {
    const expiresAt = new Date(now.getTime() + PASSWORD_RESET_LINK_MINUTES * ONE_MINUTE_MS);
    await insertUserToken(ctx.db, {
      userId: user.id,
      purpose: 'password_reset',
      tokenHash: hash,
      createdAt: now,
      expiresAt,
    });
    const link = consoleLink(client.linkOrigin, 'password-reset', token);
    const mail = passwordResetMail({ firstname: user.firstname, link, expiresAt });
    sendMailInBackground(
      ctx,
      { accountId: user.accountId, to: user.email, ...mail, secrets: [token] },
      'password reset link',
    );
    if (user.accountId) {
      await logAccountActivity(ctx, actorOf(user.id, client.ip), user.accountId, 'user.password_reset_requested', {
        type: 'user',
        id: user.id,
        name: user.email,
      });
    }
  } else if (user && client.linkOrigin === null) {
    ctx.logger.warn(
      { userId: user.id },
      'no reset link mailed: set PATCHWELL_PUBLIC_URL (the request was not to loopback)',
    );
  }
  return { message: PASSWORD_RESET_TEXTS.requested };
}

/**
 * `GET /api/passwordReset?token=` (public): whether the link still works, so the page shows
 * its form or says why not. Reads only.
 * @throws AppError 410 `auth.reset_link_expired` for an unknown, used, superseded or expired link.
 */
export async function checkPasswordResetToken(ctx: AppContext, token: string): Promise<PasswordResetTokenState> {
  const found = await findLiveToken(ctx.db, linkTokenHash(token), 'password_reset', ctx.clock.now());
  if (!found || found.status !== 'active') throw new AppError('auth.reset_link_expired');
  return { valid: true, email: found.email };
}

/**
 * `POST /api/passwordReset {token, password, password_confirmation}` (public; the token is
 * the proof): sets the new password, spends the link, lifts any sign-in lock and ends every
 * session of the user, in one transaction; then mails a notice that the password changed.
 * @throws AppError 400 for a too-common password, 410 `auth.reset_link_expired`.
 */
export async function resetPassword(
  ctx: AppContext,
  body: PasswordResetBody,
  clientAddress: string,
): Promise<PasswordResetDone> {
  if (isCommonPassword(body.password)) throw validationError({ password: [COMMON_PASSWORD_MESSAGE] });
  const tokenHash = linkTokenHash(body.token);
  const gone = () => new AppError('auth.reset_link_expired');
  // Refuse a dead link before spending ~85 ms on a hash.
  const live = await findLiveToken(ctx.db, tokenHash, 'password_reset', ctx.clock.now());
  if (!live || live.status !== 'active') throw gone();
  const passwordHash = await hashPassword(body.password);
  const now = ctx.clock.now();
  const done = await ctx.db.transaction(async (tx) => {
    const userId = await spendToken(tx, tokenHash, 'password_reset', now);
    if (userId === undefined) throw gone();
    const user = await setPasswordAfterReset(tx, userId, passwordHash, now);
    if (!user) throw gone();
    const sessionsEnded = await deleteUserSessions(tx, userId);
    if (user.accountId) {
      const object = { type: 'user', id: user.id, name: user.email };
      await logAccountActivity(
        ctx,
        actorOf(user.id, clientAddress),
        user.accountId,
        'user.password_reset',
        object,
        {
          sessions_ended: sessionsEnded,
          with: 'mailed link',
        },
        tx,
      );
    }
    return { user, sessionsEnded };
  });
  const { user, sessionsEnded } = done;
  ctx.logger.info({ userId: user.id, sessionsEnded }, 'password reset with the mailed link');
  const notice = passwordChangedMail({ firstname: user.firstname, at: now, sessionsEnded });
  await sendMail(ctx, { accountId: user.accountId, to: user.email, ...notice });
  return { email: user.email, sessions_ended: sessionsEnded };
}
