import { MFA, MFA_TEXTS, type MfaFactorType, type TfaSetup } from '@patchwell/core/auth/mfa.schema';
import { ONE_MINUTE_MS, PRODUCT_NAME } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../domain/errors';
import { logAccountActivity, type ActivityActor } from '../activity/activity.service';
import { sendMail } from '../mail/mail.service';
import { decryptSecret, encryptSecret } from '../zones/access-key';
import { secretKey } from '../zones/secret-key';
import {
  checkTotp,
  codeHash,
  isSixDigits,
  newEmailCode,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  qrDataUrl,
  totpUri,
} from './codes';
import {
  acceptTotpStep,
  confirmFactor,
  findFactor,
  insertEmailCode,
  replaceRecoveryCodes,
  upsertPendingFactor,
  useEmailCode,
  useRecoveryCode,
  type FactorRow,
} from './mfa.store';

/** The user a factor belongs to, as the mails and the log name them. */
export type FactorUser = { id: number; accountId: number | null; email: string; firstname: string };

/** How a code was proved: the app, an e-mailed code, or a recovery code. */
export type CodeKind = MfaFactorType | 'recovery_code';

const userObject = (user: FactorUser) => ({ type: 'user', id: user.id, name: user.email });

/** Writes an MFA event of the user (account-level: MFA belongs to the user, not to one zone). */
export async function logMfaEvent(
  ctx: AppContext,
  actor: ActivityActor,
  user: FactorUser,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (user.accountId) await logAccountActivity(ctx, actor, user.accountId, action, userObject(user), details);
}

/**
 * Mails a 6-digit code that works once, for 10 minutes; earlier codes stop working. The
 * outbox copy belongs to no account, so no administrator reads a user's code there.
 */
export async function sendEmailCode(ctx: AppContext, user: FactorUser): Promise<void> {
  const now = ctx.clock.now();
  const code = newEmailCode();
  const key = await secretKey(ctx.config);
  await insertEmailCode(ctx.db, {
    userId: user.id,
    codeHash: codeHash(key, user.id, code),
    now,
    expiresAt: new Date(now.getTime() + MFA.emailCodeMinutes * ONE_MINUTE_MS),
  });
  const text = [
    user.firstname ? `Hello ${user.firstname},` : 'Hello,',
    '',
    `Your ${PRODUCT_NAME} code is: ${code}`,
    '',
    `It works once, for ${MFA.emailCodeMinutes} minutes. If you did not try to sign in, someone knows your`,
    'password: change it now.',
    '',
  ].join('\n');
  const { outboxId, state } = await sendMail(ctx, {
    accountId: null,
    to: user.email,
    subject: MFA_TEXTS.mailSubject(PRODUCT_NAME),
    text,
    secrets: [code],
  });
  ctx.logger.info({ userId: user.id, outboxId, state }, 'mfa code mailed');
}

async function totpSecretOf(ctx: AppContext, factor: FactorRow): Promise<string | undefined> {
  if (!factor.secretEncrypted) return undefined;
  return decryptSecret(factor.secretEncrypted, await secretKey(ctx.config));
}

/**
 * Checks a code against the user's factor and spends it: a TOTP step is accepted once (a
 * replay of the same step, or of an earlier one, is refused), an e-mailed or recovery code
 * works once. Recovery codes count only for a confirmed factor.
 * @returns how the code was proved, or null for a wrong, spent or expired code.
 */
export async function spendCode(ctx: AppContext, factor: FactorRow, code: string): Promise<CodeKind | null> {
  const now = ctx.clock.now();
  const key = await secretKey(ctx.config);
  if (isSixDigits(code)) {
    if (factor.type === 'google') {
      const secret = await totpSecretOf(ctx, factor);
      const step = secret ? await checkTotp(secret, code, now, factor.lastTotpStep) : null;
      return step !== null && (await acceptTotpStep(ctx.db, factor.userId, step)) ? 'google' : null;
    }
    return (await useEmailCode(ctx.db, factor.userId, codeHash(key, factor.userId, code), now)) ? 'email' : null;
  }
  if (!factor.confirmedAt) return null;
  const hash = codeHash(key, factor.userId, normaliseRecoveryCode(code));
  return (await useRecoveryCode(ctx.db, factor.userId, hash, now)) ? 'recovery_code' : null;
}

/**
 * Starts an enrolment (a pending factor, replacing an earlier pending one): for an app, a new
 * secret with its QR code; for e-mail, a code mailed to confirm with.
 * @throws AppError 409 `mfa.already_enabled` when the user has a confirmed factor.
 */
export async function startEnrolment(ctx: AppContext, user: FactorUser, type: MfaFactorType): Promise<TfaSetup> {
  const now = ctx.clock.now();
  if (type === 'google') {
    const { secret, uri } = newTotpSecret(user.email);
    const sealed = encryptSecret(secret, await secretKey(ctx.config));
    if (!(await upsertPendingFactor(ctx.db, { userId: user.id, type, secretEncrypted: sealed, now }))) {
      throw new AppError('mfa.already_enabled');
    }
    return { type, secret, otpauth_url: uri, qr_code: await qrDataUrl(uri) };
  }
  if (!(await upsertPendingFactor(ctx.db, { userId: user.id, type, secretEncrypted: null, now }))) {
    throw new AppError('mfa.already_enabled');
  }
  await sendEmailCode(ctx, user);
  return { type, sent_to: user.email };
}

/** The pending app enrolment's secret and QR code again (a reload of the page). */
export async function pendingSetup(ctx: AppContext, factor: FactorRow, email: string): Promise<TfaSetup | null> {
  const secret = await totpSecretOf(ctx, factor);
  if (factor.type !== 'google' || !secret) return null;
  const uri = totpUri(secret, email);
  return { type: 'google', secret, otpauth_url: uri, qr_code: await qrDataUrl(uri) };
}

/** New recovery codes for the user: the plain ones to show once, and their stored hashes. */
export async function newRecoveryCodeSet(
  ctx: AppContext,
  userId: number,
): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = newRecoveryCodes();
  const key = await secretKey(ctx.config);
  return { codes, hashes: codes.map((c) => codeHash(key, userId, normaliseRecoveryCode(c))) };
}

/**
 * Confirms the pending enrolment with a first code from the app or the mail: MFA is on and
 * the user gets 10 recovery codes, shown this once. Logs `user.mfa_enable`.
 * @throws AppError 409 `mfa.already_enabled`, `mfa.no_setup`; 401 `mfa.invalid_code`.
 */
export async function confirmEnrolment(
  ctx: AppContext,
  actor: ActivityActor,
  user: FactorUser,
  code: string,
): Promise<string[]> {
  const factor = await findFactor(ctx.db, user.id);
  if (factor?.confirmedAt) throw new AppError('mfa.already_enabled');
  if (!factor) throw new AppError('mfa.no_setup');
  if (!(await spendCode(ctx, factor, code))) throw new AppError('mfa.invalid_code');
  const { codes, hashes } = await newRecoveryCodeSet(ctx, user.id);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    if (!(await confirmFactor(tx, user.id, now))) throw new AppError('mfa.no_setup');
    await replaceRecoveryCodes(tx, user.id, hashes, now);
    if (user.accountId) {
      await logAccountActivity(
        ctx,
        actor,
        user.accountId,
        'user.mfa_enable',
        userObject(user),
        { type: factor.type },
        tx,
      );
    }
  });
  ctx.logger.info({ userId: user.id, type: factor.type }, 'mfa enabled');
  return codes;
}
