import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import type { SignUpBody, SignUpResult } from '@patchwell/core/auth/signup.schema';
import { ONE_DAY_MS } from '@patchwell/core/constants';
import type { Plan } from '@patchwell/core/rules/tiers';
import type { AppContext } from '../../context';
import { logAccountActivity } from '../activity/activity.service';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError, validationError } from '../../domain/errors';
import { hashPassword, isCommonPassword } from '../auth/passwords';
import { RATE_LIMITS, takeAttempts } from '../auth/rate-limits.service';
import { mailVerificationLink, VERIFICATION_REDIRECT } from '../auth/verification.service';
import { emailExists, insertAccount, insertUser, insertZone, insertZoneRole } from './accounts.store';

/** A new sign-up's first zone is on the Complete plan for this long (spec A §1: trial accounts). */
export const SIGNUP_TRIAL_DAYS = 15;

/** Zone role id 1: Zone Administrator (core/zones/roles.ts). */
const ZONE_ADMIN_ROLE_ID = 1;

export type NewAccount = {
  accountName: string;
  zone: { name: string; plan: Plan; trialEndTime: Date | null; metadata?: Record<string, unknown> };
  /** `emailVerified` false: a self-service sign-up, who signs in only after following the mailed link. */
  admin: { email: string; firstname: string; lastname: string; passwordHash: string; emailVerified?: boolean };
  now: Date;
};

/**
 * Creates an account, its first zone and a global administrator who is also Zone
 * Administrator of that zone. Runs inside the caller's transaction.
 */
export async function createAccountWithAdmin(tx: Db, input: NewAccount) {
  const account = await insertAccount(tx, { name: input.accountName, createdAt: input.now });
  const zone = await insertZone(tx, {
    accountId: account.id,
    name: input.zone.name,
    plan: input.zone.plan,
    trialEndTime: input.zone.trialEndTime,
    metadata: input.zone.metadata ?? {},
    createdAt: input.now,
  });
  const user = await insertUser(tx, {
    accountId: account.id,
    email: input.admin.email,
    firstname: input.admin.firstname,
    lastname: input.admin.lastname,
    passwordHash: input.admin.passwordHash,
    emailVerified: input.admin.emailVerified ?? true,
    accountRbacRole: 'global-admin',
    status: 'active',
    createdAt: input.now,
    passwordChangedAt: input.now,
  });
  await insertZoneRole(tx, { userId: user.id, organizationId: zone.id, roleId: ZONE_ADMIN_ROLE_ID });
  return { account, zone, user };
}

function emailTaken(): AppError {
  return new AppError('auth.email_taken', { fieldErrors: { email: [AUTH_ERRORS.emailTaken.message] } });
}

/**
 * Self-service sign-up: a new account named after the company, its first zone on a
 * 15-day Complete trial, and the person as its global administrator, who signs in only
 * after following the verification link mailed now (no session yet: the address is
 * unproven). Every call counts against the client address's sign-up limit, whatever its outcome.
 * @throws AppError 400 for a common password, 409 `auth.email_taken`, 429 `auth.rate_limited`.
 */
export async function signUp(
  ctx: AppContext,
  body: SignUpBody,
  meta: { ip: string; linkOrigin: string | null },
): Promise<SignUpResult> {
  const now = ctx.clock.now();
  await takeAttempts(ctx, [{ rule: RATE_LIMITS.signUpPerAddress, key: meta.ip }], now);
  if (isCommonPassword(body.password)) throw validationError({ password: [COMMON_PASSWORD_MESSAGE] });
  if (await emailExists(ctx.db, body.email)) throw emailTaken();

  const passwordHash = await hashPassword(body.password);
  let created: Awaited<ReturnType<typeof createAccountWithAdmin>>;
  try {
    created = await ctx.db.transaction(async (tx) => {
      const made = await createAccountWithAdmin(tx, {
        accountName: body.company,
        zone: {
          name: body.company,
          plan: 'tier3',
          trialEndTime: new Date(now.getTime() + SIGNUP_TRIAL_DAYS * ONE_DAY_MS),
          metadata: { expected_endpoints: body.endpoints },
        },
        admin: {
          email: body.email,
          firstname: body.firstname,
          lastname: body.lastname,
          passwordHash,
          emailVerified: false,
        },
        now,
      });
      await logAccountActivity(
        ctx,
        { userId: made.user.id, via: 'session', clientAddress: meta.ip },
        made.account.id,
        'account.signup',
        { type: 'account', id: made.account.id, name: made.account.name },
        { zone: made.zone.name, endpoints: body.endpoints },
        tx,
      );
      return made;
    });
  } catch (err) {
    // Two sign-ups with one e-mail at the same moment: the unique index decides.
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
  const { account, zone, user } = created;
  ctx.logger.info({ accountId: account.id, userId: user.id }, 'account signed up');
  await mailVerificationLink(ctx, user, meta.linkOrigin);
  return {
    account_id: account.id,
    user_id: user.id,
    zone_id: zone.id,
    email: user.email,
    redirect: VERIFICATION_REDIRECT,
  };
}
