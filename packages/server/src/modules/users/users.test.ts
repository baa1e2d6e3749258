import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZZoneUserList } from '@patchwell/core/users/users.schema';
import { loginFailures, organizations, sessions, users } from '../../db/schema';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import { buildAccount, buildUser, buildZone } from '../../test/factories';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'an-entirely-new-passphrase-9';

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

/** An account with two zones: a zone administrator, a reader and a patch operator in `zone`; a stranger in `other`. */
async function team() {
  const account = await buildAccount(t.db);
  const zone = await buildZone(t.db, { accountId: account.id });
  const other = await buildZone(t.db, { accountId: account.id });
  const admin = await buildUser(t.db, { accountId: account.id, firstname: 'Ada', zones: { [zone.id]: 1 } });
  const reader = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 2 } });
  const operator = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 5, [other.id]: 2 } });
  const stranger = await buildUser(t.db, { accountId: account.id, zones: { [other.id]: 1 } });
  const cookie = (await t.signIn(admin.email, admin.password)).cookie;
  return { account, zone, other, admin, reader, operator, stranger, cookie };
}

const signedInAs = async (u: { email: string; password: string }) => (await t.signIn(u.email, u.password)).cookie;

describe('GET /api/users', () => {
  it('lists the members of zone o with their role there', async () => {
    const { zone, admin, reader, operator, cookie } = await team();
    const res = await send('GET', `/api/users?o=${zone.id}`, { cookie });
    expect(res.status).toBe(200);
    const list = ZZoneUserList.parse(await bodyOf(res));
    expect(list.map((u) => u.id).sort()).toEqual([admin.id, reader.id, operator.id].sort());
    expect(list.find((u) => u.id === operator.id)).toMatchObject({
      email: operator.email,
      status: 'active',
      locked: false,
      account_rbac_role: 'no-global-access',
      role: { id: 5, name: 'Patch Operator' },
    });
  });

  it('shows a global administrator as such', async () => {
    const account = await buildAccount(t.db);
    const zone = await buildZone(t.db, { accountId: account.id });
    const ga = await buildUser(t.db, { accountId: account.id, globalAdmin: true, zones: { [zone.id]: 1 } });
    const list = await bodyOf(await send('GET', `/api/users?o=${zone.id}`, { cookie: await signedInAs(ga) }));
    expect(list[0].role).toEqual({ id: 1, name: 'Global Administrator' });
  });

  it('needs Users.read: 403 for a reader, 404 for another account’s zone or a zone one is not in', async () => {
    const { zone, other, reader, cookie } = await team();
    expect((await send('GET', `/api/users?o=${zone.id}`, { cookie: await signedInAs(reader) })).status).toBe(403);
    expect((await send('GET', `/api/users?o=${other.id}`, { cookie })).status).toBe(404);
    const foreign = await team();
    expect((await send('GET', `/api/users?o=${foreign.zone.id}`, { cookie })).status).toBe(404);
    expect((await send('GET', '/api/users', { cookie })).status).toBe(400);
  });
});

describe('PUT /api/users/{id} by an administrator', () => {
  it('changes a member’s role, which applies on their very next request', async () => {
    const { zone, reader, cookie } = await team();
    const readerCookie = await signedInAs(reader);
    expect((await send('GET', `/api/users?o=${zone.id}`, { cookie: readerCookie })).status).toBe(403);

    const res = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body: { role_id: 1 } });
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).role).toEqual({ id: 1, name: 'Zone Administrator' });

    const profile = await bodyOf(await send('GET', `/api/users/self?o=${zone.id}`, { cookie: readerCookie }));
    expect(profile.rbac_role).toBe('Zone Administrator');
    expect(profile.permissions[String(zone.id)]).toContain('Users.read');
    expect((await send('GET', `/api/users?o=${zone.id}`, { cookie: readerCookie })).status).toBe(200);
  });

  it('disables a member: their session ends at once; enabling lets them sign in again', async () => {
    const { zone, operator, cookie } = await team();
    const operatorCookie = await signedInAs(operator);
    const res = await send('PUT', `/api/users/${operator.id}?o=${zone.id}`, { cookie, body: { status: 'disabled' } });
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).status).toBe('disabled');
    expect((await send('GET', '/api/users/is-authenticated', { cookie: operatorCookie })).status).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, operator.id))).toEqual([]);
    expect((await t.signIn(operator.email, operator.password)).res.status).toBe(401);

    await send('PUT', `/api/users/${operator.id}?o=${zone.id}`, { cookie, body: { status: 'active' } });
    expect((await t.signIn(operator.email, operator.password)).res.status).toBe(200);
  });

  it('refuses unknown roles, empty bodies and a global administrator’s role', async () => {
    const { account, zone, reader, cookie } = await team();
    const bad = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body: { role_id: 6 } });
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).errors).toEqual({ role_id: ['Role is required'] });
    const empty = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body: {} });
    expect(empty.status).toBe(400);
    expect((await bodyOf(empty)).errors).toEqual({ _: ['At least one item is required'] });

    const ga = await buildUser(t.db, { accountId: account.id, globalAdmin: true, zones: { [zone.id]: 1 } });
    const res = await send('PUT', `/api/users/${ga.id}?o=${zone.id}`, { cookie, body: { role_id: 2 } });
    expect(res.status).toBe(403);
    expect(await bodyOf(res)).toEqual({
      code: 'users.global_admin',
      message: "A global administrator's role and status can only be changed in global user management.",
    });
  });

  it('answers 404 for a user who is not in zone o, or of another account, and 403 without Users.modify', async () => {
    const { zone, other, reader, stranger, cookie } = await team();
    expect((await send('PUT', `/api/users/${stranger.id}?o=${zone.id}`, { cookie, body: { role_id: 2 } })).status).toBe(
      404,
    );
    const foreign = await team();
    expect(
      (await send('PUT', `/api/users/${foreign.reader.id}?o=${zone.id}`, { cookie, body: { role_id: 2 } })).status,
    ).toBe(404);
    expect(
      (await send('PUT', `/api/users/${foreign.reader.id}?o=${foreign.zone.id}`, { cookie, body: { role_id: 2 } }))
        .status,
    ).toBe(404);
    // The admin of `zone` holds no role in `other`.
    expect(
      (await send('PUT', `/api/users/${stranger.id}?o=${other.id}`, { cookie, body: { role_id: 2 } })).status,
    ).toBe(404);
    const readerCookie = await signedInAs(reader);
    const { admin } = await team();
    expect(
      (await send('PUT', `/api/users/${admin.id}?o=${zone.id}`, { cookie: readerCookie, body: { role_id: 2 } })).status,
    ).toBe(403);
  });
});

describe('PUT /api/users/{id} on oneself', () => {
  it('changes names, within 31 characters', async () => {
    const { zone, reader } = await team();
    const cookie = await signedInAs(reader);
    const res = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, {
      cookie,
      body: { firstname: ' Grace ', lastname: 'Hopper' },
    });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({ firstname: 'Grace', lastname: 'Hopper', role: { id: 2 } });
    const long = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, {
      cookie,
      body: { firstname: 'x'.repeat(32) },
    });
    expect(long.status).toBe(400);
    expect((await bodyOf(long)).errors).toEqual({ firstname: ['First name must be under 32 characters.'] });
    const blank = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body: { lastname: '  ' } });
    expect((await bodyOf(blank)).errors).toEqual({ lastname: ['Last name is required'] });
  });

  it('changes the e-mail when it is free; one in use is a 409 on email', async () => {
    const { zone, reader, operator } = await team();
    const cookie = await signedInAs(reader);
    const taken = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, {
      cookie,
      body: { email: operator.email.toUpperCase() },
    });
    expect(taken.status).toBe(409);
    expect((await bodyOf(taken)).errors).toEqual({ email: ['This email address is already in use.'] });

    const fresh = `renamed-${reader.id}@example.test`;
    const res = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, {
      cookie,
      body: { email: ` ${fresh.toUpperCase()}` },
    });
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).email).toBe(fresh);
    expect((await t.signIn(fresh, reader.password)).res.status).toBe(200);
    const invalid = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body: { email: 'nope' } });
    expect((await bodyOf(invalid)).errors).toEqual({ email: ['Must be a valid email.'] });
  });

  it('refuses an e-mail change while zone o uses SAML, but not names', async () => {
    const { zone, reader } = await team();
    await t.db
      .update(organizations)
      .set({ saml: { enabled: true, redirect: null } })
      .where(eq(organizations.id, zone.id));
    const cookie = await signedInAs(reader);
    const res = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, {
      cookie,
      body: { email: `saml-${reader.id}@example.test` },
    });
    expect(res.status).toBe(403);
    expect(await bodyOf(res)).toMatchObject({ code: 'users.email_saml', errors: { email: [expect.any(String)] } });
    const names = await send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body: { firstname: 'Still' } });
    expect(names.status).toBe(200);
  });

  it('changes the password only with the current one, a good new one and a matching repeat', async () => {
    const { zone, reader } = await team();
    const cookie = await signedInAs(reader);
    const otherSession = await signedInAs(reader);
    const put = (body: unknown) => send('PUT', `/api/users/${reader.id}?o=${zone.id}`, { cookie, body });

    const wrong = await put({ password: 'not-my-password-at-all', password1: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect((await bodyOf(wrong)).errors).toEqual({ password: ['The current password is incorrect.'] });

    const noCurrent = await put({ password1: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect((await bodyOf(noCurrent)).errors).toEqual({ password: ['This field is required.'] });

    const mismatch = await put({ password: reader.password, password1: NEW_PASSWORD, password2: `${NEW_PASSWORD}x` });
    expect((await bodyOf(mismatch)).errors).toEqual({ password2: ['Passwords do not match.'] });

    const short = await put({ password: reader.password, password1: 'short', password2: 'short' });
    expect((await bodyOf(short)).errors).toEqual({ password1: ['Value must be at least 12 characters.'] });

    const common = await put({ password: reader.password, password1: 'password1234', password2: 'password1234' });
    expect(Object.keys((await bodyOf(common)).errors)).toEqual(['password1']);

    const ok = await put({ password: reader.password, password1: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(ok.status).toBe(200);
    expect((await t.signIn(reader.email, reader.password)).res.status).toBe(401);
    expect((await t.signIn(reader.email, NEW_PASSWORD)).res.status).toBe(200);
    // This session goes on; the other one ended with the old password.
    expect((await send('GET', '/api/users/is-authenticated', { cookie })).status).toBe(200);
    expect((await send('GET', '/api/users/is-authenticated', { cookie: otherSession })).status).toBe(401);
  });

  it('answers 404 for a zone one cannot enter', async () => {
    const { other, reader } = await team();
    const cookie = await signedInAs(reader);
    const res = await send('PUT', `/api/users/${reader.id}?o=${other.id}`, { cookie, body: { firstname: 'X' } });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /api/users/{id}', () => {
  it('removes a member from zone o; they keep other zones and their session', async () => {
    const { zone, other, operator, cookie } = await team();
    const operatorCookie = await signedInAs(operator);
    expect((await send('DELETE', `/api/users/${operator.id}?o=${zone.id}`, { cookie })).status).toBe(204);
    const list = await bodyOf(await send('GET', `/api/users?o=${zone.id}`, { cookie }));
    expect(list.map((u: { id: number }) => u.id)).not.toContain(operator.id);
    const profile = await bodyOf(await send('GET', '/api/users/self', { cookie: operatorCookie }));
    expect(profile.orgs.map((o: { id: number }) => o.id)).toEqual([other.id]);
    // Another removal of the same user: no longer a member.
    expect((await send('DELETE', `/api/users/${operator.id}?o=${zone.id}`, { cookie })).status).toBe(404);
  });

  it('ends the sessions of a user left without any zone', async () => {
    const { zone, reader, cookie } = await team();
    const readerCookie = await signedInAs(reader);
    expect((await send('DELETE', `/api/users/${reader.id}?o=${zone.id}`, { cookie })).status).toBe(204);
    expect((await send('GET', '/api/users/is-authenticated', { cookie: readerCookie })).status).toBe(401);
  });

  it('needs Users.delete and a member of zone o', async () => {
    const { zone, admin, reader, stranger, cookie } = await team();
    expect(
      (await send('DELETE', `/api/users/${admin.id}?o=${zone.id}`, { cookie: await signedInAs(reader) })).status,
    ).toBe(403);
    expect((await send('DELETE', `/api/users/${stranger.id}?o=${zone.id}`, { cookie })).status).toBe(404);
  });
});

describe('user preferences', () => {
  it('stores and returns the caller’s own preferences', async () => {
    const { zone, reader } = await team();
    const cookie = await signedInAs(reader);
    expect(await bodyOf(await send('GET', `/api/users/self/prefs?o=${zone.id}`, { cookie }))).toEqual([]);
    const res = await send('POST', `/api/users/self/prefs?o=${zone.id}`, {
      cookie,
      body: {
        prefs: [
          { pref_name: 'theme', value: 'dark' },
          { pref_name: 'pageSize', value: '50' },
          { pref_name: 'theme', value: 'light' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual([
      { user_id: reader.id, pref_name: 'pageSize', value: '50' },
      { user_id: reader.id, pref_name: 'theme', value: 'light' },
    ]);
    await send('POST', '/api/users/self/prefs', { cookie, body: { prefs: [{ pref_name: 'theme', value: 'dark' }] } });
    const after = await bodyOf(await send('GET', '/api/users/self/prefs', { cookie }));
    expect(after.find((p: { pref_name: string }) => p.pref_name === 'theme').value).toBe('dark');
  });
});

describe('lockout and unlock', () => {
  it('locks after 5 failed sign-ins; an administrator unlocks; then sign-in works', async () => {
    const { zone, operator, reader, cookie } = await team();
    for (let i = 0; i < 5; i++) {
      expect((await t.signIn(operator.email, 'a-wrong-password-guess')).res.status).toBe(401);
    }
    const locked = await t.signIn(operator.email, operator.password);
    expect(locked.res.status).toBe(403);
    expect((await bodyOf(locked.res)).code).toBe('auth.locked');
    const listed = await bodyOf(await send('GET', `/api/users?o=${zone.id}`, { cookie }));
    expect(listed.find((u: { id: number }) => u.id === operator.id).locked).toBe(true);

    // A reader may not unlock.
    const denied = await send('POST', `/api/users/unlockaccount?o=${zone.id}`, {
      cookie: await signedInAs(reader),
      body: { userid: operator.id },
    });
    expect(denied.status).toBe(403);

    const res = await send('POST', `/api/users/unlockaccount?o=${zone.id}`, { cookie, body: { userid: operator.id } });
    expect(res.status).toBe(204);
    const [row] = await t.db.select().from(users).where(eq(users.id, operator.id));
    expect(row).toMatchObject({ locked: false, failedSigninCount: 0 });
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.key, operator.email))).toEqual([]);
    expect((await t.signIn(operator.email, operator.password)).res.status).toBe(200);
  });

  it('answers 404 for a user outside zone o', async () => {
    const { zone, stranger, cookie } = await team();
    const res = await send('POST', `/api/users/unlockaccount?o=${zone.id}`, { cookie, body: { userid: stranger.id } });
    expect(res.status).toBe(404);
  });
});
