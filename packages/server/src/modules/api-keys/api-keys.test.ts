import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiKeyList, ZCreatedApiKey } from '@patchwell/core/users/api-keys.schema';
import { apiKeys, organizations, userZoneRoles, users } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { call, clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccount, buildUser, buildZone } from '../../test/factories';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** An account with two zones, a user holding `roleId` in both, and their session client. */
async function setup(options: { roleId?: number; globalAdmin?: boolean } = {}) {
  const account = await buildAccount(t.db);
  const zoneA = await buildZone(t.db, { accountId: account.id, name: 'Zone A' });
  const zoneB = await buildZone(t.db, { accountId: account.id, name: 'Zone B' });
  const roleId = options.roleId ?? 1;
  const user = await buildUser(t.db, {
    accountId: account.id,
    globalAdmin: options.globalAdmin ?? false,
    zones: options.globalAdmin ? {} : { [zoneA.id]: roleId, [zoneB.id]: roleId },
  });
  const session = clientFor(t, { cookie: await cookieFor(t, user) });
  return { account, zoneA, zoneB, user, session };
}

async function createKey(
  session: ReturnType<typeof clientFor>,
  zoneId: number,
  body: Record<string, unknown> = { name: 'CI' },
) {
  const res = await session.post(`/api/users/self/api_keys?o=${zoneId}`, body);
  expect(res.status).toBe(201);
  return ZCreatedApiKey.parse(res.body);
}

describe('/api/users/self/api_keys', () => {
  it('creates a key shown once (pw_ + 40 characters), stores only its hash, lists and revokes it', async () => {
    const { zoneA, session, user } = await setup();
    const created = await createKey(session, zoneA.id, { name: 'Deploy bot', expires_in_days: 30 });
    expect(created.key).toMatch(/^pw_[A-Za-z0-9]{40}$/);
    expect(created).toMatchObject({ name: 'Deploy bot', zone_id: zoneA.id, last_used_at: null });
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(new Date(created.expires_at!).getTime() - t.clock.now().getTime()).toBe(30 * 86_400_000);

    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.keyHash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = await session.get(`/api/users/self/api_keys?o=${zoneA.id}`);
    expect(ZApiKeyList.parse(list.body)).toEqual([
      {
        id: created.id,
        name: 'Deploy bot',
        prefix: created.prefix,
        zone_id: zoneA.id,
        created_at: created.created_at,
        last_used_at: null,
        expires_at: created.expires_at,
      },
    ]);
    expect(list.text).not.toContain(created.key);

    expect((await session.del(`/api/users/self/api_keys/${created.id}`)).status).toBe(204);
    expect((await session.get('/api/users/self/api_keys')).body).toEqual([]);
    expect((await session.del(`/api/users/self/api_keys/${created.id}`)).status).toBe(404);
    expect(user.id).toBe(row?.userId);
  });

  it('validates the name (1 to 64 characters) and needs a zone', async () => {
    const { zoneA, session } = await setup();
    const empty = await session.post(`/api/users/self/api_keys?o=${zoneA.id}`, { name: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ name: ['Name is required'] });
    const long = await session.post(`/api/users/self/api_keys?o=${zoneA.id}`, { name: 'x'.repeat(65) });
    expect(long.body.errors).toEqual({ name: ['Name must be at most 64 characters.'] });
    expect((await session.post(`/api/users/self/api_keys?o=${zoneA.id}`, { name: 'x'.repeat(64) })).status).toBe(201);
    const noZone = await session.post('/api/users/self/api_keys', { name: 'No zone' });
    expect(noZone.status).toBe(400);
    expect(noZone.body.errors).toEqual({ zone_id: ['Zone is required'] });
  });

  it('makes keys only for zones the owner may enter; all zones only for a global administrator', async () => {
    const { zoneA, session } = await setup({ roleId: 2 });
    const foreign = await setup();
    const otherZone = await session.post(`/api/users/self/api_keys?o=${zoneA.id}`, {
      name: 'x',
      zone_id: foreign.zoneA.id,
    });
    expect(otherZone.status).toBe(404);
    expect((await session.post(`/api/users/self/api_keys?o=${foreign.zoneA.id}`, { name: 'x' })).status).toBe(404);
    const allZones = await session.post(`/api/users/self/api_keys?o=${zoneA.id}`, { name: 'x', zone_id: null });
    expect(allZones.status).toBe(403);
    expect(allZones.body.errors).toEqual({ zone_id: ['Only a global administrator can create a key for all zones.'] });

    const admin = await setup({ globalAdmin: true });
    const adminKey = await createKey(admin.session, admin.zoneA.id, { name: 'all', zone_id: null });
    expect(adminKey.zone_id).toBeNull();
  });

  it('hides another user’s keys: revoking one answers 404', async () => {
    const a = await setup();
    const b = await setup();
    const key = await createKey(b.session, b.zoneA.id);
    expect((await a.session.del(`/api/users/self/api_keys/${key.id}`)).status).toBe(404);
    expect((await b.session.get('/api/users/self/api_keys')).body).toHaveLength(1);
  });
});

describe('Authorization: Bearer <API key>', () => {
  it('acts with the owner’s permissions in the key’s zone, and 404 in any other zone', async () => {
    const { zoneA, zoneB, session } = await setup({ roleId: 2 });
    const { key } = await createKey(session, zoneA.id);
    const bearer = clientFor(t, { bearer: key });
    expect((await bearer.get(`/api/rbacroles?o=${zoneA.id}`)).status).toBe(200);
    // Without o, the key's zone is meant.
    expect((await bearer.get('/api/rbacroles')).status).toBe(200);
    // The owner holds a role in zone B too, but the key is bound to zone A.
    expect((await bearer.get(`/api/rbacroles?o=${zoneB.id}`)).status).toBe(404);
    expect((await bearer.get(`/api/orgs/${zoneB.id}`)).status).toBe(404);
    const orgs = await bearer.get('/api/orgs');
    expect(orgs.body.map((z: { id: number }) => z.id)).toEqual([zoneA.id]);
    // Read Only in zone A: no rename.
    expect((await bearer.put(`/api/orgs/${zoneA.id}`, { name: 'Renamed' })).status).toBe(403);
    const perms = await bearer.get('/api/permissions');
    expect(Object.keys(perms.body.mine)).toEqual([String(zoneA.id)]);
  });

  it('lets a global administrator’s all-zones key work in every zone of the account and nowhere else', async () => {
    const { zoneA, zoneB, session } = await setup({ globalAdmin: true });
    const foreign = await setup();
    const { key } = await createKey(session, zoneA.id, { name: 'all', zone_id: null });
    const bearer = clientFor(t, { bearer: key });
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
    expect((await bearer.get(`/api/orgs/${zoneB.id}`)).status).toBe(200);
    expect((await bearer.get(`/api/orgs/${foreign.zoneA.id}`)).status).toBe(404);
  });

  it('refuses to create an API key with an API key (403), even a global administrator’s all-zones key', async () => {
    const { zoneA, session } = await setup({ globalAdmin: true });
    for (const zone_id of [null, zoneA.id]) {
      const { key } = await createKey(session, zoneA.id, { name: 'parent', zone_id });
      const res = await call(t, { bearer: key }, 'POST', `/api/users/self/api_keys?o=${zoneA.id}`, { name: 'child' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: 'authz.forbidden',
        message: 'An API key cannot create API keys. Sign in to the console to create one.',
      });
    }
    const listed = await session.get(`/api/users/self/api_keys?o=${zoneA.id}`);
    expect(listed.body.map((k: { name: string }) => k.name).sort()).toEqual(['parent', 'parent']);
  });

  it('refuses a revoked key on the very next request', async () => {
    const { zoneA, session } = await setup();
    const created = await createKey(session, zoneA.id);
    const bearer = clientFor(t, { bearer: created.key });
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
    await session.del(`/api/users/self/api_keys/${created.id}`);
    const refused = await bearer.get(`/api/orgs/${zoneA.id}`);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('auth.invalid_api_key');
  });

  it('stops working while its plan is below Standard, and works again after an upgrade', async () => {
    const { zoneA, zoneB, session } = await setup({ globalAdmin: true });
    const zoneKey = clientFor(t, { bearer: (await createKey(session, zoneB.id)).key });
    const allKey = clientFor(t, { bearer: (await createKey(session, zoneA.id, { name: 'all', zone_id: null })).key });
    const setPlan = (zoneId: number, plan: 'patch' | 'tier3') =>
      t.db.update(organizations).set({ plan, trialEndTime: null }).where(eq(organizations.id, zoneId));

    // Zone B leaves the plan: its key is refused; the all-zones key follows the account's
    // plan (zone A, its top-level zone) and still reaches zone B.
    await setPlan(zoneB.id, 'patch');
    const refused = await zoneKey.get(`/api/orgs/${zoneB.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'plans.feature_unavailable' });
    expect(refused.body.message).toMatch(/^Feature Unavailable: API access needs the Standard plan/);
    expect((await allKey.get(`/api/orgs/${zoneB.id}`)).status).toBe(200);

    await setPlan(zoneA.id, 'patch');
    expect((await allKey.get(`/api/orgs/${zoneA.id}`)).status).toBe(403);
    // The console (a session) is never gated: the keys stay listed, for revoking.
    expect((await session.get(`/api/users/self/api_keys?o=${zoneA.id}`)).body).toHaveLength(2);

    await setPlan(zoneA.id, 'tier3');
    await setPlan(zoneB.id, 'tier3');
    expect((await zoneKey.get(`/api/orgs/${zoneB.id}`)).status).toBe(200);
    expect((await allKey.get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
  });

  it('refuses keys of a disabled or locked owner, and an expired key', async () => {
    for (const change of [{ status: 'disabled' as const }, { locked: true }]) {
      const { zoneA, session, user } = await setup();
      const { key } = await createKey(session, zoneA.id);
      const bearer = clientFor(t, { bearer: key });
      expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
      await t.db.update(users).set(change).where(eq(users.id, user.id));
      expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(401);
    }
    const { zoneA, session } = await setup();
    const { key } = await createKey(session, zoneA.id, { name: 'short', expires_in_days: 1 });
    const bearer = clientFor(t, { bearer: key });
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
    t.clock.advance(86_400_000);
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(401);
  });

  it('follows the owner’s roles on the next request: a lower role 403, a removed role 404', async () => {
    const { zoneA, session, user } = await setup({ roleId: 1 });
    const { key } = await createKey(session, zoneA.id);
    const bearer = clientFor(t, { bearer: key });
    const roleRow = and(eq(userZoneRoles.userId, user.id), eq(userZoneRoles.organizationId, zoneA.id));
    expect((await bearer.get(`/api/orgs/${zoneA.id}/access-key`)).status).toBe(200);
    await t.db.update(userZoneRoles).set({ roleId: 2 }).where(roleRow);
    expect((await bearer.get(`/api/orgs/${zoneA.id}/access-key`)).status).toBe(403);
    await t.db.delete(userZoneRoles).where(roleRow);
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(404);
  });

  it('stops an all-zones key once its owner is no longer a global administrator', async () => {
    const { zoneA, session, user } = await setup({ globalAdmin: true });
    const { key } = await createKey(session, zoneA.id, { name: 'all', zone_id: null });
    const bearer = clientFor(t, { bearer: key });
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
    await t.db.update(users).set({ accountRbacRole: 'no-global-access' }).where(eq(users.id, user.id));
    expect((await bearer.get(`/api/orgs/${zoneA.id}`)).status).toBe(401);
  });

  it('answers 401 for an unknown key, even alongside a valid session cookie', async () => {
    const { zoneA, user } = await setup();
    const cookie = await cookieFor(t, user);
    const res = await clientFor(t, { cookie, bearer: `pw_${'x'.repeat(40)}` }).get(`/api/orgs/${zoneA.id}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth.invalid_api_key');
    expect((await clientFor(t, { bearer: 'not-a-key' }).get('/api/orgs')).status).toBe(401);
    expect((await clientFor(t, { cookie }).get(`/api/orgs/${zoneA.id}`)).status).toBe(200);
  });

  it('records the last use at most once a minute', async () => {
    const { zoneA, session } = await setup();
    const created = await createKey(session, zoneA.id);
    const bearer = clientFor(t, { bearer: created.key });
    const lastUsed = async () =>
      (await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]!.lastUsedAt?.getTime();
    const start = t.clock.now().getTime();
    await bearer.get('/api/orgs');
    expect(await lastUsed()).toBe(start);
    t.clock.advance(30_000);
    await bearer.get('/api/orgs');
    expect(await lastUsed()).toBe(start);
    t.clock.advance(30_000);
    await bearer.get('/api/orgs');
    expect(await lastUsed()).toBe(start + 60_000);
  });

  it('is not subject to the cross-site check, which still guards the session cookie', async () => {
    const { zoneA, session, user } = await setup();
    const { key } = await createKey(session, zoneA.id);
    const origin = { origin: 'https://evil.example' };
    const withKey = await call(t, { bearer: key }, 'POST', `/api/orgs?o=${zoneA.id}`, { name: 'By key' }, origin);
    expect(withKey.status).toBe(201);
    const cookie = await cookieFor(t, user);
    const withCookie = await call(t, { cookie }, 'POST', `/api/orgs?o=${zoneA.id}`, { name: 'By cookie' }, origin);
    expect(withCookie.status).toBe(403);
    expect(withCookie.body.code).toBe('csrf');
  });

  it('lets a zone-bound key make no keys, not even for its own zone (403)', async () => {
    const { zoneA, zoneB, session } = await setup();
    const { key } = await createKey(session, zoneA.id);
    const bearer = clientFor(t, { bearer: key });
    expect((await bearer.post('/api/users/self/api_keys', { name: 'child', zone_id: zoneB.id })).status).toBe(403);
    expect((await bearer.post('/api/users/self/api_keys', { name: 'child' })).status).toBe(403);
  });
});
