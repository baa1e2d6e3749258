import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import type { Device } from '@patchwell/core/devices/devices.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { buildZoneWithKey, checkinAs, enrollDevice, flushLastSeen } from '../../test/agents';
import { csvCell } from '../../http/csv';
import { findDevicesByIds } from './device-list.store';
import { toDevice } from './devices.service';

/**
 * The export's CSV is written by the database (device-export.store.ts). It must be what the
 * JavaScript path made of the same rows: `toDevice`, core's `csvCell` and csv-stringify.
 */
const JS_COLUMNS: [keyof Device, string][] = [
  ['id', 'ID'],
  ['display_name', 'Name'],
  ['hostname', 'Hostname'],
  ['os_family', 'OS family'],
  ['os_name', 'OS'],
  ['os_version', 'OS version'],
  ['agent_version', 'Agent version'],
  ['group_name', 'Group'],
  ['tags', 'Tags'],
  ['ip_addrs', 'IP addresses'],
  ['ip_addrs_private', 'Private IP addresses'],
  ['connected', 'Online'],
  ['last_seen_at', 'Last seen'],
  ['needs_reboot', 'Needs reboot'],
  ['pending_patches', 'Pending patches'],
  ['compliance', 'Compliance'],
  ['create_time', 'Created'],
];

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;

const NAMES = [
  'a,b',
  'say "hi"',
  'two\nlines',
  'carriage\rreturn',
  ' =1+1',
  '−1',
  '＠SUM(A1)',
  'ünïcode ☃',
  '',
  'plain',
  "'quoted'",
  'back\\slash',
];

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  for (const [i, name] of NAMES.entries()) {
    const device = await enrollDevice(t, z.accessKey, { hostname: `export-${i}` });
    const tags = i % 3 === 0 ? ['x,y', '=z'] : i % 3 === 1 ? ['one'] : [];
    const put = await z.admin.put(`/api/servers/${device.id}?o=${z.zone.id}`, { custom_name: name || null, tags });
    expect(put.status).toBe(200);
    // Every other device checks in, the rest never did.
    if (i % 2 === 0) {
      t.clock.advance(1234);
      expect((await checkinAs(t, device.token)).status).toBe(200);
    }
  }
  await flushLastSeen(t);
});

afterAll(async () => {
  await t.close();
});

describe('the devices CSV export, written by the database', () => {
  it('equals the JavaScript rendering of the same rows, byte for byte, in every order', async () => {
    for (const sort of ['name:asc', 'name:desc', 'last_seen_at:asc', 'hostname:desc', 'group_name:asc']) {
      const list = await z.admin.get(`/api/servers?o=${z.zone.id}&sort=${sort}&limit=100`);
      const ids = list.body.data.map((d: { id: number }) => d.id) as number[];
      expect(ids).toHaveLength(NAMES.length);
      const rows = (await findDevicesByIds(t.db, z.zone.id, ids, t.clock.now())).map(toDevice);
      const expected = stringify(
        rows.map((d) => JS_COLUMNS.map(([key]) => csvCell(d[key]))),
        { header: true, columns: JS_COLUMNS.map(([, header]) => header) },
      );
      const res = await t.request(`/api/servers/export.csv?o=${z.zone.id}&sort=${sort}`, {
        headers: { cookie: z.cookie },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(expected);
    }
  });

  it('writes the header alone when nothing matches', async () => {
    const res = await t.request(`/api/servers/export.csv?o=${z.zone.id}&search=nothing-matches-this`, {
      headers: { cookie: z.cookie },
    });
    expect(await res.text()).toBe(`${JS_COLUMNS.map(([, header]) => header).join(',')}\n`);
  });
});
