import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DAY_MS } from '@patchwell/core/constants';
import { invitations, userZoneRoles, users } from '../../db/schema';
import { bodyOf, sessionCookieOf, startTestApp, type TestApp } from '../../test/app';
import { buildAccount, buildAccountWithUser, buildUser, buildZone } from '../../test/factories';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { and, eq } from 'drizzle-orm';

let smtp: SmtpCapture;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Patchwell <noreply@patchwell.test>' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const NEW_PASSWORD = 'a-brand-new-passphrase-77';

function send(method: string, path: string, options: { cookie?: string; body?: unknown } = {}) {
  return t.request(path, {
    method,
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** The token of the accept link in a mail's text. */
function tokenIn(text: string): string {
  const match = /\/console\/accept-invite\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no accept link in: ${text}`);
  return match[1];
}

async function adminOfNewAccount() {
  const { account, zone, user } = await buildAccountWithUser(t.db);
  const { cookie } = await t.signIn(user.email, user.password);
  return { account, zone, admin: user, cookie };
}

describe('invitation flow through real SMTP', () => {
  it('invites, mails the link, shows the invitation, accepts, signs in with exactly that zone and role', async () => {
    const { account, zone, admin, cookie } = await adminOfNewAccount();
    // A second zone of the account the invitee must not see.
    await buildZone(t.db, { accountId: account.id, name: 'Other zone' });
    const before = smtp.messages.length;

    const invited = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: 'New.Person@Example.test', role_id: 5 },
    });
    expect(invited.status).toBe(201);
    const result = await bodyOf(invited);
    expect(result).toMatchObject({ status: 'pending-invite' });

    const mail = await smtp.waitFor('new.person@example.test', before);
    expect(mail.from).toBe('noreply@patchwell.test');
    expect(mail.subject).toContain(zone.name);
    expect(mail.text).toContain(`${t.url}/console/accept-invite?token=`);
    expect(mail.html).toContain('/console/accept-invite?token=');
    const token = tokenIn(mail.text);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    // Only the token's hash is stored.
    const [stored] = await t.db.select().from(invitations).where(eq(invitations.id, result.invitation_id));
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(7 * ONE_DAY_MS);

    // The zone lists the invitee as pending.
    const list = await bodyOf(await send('GET', `/api/users?o=${zone.id}`, { cookie }));
    expect(list.find((u: { email: string }) => u.email === 'new.person@example.test')).toMatchObject({
      status: 'pending-invite',
      role: { id: 5, name: 'Patch Operator' },
    });

    const shown = await send('GET', `/api/invitations/${token}`);
    expect(shown.status).toBe(200);
    expect(await bodyOf(shown)).toEqual({
      email: 'new.person@example.test',
      zone_name: zone.name,
      account_name: account.name,
      invited_by: `${admin.firstname} ${admin.lastname}`,
      expires_at: stored!.expiresAt.toISOString(),
      needs_password: true,
    });

    const accepted = await send('POST', `/api/invitations/${token}/accept`, {
      body: { firstname: 'New', lastname: 'Person', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(accepted.status).toBe(200);
    expect(await bodyOf(accepted)).toEqual({ email: 'new.person@example.test' });
    const session = sessionCookieOf(accepted);
    expect(session).not.toBe('');

    const profile = await bodyOf(await send('GET', '/api/users/self', { cookie: session }));
    expect(profile).toMatchObject({ email: 'new.person@example.test', firstname: 'New', status: 'active' });
    expect(profile.orgs.map((o: { id: number }) => o.id)).toEqual([zone.id]);
    expect(profile.rbac_roles).toEqual([{ id: 5, name: 'Patch Operator', organization_id: zone.id }]);
    expect(profile.rbac_role).toBe('Patch Operator');

    // The new password works for a normal sign-in too.
    expect((await t.signIn('new.person@example.test', NEW_PASSWORD)).res.status).toBe(200);

    // Single use.
    const again = await send('POST', `/api/invitations/${token}/accept`, {
      body: { firstname: 'New', lastname: 'Person', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(again.status).toBe(410);
    expect(await bodyOf(again)).toEqual({
      code: 'invitations.expired',
      message: 'This invitation has expired or was already used.',
    });
    expect((await send('GET', `/api/invitations/${token}`)).status).toBe(410);
  });

  it('refuses a link after 7 days', async () => {
    const { zone, cookie } = await adminOfNewAccount();
    const before = smtp.messages.length;
    await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: 'late@example.test', role_id: 2 } });
    const token = tokenIn((await smtp.waitFor('late@example.test', before)).text);
    expect((await send('GET', `/api/invitations/${token}`)).status).toBe(200);

    t.clock.advance(7 * ONE_DAY_MS);
    try {
      expect((await send('GET', `/api/invitations/${token}`)).status).toBe(410);
      const res = await send('POST', `/api/invitations/${token}/accept`, {
        body: { firstname: 'Late', lastname: 'Comer', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      });
      expect(res.status).toBe(410);
    } finally {
      t.clock.advance(-7 * ONE_DAY_MS);
    }
  });

  it('answers 404 for an unknown token', async () => {
    expect((await send('GET', '/api/invitations/not-a-real-token')).status).toBe(404);
  });

  it('lets only one of two concurrent acceptances win', async () => {
    const { zone, cookie } = await adminOfNewAccount();
    const before = smtp.messages.length;
    await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: 'race@example.test', role_id: 2 } });
    const token = tokenIn((await smtp.waitFor('race@example.test', before)).text);
    const body = {
      firstname: 'Race',
      lastname: 'Condition',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    };
    const results = await Promise.all([
      send('POST', `/api/invitations/${token}/accept`, { body }),
      send('POST', `/api/invitations/${token}/accept`, { body }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
  });

  it('checks the new user’s names and password', async () => {
    const { zone, cookie } = await adminOfNewAccount();
    const before = smtp.messages.length;
    await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: 'fields@example.test', role_id: 2 } });
    const token = tokenIn((await smtp.waitFor('fields@example.test', before)).text);

    const missing = await send('POST', `/api/invitations/${token}/accept`, { body: {} });
    expect(missing.status).toBe(400);
    expect((await bodyOf(missing)).errors).toEqual({
      firstname: ['First name is required'],
      lastname: ['Last name is required'],
      password: ['This field is required.'],
    });
    const mismatch = await send('POST', `/api/invitations/${token}/accept`, {
      body: { firstname: 'A', lastname: 'B', password: NEW_PASSWORD, password_confirmation: 'something-else-entirely' },
    });
    expect((await bodyOf(mismatch)).errors).toEqual({ password_confirmation: ['Passwords do not match.'] });
    const common = await send('POST', `/api/invitations/${token}/accept`, {
      body: { firstname: 'A', lastname: 'B', password: 'password1234', password_confirmation: 'password1234' },
    });
    expect(common.status).toBe(400);
    expect(Object.keys((await bodyOf(common)).errors)).toEqual(['password']);
    // Still usable after the failures.
    expect((await send('GET', `/api/invitations/${token}`)).status).toBe(200);
  });

  it('gives an existing user of the account the zone role on acceptance, without a password', async () => {
    const { account, zone, cookie } = await adminOfNewAccount();
    const other = await buildZone(t.db, { accountId: account.id });
    const member = await buildUser(t.db, { accountId: account.id, zones: { [other.id]: 2 } });
    const before = smtp.messages.length;
    const res = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: member.email, role_id: 4 },
    });
    expect(res.status).toBe(201);
    expect((await bodyOf(res)).user_id).toBe(member.id);
    // Not a member until they accept.
    const rows = () =>
      t.db
        .select()
        .from(userZoneRoles)
        .where(and(eq(userZoneRoles.userId, member.id), eq(userZoneRoles.organizationId, zone.id)));
    expect(await rows()).toEqual([]);

    const token = tokenIn((await smtp.waitFor(member.email, before)).text);
    expect((await bodyOf(await send('GET', `/api/invitations/${token}`))).needs_password).toBe(false);
    const accepted = await send('POST', `/api/invitations/${token}/accept`, { body: {} });
    expect(accepted.status).toBe(200);
    expect(await rows()).toEqual([{ userId: member.id, organizationId: zone.id, roleId: 4 }]);
    const profile = await bodyOf(await send('GET', '/api/users/self', { cookie: sessionCookieOf(accepted) }));
    expect(profile.orgs.map((o: { id: number }) => o.id).sort()).toEqual([zone.id, other.id].sort());
    // The password did not change.
    expect((await t.signIn(member.email, member.password)).res.status).toBe(200);
  });

  it('revokes the older invitation when the same e-mail is invited into the zone again', async () => {
    const { zone, cookie } = await adminOfNewAccount();
    const first = smtp.messages.length;
    await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: 'twice@example.test', role_id: 2 } });
    const oldToken = tokenIn((await smtp.waitFor('twice@example.test', first)).text);
    const second = smtp.messages.length;
    const res = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: 'twice@example.test', role_id: 1 },
    });
    expect(res.status).toBe(201);
    const newToken = tokenIn((await smtp.waitFor('twice@example.test', second)).text);
    expect((await send('GET', `/api/invitations/${oldToken}`)).status).toBe(410);
    expect((await send('GET', `/api/invitations/${newToken}`)).status).toBe(200);
    const list = await bodyOf(await send('GET', `/api/users?o=${zone.id}`, { cookie }));
    expect(list.find((u: { email: string }) => u.email === 'twice@example.test').role.id).toBe(1);
  });

  it('refuses members, other accounts’ users, unknown roles and callers without Users.invite', async () => {
    const { account, zone, admin, cookie } = await adminOfNewAccount();
    const member = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
    const taken = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: member.email, role_id: 2 },
    });
    expect(taken.status).toBe(409);
    expect((await bodyOf(taken)).errors).toEqual({ email: ['This user already exists in this Zone'] });
    expect(
      (await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: admin.email, role_id: 2 } })).status,
    ).toBe(409);

    const foreign = await buildAccountWithUser(t.db);
    const elsewhere = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: foreign.user.email, role_id: 2 },
    });
    expect(elsewhere.status).toBe(409);
    expect((await bodyOf(elsewhere)).errors).toEqual({ email: ['This email address is already in use.'] });

    const badRole = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: 'r@example.test', role_id: 9 },
    });
    expect(badRole.status).toBe(400);
    expect((await bodyOf(badRole)).errors).toEqual({ role_id: ['Role is required'] });
    const noRole = await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: 'r@example.test' } });
    expect((await bodyOf(noRole)).errors).toEqual({ role_id: ['Role is required'] });

    const reader = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
    const readerCookie = (await t.signIn(reader.email, reader.password)).cookie;
    const denied = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie: readerCookie,
      body: { email: 'x@example.test', role_id: 2 },
    });
    expect(denied.status).toBe(403);
    // Another account's zone does not exist for this caller.
    const hidden = await send('POST', `/api/inviteUser?o=${foreign.zone.id}`, {
      cookie,
      body: { email: 'x@example.test', role_id: 2 },
    });
    expect(hidden.status).toBe(404);
  });
});

describe('account invitations', () => {
  it('lists the account’s invitations with their state and revokes one', async () => {
    const { account, zone, cookie } = await adminOfNewAccount();
    const before = smtp.messages.length;
    const res = await send('POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: 'rev@example.test', role_id: 3 },
    });
    const { invitation_id: id } = await bodyOf(res);
    const token = tokenIn((await smtp.waitFor('rev@example.test', before)).text);

    const list = await bodyOf(await send('GET', `/api/accounts/${account.id}/invitations`, { cookie }));
    expect(list).toEqual([
      expect.objectContaining({
        id,
        email: 'rev@example.test',
        zone_id: zone.id,
        zone_name: zone.name,
        role_id: 3,
        role_name: 'Billing Administrator',
        state: 'pending',
        accepted_at: null,
      }),
    ]);

    expect((await send('DELETE', `/api/accounts/${account.id}/invitations/${id}`, { cookie })).status).toBe(204);
    expect((await send('GET', `/api/invitations/${token}`)).status).toBe(410);
    const after = await bodyOf(await send('GET', `/api/accounts/${account.id}/invitations`, { cookie }));
    expect(after[0].state).toBe('revoked');

    // Another account's administrator sees none of it.
    const other = await adminOfNewAccount();
    expect((await send('GET', `/api/accounts/${account.id}/invitations`, { cookie: other.cookie })).status).toBe(404);
    expect(
      (await send('DELETE', `/api/accounts/${other.account.id}/invitations/${id}`, { cookie: other.cookie })).status,
    ).toBe(404);
  });

  it('answers 403 to a user of the account without global access', async () => {
    const account = await buildAccount(t.db);
    const zone = await buildZone(t.db, { accountId: account.id });
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 1 } });
    const { cookie } = await t.signIn(zoneAdmin.email, zoneAdmin.password);
    expect((await send('GET', `/api/accounts/${account.id}/invitations`, { cookie })).status).toBe(403);
  });

  it('refuses an accepted invitation’s revocation', async () => {
    const { account, zone, cookie } = await adminOfNewAccount();
    const before = smtp.messages.length;
    const { invitation_id: id } = await bodyOf(
      await send('POST', `/api/inviteUser?o=${zone.id}`, { cookie, body: { email: 'done@example.test', role_id: 2 } }),
    );
    const token = tokenIn((await smtp.waitFor('done@example.test', before)).text);
    await send('POST', `/api/invitations/${token}/accept`, {
      body: { firstname: 'D', lastname: 'One', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    const res = await send('DELETE', `/api/accounts/${account.id}/invitations/${id}`, { cookie });
    expect(res.status).toBe(409);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'done@example.test'));
    expect(user!.status).toBe('active');
  });
});
