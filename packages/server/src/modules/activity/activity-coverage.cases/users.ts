import { randomBytes } from 'node:crypto';
import { call } from '../../../test/authz-helpers';
import { TEST_PASSWORD } from '../../../test/factories';
import { t, o, accountId, ids, strings, admin, q, inZone, atAccount, type Case } from './context';

/** Users and invitations: API keys, edits, unlocks, invitations and their acceptance. */
export const userCases: Record<string, Case> = {
  'POST /api/users/self/api_keys': {
    run: async () => {
      const res = await admin().post(q('/api/users/self/api_keys'), { name: 'coverage key' });
      ids.key = res.body?.id;
      strings.key = res.body?.key;
      return res;
    },
    action: 'api_key.create',
    zone: inZone,
  },
  'DELETE /api/users/self/api_keys/{id}': {
    run: () => admin().del(q(`/api/users/self/api_keys/${ids.key}`)),
    action: 'api_key.revoke',
    zone: inZone,
  },
  'PUT /api/users/{id}': {
    run: () => admin().put(q(`/api/users/${ids.member}`), { role_id: 2 }),
    action: 'user.update',
    zone: inZone,
  },
  'POST /api/users/unlockaccount': {
    run: () => admin().post(q('/api/users/unlockaccount'), { userid: ids.member }),
    action: 'user.unlock',
    zone: inZone,
  },
  'DELETE /api/users/{id}': {
    run: () => admin().del(q(`/api/users/${ids.member}`)),
    action: 'user.remove',
    zone: inZone,
  },
  'POST /api/accounts/{accountId}/users': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/users`, {
        email: `account-user-${randomBytes(3).toString('hex')}@example.test`,
        firstname: 'Acc',
        lastname: 'User',
        account_rbac_role: 'no-global-access',
        zones: [{ zone_id: o, role_id: 2 }],
      });
      ids.accountUser = res.body?.id;
      return res;
    },
    action: 'user.create',
    zone: atAccount,
  },
  'PUT /api/accounts/{accountId}/users/{userId}': {
    run: () => admin().put(`/api/accounts/${accountId}/users/${ids.accountUser}`, { firstname: 'Renamed' }),
    action: 'user.update',
    zone: atAccount,
  },
  'POST /api/inviteUser': {
    run: async () => {
      const res = await admin().post(q('/api/inviteUser'), {
        email: `invitee-${randomBytes(3).toString('hex')}@example.test`,
        role_id: 2,
      });
      ids.invitation = res.body?.invitation_id;
      ids.invitee = res.body?.user_id;
      strings.acceptLink = res.body?.accept_link;
      return res;
    },
    action: 'invitation.create',
    zone: inZone,
  },
  'POST /api/users/{userId}/resend-invitation': {
    run: async () => {
      const res = await admin().post(q(`/api/users/${ids.invitee}/resend-invitation`));
      ids.invitation = res.body?.invitation_id;
      strings.acceptLink = res.body?.accept_link;
      return res;
    },
    action: 'invitation.resend',
    zone: inZone,
  },
  'POST /api/accounts/{accountId}/invitations/{id}/resend': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/invitations/${ids.invitation}/resend`);
      ids.invitation = res.body?.invitation_id;
      strings.acceptLink = res.body?.accept_link;
      return res;
    },
    action: 'invitation.resend',
    zone: inZone,
  },
  'POST /api/invitations/{token}/accept': {
    run: () => {
      const token = new URL(strings.acceptLink!).searchParams.get('token') ?? strings.acceptLink!.split('/').pop()!;
      return call(t, {}, 'POST', `/api/invitations/${encodeURIComponent(token)}/accept`, {
        firstname: 'In',
        lastname: 'Vitee',
        password: TEST_PASSWORD,
        password_confirmation: TEST_PASSWORD,
      });
    },
    action: 'invitation.accept',
    zone: inZone,
  },
  'DELETE /api/accounts/{accountId}/invitations/{id}': {
    run: async () => {
      const invited = await admin().post(q('/api/inviteUser'), { email: 'revoked@example.test', role_id: 2 });
      return admin().del(`/api/accounts/${accountId}/invitations/${invited.body?.invitation_id}`);
    },
    action: 'invitation.revoke',
    zone: inZone,
  },
  'DELETE /api/accounts/{accountId}/users/{userId}': {
    run: () => admin().del(`/api/accounts/${accountId}/users/${ids.accountUser}`),
    action: 'user.delete',
    zone: atAccount,
  },
};
