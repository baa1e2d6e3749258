import { randomBytes } from 'node:crypto';
import { MFA, type GetTfa, type MfaFactorType, type TfaSetup } from '@patchwell/core/auth/mfa.schema';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError } from '../../domain/errors';
import { RATE_LIMITS, releaseAttempts, takeAttempts, type RateLimit } from '../auth/rate-limits.service';
import type { SessionUser } from '../auth/sessions.service';
import { completeSignIn, lockNow, logSignInEvent, type SignInClient } from '../auth/signin-complete.service';
import { confirmEnrolment, sendEmailCode, spendCode, startEnrolment } from './factor.service';
import {
  addFailedCode,
  deleteChallenge,
  deleteUserChallenges,
  findChallenge,
  findFactor,
  insertChallenge,
  resetFailedCodes,
  type ChallengeRow,
} from './mfa.store';
import { isMfaRequired } from './requirement.service';
import { sha256Hex } from '../../domain/sha256';

/**
 * The sign-in's second step. After the right password, a user with MFA (or under a
 * requirement to have it) gets a challenge instead of a session: a random token in an
 * HTTP-only cookie, its sha256 in `mfa_challenges`, 5 minutes to live. `GET /api/user/gettfa`
 * and `POST /api/verifyTfa` (or the enrolment routes) need it; the session starts only
 * when the code is right, through the same `completeSignIn` as a password-only sign-in.
 */

const challengeIdOf = (token: string) => sha256Hex(token);

/** E-mailed sign-in codes per user: each request sends a mail, so nobody can flood a mailbox. */
const MAIL_CODE_LIMIT: RateLimit = { kind: 'link_email', limit: 5, windowMinutes: 15, error: 'auth.link_rate_limited' };

/**
 * Starts the second step for a user whose password was right, when one is due.
 * @returns the step and the challenge's token for the cookie, or null: no second factor, sign in now.
 */
export async function startSecondFactor(
  ctx: AppContext,
  userId: number,
): Promise<{ purpose: 'verify' | 'enrol'; token: string } | null> {
  const factor = await findFactor(ctx.db, userId);
  const purpose = factor?.confirmedAt ? 'verify' : (await isMfaRequired(ctx, userId)) ? 'enrol' : null;
  if (!purpose) return null;
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await insertChallenge(ctx.db, {
    id: challengeIdOf(token),
    userId,
    purpose,
    now,
    expiresAt: new Date(now.getTime() + MFA.challengeMinutes * ONE_MINUTE_MS),
  });
  return { purpose, token };
}

function lockedError(user: ChallengeRow['user'], now: Date): AppError | null {
  if (!user.locked) return null;
  const leftMs = (user.lockedUntil?.getTime() ?? Infinity) - now.getTime();
  if (leftMs <= 0) return null;
  const minutes = Number.isFinite(leftMs) ? Math.ceil(leftMs / ONE_MINUTE_MS) : 24 * 60;
  return new AppError('auth.locked', { wording: { minutes } });
}

/**
 * The live challenge of the cookie's token, for `purpose`.
 * @throws AppError 401 `mfa.no_challenge` (none, expired, another step, user no longer active), 403 `auth.locked`.
 */
async function requireChallenge(
  ctx: AppContext,
  token: string | undefined,
  purpose: 'verify' | 'enrol',
): Promise<ChallengeRow & { id: string }> {
  if (!token) throw new AppError('mfa.no_challenge');
  const id = challengeIdOf(token);
  const now = ctx.clock.now();
  const challenge = await findChallenge(ctx.db, id, now);
  if (!challenge || challenge.purpose !== purpose || challenge.user.status !== 'active') {
    throw new AppError('mfa.no_challenge');
  }
  const locked = lockedError(challenge.user, now);
  if (locked) throw locked;
  return { ...challenge, id };
}

/**
 * `GET /api/user/gettfa?email=`: which second factor the login page asks for. The e-mail must
 * be the challenge's (else the same 401 as no challenge). For e-mail codes, mails one
 * (at most 5 in 15 minutes per user).
 */
export async function getTfa(ctx: AppContext, token: string | undefined, email: string): Promise<GetTfa> {
  if (!token) throw new AppError('mfa.no_challenge');
  const challenge = await findChallenge(ctx.db, challengeIdOf(token), ctx.clock.now());
  if (!challenge || challenge.user.email !== email || challenge.user.status !== 'active') {
    throw new AppError('mfa.no_challenge');
  }
  if (challenge.purpose === 'enrol') return { tfa_type: 'disabled', enrol_required: true, email_sent: false };
  const factor = await findFactor(ctx.db, challenge.user.id);
  if (!factor?.confirmedAt) throw new AppError('mfa.no_challenge');
  if (factor.type !== 'email') return { tfa_type: factor.type, enrol_required: false, email_sent: false };
  await takeAttempts(ctx, [{ rule: MAIL_CODE_LIMIT, key: `mfa:${challenge.user.id}` }], ctx.clock.now());
  await sendEmailCode(ctx, challenge.user);
  return { tfa_type: 'email', enrol_required: false, email_sent: true };
}

/**
 * `POST /api/verifyTfa`: the app's code (±1 step, each step once), an e-mailed code or a
 * recovery code finishes the sign-in. Ten wrong codes in a row lock the user as ten wrong
 * passwords would (with the unlock link mailed) and end the challenge.
 * @throws AppError 401 `mfa.invalid_code` / `mfa.no_challenge`, 403 `auth.locked`, 429 `auth.rate_limited`.
 */
export async function verifyTfa(
  ctx: AppContext,
  token: string | undefined,
  code: string,
  client: SignInClient,
): Promise<{ user: SessionUser; token: string }> {
  const challenge = await requireChallenge(ctx, token, 'verify');
  const { user } = challenge;
  const reservation = await takeAttempts(
    ctx,
    [{ rule: RATE_LIMITS.signInPerAddress, key: client.ip }],
    ctx.clock.now(),
  );
  const factor = await findFactor(ctx.db, user.id);
  // An administrator reset the factor meanwhile: sign in again (and enrol if required).
  if (!factor?.confirmedAt) {
    await deleteChallenge(ctx.db, challenge.id);
    throw new AppError('mfa.no_challenge');
  }
  const kind = await spendCode(ctx, factor, code);
  if (!kind) {
    const wrong = await addFailedCode(ctx.db, user.id);
    await logSignInEvent(ctx, user, client.ip, 'auth.signin_failed', { reason: 'wrong code', wrong_codes: wrong });
    if (wrong >= MFA.maxWrongCodes) {
      await resetFailedCodes(ctx.db, user.id);
      await deleteUserChallenges(ctx.db, user.id);
      const until = await lockNow(ctx, user, wrong, client.linkOrigin);
      const minutes = until ? Math.ceil((until.getTime() - ctx.clock.now().getTime()) / ONE_MINUTE_MS) : 15;
      throw new AppError('auth.locked', { wording: { minutes } });
    }
    throw new AppError('mfa.invalid_code');
  }
  await releaseAttempts(ctx, reservation);
  // Of two concurrent right codes (a recovery code and the app's), one signs in.
  if (!(await deleteChallenge(ctx.db, challenge.id))) throw new AppError('mfa.no_challenge');
  await resetFailedCodes(ctx.db, user.id);
  return completeSignIn(ctx, user, client, { second_factor: kind });
}

/** `POST /api/user/tfa/setup` (a required enrolment during sign-in): starts it for the challenge's user. */
export async function startSignInEnrolment(
  ctx: AppContext,
  token: string | undefined,
  type: MfaFactorType,
): Promise<TfaSetup> {
  const { user } = await requireChallenge(ctx, token, 'enrol');
  return startEnrolment(ctx, user, type);
}

/**
 * `POST /api/user/tfa/confirm` (sign-in enrolment): a first right code turns MFA on, gives the
 * recovery codes and finishes the sign-in.
 */
export async function confirmSignInEnrolment(
  ctx: AppContext,
  token: string | undefined,
  code: string,
  client: SignInClient,
): Promise<{ user: SessionUser; token: string; recoveryCodes: string[] }> {
  const challenge = await requireChallenge(ctx, token, 'enrol');
  const { user } = challenge;
  const actor = { userId: user.id, via: 'session' as const, clientAddress: client.ip };
  const recoveryCodes = await confirmEnrolment(ctx, actor, user, code);
  if (!(await deleteChallenge(ctx.db, challenge.id))) throw new AppError('mfa.no_challenge');
  const session = await completeSignIn(ctx, user, client, { second_factor: 'enrolled' });
  return { ...session, recoveryCodes };
}
