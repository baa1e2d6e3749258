import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZGlobalDeviceList } from '@patchwell/core/devices/global-devices.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { flushLastSeen, buildZoneWithKey, checkinAs, enrollDevice, type EnrolledDevice } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser, buildZone } from '../../test/factories';

let t: TestApp;
let home: Awaited<ReturnType<typeof buildZoneWithKey>>;
let foreign: Awaited<ReturnType<typeof buildZoneWithKey>>;
let branch: { id: number; name: string };
const fleet: Record<string, EnrolledDevice> = {};
let base: string;

/**
 * One account with two zones (Head Office: alpha and bravo; Branch: charlie), and another
 * account whose device must never show.
 */
beforeAll(async () => {
  t = await startTestApp();
  home = await buildZoneWithKey(t);
  foreign = await buildZoneWithKey(t);
  await home.admin.put(`/api/orgs/${home.zone.id}?o=${home.zone.id}`, { name: 'Head Office' });
  branch = await buildZone(t.db, { accountId: home.account.id, name: 'Branch', parentId: home.zone.id });
  const key = await home.admin.get(`/api/orgs/${branch.id}/access-key?o=${branch.id}`);
  if (key.status !== 200) throw new Error(`access key: ${key.status} ${key.text}`);
  fleet.alpha = await enrollDevice(t, home.accessKey, { hostname: 'alpha' });
  fleet.bravo = await enrollDevice(t, home.accessKey, { hostname: 'bravo' });
  fleet.charlie = await enrollDevice(t, key.body.access_key as string, { hostname: 'charlie', os_name: 'Ubuntu' });
  fleet.foreign = await enrollDevice(t, foreign.accessKey, { hostname: 'alpha-foreign' });
  await checkinAs(t, fleet.charlie.token, { status: { ip_addrs_private: ['10.7.7.7'] } });
  await flushLastSeen(t);
  base = `/api/accounts/${home.account.id}/devices`;
});
afterAll(async () => {
  await t.close();
});

const rows = (body: unknown) => ZGlobalDeviceList.parse(body).data.map((d) => [d.hostname, d.zone_name]);

describe('GET /api/accounts/{accountId}/devices', () => {
  it('lists the devices of every zone of the account with their zone, sorted by name', async () => {
    const res = await home.admin.get(base);
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(3);
    expect(rows(res.body)).toEqual([
      ['alpha', 'Head Office'],
      ['bravo', 'Head Office'],
      ['charlie', 'Branch'],
    ]);
    expect(res.body.data[2]).toMatchObject({ id: fleet.charlie!.id, zone_id: branch.id, connected: true });
  });

  it('sorts by zone and pages', async () => {
    const sorted = await home.admin.get(`${base}?sort=zone_name:asc&limit=2`);
    expect(rows(sorted.body)).toEqual([
      ['charlie', 'Branch'],
      ['alpha', 'Head Office'],
    ]);
    expect(sorted.body.size).toBe(3);
    const second = await home.admin.get(`${base}?sort=zone_name:asc&limit=2&page=1`);
    expect(rows(second.body)).toEqual([['bravo', 'Head Office']]);
    expect((await home.admin.get(`${base}?sort=zone_id:asc`)).status).toBe(400);
  });

  it('searches names, IP addresses and zone names', async () => {
    expect(rows((await home.admin.get(`${base}?search=BRA`)).body)).toEqual([
      ['bravo', 'Head Office'],
      ['charlie', 'Branch'],
    ]);
    expect(rows((await home.admin.get(`${base}?search=10.7.7`)).body)).toEqual([['charlie', 'Branch']]);
    expect(rows((await home.admin.get(`${base}?search=${encodeURIComponent('100%')}`)).body)).toEqual([]);
  });

  it('leaves out removed devices', async () => {
    const extra = await enrollDevice(t, home.accessKey, { hostname: 'delta' });
    expect((await home.admin.get(base)).body.size).toBe(4);
    expect((await home.admin.del(`/api/servers/${extra.id}?o=${home.zone.id}`)).status).toBe(204);
    const after = await home.admin.get(base);
    expect(after.body.size).toBe(3);
    expect(rows(after.body).map(([hostname]) => hostname)).not.toContain('delta');
  });

  it('answers 403 to a user of the account without global access, and 404 for another account', async () => {
    const zoneAdmin = await buildUser(t.db, { accountId: home.account.id, zones: { [home.zone.id]: 1 } });
    const zoneAdminClient = clientFor(t, { cookie: await cookieFor(t, zoneAdmin) });
    const denied = await zoneAdminClient.get(base);
    expect(denied.status).toBe(403);
    expect(denied.text).not.toContain('alpha');

    const other = await foreign.admin.get(base);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('alpha');
    expect((await clientFor(t, {}).get(base)).status).toBe(401);
  });
});
