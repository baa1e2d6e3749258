import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { samlConnections } from '../../db/sso.schema';
import { accounts, organizations } from '../../db/schema';
import { activityLog } from '../../db/activity.schema';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import { buildAccountWithUser, buildUser } from '../../test/factories';
import { appCode, enrolApp, json, passwordStep, verify } from '../../test/mfa';

/**
 * What administrators do about MFA: reset a user's factor, require MFA of a zone or an
 * account (users without it enrol right after their password), require SSO of a zone.
 */

let t: TestApp;
let n = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `192.0.2.${++n}` });

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
});
afterAll(() => t.close());

const put = (path: string, body: unknown, cookie: string) =>
  t.request(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });

async function session(email: string, password: string) {
  const { cookie, res } = await t.signIn(email, password, { headers: fromNewAddress() });
  expect(res.status).toBe(200);
  return cookie;
}

async function eventsOf(action: string) {
  return t.db.select().from(activityLog).where(eq(activityLog.action, action));
}

describe('POST /api/users/{id}/tfa/reset', () => {
  it('lets a zone administrator reset a member’s MFA; the member signs in with the password again', async () => {
    const { zone, user: admin } = await buildAccountWithUser(t.db, { roleId: 1, globalAdmin: false });
    const member = await buildUser(t.db, { accountId: zone.accountId, zones: { [zone.id]: 2 } });
    const adminSession = await session(admin.email, admin.password);
    const memberSession = await session(member.email, member.password);
    await enrolApp(t, memberSession);
    expect((await passwordStep(t, member.email, member.password, fromNewAddress())).status).toBe(401);

    const reset = await t.request(`/api/users/${member.id}/tfa/reset?o=${zone.id}`, {
      method: 'POST',
      headers: { cookie: adminSession },
    });
    expect(reset.status).toBe(204);
    const [event] = (await eventsOf('user.mfa_reset')).filter((e) => e.objectId === String(member.id));
    expect(event).toMatchObject({ organizationId: zone.id, userId: admin.id });
    await session(member.email, member.password);
    const profile = await bodyOf(await t.request('/api/users/self', { headers: { cookie: memberSession } }));
    expect(profile.tfa_enabled).toBe(false);
  });

  it('is refused to a member without TFA.delete, and answers 404 for a user of another account', async () => {
    const { zone, user: admin } = await buildAccountWithUser(t.db, { roleId: 1, globalAdmin: false });
    const reader = await buildUser(t.db, { accountId: zone.accountId, zones: { [zone.id]: 2 } });
    const other = await buildAccountWithUser(t.db);
    const readerSession = await session(reader.email, reader.password);
    const adminSession = await session(admin.email, admin.password);
    const post = (id: number, cookie: string) =>
      t.request(`/api/users/${id}/tfa/reset?o=${zone.id}`, { method: 'POST', headers: { cookie } });
    expect((await post(admin.id, readerSession)).status).toBe(403);
    expect((await post(other.user.id, adminSession)).status).toBe(404);
  });
});

describe('requiring MFA', () => {
  it('sends a member of a zone that requires it to enrol right after the password, then signs them in', async () => {
    const { zone, user: admin } = await buildAccountWithUser(t.db, { roleId: 1, globalAdmin: false });
    const member = await buildUser(t.db, { accountId: zone.accountId, zones: { [zone.id]: 2 } });
    const adminSession = await session(admin.email, admin.password);
    const set = await put(`/api/orgs/${zone.id}/require-mfa`, { enabled: true }, adminSession);
    expect(set.status).toBe(200);
    expect(await bodyOf(set)).toMatchObject({ require_mfa: true, require_sso: false, sso_available: false });
    expect((await eventsOf('zone.require_mfa')).some((e) => e.organizationId === zone.id)).toBe(true);

    const step = await passwordStep(t, member.email, member.password, fromNewAddress());
    expect(step).toMatchObject({ status: 401, body: { code: 'auth.mfa_enrolment_required' } });
    const tfa = await t.request(`/api/user/gettfa?email=${encodeURIComponent(member.email)}`, {
      headers: { cookie: step.challenge },
    });
    expect(await bodyOf(tfa)).toEqual({ tfa_type: 'disabled', enrol_required: true, email_sent: false });
    // The enrolment challenge is no code challenge.
    expect((await verify(t, step.challenge, '123456')).status).toBe(401);

    const setup = await t.request('/api/user/tfa/setup', json({ type: 'google' }, step.challenge));
    expect(setup.status).toBe(200);
    const { secret } = await bodyOf(setup);
    const confirm = await t.request(
      '/api/user/tfa/confirm',
      json({ tfa_code: await appCode(t, secret) }, step.challenge),
    );
    expect(confirm.status).toBe(200);
    const body = await bodyOf(confirm);
    expect(body.recovery_codes).toHaveLength(10);
    const cookie = confirm.headers
      .getSetCookie()
      .find((c) => c.startsWith('pw_session='))!
      .split(';')[0]!;
    expect((await t.request('/api/users/is-authenticated', { headers: { cookie } })).status).toBe(200);

    // Next time: the code step.
    t.clock.advance(60_000);
    const next = await passwordStep(t, member.email, member.password, fromNewAddress());
    expect(next.body.code).toBe('auth.mfa_required');
  });

  it('applies an account’s requirement to all its users; a global administrator sets it', async () => {
    const { account, user: admin } = await buildAccountWithUser(t.db);
    const adminSession = await session(admin.email, admin.password);
    const member = await buildUser(t.db, { accountId: account.id });
    expect(
      (await bodyOf(await t.request(`/api/accounts/${account.id}/require-mfa`, { headers: { cookie: adminSession } })))
        .require_mfa,
    ).toBe(false);
    expect((await put(`/api/accounts/${account.id}/require-mfa`, { enabled: true }, adminSession)).status).toBe(200);
    expect((await eventsOf('account.require_mfa')).some((e) => e.accountId === account.id)).toBe(true);
    const step = await passwordStep(t, member.email, member.password, fromNewAddress());
    expect(step.body.code).toBe('auth.mfa_enrolment_required');
    // The admin's own session stays; their next sign-in asks them too.
    const own = await passwordStep(t, admin.email, admin.password, fromNewAddress());
    expect(own.body.code).toBe('auth.mfa_enrolment_required');
  });

  it('stops applying while the zone or the account is below Standard, and applies again after an upgrade', async () => {
    const { account, zone, user: admin } = await buildAccountWithUser(t.db, { roleId: 1, globalAdmin: false });
    const member = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
    const adminSession = await session(admin.email, admin.password);
    expect((await put(`/api/orgs/${zone.id}/require-mfa`, { enabled: true }, adminSession)).status).toBe(200);
    const setPlan = (plan: 'patch' | 'manage') =>
      t.db.update(organizations).set({ plan, trialEndTime: null }).where(eq(organizations.accountId, account.id));

    // On Basic the setting is kept but no one is sent to enrol; the profile says so too.
    await setPlan('patch');
    expect((await passwordStep(t, member.email, member.password, fromNewAddress())).status).toBe(200);
    const own = await t.request('/api/users/self/tfa', { headers: { cookie: adminSession } });
    expect(await bodyOf(own)).toMatchObject({ required: false });
    const security = await t.request(`/api/orgs/${zone.id}/security`, { headers: { cookie: adminSession } });
    expect(await bodyOf(security)).toMatchObject({ require_mfa: true });
    // An unexpired trial of Basic qualifies, as for every gated feature.
    await t.db
      .update(organizations)
      .set({ trialEndTime: new Date(t.clock.now().getTime() + 86_400_000) })
      .where(eq(organizations.id, zone.id));
    expect((await passwordStep(t, member.email, member.password, fromNewAddress())).body.code).toBe(
      'auth.mfa_enrolment_required',
    );

    await setPlan('manage');
    expect((await passwordStep(t, member.email, member.password, fromNewAddress())).body.code).toBe(
      'auth.mfa_enrolment_required',
    );

    // The account's requirement follows the account's plan (its top-level zone's).
    expect((await put(`/api/orgs/${zone.id}/require-mfa`, { enabled: false }, adminSession)).status).toBe(200);
    await t.db.update(accounts).set({ requireMfa: true }).where(eq(accounts.id, account.id));
    expect((await passwordStep(t, member.email, member.password, fromNewAddress())).body.code).toBe(
      'auth.mfa_enrolment_required',
    );
    await setPlan('patch');
    expect((await passwordStep(t, member.email, member.password, fromNewAddress())).status).toBe(200);
  });

  it('is refused to a zone member without TFA.modify', async () => {
    const { zone } = await buildAccountWithUser(t.db);
    const operator = await buildUser(t.db, { accountId: zone.accountId, zones: { [zone.id]: 4 } });
    const cookie = await session(operator.email, operator.password);
    expect((await put(`/api/orgs/${zone.id}/require-mfa`, { enabled: true }, cookie)).status).toBe(403);
  });
});

describe('PUT /api/orgs/{id}/require-sso', () => {
  it('needs a SAML connection on the account, then sets the zone’s saml.enabled', async () => {
    const { zone, account, user } = await buildAccountWithUser(t.db);
    const cookie = await session(user.email, user.password);
    const refused = await put(`/api/orgs/${zone.id}/require-sso`, { enabled: true }, cookie);
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).code).toBe('mfa.sso_unavailable');

    const now = new Date();
    await t.db.insert(samlConnections).values({
      accountId: account.id,
      name: 'IdP',
      provisionType: 'invite',
      idpEntityId: 'https://idp.example.test',
      idpSsoUrl: 'https://idp.example.test/sso',
      idpCertificates: [],
      createdAt: now,
      updatedAt: now,
    });
    const ok = await put(`/api/orgs/${zone.id}/require-sso`, { enabled: true }, cookie);
    expect(await bodyOf(ok)).toMatchObject({ require_sso: true, sso_available: true });
    const profile = await bodyOf(await t.request(`/api/users/self?o=${zone.id}`, { headers: { cookie } }));
    expect(profile.orgs.find((o: { id: number }) => o.id === zone.id).saml).toEqual({ enabled: true, redirect: null });
    expect((await eventsOf('zone.require_sso')).some((e) => e.organizationId === zone.id)).toBe(true);
  });
});
