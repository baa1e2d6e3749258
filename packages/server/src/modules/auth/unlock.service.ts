import { randomBytes } from 'node:crypto';
import { UNLOCK_TEXTS, type UnlockAccountResult } from '@patchwell/core/auth/unlock.schema';
import { PRODUCT_NAME } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../domain/errors';
import { logAccountActivity } from '../activity/activity.service';
import { sendMail } from '../mail/mail.service';
import { setUnlockToken, useUnlockToken } from './signin.store';
import { sha256Hex } from '../../domain/sha256';

/** The stored form of a token: its sha256, so the table alone unlocks no one. */
const tokenHashOf = (token: string) => sha256Hex(token);

/** The unlock link under `origin` (`PATCHWELL_PUBLIC_URL`, or a loopback origin: http/link-origin.ts). */
export function unlockLink(origin: string, token: string): string {
  return `${origin}/console/unlock?token=${encodeURIComponent(token)}`;
}

/** The unlock e-mail as text: no HTML, the link is the only thing to click. */
export function unlockMail(input: { firstname: string; link: string; until: Date; failures: number }) {
  const greeting = input.firstname ? `Hello ${input.firstname},` : 'Hello,';
  const text = [
    greeting,
    '',
    `Your ${PRODUCT_NAME} account was locked after ${input.failures} failed sign-ins in a row.`,
    `It unlocks by itself at ${input.until.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    '',
    `If it was you, unlock it now: ${input.link}`,
    '',
    'The link works once, until the lock ends. If it was not you, someone may be guessing your',
    'password: nothing needs doing, but consider choosing a stronger one after you sign in.',
    '',
  ].join('\n');
  return { subject: UNLOCK_TEXTS.mailSubject(PRODUCT_NAME), text };
}

/**
 * Mails a locked user a single-use link that lifts the lock, valid until the lock would end;
 * it replaces any earlier link. Without a mail relay the message waits in the outbox. Without
 * an origin to trust (no PATCHWELL_PUBLIC_URL, and the sign-in did not come to loopback) no
 * link is mailed: the lock still ends by itself, and an administrator can lift it.
 */
export async function mailUnlockLink(
  ctx: AppContext,
  user: { id: number; accountId: number | null; email: string; firstname: string },
  until: Date,
  failures: number,
  origin: string | null,
): Promise<void> {
  if (origin === null) {
    ctx.logger.warn(
      { userId: user.id },
      'no unlock link mailed: set PATCHWELL_PUBLIC_URL (the sign-in came to an address that is not loopback)',
    );
    return;
  }
  const token = randomBytes(32).toString('base64url');
  await setUnlockToken(ctx.db, user.id, tokenHashOf(token), until);
  const mail = unlockMail({ firstname: user.firstname, link: unlockLink(origin, token), until, failures });
  const { outboxId, state } = await sendMail(ctx, {
    accountId: user.accountId,
    to: user.email,
    ...mail,
    secrets: [token],
  });
  ctx.logger.info({ userId: user.id, outboxId, state }, 'unlock link mailed to a locked user');
}

/**
 * `POST /api/users/unlock` (public; the mailed token is the proof): lifts the user's lock.
 * @throws AppError 410 `auth.unlock_expired` for an unknown, used, replaced or expired token.
 */
export async function unlockWithToken(
  ctx: AppContext,
  token: string,
  clientAddress: string,
): Promise<UnlockAccountResult> {
  const user = await useUnlockToken(ctx.db, tokenHashOf(token), ctx.clock.now());
  if (!user) throw new AppError('auth.unlock_expired');
  ctx.logger.info({ userId: user.id }, 'user unlocked with the mailed link');
  if (user.accountId) {
    const actor = { userId: user.id, via: 'session' as const, clientAddress };
    const object = { type: 'user', id: user.id, name: user.email };
    await logAccountActivity(ctx, actor, user.accountId, 'user.unlock', object, { with: 'mailed link' });
  }
  return { email: user.email };
}
