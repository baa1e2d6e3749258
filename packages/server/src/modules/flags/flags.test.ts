import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { ConfigError, loadConfig } from '../../config';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccountWithUser, buildUser } from '../../test/factories';

/**
 * Issue 10 defect 18: a global administrator switches feature flags per account and per zone
 * and sets a zone's plan through the API; PATCHWELL_FLAGS sets the server's defaults.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof buildAccountWithUser>>;
let admin: ReturnType<typeof clientFor>;
let zoneAdmin: ReturnType<typeof clientFor>;
let stranger: ReturnType<typeof clientFor>;

beforeAll(async () => {
  t = await startTestApp({ env: { PATCHWELL_FLAGS: 'global_devices_table=1, remote_control=0' } });
  world = await buildAccountWithUser(t.db);
  admin = clientFor(t, { cookie: await cookieFor(t, world.user) });
  const zoneOnly = await buildUser(t.db, { accountId: world.account.id, zones: { [world.zone.id]: 1 } });
  zoneAdmin = clientFor(t, { cookie: await cookieFor(t, zoneOnly) });
  const other = await buildAccountWithUser(t.db);
  stranger = clientFor(t, { cookie: await cookieFor(t, other.user) });
});
afterAll(async () => {
  await t.close();
});

const accountPath = () => `/api/accounts/${world.account.id}/flags`;
const zonePath = () => `/api/accounts/${world.account.id}/zones/${world.zone.id}/flags`;
const profileFeatures = async () => (await admin.get(`/api/users/self?o=${world.zone.id}`)).body.features;

describe('feature flags per account and zone', () => {
  it('starts from core’s defaults under PATCHWELL_FLAGS', async () => {
    const res = await admin.get(accountPath());
    expect(res.status).toBe(200);
    expect(res.body.defaults).toEqual({ ...FEATURE_FLAGS, global_devices_table: true, remote_control: false });
    expect(res.body.account).toEqual({});
    expect(res.body.effective.global_devices_table).toBe(true);
    expect((await profileFeatures()).global_devices_table).toBe(true);
  });

  it('sets an account override, a zone override over it, and removes them again', async () => {
    const put = await admin.put(accountPath(), { remote_control: true, clone_policy: true });
    expect(put.status).toBe(200);
    expect(put.body.account).toEqual({ remote_control: true, clone_policy: true });
    expect(put.body.effective).toMatchObject({ remote_control: true, clone_policy: true });
    expect((await profileFeatures()).remote_control).toBe(true);

    const zone = await admin.put(zonePath(), { remote_control: false });
    expect(zone.status).toBe(200);
    expect(zone.body).toMatchObject({
      account: { remote_control: true, clone_policy: true },
      zone: { remote_control: false },
      effective: { remote_control: false, clone_policy: true },
    });
    expect((await profileFeatures()).remote_control).toBe(false);
    expect((await admin.get(zonePath())).body.zone).toEqual({ remote_control: false });

    expect((await admin.put(zonePath(), { remote_control: null })).body.effective.remote_control).toBe(true);
    const cleared = await admin.put(accountPath(), { remote_control: null, clone_policy: null });
    expect(cleared.body.account).toEqual({});
    expect((await profileFeatures()).remote_control).toBe(false);
  });

  it('refuses an unknown flag with 400', async () => {
    const res = await admin.put(accountPath(), { no_such_flag: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
  });

  it('sets a zone’s plan', async () => {
    const res = await admin.put(`/api/accounts/${world.account.id}/zones/${world.zone.id}/plan`, { plan: 'patch' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ zone_id: world.zone.id, plan: 'patch' });
    const zone = await admin.get(`/api/accounts/${world.account.id}/zones/${world.zone.id}`);
    expect(zone.body.plan).toBe('patch');
    const bad = await admin.put(`/api/accounts/${world.account.id}/zones/${world.zone.id}/plan`, { plan: 'gold' });
    expect(bad.status).toBe(400);
  });

  it('is for the account’s global administrators only: 403 for a zone administrator, 404 for another account', async () => {
    const calls: [string, string, unknown?][] = [
      ['get', accountPath()],
      ['put', accountPath(), { remote_control: true }],
      ['get', zonePath()],
      ['put', zonePath(), { remote_control: true }],
      ['put', `/api/accounts/${world.account.id}/zones/${world.zone.id}/plan`, { plan: 'tier3' }],
    ];
    for (const [method, path, body] of calls) {
      const asZoneAdmin = method === 'get' ? await zoneAdmin.get(path) : await zoneAdmin.put(path, body);
      expect([path, asZoneAdmin.status]).toEqual([path, 403]);
      const asStranger = method === 'get' ? await stranger.get(path) : await stranger.put(path, body);
      expect([path, asStranger.status]).toEqual([path, 404]);
    }
    expect((await admin.get(accountPath())).body.account).toEqual({});
  });
});

describe('PATCHWELL_FLAGS', () => {
  it('stops the server with a clear line for an unknown flag or a bad value', () => {
    expect(() => loadConfig({ PATCHWELL_FLAGS: 'remote_control=maybe,warp_drive=1' })).toThrow(ConfigError);
    try {
      loadConfig({ PATCHWELL_FLAGS: 'remote_control=maybe,warp_drive=1' });
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        'PATCHWELL_FLAGS: remote_control must be 1 or 0 (got "maybe"); unknown feature flag "warp_drive".',
      ]);
    }
  });
});
