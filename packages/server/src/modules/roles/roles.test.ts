import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZPermissionsInfo, ZRbacRoleList } from '@patchwell/core/zones/zones.schema';
import { organizations, userZoneRoles, users } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccount, buildUser, buildZone } from '../../test/factories';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setup(roleId: number) {
  const account = await buildAccount(t.db);
  const zone = await buildZone(t.db, { accountId: account.id });
  const other = await buildZone(t.db, { accountId: account.id });
  const user = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: roleId } });
  return { account, zone, other, user, client: clientFor(t, { cookie: await cookieFor(t, user) }) };
}

describe('GET /api/rbacroles', () => {
  it('lists the five fixed roles with their permissions to anyone with Role.read in o', async () => {
    const { zone, client } = await setup(2);
    const res = await client.get(`/api/rbacroles?o=${zone.id}&internal=1`);
    expect(res.status).toBe(200);
    const roles = ZRbacRoleList.parse(res.body);
    expect(roles.map((r) => [r.id, r.key, r.name])).toEqual([
      [1, 'zone-admin', 'Zone Administrator'],
      [2, 'read-only', 'Read Only'],
      [3, 'billing-admin', 'Billing Administrator'],
      [4, 'zone-operator', 'Zone Operator'],
      [5, 'patch-operator', 'Patch Operator'],
    ]);
    const billing = roles.find((r) => r.id === 3)!;
    expect(billing.permissions).toContain('Billing.modify');
    expect(billing.permissions).not.toContain('Users.read');
    expect(roles.every((r) => r.description.length > 0)).toBe(true);
  });

  it('answers 400 without a zone and 404 for a zone the caller does not belong to', async () => {
    const { other, client } = await setup(1);
    expect((await client.get('/api/rbacroles')).status).toBe(400);
    expect((await client.get(`/api/rbacroles?o=${other.id}`)).status).toBe(404);
  });
});

describe('GET /api/permissions', () => {
  it('gives the matrix and the caller’s permissions in each zone they may enter', async () => {
    const { zone, other, client } = await setup(5);
    const res = await client.get('/api/permissions?internal=1');
    expect(res.status).toBe(200);
    const info = ZPermissionsInfo.parse(res.body);
    expect(info.resources.Endpoint).toEqual(['add', 'delete', 'manage', 'read', 'control']);
    expect(info.actions).toEqual([
      'create',
      'delete',
      'modify',
      'execute',
      'control',
      'read',
      'add',
      'manage',
      'invite',
    ]);
    expect(Object.keys(info.mine)).toEqual([String(zone.id)]);
    expect(info.mine[String(zone.id)]).toContain('PatchPolicy.execute');
    expect(info.mine[String(zone.id)]).not.toContain('CustomPolicy.create');
    expect((await client.get(`/api/permissions?o=${other.id}`)).status).toBe(404);
    expect(Object.keys((await client.get(`/api/permissions?o=${zone.id}`)).body.mine)).toEqual([String(zone.id)]);
  });
});

describe('GET /api/permissions/check', () => {
  it('answers 200, 403 or 404 as the endpoints would, and 400 for a pair outside the matrix', async () => {
    const { zone, other, client } = await setup(2);
    const check = (o: number, resource: string, action: string) =>
      client.get(`/api/permissions/check?o=${o}&resource=${resource}&action=${action}`);
    expect((await check(zone.id, 'Endpoint', 'read')).body).toEqual({ allowed: true });
    expect((await check(zone.id, 'Endpoint', 'delete')).status).toBe(403);
    expect((await check(other.id, 'Endpoint', 'read')).status).toBe(404);
    const invalid = await check(zone.id, 'Report', 'delete');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({ action: ['This action does not apply to this resource.'] });
  });
});

describe('a disabled zone', () => {
  it('can be read and managed but its operations are refused until it is enabled again', async () => {
    const { zone, client } = await setup(1);
    await t.db.update(organizations).set({ disabled: true }).where(eq(organizations.id, zone.id));
    const check = (resource: string, action: string) =>
      client.get(`/api/permissions/check?o=${zone.id}&resource=${resource}&action=${action}`);
    expect((await check('Endpoint', 'read')).status).toBe(200);
    expect((await check('Organization', 'manage')).status).toBe(200);
    expect((await check('Users', 'invite')).status).toBe(200);
    const refused = await check('PatchPolicy', 'execute');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('zones.disabled');
    await t.db.update(organizations).set({ disabled: false }).where(eq(organizations.id, zone.id));
    expect((await check('PatchPolicy', 'execute')).status).toBe(200);
  });
});

describe('a live session', () => {
  it('follows role changes, removal and a lost global role on its very next request', async () => {
    const { zone, user, client } = await setup(1);
    const check = (resource: string, action: string) =>
      client.get(`/api/permissions/check?o=${zone.id}&resource=${resource}&action=${action}`);
    const row = and(eq(userZoneRoles.userId, user.id), eq(userZoneRoles.organizationId, zone.id));
    expect((await check('Users', 'invite')).status).toBe(200);
    await t.db.update(userZoneRoles).set({ roleId: 2 }).where(row);
    expect((await check('Users', 'invite')).status).toBe(403);
    expect((await check('Endpoint', 'read')).status).toBe(200);
    await t.db.delete(userZoneRoles).where(row);
    expect((await check('Endpoint', 'read')).status).toBe(404);
    await t.db.update(users).set({ accountRbacRole: 'global-admin' }).where(eq(users.id, user.id));
    expect((await check('Account', 'modify')).status).toBe(200);
    await t.db.update(users).set({ accountRbacRole: 'no-global-access' }).where(eq(users.id, user.id));
    expect((await check('Account', 'modify')).status).toBe(404);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect((await check('Account', 'modify')).status).toBe(401);
  });
});
