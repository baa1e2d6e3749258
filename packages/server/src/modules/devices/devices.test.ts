import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import {
  flushLastSeen,
  agentCall,
  buildZoneWithKey,
  checkinAs,
  enrollDevice,
  inventoryBody,
  type EnrolledDevice,
} from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser } from '../../test/factories';
import { csvCell } from '../../http/csv';
import { ZDeviceList, ZListDevicesQuery } from '@patchwell/core/devices/devices.schema';
import { findDevices } from './device-list.store';
import { filterOf, sortOf, toDevice } from './devices.service';

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let other: Awaited<ReturnType<typeof buildZoneWithKey>>;
let o: number;
const fleet: Record<string, EnrolledDevice> = {};

/** A zone of five devices: three Linux (one with a critical patch), a Mac and a Windows. */
beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  other = await buildZoneWithKey(t);
  o = z.zone.id;
  fleet.alpha = await enrollDevice(t, z.accessKey, { hostname: 'alpha' });
  fleet.bravo = await enrollDevice(t, z.accessKey, { hostname: 'bravo' });
  fleet.charlie = await enrollDevice(t, z.accessKey, { hostname: 'charlie' });
  fleet.mac = await enrollDevice(t, z.accessKey, { hostname: 'delta-mac', os_family: 'mac', os_name: 'macOS' });
  fleet.win = await enrollDevice(t, z.accessKey, { hostname: 'echo-win', os_family: 'windows', os_name: 'Windows' });
  await agentCall(t, fleet.alpha!.token, 'PUT', '/inventory', inventoryBody({ hostname: 'alpha' }));
  await agentCall(
    t,
    fleet.bravo!.token,
    'PUT',
    '/inventory',
    inventoryBody({
      hostname: 'bravo',
      patches: [
        {
          name: 'bash',
          current_version: '5.2',
          version: '5.3',
          severity: 'low',
          cves: ['CVE-2026-0002'],
          reboot_required: false,
        },
      ],
    }),
  );
  await agentCall(t, fleet.charlie!.token, 'PUT', '/inventory', inventoryBody({ hostname: 'charlie', patches: [] }));
  await checkinAs(t, fleet.alpha!.token, { status: { needs_reboot: true, ip_addrs_private: ['10.9.8.7'] } });
  await checkinAs(t, fleet.bravo!.token, { status: { ip_addrs: ['198.51.100.20'] } });
  await flushLastSeen(t);
  await enrollDevice(t, other.accessKey, { hostname: 'alpha-of-other-zone' });
});
afterAll(async () => {
  await t.close();
});

const names = (body: { data: { hostname: string }[] }) => body.data.map((d) => d.hostname);

describe('GET /api/servers', () => {
  it('lists the zone’s devices sorted by name, with their group and state', async () => {
    const res = await z.admin.get(`/api/servers?o=${o}`);
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(5);
    expect(names(res.body)).toEqual(['alpha', 'bravo', 'charlie', 'delta-mac', 'echo-win']);
    expect(res.body.data[0]).toMatchObject({
      id: fleet.alpha!.id,
      display_name: 'alpha',
      group_name: 'Default Group',
      connected: true,
      needs_reboot: true,
      pending_patches: 1,
      compliance: 'needs_attention',
      ip_addrs_private: ['10.9.8.7'],
    });
  });

  it('filters by OS family, compliance, needs-reboot, status, and searches names and IPs', async () => {
    const q = (s: string) => z.admin.get(`/api/servers?o=${o}&${s}`).then((r) => names(r.body));
    expect(await q('os_family=mac')).toEqual(['delta-mac']);
    expect(await q('compliance=needs_attention')).toEqual(['alpha']);
    expect(await q('compliance=pending')).toEqual(['bravo']);
    expect(await q('needs_reboot=true')).toEqual(['alpha']);
    expect(await q('status=online')).toEqual(['alpha', 'bravo']);
    expect(await q('status=offline')).toEqual(['charlie', 'delta-mac', 'echo-win']);
    expect(await q('search=WIN')).toEqual(['echo-win']);
    expect(await q('search=198.51.100')).toEqual(['bravo']);
    expect(await q('search=10.9.8')).toEqual(['alpha']);
    expect(await q('search=%25')).toEqual([]);
  });

  it('sorts and pages (zero-based)', async () => {
    const desc = await z.admin.get(`/api/servers?o=${o}&sort=name:desc&limit=2&page=0`);
    expect(names(desc.body)).toEqual(['echo-win', 'delta-mac']);
    expect(desc.body.size).toBe(5);
    const page2 = await z.admin.get(`/api/servers?o=${o}&sort=name:desc&limit=2&page=2`);
    expect(names(page2.body)).toEqual(['alpha']);
    const byPatches = await z.admin.get(`/api/servers?o=${o}&sort=pending_patches:desc&limit=2`);
    expect(names(byPatches.body)).toEqual(['alpha', 'bravo']);
    expect((await z.admin.get(`/api/servers?o=${o}&sort=evil:asc`)).status).toBe(400);
    expect((await z.admin.get(`/api/servers?o=${o}&limit=701`)).status).toBe(400);
  });

  it('pages a filtered list with the count of its matches, and sorts by last check-in', async () => {
    const get = (s: string) => z.admin.get(`/api/servers?o=${o}&${s}`).then((r) => r.body);
    const offline = await get('status=offline&sort=name:asc&limit=2&page=1');
    expect([names(offline), offline.size]).toEqual([['echo-win'], 3]);
    // Past the end: no rows, and still the count, filtered or not.
    expect(await get('status=offline&limit=2&page=5')).toMatchObject({ data: [], size: 3 });
    expect(await get('limit=2&page=9')).toMatchObject({ data: [], size: 5 });
    expect(await get('search=nothing-matches')).toMatchObject({ data: [], size: 0 });
    // Devices that never checked in have no last check-in: last descending, first ascending.
    expect(names(await get('sort=last_seen_at:desc'))).toEqual(['alpha', 'bravo', 'charlie', 'delta-mac', 'echo-win']);
    expect(names(await get('sort=last_seen_at:asc'))).toEqual(['charlie', 'delta-mac', 'echo-win', 'alpha', 'bravo']);
    expect(names(await get('status=offline&sort=last_seen_at:desc'))).toEqual(['charlie', 'delta-mac', 'echo-win']);
    expect(names(await get('status=online&sort=last_seen_at:asc&os_family=linux'))).toEqual(['alpha', 'bravo']);
    const seen = await get('sort=last_seen_at:desc&limit=1');
    expect(seen.data[0].last_seen_at).toBe(t.clock.now().toISOString());
    expect(names(await get('sort=group_name:asc&limit=2&page=1'))).toEqual(['charlie', 'delta-mac']);
    expect(names(await get('sort=hostname:desc&limit=2&page=1'))).toEqual(['charlie', 'bravo']);
  });

  it('counts a device offline once its interval and the grace have passed', async () => {
    t.clock.advance(10 * 60_000);
    const res = await z.admin.get(`/api/servers?o=${o}&status=online`);
    expect(res.body.size).toBe(0);
    t.clock.advance(-10 * 60_000);
  });
});

describe('PUT and DELETE /api/servers/{id}', () => {
  it('sets custom name, tags and notes; filters by tag', async () => {
    const res = await z.admin.put(`/api/servers/${fleet.charlie!.id}?o=${o}`, {
      custom_name: 'Charlie’s box',
      tags: ['web', 'prod', 'web'],
      notes: 'rack 4',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: 'Charlie’s box', tags: ['prod', 'web'], notes: 'rack 4' });
    const tagged = await z.admin.get(`/api/servers?o=${o}&tag=prod`);
    expect(names(tagged.body)).toEqual(['charlie']);
  });

  it('refuses a read-only user with 403', async () => {
    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [o]: 2 } });
    const client = clientFor(t, { cookie: await cookieFor(t, reader) });
    expect((await client.get(`/api/servers?o=${o}`)).status).toBe(200);
    expect((await client.put(`/api/servers/${fleet.charlie!.id}?o=${o}`, { notes: 'x' })).status).toBe(403);
    expect(
      (await client.post(`/api/servers/${fleet.charlie!.id}/queues?o=${o}`, { command_type_name: 'Reboot' })).status,
    ).toBe(403);
    const info = await client.get(`/api/info?o=${o}`);
    expect(info.status).toBe(200);
    expect(info.body.access_key).toBeNull();
    expect(info.body.install.linux).toContain('<ACCESS_KEY>');
  });
});

describe('GET /api/servers/{id}/packages', () => {
  it('lists installed packages with their available update', async () => {
    const res = await z.admin.get(`/api/servers/${fleet.alpha!.id}/packages?o=${o}`);
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(2);
    expect(res.body.data).toEqual([
      { name: 'bash', version: '5.2', source: 'dpkg', patch: null },
      {
        name: 'openssl',
        version: '3.0.1',
        source: 'dpkg',
        patch: { version: '3.0.2', severity: 'critical', cves: ['CVE-2026-0001'], kb: null, reboot_required: false },
      },
    ]);
    const needs = await z.admin.get(`/api/servers/${fleet.alpha!.id}/packages?o=${o}&needs_update=true`);
    expect(needs.body.data.map((p: { name: string }) => p.name)).toEqual(['openssl']);
  });
});

describe('GET /api/orgs/{orgId}/packages', () => {
  it('aggregates the zone’s software by package', async () => {
    const res = await z.admin.get(`/api/orgs/${o}/packages?o=${o}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        name: 'bash',
        os_family: 'linux',
        installed_count: 3,
        versions: ['5.2'],
        needs_update_count: 1,
        severity: 'low',
        cves: ['CVE-2026-0002'],
      },
      {
        name: 'openssl',
        os_family: 'linux',
        installed_count: 3,
        versions: ['3.0.1'],
        needs_update_count: 1,
        severity: 'critical',
        cves: ['CVE-2026-0001'],
      },
    ]);
    const critical = await z.admin.get(`/api/orgs/${o}/packages?o=${o}&severity=critical`);
    expect(critical.body.data.map((p: { name: string }) => p.name)).toEqual(['openssl']);
    const devicesOf = await z.admin.get(`/api/orgs/${o}/packages/devices?o=${o}&name=openssl`);
    expect(names(devicesOf.body)).toEqual(['alpha', 'bravo', 'charlie']);
    expect(devicesOf.body.size).toBe(3);
    expect((await z.admin.get(`/api/orgs/${other.zone.id}/packages?o=${o}`)).status).toBe(404);
  });
});

describe('POST /api/servers/batch', () => {
  it('tags, untags and queues scans on the zone’s devices only', async () => {
    const ids = [fleet.mac!.id, fleet.win!.id];
    const tag = await z.admin.post(`/api/servers/batch?o=${o}`, { action: 'tag', ids, tags: ['batch'] });
    expect(tag.body).toEqual({ affected: 2 });
    expect(names((await z.admin.get(`/api/servers?o=${o}&tag=batch`)).body)).toEqual(['delta-mac', 'echo-win']);
    const untag = await z.admin.post(`/api/servers/batch?o=${o}`, { action: 'untag', ids, tags: ['batch'] });
    expect(untag.body).toEqual({ affected: 2 });
    expect((await z.admin.get(`/api/servers?o=${o}&tag=batch`)).body.size).toBe(0);
    const scan = await z.admin.post(`/api/servers/batch?o=${o}`, { action: 'scan', ids: [...ids, 999_999] });
    expect(scan.body).toEqual({ affected: 2 });
    const got = await checkinAs(t, fleet.mac!.token);
    expect(got.body.commands.map((c: { type: string }) => c.type)).toEqual(['scan']);
  });

  it('refuses more than 500 ids', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await z.admin.post(`/api/servers/batch?o=${o}`, { action: 'scan', ids })).status).toBe(400);
  });
});

describe('GET /api/servers/export.csv', () => {
  it('streams the filtered list with formula-like cells neutralised', async () => {
    await z.admin.put(`/api/servers/${fleet.win!.id}?o=${o}`, { custom_name: '=HYPERLINK("http://evil")' });
    const res = await t.request(`/api/servers/export.csv?o=${o}&os_family=windows`, { headers: { cookie: z.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('devices.csv');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toMatch(/^ID,Name,Hostname/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).not.toMatch(/,=HYPERLINK/);
  });

  it('exports every match in the list’s order', async () => {
    // The Mac checked in above: its last-seen time lands with the next coalesced write, which
    // must not fall between the list and the export (it moves the Mac in `last_seen_at` order).
    await flushLastSeen(t);
    for (const sort of ['name:desc', 'last_seen_at:asc']) {
      const list = await z.admin.get(`/api/servers?o=${o}&sort=${sort}`);
      const csv = await t.request(`/api/servers/export.csv?o=${o}&sort=${sort}`, { headers: { cookie: z.cookie } });
      const ids = (await csv.text())
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => Number(line.split(',')[0]));
      expect(ids).toEqual(list.body.data.map((d: { id: number }) => d.id));
      expect(ids).toHaveLength(5);
    }
  });

  it("exports only the devices named in ids (one id, or several), never another zone's", async () => {
    const one = await t.request(`/api/servers/export.csv?o=${o}&ids=${fleet.mac!.id}`, {
      headers: { cookie: z.cookie },
    });
    expect(one.status).toBe(200);
    const oneLines = (await one.text()).trim().split('\n');
    expect(oneLines).toHaveLength(2);
    expect(oneLines[1]!.startsWith(`${fleet.mac!.id},`)).toBe(true);
    const both = await t.request(
      `/api/servers/export.csv?o=${o}&ids[]=${fleet.mac!.id}&ids[]=${fleet.win!.id}&ids[]=999999`,
      { headers: { cookie: z.cookie } },
    );
    expect((await both.text()).trim().split('\n')).toHaveLength(3);
    const bad = await t.request(`/api/servers/export.csv?o=${o}&ids=abc`, { headers: { cookie: z.cookie } });
    expect(bad.status).toBe(400);
  });

  it('guards every formula prefix', () => {
    for (const c of ['=1', '+1', '-1', '@x', '\tx', '\rx']) expect(csvCell(c)).toBe(`'${c}`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(['a', 'b'])).toBe('a b');
  });

  it('answers 404 for another zone', async () => {
    const res = await t.request(`/api/servers/export.csv?o=${other.zone.id}`, { headers: { cookie: z.cookie } });
    expect(res.status).toBe(404);
  });
});

describe('/api/servergroups', () => {
  it('has a default group that cannot be deleted', async () => {
    const list = await z.admin.get(`/api/servergroups?o=${o}`);
    expect(list.status).toBe(200);
    const def = list.body.find((g: { default: boolean }) => g.default);
    expect(def).toMatchObject({ name: 'Default Group', organization_id: o, server_count: 5, checkin_interval_s: 60 });
    expect((await z.admin.del(`/api/servergroups/${def.id}?o=${o}`)).status).toBe(409);
  });

  it('creates groups with unique names, moves devices, and moves them back to the default on delete', async () => {
    const created = await z.admin.post(`/api/servergroups?o=${o}`, { name: 'Web servers', checkin_interval_s: 30 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Web servers', default: false, server_count: 0, organization_id: o });
    expect((await z.admin.post(`/api/servergroups?o=${o}`, { name: 'web SERVERS' })).status).toBe(409);
    const gid = created.body.id;
    const moved = await z.admin.post(`/api/servergroups/${gid}/servers?o=${o}`, { ids: [fleet.alpha!.id] });
    expect(moved.body).toEqual({ affected: 1 });
    expect(names((await z.admin.get(`/api/servers?o=${o}&group=${gid}`)).body)).toEqual(['alpha']);
    // The group's interval reaches the agent.
    expect((await checkinAs(t, fleet.alpha!.token)).body.checkin_interval_s).toBe(30);
    const put = await z.admin.put(`/api/servergroups/${gid}?o=${o}`, {
      name: 'Web',
      organization_id: other.zone.id,
    });
    expect(put.status).toBe(400);
    const ok = await z.admin.put(`/api/servergroups/${gid}?o=${o}`, { name: 'Web', organization_id: o, notes: 'n' });
    expect(ok.body).toMatchObject({ name: 'Web', notes: 'n', server_count: 1 });
    expect((await z.admin.get(`/api/servergroups/${gid}?o=${other.zone.id}`)).status).toBe(404);
    expect((await z.admin.del(`/api/servergroups/${gid}?o=${o}`)).status).toBe(204);
    const alpha = await z.admin.get(`/api/servers/${fleet.alpha!.id}?o=${o}`);
    expect(alpha.body.group_name).toBe('Default Group');
  });
});

describe('GET /api/dashboard and /api/info', () => {
  it('counts devices by status, OS and compliance', async () => {
    await flushLastSeen(t); // alpha, bravo and the Mac have checked in
    const res = await z.admin.get(`/api/dashboard?o=${o}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      devices: { total: 5, online: 3, offline: 2, needs_reboot: 1 },
      by_os: [
        { os_family: 'linux', count: 3 },
        { os_family: 'mac', count: 1 },
        { os_family: 'windows', count: 1 },
      ],
      compliance: { compliant: 3, pending: 1, needs_attention: 1 },
      patches: { pending: 2, critical: 1, high: 0 },
    });
  });

  it('shows the key and install commands to a zone administrator', async () => {
    const res = await z.admin.get(`/api/info?o=${o}`);
    expect(res.status).toBe(200);
    expect(res.body.access_key).toBe(z.accessKey);
    const agent = '/opt/patchwell/patchwell-agent.cjs';
    expect(res.body.install.linux).toContain(
      `sudo node ${agent} enroll --server ${res.body.server_url} --key ${z.accessKey}`,
    );
    expect(res.body.install.linux).toContain(`sudo node ${agent} install-service --yes`);
    expect(res.body.install.windows).toContain(`--key '${z.accessKey}'`);
    expect(res.body.agent.download_url).toBe(`${res.body.server_url}/api/agent/v1/download/patchwell-agent.cjs`);
  });

  it('removes devices in a batch; their agents get 410', async () => {
    const res = await z.admin.post(`/api/servers/batch?o=${o}`, { action: 'remove', ids: [fleet.win!.id] });
    expect(res.body).toEqual({ affected: 1 });
    expect((await checkinAs(t, fleet.win!.token)).status).toBe(410);
    expect((await z.admin.get(`/api/dashboard?o=${o}`)).body.devices.total).toBe(4);
  });
});

// The list's route sends the rows as the database wrote them (findDevicesAsApiJson); the other
// lists (software, all zones) and the device page make them with toDevice.
describe('GET /api/servers rows as the database writes them', () => {
  it('are what toDevice makes of the same rows, every field ZDevice reads, on first, later and filtered pages', async () => {
    const mac = fleet.mac!.id;
    const renamed = await z.admin.put(`/api/servers/${mac}?o=${o}`, {
      custom_name: `Zulu 'quoted' "name" \\ 漢字`,
      tags: ['a,b', 'quote"d'],
    });
    expect(renamed.status).toBe(200);
    try {
      for (const query of [
        '',
        'sort=name:desc&limit=2&page=1',
        'sort=hostname:asc&limit=10',
        'sort=create_time:desc',
        'sort=last_seen_at:asc',
        'sort=compliance:desc&limit=2&page=2',
        'status=online',
        'search=zulu',
        'os_family=linux&sort=name:desc',
        'search=nothing-matches',
      ]) {
        const res = await z.admin.get(`/api/servers?o=${o}&${query}`);
        expect(res.status).toBe(200);
        // Nothing ZDevice does not know, nothing it lacks.
        expect(ZDeviceList.parse(res.body)).toEqual(res.body);
        const q = ZListDevicesQuery.parse({ o: String(o), ...Object.fromEntries(new URLSearchParams(query)) });
        const expected = await findDevices(t.db, o, filterOf(q), {
          sort: sortOf(q.sort),
          offset: q.page * q.limit,
          limit: q.limit,
          now: t.clock.now(),
        });
        expect(res.body, query).toEqual({ data: expected.rows.map(toDevice), size: expected.size });
      }
      const raw = await t.request(`/api/servers?o=${o}`, { headers: { cookie: z.cookie } });
      expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const zulu = (await z.admin.get(`/api/servers?o=${o}&search=zulu`)).body.data[0];
      expect(zulu).toMatchObject({ display_name: `Zulu 'quoted' "name" \\ 漢字`, tags: ['a,b', 'quote"d'] });
      expect(zulu.create_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await z.admin.put(`/api/servers/${mac}?o=${o}`, { custom_name: null, tags: [] });
    }
  });
});
