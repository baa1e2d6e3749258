import { randomBytes } from 'node:crypto';
import { organizations } from '../../../db/schema';
import { call, cookieFor } from '../../../test/authz-helpers';
import { buildUser, TEST_PASSWORD } from '../../../test/factories';
import { appCode, passwordStep } from '../../../test/mfa';
import { t, o, accountId, ids, strings, admin, q, inZone, atAccount, connectionBody, type Case } from './context';

/** Multi-factor authentication (modules/mfa): the user's own factor, sign-in, and the requirements. */
export const mfaCases: Record<string, Case> = {
  'POST /api/users/self/tfa/confirm': {
    run: async () => {
      const user = await buildUser(t.db, { accountId, zones: { [o]: 2 } });
      strings.mfaCookie = await cookieFor(t, user);
      strings.mfaEmail = user.email;
      ids.mfaUser = user.id;
      const setup = await call(t, { cookie: strings.mfaCookie }, 'POST', '/api/users/self/tfa/setup', {
        type: 'google',
      });
      strings.mfaSecret = setup.body.secret;
      const code = await appCode(t, strings.mfaSecret!);
      return call(t, { cookie: strings.mfaCookie }, 'POST', '/api/users/self/tfa/confirm', { tfa_code: code });
    },
    action: 'user.mfa_enable',
    zone: atAccount,
  },
  'POST /api/users/self/tfa/recovery-codes': {
    run: () => call(t, { cookie: strings.mfaCookie }, 'POST', '/api/users/self/tfa/recovery-codes', {}),
    action: 'user.mfa_recovery_codes',
    zone: atAccount,
  },
  'POST /api/verifyTfa': {
    run: async () => {
      t.clock.advance(60_000);
      const step = await passwordStep(t, strings.mfaEmail!, TEST_PASSWORD);
      const code = await appCode(t, strings.mfaSecret!);
      return call(t, {}, 'POST', '/api/verifyTfa', { tfa_code: code }, { cookie: step.challenge });
    },
    action: 'auth.signin',
    zone: atAccount,
  },
  'POST /api/users/self/tfa/disable': {
    run: () => call(t, { cookie: strings.mfaCookie }, 'POST', '/api/users/self/tfa/disable', {}),
    action: 'user.mfa_disable',
    zone: atAccount,
  },
  'POST /api/users/{id}/tfa/reset': {
    run: () => admin().post(q(`/api/users/${ids.mfaUser}/tfa/reset`)),
    action: 'user.mfa_reset',
    zone: inZone,
  },
  'POST /api/user/tfa/confirm': {
    run: async () => {
      // A zone that requires MFA, and its only member, who enrols while signing in.
      const [required] = await t.db
        .insert(organizations)
        .values({
          accountId,
          name: `Requires MFA ${randomBytes(3).toString('hex')}`,
          createdAt: t.clock.now(),
          requireMfa: true,
        })
        .returning();
      const user = await buildUser(t.db, { accountId, zones: { [required!.id]: 2 } });
      const step = await passwordStep(t, user.email, TEST_PASSWORD);
      const setup = await call(t, {}, 'POST', '/api/user/tfa/setup', { type: 'google' }, { cookie: step.challenge });
      const code = await appCode(t, setup.body.secret);
      return call(t, {}, 'POST', '/api/user/tfa/confirm', { tfa_code: code }, { cookie: step.challenge });
    },
    action: 'user.mfa_enable',
    zone: atAccount,
  },
  'PUT /api/orgs/{id}/require-mfa': {
    // On and off again: the administrator's later sign-ins in this file stay password-only.
    run: async () => {
      await admin().put(`/api/orgs/${o}/require-mfa`, { enabled: true });
      return admin().put(`/api/orgs/${o}/require-mfa`, { enabled: false });
    },
    action: 'zone.require_mfa',
    zone: inZone,
  },
  'PUT /api/accounts/{accountId}/require-mfa': {
    run: async () => {
      await admin().put(`/api/accounts/${accountId}/require-mfa`, { enabled: true });
      return admin().put(`/api/accounts/${accountId}/require-mfa`, { enabled: false });
    },
    action: 'account.require_mfa',
    zone: atAccount,
  },
  'PUT /api/orgs/{id}/require-sso': {
    run: async () => {
      // Requiring SSO needs a connection on the account.
      const connection = await admin().post(`/api/accounts/${accountId}/connections`, {
        ...connectionBody('Coverage IdP'),
        domains: ['coverage-sso.example'],
      });
      if (connection.status !== 201) return connection;
      return admin().put(`/api/orgs/${o}/require-sso`, { enabled: true });
    },
    action: 'zone.require_sso',
    zone: inZone,
  },
};
