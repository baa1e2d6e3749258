import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAccountUser, ZAccountUserList } from '@patchwell/core/users/users.schema';
import { invitations, outbox, sessions, users } from '../../db/schema';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import { buildAccount, buildUser, buildZone } from '../../test/factories';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

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

/** An account with zones Alpha and Beta, its global administrator, and a zone administrator of Alpha. */
async function account() {
  const acc = await buildAccount(t.db);
  const alpha = await buildZone(t.db, { accountId: acc.id, name: 'Alpha' });
  const beta = await buildZone(t.db, { accountId: acc.id, name: 'Beta' });
  const ga = await buildUser(t.db, { accountId: acc.id, globalAdmin: true, zones: { [alpha.id]: 1 } });
  const zoneAdmin = await buildUser(t.db, { accountId: acc.id, zones: { [alpha.id]: 1 } });
  const cookie = (await t.signIn(ga.email, ga.password)).cookie;
  return { acc, alpha, beta, ga, zoneAdmin, cookie, base: `/api/accounts/${acc.id}/users` };
}

describe('GET /api/accounts/{accountId}/users', () => {
  it('lists the account’s users with their zones and roles', async () => {
    const { alpha, beta, ga, zoneAdmin, cookie, base } = await account();
    const member = await buildUser(t.db, {
      accountId: zoneAdmin.accountId!,
      zones: { [beta.id]: 5, [alpha.id]: 2 },
    });
    const res = await send('GET', base, { cookie });
    expect(res.status).toBe(200);
    const list = ZAccountUserList.parse(await bodyOf(res));
    expect(list.map((u) => u.id).sort()).toEqual([ga.id, zoneAdmin.id, member.id].sort());
    expect(list.find((u) => u.id === member.id)!.zones).toEqual([
      { zone_id: alpha.id, zone_name: 'Alpha', role_id: 2, role_name: 'Read Only' },
      { zone_id: beta.id, zone_name: 'Beta', role_id: 5, role_name: 'Patch Operator' },
    ]);
    expect(list.find((u) => u.id === ga.id)!.account_rbac_role).toBe('global-admin');
  });

  it('answers 404 to another account and 403 to a user of the account without global access', async () => {
    const { zoneAdmin, base } = await account();
    const other = await account();
    expect((await send('GET', base, { cookie: other.cookie })).status).toBe(404);
    expect((await send('GET', `${base}/${zoneAdmin.id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await send('GET', `${other.base}/${zoneAdmin.id}`, { cookie: other.cookie })).status).toBe(404);
    const zoneAdminCookie = (await t.signIn(zoneAdmin.email, zoneAdmin.password)).cookie;
    expect((await send('GET', base, { cookie: zoneAdminCookie })).status).toBe(403);
  });
});

describe('POST /api/accounts/{accountId}/users', () => {
  it('creates a pending user with zone roles and sends the invitation to the outbox', async () => {
    const { acc, alpha, beta, cookie, base } = await account();
    const res = await send('POST', base, {
      cookie,
      body: {
        email: 'Created@Example.test',
        firstname: 'Cre',
        lastname: 'Ated',
        account_rbac_role: 'no-global-access',
        zones: [
          { zone_id: beta.id, role_id: 4 },
          { zone_id: alpha.id, role_id: 2 },
        ],
      },
    });
    expect(res.status).toBe(201);
    const user = ZAccountUser.parse(await bodyOf(res));
    expect(user).toMatchObject({
      email: 'created@example.test',
      status: 'pending-invite',
      account_rbac_role: 'no-global-access',
    });
    expect(user.zones.map((z) => [z.zone_id, z.role_id])).toEqual([
      [alpha.id, 2],
      [beta.id, 4],
    ]);
    const [invitation] = await t.db.select().from(invitations).where(eq(invitations.userId, user.id));
    expect(invitation).toMatchObject({ organizationId: beta.id, roleId: 4, email: 'created@example.test' });
    const mail = await t.db.select().from(outbox).where(eq(outbox.to, 'created@example.test'));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ accountId: acc.id, sentAt: null });
    expect(mail[0]!.text).toContain('/console/accept-invite?token=');
  });

  it('reports the spec’s validation texts', async () => {
    const { alpha, ga, cookie, base } = await account();
    const body = { email: 'v@example.test', firstname: 'V', lastname: 'W', account_rbac_role: 'no-global-access' };
    const twice = await send('POST', base, {
      cookie,
      body: {
        ...body,
        zones: [
          { zone_id: alpha.id, role_id: 1 },
          { zone_id: alpha.id, role_id: 2 },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect((await bodyOf(twice)).errors).toEqual({ 'zones.1.zone_id': ['This user already exists in this Zone'] });

    const noRole = await send('POST', base, { cookie, body: { ...body, zones: [{ zone_id: alpha.id }] } });
    expect((await bodyOf(noRole)).errors).toEqual({ 'zones.0.role_id': ['Role is required'] });

    const noZones = await send('POST', base, { cookie, body: { ...body, zones: [] } });
    expect((await bodyOf(noZones)).errors).toEqual({ zones: ['At least one item is required'] });

    const taken = await send('POST', base, {
      cookie,
      body: { ...body, email: ga.email.toUpperCase(), zones: [{ zone_id: alpha.id, role_id: 2 }] },
    });
    expect(taken.status).toBe(409);
    expect((await bodyOf(taken)).errors).toEqual({ email: ['This email address is already in use.'] });

    const foreign = await account();
    const otherZone = await send('POST', base, {
      cookie,
      body: { ...body, zones: [{ zone_id: foreign.alpha.id, role_id: 2 }] },
    });
    expect(otherZone.status).toBe(404);
  });

  it('creates a global administrator without zones', async () => {
    const { cookie, base } = await account();
    const res = await send('POST', base, {
      cookie,
      body: { email: 'ga2@example.test', firstname: 'G', lastname: 'A', account_rbac_role: 'global-admin', zones: [] },
    });
    expect(res.status).toBe(201);
    expect(await bodyOf(res)).toMatchObject({ account_rbac_role: 'global-admin', zones: [] });
  });
});

describe('PUT /api/accounts/{accountId}/users/{userId}', () => {
  it('replaces names, account role and zones; the change applies on the next request', async () => {
    const { alpha, beta, zoneAdmin, cookie, base } = await account();
    const memberCookie = (await t.signIn(zoneAdmin.email, zoneAdmin.password)).cookie;
    const res = await send('PUT', `${base}/${zoneAdmin.id}`, {
      cookie,
      body: { firstname: 'Renamed', zones: [{ zone_id: beta.id, role_id: 3 }] },
    });
    expect(res.status).toBe(200);
    const user = ZAccountUser.parse(await bodyOf(res));
    expect(user.firstname).toBe('Renamed');
    expect(user.zones).toEqual([
      { zone_id: beta.id, zone_name: 'Beta', role_id: 3, role_name: 'Billing Administrator' },
    ]);
    expect((await send('GET', `/api/users?o=${alpha.id}`, { cookie: memberCookie })).status).toBe(404);

    const promoted = await send('PUT', `${base}/${zoneAdmin.id}`, {
      cookie,
      body: { account_rbac_role: 'global-admin' },
    });
    expect((await bodyOf(promoted)).account_rbac_role).toBe('global-admin');
    expect((await send('GET', `/api/users?o=${alpha.id}`, { cookie: memberCookie })).status).toBe(200);
  });

  it('disables a user and ends their sessions; one without zones is signed out', async () => {
    const { acc, alpha, zoneAdmin, cookie, base } = await account();
    await t.signIn(zoneAdmin.email, zoneAdmin.password);
    const res = await send('PUT', `${base}/${zoneAdmin.id}`, { cookie, body: { status: 'disabled' } });
    expect((await bodyOf(res)).status).toBe('disabled');
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, zoneAdmin.id))).toEqual([]);

    const other = await buildUser(t.db, { accountId: acc.id, zones: { [alpha.id]: 2 } });
    const otherCookie = (await t.signIn(other.email, other.password)).cookie;
    await send('PUT', `${base}/${other.id}`, { cookie, body: { zones: [] } });
    expect((await send('GET', '/api/users/is-authenticated', { cookie: otherCookie })).status).toBe(401);
  });

  it('keeps a global administrator from locking themself out', async () => {
    const { ga, cookie, base } = await account();
    const res = await send('PUT', `${base}/${ga.id}`, {
      cookie,
      body: { account_rbac_role: 'no-global-access', status: 'disabled' },
    });
    expect(res.status).toBe(400);
    expect(Object.keys((await bodyOf(res)).errors).sort()).toEqual(['account_rbac_role', 'status']);
  });

  it('answers 404 for another account’s user', async () => {
    const { cookie, base } = await account();
    const foreign = await account();
    expect((await send('PUT', `${base}/${foreign.zoneAdmin.id}`, { cookie, body: { firstname: 'X' } })).status).toBe(
      404,
    );
  });
});

describe('DELETE /api/accounts/{accountId}/users/{userId}', () => {
  it('deletes the user entirely and ends their sessions', async () => {
    const { ga, zoneAdmin, cookie, base } = await account();
    const memberCookie = (await t.signIn(zoneAdmin.email, zoneAdmin.password)).cookie;
    expect((await send('DELETE', `${base}/${zoneAdmin.id}`, { cookie })).status).toBe(204);
    expect(await t.db.select().from(users).where(eq(users.id, zoneAdmin.id))).toEqual([]);
    expect((await send('GET', '/api/users/is-authenticated', { cookie: memberCookie })).status).toBe(401);
    expect((await send('DELETE', `${base}/${zoneAdmin.id}`, { cookie })).status).toBe(404);
    expect((await send('DELETE', `${base}/${ga.id}`, { cookie })).status).toBe(403);
    const foreign = await account();
    expect((await send('DELETE', `${base}/${foreign.zoneAdmin.id}`, { cookie })).status).toBe(404);
  });
});
