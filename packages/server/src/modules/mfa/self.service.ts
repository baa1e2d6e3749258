import type { MfaFactorType, RecoveryCodes, TfaSetup, TfaStatus } from '@patchwell/core/auth/mfa.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { AppError } from '../../domain/errors';
import { logAccountActivity } from '../activity/activity.service';
import { featuresFor } from '../shell/shell.service';
import {
  newRecoveryCodeSet,
  pendingSetup,
  sendEmailCode,
  spendCode,
  startEnrolment,
  confirmEnrolment,
  type FactorUser,
} from './factor.service';
import { countRecoveryCodesLeft, deleteFactor, findFactor, findFactorUser, replaceRecoveryCodes } from './mfa.store';
import { isMfaRequired } from './requirement.service';

/**
 * The signed-in user's own second factor (the profile's MFA section). Each route acts on
 * the caller alone, so the decision is `authz.allow`; API keys are refused by the routes
 * (a leaked key must not turn its owner's MFA off).
 */

async function me(ctx: AppContext, authz: Authz, why: string): Promise<FactorUser> {
  authz.allow(why);
  const user = await findFactorUser(ctx.db, authz.userId);
  if (!user) throw new AppError('auth.session_expired');
  return user;
}

/** The flag holds when the account sets it, or zone `o` does: a zone cannot switch off its account's rule. */
async function codeRequired(ctx: AppContext, user: FactorUser, zoneId: number | undefined): Promise<boolean> {
  const account = await featuresFor(ctx, user.accountId, null);
  if (account.require_code_to_disable_mfa || zoneId === undefined) return account.require_code_to_disable_mfa;
  return (await featuresFor(ctx, user.accountId, zoneId)).require_code_to_disable_mfa;
}

/** `GET /api/users/self/tfa`. */
export async function getOwnTfa(ctx: AppContext, authz: Authz, zoneId: number | undefined): Promise<TfaStatus> {
  const user = await me(ctx, authz, 'a user reads their own second factor');
  const factor = await findFactor(ctx.db, user.id);
  return {
    tfa_type: factor?.confirmedAt ? factor.type : 'disabled',
    recovery_codes_left: factor?.confirmedAt ? await countRecoveryCodesLeft(ctx.db, user.id) : 0,
    required: await isMfaRequired(ctx, user.id),
    code_required_to_disable: await codeRequired(ctx, user, zoneId),
  };
}

/** `POST /api/users/self/tfa/setup`: starts enrolling the caller (app: secret + QR; e-mail: a code mailed). */
export async function setupOwnTfa(ctx: AppContext, authz: Authz, type: MfaFactorType): Promise<TfaSetup> {
  const user = await me(ctx, authz, 'a user enrols their own second factor');
  return startEnrolment(ctx, user, type);
}

/** `GET /api/users/self/tfa/setup`: the pending app enrolment again (after a reload); 409 `mfa.no_setup` otherwise. */
export async function getOwnPendingSetup(ctx: AppContext, authz: Authz): Promise<TfaSetup> {
  const user = await me(ctx, authz, 'a user reads their own pending enrolment');
  const factor = await findFactor(ctx.db, user.id);
  if (factor?.confirmedAt) throw new AppError('mfa.already_enabled');
  const setup = factor ? await pendingSetup(ctx, factor, user.email) : null;
  if (!setup) throw new AppError('mfa.no_setup');
  return setup;
}

/** `POST /api/users/self/tfa/confirm`: the first code turns MFA on; the recovery codes are shown once. */
export async function confirmOwnTfa(ctx: AppContext, authz: Authz, code: string): Promise<RecoveryCodes> {
  const user = await me(ctx, authz, 'a user confirms their own second factor');
  return { recovery_codes: await confirmEnrolment(ctx, authz, user, code) };
}

/** `POST /api/users/self/tfa/send-code`: mails an e-mail-type user a code (to turn MFA off or regenerate codes). */
export async function sendOwnCode(ctx: AppContext, authz: Authz): Promise<void> {
  const user = await me(ctx, authz, 'a user asks for their own code');
  const factor = await findFactor(ctx.db, user.id);
  if (!factor?.confirmedAt) throw new AppError('mfa.not_enabled');
  if (factor.type !== 'email') throw new AppError('mfa.not_email_type');
  await sendEmailCode(ctx, user);
}

/** A current code when the flag asks for one; it is spent. */
async function checkCurrentCode(
  ctx: AppContext,
  user: FactorUser,
  code: string | undefined,
  zoneId: number | undefined,
): Promise<void> {
  const factor = await findFactor(ctx.db, user.id);
  if (!factor?.confirmedAt) throw new AppError('mfa.not_enabled');
  if (!(await codeRequired(ctx, user, zoneId))) return;
  if (!code) throw new AppError('mfa.code_required');
  if (!(await spendCode(ctx, factor, code))) throw new AppError('mfa.invalid_code');
}

/**
 * `POST /api/users/self/tfa/disable`: turns the caller's MFA off (a current code first when
 * the flag `require_code_to_disable_mfa` is on). Under a requirement the next sign-in asks
 * to enrol again.
 */
export async function disableOwnTfa(
  ctx: AppContext,
  authz: Authz,
  code: string | undefined,
  zoneId: number | undefined,
): Promise<void> {
  const user = await me(ctx, authz, 'a user turns their own second factor off');
  await checkCurrentCode(ctx, user, code, zoneId);
  await ctx.db.transaction(async (tx) => {
    await deleteFactor(tx, user.id);
    if (user.accountId) {
      const object = { type: 'user', id: user.id, name: user.email };
      await logAccountActivity(ctx, authz, user.accountId, 'user.mfa_disable', object, {}, tx);
    }
  });
  ctx.logger.info({ userId: user.id }, 'mfa disabled by the user');
}

/** `POST /api/users/self/tfa/recovery-codes`: new recovery codes (the earlier ones stop working), shown once. */
export async function regenerateOwnRecoveryCodes(
  ctx: AppContext,
  authz: Authz,
  code: string | undefined,
  zoneId: number | undefined,
): Promise<RecoveryCodes> {
  const user = await me(ctx, authz, 'a user regenerates their own recovery codes');
  await checkCurrentCode(ctx, user, code, zoneId);
  const { codes, hashes } = await newRecoveryCodeSet(ctx, user.id);
  await ctx.db.transaction(async (tx) => {
    await replaceRecoveryCodes(tx, user.id, hashes, ctx.clock.now());
    if (user.accountId) {
      const object = { type: 'user', id: user.id, name: user.email };
      await logAccountActivity(ctx, authz, user.accountId, 'user.mfa_recovery_codes', object, {}, tx);
    }
  });
  return { recovery_codes: codes };
}
