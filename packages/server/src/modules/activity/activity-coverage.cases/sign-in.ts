import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { userTokens } from '../../../db/auth.schema';
import { users } from '../../../db/schema';
import { call, cookieFor } from '../../../test/authz-helpers';
import { buildUser, TEST_PASSWORD } from '../../../test/factories';
import { samlSignInOnce } from '../../../test/saml-harness';
import { t, z, o, accountId, ids, atAccount, dns, type Case } from './context';
import { sha256Hex } from '../../../domain/sha256';

/** Signing in and out: unlock, password reset, e-mail verification, sign-up, SAML, logout. */
export const signInCases: Record<string, Case> = {
  'POST /api/users/unlock': {
    run: async () => {
      const token = randomBytes(16).toString('hex');
      await t.db
        .update(users)
        .set({
          locked: true,
          lockedUntil: new Date(t.clock.now().getTime() + 3_600_000),
          unlockTokenHash: sha256Hex(token),
          unlockTokenExpiresAt: new Date(t.clock.now().getTime() + 3_600_000),
        })
        .where(eq(users.id, ids.lockedUser!));
      return call(t, {}, 'POST', '/api/users/unlock', { token });
    },
    action: 'user.unlock',
    zone: atAccount,
  },
  'POST /api/passwordReset': {
    // The reset itself (the request for a link logs `user.password_reset_requested`: password-reset.test.ts).
    run: async () => {
      const user = await buildUser(t.db, { accountId, zones: { [o]: 2 } });
      const token = randomBytes(16).toString('hex');
      const now = t.clock.now();
      await t.db.insert(userTokens).values({
        userId: user.id,
        purpose: 'password_reset',
        tokenHash: sha256Hex(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 3_600_000),
      });
      const password = 'coverage-new-unusual-passphrase';
      return call(t, {}, 'POST', '/api/passwordReset', { token, password, password_confirmation: password });
    },
    action: 'user.password_reset',
    zone: atAccount,
  },
  'POST /api/users/verify-email': {
    run: async () => {
      const user = await buildUser(t.db, { accountId, zones: { [o]: 2 } });
      await t.db.update(users).set({ emailVerified: false }).where(eq(users.id, user.id));
      const token = randomBytes(16).toString('hex');
      const now = t.clock.now();
      await t.db.insert(userTokens).values({
        userId: user.id,
        purpose: 'email_verification',
        tokenHash: sha256Hex(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 3_600_000),
      });
      return call(t, {}, 'POST', '/api/users/verify-email', { token });
    },
    action: 'user.email_verified',
    zone: atAccount,
  },
  'POST /api/users/verification-email': {
    run: async () => {
      const user = await buildUser(t.db, { accountId, zones: { [o]: 2 } });
      await t.db.update(users).set({ emailVerified: false }).where(eq(users.id, user.id));
      return call(t, {}, 'POST', '/api/users/verification-email', { email: user.email });
    },
    action: 'user.verification_resent',
    zone: atAccount,
  },
  'POST /api/signup': {
    run: () =>
      call(t, {}, 'POST', '/api/signup', {
        firstname: 'New',
        lastname: 'Customer',
        company: `Signup ${randomBytes(3).toString('hex')}`,
        email: `signup-${randomBytes(3).toString('hex')}@example.test`,
        password: TEST_PASSWORD,
        password_confirmation: TEST_PASSWORD,
        endpoints: 10,
      }),
    action: 'account.signup',
    zone: atAccount,
  },
  'POST /api/saml/{uuid}/acs': {
    // A SAML sign-in through a new zone_rbac connection: the user is provisioned and signed in.
    run: () => samlSignInOnce(t, dns, accountId, o),
    action: 'auth.signin',
    zone: atAccount,
  },
  'POST /api/logout': {
    run: async () => call(t, { cookie: await cookieFor(t, z.user) }, 'POST', '/api/logout'),
    action: 'auth.signout',
    zone: atAccount,
  },
};
