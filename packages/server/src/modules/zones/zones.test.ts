import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZZone, ZZoneList } from '@patchwell/core/zones/zones.schema';
import { organizations, sessions, userZoneRoles } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccount, buildUser, buildZone } from '../../test/factories';
import { zoneOfAccessKey } from './zone-settings.service';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

/** An account with a top-level zone (Complete by default) and a child zone. */
async function accountWithZones(top: Partial<typeof organizations.$inferInsert> = {}) {
  const account = await buildAccount(t.db);
  const parent = await buildZone(t.db, { accountId: account.id, name: 'Head Office', ...top });
  const child = await buildZone(t.db, { accountId: account.id, name: 'Branch', parentId: parent.id });
  return { account, parent, child };
}

async function clientOf(user: { id: number; accountId: number | null; accountRbacRole: string }) {
  return clientFor(t, { cookie: await cookieFor(t, user) });
}

describe('GET /api/orgs', () => {
  it('lists the zones a user holds a role in, with the role name and user count', async () => {
    const { account, parent, child } = await accountWithZones();
    const other = await buildZone(t.db, { accountId: account.id, name: 'Elsewhere' });
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 2, [child.id]: 4 } });
    await buildUser(t.db, { accountId: account.id, zones: { [child.id]: 1 } });
    const res = await (await clientOf(user)).get(`/api/orgs?o=${parent.id}`);
    expect(res.status).toBe(200);
    const zones = ZZoneList.parse(res.body);
    expect(zones.map((z) => [z.name, z.role_name, z.user_count])).toEqual([
      ['Branch', 'Zone Operator', 2],
      ['Head Office', 'Read Only', 1],
    ]);
    expect(zones.some((z) => z.id === other.id)).toBe(false);
  });

  it('lists every zone of the account to its global administrator and none of another account', async () => {
    const { account, parent, child } = await accountWithZones();
    const foreign = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const zones = ZZoneList.parse((await (await clientOf(admin)).get('/api/orgs')).body);
    expect(zones.map((z) => z.id).sort()).toEqual([parent.id, child.id].sort());
    expect(zones.every((z) => z.role_name === 'Global Administrator')).toBe(true);
    expect(zones.some((z) => z.id === foreign.parent.id)).toBe(false);
  });
});

describe('POST /api/orgs', () => {
  it('creates a zone under the parent of o, makes the creator its Zone Administrator and gives it an access key', async () => {
    const { account, parent, child } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [child.id]: 1 } });
    const client = await clientOf(user);
    const res = await client.post(`/api/orgs?o=${child.id}`, { name: '  Warehouse  ' });
    expect(res.status).toBe(201);
    const zone = ZZone.parse(res.body);
    expect(zone).toMatchObject({
      name: 'Warehouse',
      parent_id: parent.id,
      plan: 'tier3',
      disabled: false,
      role_name: 'Zone Administrator',
      user_count: 1,
    });
    const [role] = await t.db
      .select()
      .from(userZoneRoles)
      .where(and(eq(userZoneRoles.userId, user.id), eq(userZoneRoles.organizationId, zone.id)));
    expect(role?.roleId).toBe(1);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, zone.id));
    expect(row?.accessKeyHash).toMatch(/^[0-9a-f]{64}$/);
    // The creator now works in the new zone on the very next request.
    expect((await client.get(`/api/orgs/${zone.id}`)).status).toBe(200);
  });

  it('gives a global administrator no explicit role in the zone they create', async () => {
    const { account, parent } = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const res = await (await clientOf(admin)).post(`/api/orgs?o=${parent.id}`, { name: 'Lab' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ parent_id: parent.id, role_name: 'Global Administrator', user_count: 0 });
    const roles = await t.db.select().from(userZoneRoles).where(eq(userZoneRoles.organizationId, res.body.id));
    expect(roles).toEqual([]);
  });

  it('requires a name: "Zone name is required."', async () => {
    const { account, parent } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const client = await clientOf(user);
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await client.post(`/api/orgs?o=${parent.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ name: ['Zone name is required.'] });
    }
  });

  it('asks for a zone when o is missing', async () => {
    const { account, parent } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const res = await (await clientOf(user)).post('/api/orgs', { name: 'No zone' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ o: ['Zone (o) is required'] });
  });

  it('refuses a name another zone of the account has, ignoring case, but not one of another account', async () => {
    const { account, parent } = await accountWithZones();
    const foreign = await accountWithZones();
    await buildZone(t.db, { accountId: foreign.account.id, name: 'Shared Name' });
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const client = await clientOf(user);
    const taken = await client.post(`/api/orgs?o=${parent.id}`, { name: 'head office' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: 'zones.name_taken',
      errors: { name: ['A zone with this name already exists'] },
    });
    expect((await client.post(`/api/orgs?o=${parent.id}`, { name: 'Shared Name' })).status).toBe(201);
  });

  it('refuses when the parent is below Complete and not on a trial (403 zones.tier_required)', async () => {
    for (const top of [
      { plan: 'manage' as const },
      { plan: 'patch' as const },
      { plan: 'manage' as const, trialEndTime: new Date(t.clock.now().getTime() - DAY) },
    ]) {
      const { account, child } = await accountWithZones(top);
      const user = await buildUser(t.db, { accountId: account.id, zones: { [child.id]: 1 } });
      const res = await (await clientOf(user)).post(`/api/orgs?o=${child.id}`, { name: 'More' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('zones.tier_required');
      expect(res.body.message).toMatch(/Complete plan/);
    }
  });

  it('lets a parent on an unexpired trial create zones, which start disabled and inherit the trial', async () => {
    const trialEnd = new Date(t.clock.now().getTime() + 5 * DAY);
    const { account, parent } = await accountWithZones({ plan: 'manage', trialEndTime: trialEnd });
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const res = await (await clientOf(admin)).post(`/api/orgs?o=${parent.id}`, { name: 'Trial two' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ disabled: true, trial_end_time: trialEnd.toISOString(), trial_expired: false });
  });

  it('needs Organization.create in o: 403 for Read Only, 404 for a zone of another account', async () => {
    const { account, parent } = await accountWithZones();
    const foreign = await accountWithZones();
    const reader = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 2 } });
    const client = await clientOf(reader);
    const denied = await client.post(`/api/orgs?o=${parent.id}`, { name: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 'authz.forbidden', message: "You don't have permission" });
    expect((await client.post(`/api/orgs?o=${foreign.parent.id}`, { name: 'Nope' })).status).toBe(404);
  });
});

describe('GET and PUT /api/orgs/{id}', () => {
  it('renames a zone; the name is required ("Zone Name is required") and unique', async () => {
    const { account, parent, child } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1, [child.id]: 1 } });
    const client = await clientOf(user);
    const renamed = await client.put(`/api/orgs/${child.id}`, { name: 'Branch North' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Branch North');
    expect((await client.get(`/api/orgs/${child.id}`)).body.name).toBe('Branch North');
    // Its own name in another case is not a conflict.
    expect((await client.put(`/api/orgs/${child.id}`, { name: 'BRANCH NORTH' })).status).toBe(200);

    const empty = await client.put(`/api/orgs/${child.id}`, { name: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ name: ['Zone Name is required'] });
    const taken = await client.put(`/api/orgs/${child.id}`, { name: 'HEAD OFFICE' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ name: ['A zone with this name already exists'] });
  });

  it('answers 404 for a zone the caller does not belong to and 403 to a Read Only rename', async () => {
    const { account, parent, child } = await accountWithZones();
    const reader = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 2 } });
    const client = await clientOf(reader);
    expect((await client.get(`/api/orgs/${parent.id}`)).status).toBe(200);
    expect((await client.get(`/api/orgs/${child.id}`)).status).toBe(404);
    expect((await client.put(`/api/orgs/${parent.id}`, { name: 'Mine now' })).status).toBe(403);
    expect((await client.get('/api/orgs/999999')).status).toBe(404);
  });
});

describe('POST /api/orgs/{id}/disable and /enable', () => {
  it('lets only a global administrator of the account disable and enable a zone', async () => {
    const { account, child } = await accountWithZones();
    const foreign = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [child.id]: 1 } });
    const foreignAdmin = await buildUser(t.db, { accountId: foreign.account.id, globalAdmin: true });

    expect((await (await clientOf(zoneAdmin)).post(`/api/orgs/${child.id}/disable`)).status).toBe(403);
    expect((await (await clientOf(foreignAdmin)).post(`/api/orgs/${child.id}/disable`)).status).toBe(404);
    const client = await clientOf(admin);
    const disabled = await client.post(`/api/orgs/${child.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.disabled).toBe(true);
    expect((await client.post(`/api/orgs/${child.id}/enable`)).body.disabled).toBe(false);
  });
});

describe('zone access key', () => {
  it('is shown to zone administrators, stored only as a hash and an encrypted copy, and rotates', async () => {
    const { account, parent } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const reader = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 2 } });
    const client = await clientOf(user);

    // A zone made before keys existed gets one when first shown.
    const first = await client.get(`/api/orgs/${parent.id}/access-key`);
    expect(first.status).toBe(200);
    const key: string = first.body.access_key;
    expect(key).toMatch(/^pwz_[A-Za-z0-9_-]{43}$/);
    expect((await client.get(`/api/orgs/${parent.id}/access-key`)).body.access_key).toBe(key);

    const [stored] = await t.db.select().from(organizations).where(eq(organizations.id, parent.id));
    expect(stored?.accessKeyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(stored?.accessKeyEncrypted).not.toContain(key);
    expect((await zoneOfAccessKey(t.ctx, key))?.id).toBe(parent.id);

    const rotated = await client.post(`/api/orgs/${parent.id}/access-key/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.access_key).not.toBe(key);
    expect(await zoneOfAccessKey(t.ctx, key)).toBeUndefined();
    expect((await zoneOfAccessKey(t.ctx, rotated.body.access_key))?.id).toBe(parent.id);
    expect((await client.get(`/api/orgs/${parent.id}/access-key`)).body.access_key).toBe(rotated.body.access_key);

    const readerClient = await clientOf(reader);
    expect((await readerClient.get(`/api/orgs/${parent.id}/access-key`)).status).toBe(403);
    expect((await readerClient.post(`/api/orgs/${parent.id}/access-key/rotate`)).status).toBe(403);
  });
});

describe('session settings', () => {
  it('validates the bounds with the spec’s ranges', async () => {
    const { account, parent } = await accountWithZones();
    const user = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const client = await clientOf(user);
    const low = await client.put(`/api/orgs/${parent.id}/session-settings`, {
      max_lifetime_minutes: 29,
      idle_timeout_minutes: 29,
    });
    expect(low.status).toBe(400);
    expect(low.body.errors).toEqual({
      max_lifetime_minutes: ['Maximum session lifetime must be at least 30 minutes.'],
      idle_timeout_minutes: ['Idle timeout must be at least 30 minutes.'],
    });
    const high = await client.put(`/api/orgs/${parent.id}/session-settings`, {
      max_lifetime_minutes: 2160 * 60 + 1,
      idle_timeout_minutes: 720 * 60 + 1,
    });
    expect(high.body.errors).toEqual({
      max_lifetime_minutes: ['Maximum session lifetime must be at most 2160 hours.'],
      idle_timeout_minutes: ['Idle timeout must be at most 720 hours.'],
    });
    const ok = await client.put(`/api/orgs/${parent.id}/session-settings`, {
      max_lifetime_minutes: 2160 * 60,
      idle_timeout_minutes: 720 * 60,
    });
    expect(ok.status).toBe(200);
    expect((await client.get(`/api/orgs/${parent.id}/session-settings`)).body).toEqual({
      max_lifetime_minutes: 2160 * 60,
      idle_timeout_minutes: 720 * 60,
    });
  });

  it('re-bounds live sessions at once: a lowered lifetime ends them, a raised idle timeout keeps them', async () => {
    const { account, parent } = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const member = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 2 } });
    const adminClient = await clientOf(admin);
    const memberCookie = await cookieFor(t, member);
    const member2 = clientFor(t, { cookie: memberCookie });
    const expiryOf = async () =>
      (await t.db.select().from(sessions).where(eq(sessions.userId, member.id)))[0]!.expiresAt.getTime();

    // Default idle timeout is 30 minutes: raising it to 10 hours moves expires_at at once.
    const before = await expiryOf();
    await adminClient.put(`/api/orgs/${parent.id}/session-settings`, {
      max_lifetime_minutes: 12 * 60,
      idle_timeout_minutes: 600,
    });
    expect(await expiryOf()).toBe(before - 30 * 60_000 + 600 * 60_000);
    t.clock.advance(45 * 60_000);
    expect((await member2.get('/api/orgs')).status).toBe(200);

    // Lowering the lifetime to 1 hour: the 45-minute-old session ends 15 minutes later.
    await adminClient.put(`/api/orgs/${parent.id}/session-settings`, {
      max_lifetime_minutes: 60,
      idle_timeout_minutes: 600,
    });
    const created = t.clock.now().getTime() - 45 * 60_000;
    expect(await expiryOf()).toBe(created + 60 * 60_000);
    t.clock.advance(16 * 60_000);
    const expired = await member2.get('/api/orgs');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('auth.session_expired');
  });

  it('sets every zone of the account for its global administrator', async () => {
    const { account, parent, child } = await accountWithZones();
    const foreign = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const client = await clientOf(admin);
    const settings = { max_lifetime_minutes: 240, idle_timeout_minutes: 45 };
    expect((await client.put(`/api/accounts/${account.id}/session-settings`, settings)).body).toEqual(settings);
    expect((await client.get(`/api/accounts/${account.id}/session-settings`)).body).toEqual(settings);
    expect((await client.get(`/api/orgs/${child.id}/session-settings`)).body).toEqual(settings);
    expect((await client.get(`/api/accounts/${foreign.account.id}/session-settings`)).status).toBe(404);
    const zoneAdminClient = await clientOf(zoneAdmin);
    expect((await zoneAdminClient.put(`/api/accounts/${account.id}/session-settings`, settings)).status).toBe(403);
  });
});

describe('zone preferences', () => {
  it('reads (Organization.read) and writes (Organization.manage) the preferences of zone o', async () => {
    const { account, parent } = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 1 } });
    const reader = await buildUser(t.db, { accountId: account.id, zones: { [parent.id]: 2 } });
    const client = await clientOf(admin);
    expect((await client.get(`/api/orgs/self/prefs?o=${parent.id}`)).body).toEqual([]);
    const saved = await client.post(`/api/orgs/self/prefs?o=${parent.id}`, {
      prefs: [
        { pref_name: 'timezone', value: 'UTC' },
        { pref_name: 'theme', value: 'dark' },
      ],
    });
    expect(saved.status).toBe(200);
    await client.post(`/api/orgs/self/prefs?org=${parent.id}`, { prefs: [{ pref_name: 'theme', value: 'light' }] });
    const readerClient = await clientOf(reader);
    expect((await readerClient.get(`/api/orgs/self/prefs?o=${parent.id}`)).body).toEqual([
      { organization_id: parent.id, pref_name: 'theme', value: 'light' },
      { organization_id: parent.id, pref_name: 'timezone', value: 'UTC' },
    ]);
    expect((await readerClient.post(`/api/orgs/self/prefs?o=${parent.id}`, { prefs: [] })).status).toBe(403);
  });
});

describe('/api/accounts/{accountId}/zones', () => {
  it('lists, creates, reads and renames the account’s zones for its global administrator', async () => {
    const { account, parent, child } = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const member = await buildUser(t.db, {
      accountId: account.id,
      email: `member-${Date.now()}@example.test`,
      zones: { [child.id]: 5 },
    });
    const client = await clientOf(admin);
    const base = `/api/accounts/${account.id}/zones`;

    const list = await client.get(base);
    expect(list.status).toBe(200);
    expect(ZZoneList.parse(list.body).map((z) => [z.name, z.user_count])).toEqual([
      ['Branch', 1],
      ['Head Office', 0],
    ]);

    // A child given as parent stands for its own parent.
    const created = await client.post(base, { name: 'Depot', parent_id: child.id });
    expect(created.status).toBe(201);
    expect(created.body.parent_id).toBe(parent.id);
    const top = await client.post(base, { name: 'Depot 2' });
    expect(top.body.parent_id).toBe(parent.id);
    expect((await client.post(base, { name: 'depot' })).status).toBe(409);

    expect((await client.get(`${base}/${child.id}`)).body.name).toBe('Branch');
    const renamed = await client.put(`${base}/${child.id}`, { name: 'Branch East' });
    expect(renamed.body.name).toBe('Branch East');
    expect((await client.put(`${base}/${child.id}`, {})).body.errors).toEqual({ name: ['Zone Name is required'] });

    const users = await client.get(`${base}/${child.id}/users`);
    expect(users.status).toBe(200);
    expect(users.body).toEqual([
      expect.objectContaining({ id: member.id, email: member.email, role: { id: 5, name: 'Patch Operator' } }),
    ]);
  });

  it('answers 404 for another account or its zones, and 403 to a user without global access', async () => {
    const { account, child } = await accountWithZones();
    const foreign = await accountWithZones();
    const admin = await buildUser(t.db, { accountId: account.id, globalAdmin: true });
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [child.id]: 1 } });
    const client = await clientOf(admin);
    expect((await client.get(`/api/accounts/${foreign.account.id}/zones`)).status).toBe(404);
    expect((await client.get(`/api/accounts/${account.id}/zones/${foreign.child.id}`)).status).toBe(404);
    expect((await client.get(`/api/accounts/${account.id}/zones/${foreign.child.id}/users`)).status).toBe(404);
    expect(
      (await client.post(`/api/accounts/${account.id}/zones`, { name: 'X', parent_id: foreign.parent.id })).status,
    ).toBe(404);
    const zoneAdminClient = await clientOf(zoneAdmin);
    expect((await zoneAdminClient.get(`/api/accounts/${account.id}/zones`)).status).toBe(403);
  });
});
