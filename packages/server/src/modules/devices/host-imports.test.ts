import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_IMPORT_MAX_BYTES, HOST_IMPORT_MAX_ROWS } from '@patchwell/core/devices/host-imports.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { buildZoneWithKey, enrollDevice } from '../../test/agents';
import { clientFor, cookieFor, type Caller } from '../../test/authz-helpers';
import { buildUser } from '../../test/factories';

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let other: Awaited<ReturnType<typeof buildZoneWithKey>>;
let o: number;
let readOnly: Caller;
let serversGroupId: number;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  other = await buildZoneWithKey(t);
  o = z.zone.id;
  const viewer = await buildUser(t.db, { accountId: z.account.id, zones: { [o]: 2 } });
  readOnly = { cookie: await cookieFor(t, viewer) };
  const group = await z.admin.post(`/api/servergroups?o=${o}`, { name: 'Servers' });
  expect(group.status).toBe(201);
  serversGroupId = group.body.id;
  await enrollDevice(t, z.accessKey, { hostname: 'already-here' });
});
afterAll(async () => {
  await t.close();
});

type Upload = { dryRun?: boolean; filename?: string; type?: string; zone?: number };

/** A real multipart upload, as the console's form sends it. */
async function upload(caller: Caller, body: string | Buffer, opts: Upload = {}) {
  const form = new FormData();
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
  form.append('file', new Blob([bytes], { type: opts.type ?? 'text/csv' }), opts.filename ?? 'hosts.csv');
  const query = `o=${opts.zone ?? o}${opts.dryRun ? '&dry_run=true' : ''}`;
  const res = await t.request(`/api/servers/imports?${query}`, {
    method: 'POST',
    headers: caller.cookie ? { cookie: caller.cookie } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as JsonBody, text };
}

const admin = (): Caller => ({ cookie: z.cookie });
const listImports = async (query = '') => (await z.admin.get(`/api/servers/imports?o=${o}${query}`)).body;
const byLine = (body: JsonBody, line: number) => body.rows.find((r: { line: number }) => r.line === line);

describe('POST /api/servers/imports?dry_run=true', () => {
  it('reads columns by header aliases and answers each row without writing', async () => {
    const csv =
      '\uFEFFComputer Name,IPv4 Address,Operating System,Device Group,Labels,Serial Number,Description,Owner\r\n' +
      'WEB01.corp.example,192.0.2.10,Windows Server 2022 Datacenter,servers,web; prod,SN1,Front end,alice\r\n' +
      'mac-07,,macOS 15 Sequoia,,design|laptop|Design,,,bob\r\n' +
      'db01,"10.0.0.5, 10.0.0.6",Ubuntu 24.04,,,,,carol\r\n' +
      'printer-3,,HP FutureSmart,,,,,\r\n';
    const res = await upload(admin(), csv, { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.dry_run).toBe(true);
    expect(res.body.ignored_columns).toEqual(['Owner']);
    expect(byLine(res.body, 2)).toMatchObject({
      hostname: 'web01.corp.example',
      ip_addrs: ['192.0.2.10'],
      os_family: 'windows',
      server_group_id: serversGroupId,
      group_name: 'Servers',
      tags: ['web', 'prod'],
      serial: 'SN1',
      notes: 'Front end',
      status: 'new',
      errors: [],
    });
    expect(byLine(res.body, 3)).toMatchObject({ os_family: 'mac', tags: ['design', 'laptop'], status: 'new' });
    expect(byLine(res.body, 4)).toMatchObject({ os_family: 'linux', ip_addrs: ['10.0.0.5', '10.0.0.6'] });
    expect(byLine(res.body, 5)).toMatchObject({ os_family: null, status: 'new' });
    expect(byLine(res.body, 5).warnings[0]).toMatch(/HP FutureSmart/);
    expect(res.body.summary).toEqual({ total: 4, new: 4, matches_device: 0, duplicate: 0, error: 0, imported: 0 });
    expect((await listImports()).size).toBe(0);
  });

  it('marks bad rows, hosts repeated in the file and hosts that already are devices', async () => {
    const csv = [
      'hostname,ip,group,tags',
      'good-1,,,',
      ',192.0.2.1,,', // no host name
      'bad host,,,', // space
      'good-2,not-an-ip,,',
      'good-3,,No Such Group,',
      'GOOD-1.corp.example,,,', // the same machine as line 2
      'already-here.corp.example,,,', // enrolled as `already-here`
      `good-4,,,${Array.from({ length: 101 }, (_, i) => `t${i}`).join(';')}`,
    ].join('\n');
    const res = await upload(admin(), csv, { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.rows.map((r: { status: string }) => r.status)).toEqual([
      'new',
      'error',
      'error',
      'error',
      'error',
      'duplicate',
      'matches_device',
      'error',
    ]);
    expect(byLine(res.body, 3).errors).toEqual(['Host name is required.']);
    expect(byLine(res.body, 4).errors[0]).toMatch(/letters, digits/);
    expect(byLine(res.body, 5).errors).toEqual(['Not an IP address: not-an-ip.']);
    expect(byLine(res.body, 6).errors[0]).toMatch(/Group “No Such Group” does not exist/);
    expect(byLine(res.body, 7).errors[0]).toMatch(/line 2/);
    expect(byLine(res.body, 8).device_id).toEqual(expect.any(Number));
    expect(byLine(res.body, 9).errors).toEqual(['At most 100 tags per host.']);
    expect(res.body.summary).toMatchObject({ total: 8, new: 1, error: 5, duplicate: 1, matches_device: 1 });
  });

  it('reads a semicolon-separated file (Excel in many locales) with multi-line quoted notes', async () => {
    const res = await upload(admin(), 'Host;OS;Notes\nsemi-1;linux;"two\nlines"\nsemi-2;win;\n', { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.rows.map((r: { hostname: string; line: number }) => [r.hostname, r.line])).toEqual([
      ['semi-1', 3],
      ['semi-2', 4],
    ]);
    expect(res.body.rows[0].notes).toBe('two\nlines');
  });
});

describe('POST /api/servers/imports', () => {
  it('writes the valid rows in one go, skips the others, and skips them all when the file comes again', async () => {
    const csv = 'hostname,group,tags,notes\nimp-a,Servers,web,first\nimp-b,,,\nimp-c,Nope,,\n';
    const res = await upload(admin(), csv);
    expect(res.status).toBe(201);
    expect(res.body.dry_run).toBe(false);
    expect(res.body.summary).toMatchObject({ total: 3, new: 2, error: 1, imported: 2 });
    const list = await listImports('&status=awaiting_agent&search=imp-');
    expect(list.data.map((r: { hostname: string }) => r.hostname).sort()).toEqual(['imp-a', 'imp-b']);
    expect(list.data.find((r: { hostname: string }) => r.hostname === 'imp-a')).toMatchObject({
      server_group_id: serversGroupId,
      group_name: 'Servers',
      tags: ['web'],
      notes: 'first',
      status: 'awaiting_agent',
      imported_by: z.user.id,
      enrolled_device_id: null,
    });

    const again = await upload(admin(), csv);
    expect(again.status).toBe(200);
    expect(again.body.summary).toMatchObject({ new: 0, duplicate: 2, error: 1, imported: 0 });
    expect((await listImports('&search=imp-')).size).toBe(2);
  });

  it('writes nothing for a file where every row is invalid, and answers 400 with the rows’ errors', async () => {
    const res = await upload(admin(), 'hostname,ip\n,1.2.3.4\nbad name,\n');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('host_imports.all_invalid');
    expect(res.body.errors).toEqual({
      'rows.2': ['Line 2: Host name is required.'],
      'rows.3': [expect.stringMatching(/^Line 3: Host name may hold only/)],
    });
    expect((await listImports('&search=bad')).size).toBe(0);
  });

  it('stores formula-looking cells as plain text (never evaluated) and refuses them as host names', async () => {
    const csv = 'hostname,tags,notes,serial\nformula-1,+cmd|@SUM(A1),"=HYPERLINK(""http://x"")",-2+3\n=cmd,,,\n';
    const res = await upload(admin(), csv);
    expect(res.status).toBe(201);
    expect(byLine(res.body, 3).status).toBe('error');
    const [row] = (await listImports('&search=formula-1')).data;
    expect(row).toMatchObject({ tags: ['+cmd', '@SUM(A1)'], notes: '=HYPERLINK("http://x")', serial: '-2+3' });
  });

  it('refuses a file over 1 MiB with 413 and one over the row limit with 400', async () => {
    const big = `hostname,notes\n${'x,'.padEnd(HOST_IMPORT_MAX_BYTES, 'y')}\n`;
    const tooBig = await upload(admin(), big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({
      code: 'host_imports.too_large',
      message: 'The file is larger than 1 MiB. Split it into smaller files.',
    });

    const rows = (n: number) => `hostname\n${Array.from({ length: n }, (_, i) => `bulk-${i}`).join('\n')}\n`;
    const tooMany = await upload(admin(), rows(HOST_IMPORT_MAX_ROWS + 1), { dryRun: true });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('The file has more than 5,000 rows. Split it into smaller files.');

    const atLimit = await upload(admin(), rows(HOST_IMPORT_MAX_ROWS), { dryRun: true });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.summary.new).toBe(HOST_IMPORT_MAX_ROWS);
  });

  it('refuses what is not a CSV upload, and a CSV without a host name column', async () => {
    const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64)]);
    const sheet = await upload(admin(), xlsx, { filename: 'hosts.xlsx', type: 'application/octet-stream' });
    expect(sheet.status).toBe(415);
    expect(sheet.body.code).toBe('host_imports.not_csv');
    const renamed = await upload(admin(), xlsx, { filename: 'hosts.csv', type: 'application/vnd.ms-excel' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toMatch(/spreadsheet workbook/);

    const json = await z.admin.post(`/api/servers/imports?o=${o}`, { hostname: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('host_imports.not_multipart');

    const noHost = await upload(admin(), 'ip,os\n1.2.3.4,linux\n', { dryRun: true });
    expect(noHost.status).toBe(400);
    expect(noHost.body.code).toBe('host_imports.no_hostname_column');
    expect((await upload(admin(), 'hostname\n', { dryRun: true })).body.code).toBe('host_imports.empty');
  });
});

describe('permissions and zones', () => {
  it('lets Read Only list imports but not import or remove them (403)', async () => {
    expect((await upload(readOnly, 'hostname\nro-1\n', { dryRun: true })).status).toBe(403);
    expect((await clientFor(t, readOnly).get(`/api/servers/imports?o=${o}`)).status).toBe(200);
    const [row] = (await listImports('&search=imp-b')).data;
    expect((await clientFor(t, readOnly).del(`/api/servers/imports/${row.id}?o=${o}`)).status).toBe(403);
  });

  it('hides another zone’s imports (404) and its zone', async () => {
    const [row] = (await listImports('&search=imp-b')).data;
    expect((await other.admin.del(`/api/servers/imports/${row.id}?o=${other.zone.id}`)).status).toBe(404);
    expect((await other.admin.get(`/api/servers/imports?o=${o}`)).status).toBe(404);
    expect((await upload({ cookie: other.cookie }, 'hostname\nx-1\n', { zone: o })).status).toBe(404);
    expect((await listImports('&search=imp-b')).size).toBe(1);
  });

  it('removes an import awaiting its agent', async () => {
    const [row] = (await listImports('&search=imp-b')).data;
    expect((await z.admin.del(`/api/servers/imports/${row.id}?o=${o}`)).status).toBe(204);
    expect((await z.admin.del(`/api/servers/imports/${row.id}?o=${o}`)).status).toBe(404);
    expect((await listImports('&search=imp-b')).size).toBe(0);
  });
});

describe('enrolment of an imported host', () => {
  it('gives the new device the import’s group, tags and notes, matching the short name with the FQDN', async () => {
    const res = await upload(admin(), 'hostname,group,tags,notes\nWEB07,Servers,web|dmz,Rack 4\n');
    expect(res.status).toBe(201);
    const device = await enrollDevice(t, z.accessKey, { hostname: 'web07.corp.example' });
    const detail = await z.admin.get(`/api/servers/${device.id}?o=${o}`);
    expect(detail.body).toMatchObject({ server_group_id: serversGroupId, tags: ['web', 'dmz'], notes: 'Rack 4' });
    const [row] = (await listImports('&search=web07')).data;
    expect(row).toMatchObject({ status: 'enrolled', enrolled_device_id: device.id });
    expect(row.enrolled_at).toEqual(expect.any(String));
    const removal = await z.admin.del(`/api/servers/imports/${row.id}?o=${o}`);
    expect(removal.status).toBe(409);
  });

  it('gives one import to one device when two agents with its name enrol at once', async () => {
    await upload(admin(), 'hostname,tags\ntwin,twin-tag\n');
    const [a, b] = await Promise.all([
      enrollDevice(t, z.accessKey, { hostname: 'twin' }),
      enrollDevice(t, z.accessKey, { hostname: 'TWIN' }),
    ]);
    const tags = await Promise.all(
      [a!, b!].map(async (d) => (await z.admin.get(`/api/servers/${d.id}?o=${o}`)).body.tags),
    );
    expect(tags.filter((list) => list.includes('twin-tag'))).toHaveLength(1);
    const [row] = (await listImports('&search=twin')).data;
    expect(row.status).toBe('enrolled');
    expect([a!.id, b!.id]).toContain(row.enrolled_device_id);
  });

  it('leaves devices of another domain, and of another zone, alone', async () => {
    await upload(admin(), 'hostname,tags\nmail.corp.example,mail\n');
    const elsewhere = await enrollDevice(t, z.accessKey, { hostname: 'mail.branch.example' });
    expect((await z.admin.get(`/api/servers/${elsewhere.id}?o=${o}`)).body.tags).toEqual([]);
    const otherZone = await enrollDevice(t, other.accessKey, { hostname: 'mail.corp.example' });
    expect((await other.admin.get(`/api/servers/${otherZone.id}?o=${other.zone.id}`)).body.tags).toEqual([]);
    expect((await listImports('&search=mail')).data[0].status).toBe('awaiting_agent');
  });
});
