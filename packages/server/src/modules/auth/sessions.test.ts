import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import { ONE_HOUR_MS, ONE_MINUTE_MS } from '@patchwell/core/constants';
import { organizations, sessions, userZoneRoles, users } from '../../db/schema';
import { buildAccountWithUser, buildUser, buildZone } from '../../test/factories';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function signedIn(options: { roleId?: number } = {}) {
  const fixture = await buildAccountWithUser(t.db, options);
  const { cookie } = await t.signIn(fixture.user.email, fixture.user.password);
  expect(cookie).not.toBe('');
  const check = () => t.request('/api/users/is-authenticated', { headers: { cookie } });
  return { ...fixture, cookie, check };
}

describe('session lifetime', () => {
  it('expires after 30 idle minutes with 401 session_expired and deletes the row', async () => {
    const { user, check } = await signedIn();
    t.clock.advance(29 * ONE_MINUTE_MS);
    expect((await check()).status).toBe(200);
    t.clock.advance(30 * ONE_MINUTE_MS);
    const res = await check();
    expect(res.status).toBe(401);
    expect(await bodyOf(res)).toEqual(AUTH_ERRORS.sessionExpired);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it('stays alive with activity inside the idle timeout, until the 12-hour maximum lifetime', async () => {
    const { check } = await signedIn();
    const start = t.clock.now().getTime();
    while (t.clock.now().getTime() - start + 25 * ONE_MINUTE_MS < 12 * ONE_HOUR_MS) {
      t.clock.advance(25 * ONE_MINUTE_MS);
      expect((await check()).status).toBe(200);
    }
    t.clock.set(new Date(start + 12 * ONE_HOUR_MS));
    const res = await check();
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).code).toBe('auth.session_expired');
  });

  it('applies the strictest bounds of the user’s zones, read on every request', async () => {
    const { account, user, zone, check } = await signedIn({ roleId: 2 });
    const second = await buildZone(t.db, { accountId: account.id });
    await t.db.insert(userZoneRoles).values({
      userId: user.id,
      organizationId: second.id,
      roleId: 2,
    });
    await t.db.update(organizations).set({ sessionIdleTimeoutMinutes: 60 }).where(eq(organizations.id, zone.id));
    await t.db.update(organizations).set({ sessionIdleTimeoutMinutes: 45 }).where(eq(organizations.id, second.id));
    t.clock.advance(40 * ONE_MINUTE_MS);
    expect((await check()).status).toBe(200); // 40 min idle < 45
    t.clock.advance(46 * ONE_MINUTE_MS);
    expect((await check()).status).toBe(401); // 46 min idle > 45, though the first zone allows 60
  });

  it('applies to a global administrator the bounds of every zone of the account, and of no other account', async () => {
    const { account, check } = await signedIn(); // a global administrator with a role in one zone only
    await buildZone(t.db, { accountId: account.id, sessionIdleTimeoutMinutes: 20 }); // no role there
    const other = await buildAccountWithUser(t.db);
    await t.db.update(organizations).set({ sessionIdleTimeoutMinutes: 5 }).where(eq(organizations.id, other.zone.id));
    t.clock.advance(19 * ONE_MINUTE_MS);
    expect((await check()).status).toBe(200); // the other account's 5 minutes do not apply
    t.clock.advance(21 * ONE_MINUTE_MS);
    expect((await check()).status).toBe(401); // 21 min idle > 20
  });

  it('reports the session’s bounds in the profile', async () => {
    const { cookie } = await signedIn();
    const res = await t.request('/api/users/self', { headers: { cookie } });
    const body = await bodyOf(res);
    expect(body.session).toEqual({
      expires_at: new Date(t.clock.now().getTime() + 30 * ONE_MINUTE_MS).toISOString(),
      idle_timeout_minutes: 30,
    });
  });

  it('writes last_seen_at at most once a minute', async () => {
    const { user, check } = await signedIn();
    const lastSeen = async () =>
      (await t.db.select().from(sessions).where(eq(sessions.userId, user.id)))[0]!.lastSeenAt.getTime();
    const signedInAt = await lastSeen();
    t.clock.advance(30_000);
    await check();
    expect(await lastSeen()).toBe(signedInAt);
    t.clock.advance(31_000);
    await check();
    expect(await lastSeen()).toBe(t.clock.now().getTime());
  });

  it('rejects the sessions of a user who was disabled', async () => {
    const { user, check } = await signedIn();
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const res = await check();
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).code).toBe('auth.session_expired');
  });

  it('lets a user without zones keep a session with the default bounds', async () => {
    const { account } = await buildAccountWithUser(t.db);
    const loner = await buildUser(t.db, { accountId: account.id });
    const { cookie } = await t.signIn(loner.email, loner.password);
    t.clock.advance(29 * ONE_MINUTE_MS);
    expect((await t.request('/api/users/is-authenticated', { headers: { cookie } })).status).toBe(200);
  });
});

describe('GET and POST /api/logout', () => {
  it.each(['GET', 'POST'])('%s deletes the session and clears the cookie', async (method) => {
    const { user, cookie, check } = await signedIn();
    const res = await t.request('/api/logout', { method, headers: { cookie } });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().join()).toMatch(/pw_session=; Max-Age=0|pw_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await check()).status).toBe(401);
  });

  it('succeeds without a session', async () => {
    expect((await t.request('/api/logout', { method: 'POST' })).status).toBe(204);
  });

  it.each([
    ['GET', { 'sec-fetch-site': 'cross-site' }],
    ['POST', { 'sec-fetch-site': 'cross-site' }],
    ['GET', { origin: 'https://evil.example' }],
    ['POST', { origin: 'https://evil.example' }],
    ['POST', { origin: 'null' }],
  ])('%s from another site (%o) is refused with 403 csrf and keeps the session', async (method, headers) => {
    const { cookie, check } = await signedIn();
    const res = await t.request('/api/logout', { method, headers: { cookie, ...headers } });
    expect(res.status).toBe(403);
    expect((await bodyOf(res)).code).toBe('csrf');
    expect((await check()).status).toBe(200);
  });

  it('accepts a same-origin request that sends Origin and Sec-Fetch-Site', async () => {
    const { cookie, check } = await signedIn();
    const res = await t.request('/api/logout', {
      method: 'POST',
      headers: { cookie, origin: t.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(204);
    expect((await check()).status).toBe(401);
  });
});

// Sessions and profiles a node validated are kept in memory (decision 0020); whoever changes
// the database, the next request must see the change.
describe('sessions and profiles kept in memory', () => {
  it('drops a kept session when its user is disabled or it is deleted, by any writer', async () => {
    const first = await signedIn();
    expect((await first.check()).status).toBe(200);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, first.user.id));
    expect((await first.check()).status).toBe(401);

    const second = await signedIn();
    expect((await second.check()).status).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.userId, second.user.id));
    expect((await second.check()).status).toBe(401);
  });

  it('applies a zone role changed or removed in the database on the next request', async () => {
    const { user, zone, cookie } = await signedIn({ roleId: 2 });
    const self = async () =>
      (await bodyOf(await t.request(`/api/users/self?o=${zone.id}`, { headers: { cookie } }))) as {
        rbac_role: string;
        orgs: unknown[];
      };
    const before = await self();
    await t.db.update(userZoneRoles).set({ roleId: 3 }).where(eq(userZoneRoles.userId, user.id));
    const after = await self();
    expect(after.rbac_role).not.toBe(before.rbac_role);
    await t.db.delete(userZoneRoles).where(eq(userZoneRoles.userId, user.id));
    expect((await self()).orgs).toEqual([]);
    expect((await t.request(`/api/servers?o=${zone.id}`, { headers: { cookie } })).status).toBe(404);
  });
});
