import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDbHandle } from '../../test/db';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccountWithUser, buildUser } from '../../test/factories';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';

/**
 * Issue 10 defect 13: without a mail relay an invitation says that its e-mail waits in the
 * outbox and gives a global administrator the link to hand over; invitations can be resent.
 */

let db: TestDbHandle;
let noRelay: TestApp;
let relayed: TestApp;
let smtp: SmtpCapture;

beforeAll(async () => {
  db = await createTestDb();
  smtp = await startSmtpCapture();
  noRelay = await startTestApp({ db });
  relayed = await startTestApp({ db, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Patchwell <noreply@patchwell.test>' } });
});
afterAll(async () => {
  await noRelay.close();
  await relayed.close();
  await smtp.close();
  await db.close();
});

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function setUp(t: TestApp) {
  const { account, zone, user } = await buildAccountWithUser(t.db);
  const zoneAdminUser = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 1 } });
  return {
    account,
    zone,
    global: clientFor(t, { cookie: await cookieFor(t, user) }),
    zoneAdmin: clientFor(t, { cookie: await cookieFor(t, zoneAdminUser) }),
  };
}

describe('inviting without a mail relay', () => {
  it('says the mail waits in the outbox and gives the global administrator the accept link', async () => {
    const { zone, global, zoneAdmin } = await setUp(noRelay);
    const res = await global.post(`/api/inviteUser?o=${zone.id}`, { email: 'ada@example.test', role_id: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending-invite', mail: 'queued' });
    expect(res.body.accept_link).toMatch(/\/console\/accept-invite\?token=[A-Za-z0-9_-]{43}$/);
    const invitation = await global.get(`/api/invitations/${tokenOf(res.body.accept_link)}`);
    expect(invitation.status).toBe(200);
    expect(invitation.body.email).toBe('ada@example.test');

    // A zone administrator cannot read the outbox: told it waits there, no link.
    const byZoneAdmin = await zoneAdmin.post(`/api/inviteUser?o=${zone.id}`, { email: 'bob@example.test', role_id: 2 });
    expect(byZoneAdmin.status).toBe(201);
    expect(byZoneAdmin.body).toMatchObject({ mail: 'queued', accept_link: null });
  });

  it('says the same when a global administrator creates a user in Global setup', async () => {
    const { account, zone, global } = await setUp(noRelay);
    const res = await global.post(`/api/accounts/${account.id}/users`, {
      firstname: 'Eve',
      lastname: 'Example',
      email: 'eve@example.test',
      account_rbac_role: 'no-global-access',
      zones: [{ zone_id: zone.id, role_id: 2 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.invitation.mail).toBe('queued');
    expect((await global.get(`/api/invitations/${tokenOf(res.body.invitation.accept_link)}`)).status).toBe(200);
  });

  it('resends: a new link replaces the old one, from the zone or the account route; not after acceptance', async () => {
    const { account, zone, global, zoneAdmin } = await setUp(noRelay);
    const first = await global.post(`/api/inviteUser?o=${zone.id}`, { email: 'cy@example.test', role_id: 2 });
    const userId = first.body.user_id as number;

    const again = await zoneAdmin.post(`/api/users/${userId}/resend-invitation?o=${zone.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ user_id: userId, mail: 'queued', accept_link: null });
    expect(again.body.invitation_id).not.toBe(first.body.invitation_id);
    expect((await global.get(`/api/invitations/${tokenOf(first.body.accept_link)}`)).status).toBe(410);

    const viaAccount = await global.post(`/api/accounts/${account.id}/invitations/${again.body.invitation_id}/resend`);
    expect(viaAccount.status).toBe(200);
    const token = tokenOf(viaAccount.body.accept_link);
    const accepted = await noRelay.request(`/api/invitations/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstname: 'Cy',
        lastname: 'Young',
        password: 'a-brand-new-passphrase-77',
        password_confirmation: 'a-brand-new-passphrase-77',
      }),
    });
    expect(accepted.status).toBe(200);
    const late = await zoneAdmin.post(`/api/users/${userId}/resend-invitation?o=${zone.id}`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invitations.accepted');
  });
});

describe('resending with a mail relay', () => {
  it('mails the new link and shows none', async () => {
    const { zone, global } = await setUp(relayed);
    const first = await global.post(`/api/inviteUser?o=${zone.id}`, { email: 'dee@example.test', role_id: 2 });
    expect(first.body).toMatchObject({ mail: 'sent', accept_link: null });
    const before = smtp.messages.length;
    const again = await global.post(`/api/users/${first.body.user_id}/resend-invitation?o=${zone.id}`);
    expect(again.body).toMatchObject({ mail: 'sent', accept_link: null });
    const mail = await smtp.waitFor('dee@example.test', before);
    const token = /accept-invite\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect((await global.get(`/api/invitations/${token}`)).status).toBe(200);
  });
});
