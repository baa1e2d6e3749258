import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCANNER_SOURCES, type ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../../test/app';
import { buildZoneWithKey } from '../../../test/agents';
import { clientFor, cookieFor, type Caller } from '../../../test/authz-helpers';
import { buildUser } from '../../../test/factories';
import { enrollFleet, KB_SERVER, KB_WIN11, SAFARI, sampleFile, uploadCsv } from './batches.fixtures';
import { fixOfPatch } from './patch-fix';

/**
 * Each scanner's sample export, uploaded to a zone whose devices the samples name: matched
 * by name, FQDN or private IP to the devices, to their pending patches and to the SMBv1
 * worklet, with the spec's potential issues for the rest. Another zone holds devices of the
 * same names; they are never matched.
 */

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let other: Awaited<ReturnType<typeof buildZoneWithKey>>;
let o: number;
let ids: Record<string, number>;
let otherIds: Record<string, number>;
let admin: Caller;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  o = z.zone.id;
  admin = { cookie: z.cookie };
  ids = await enrollFleet(t, z.accessKey);
  // Another zone with machines of the same names, addresses and patches, and the kiosk.
  other = await buildZoneWithKey(t);
  otherIds = await enrollFleet(t, other.accessKey, [
    {
      hostname: 'web-eu-0012',
      fqdn: 'web-eu-0012.example.com',
      ip: '10.30.0.12',
      os_family: 'linux',
      os_name: 'Debian GNU/Linux 12 (bookworm)',
      os_version: '12',
      patches: [{ name: 'openssl', version: '3.0.15', severity: 'high', cves: ['CVE-2024-5535'], source: 'apt' }],
    },
    {
      hostname: 'kiosk-lobby-01',
      fqdn: 'kiosk-lobby-01.corp.example.com',
      ip: '10.20.9.41',
      os_family: 'windows',
      os_name: 'Windows 10 Enterprise LTSC',
      os_version: '10.0.19044',
      patches: [
        { name: 'KB5046613', version: 'KB5046613', severity: 'critical', cves: ['CVE-2024-43451'], source: 'wua' },
      ],
    },
  ]);
});
afterAll(async () => {
  await t.close();
});

const api = (path: string) => `/api/orgs/${o}/tasks/batches${path}${path.includes('?') ? '&' : '?'}o=${o}`;

/** Uploads a sample and waits until its build is over. */
async function uploadSample(source: ScannerSource): Promise<JsonBody> {
  const res = await uploadCsv(t, admin, o, source, sampleFile(source));
  expect(res.status, res.text).toBe(202);
  expect(res.body).toMatchObject({ status: 'building', source, report_source: `${source}.csv`, statistics: null });
  await t.app.batchBuilder.idle();
  return res.body;
}

type Expected = { kind: string; devices: string[]; cves: string[]; severity?: string };

const SMB1 = 'Disable SMBv1';

/** What every sample amounts to; the CVE lists of the SMBv1 and Safari rows differ by scanner. */
function expectedSolutions(source: ScannerSource): Record<string, Expected> {
  const smb1Cves = {
    qualys: ['CVE-2017-0143', 'CVE-2017-0144', 'CVE-2017-0145'],
    rapid7: ['CVE-2017-0143', 'CVE-2017-0144', 'CVE-2017-0145', 'CVE-2017-0146', 'CVE-2017-0147', 'CVE-2017-0148'],
  }[source as string] ?? ['CVE-2017-0144'];
  const windows = ['CVE-2024-43451', 'CVE-2024-49039'];
  return {
    // Titled by the fix, not by the device's KB or build (each job keeps its device's own).
    [fixOfPatch(KB_SERVER)]: { kind: 'patch-now', devices: ['SRV-SQL-0003'], cves: windows },
    [fixOfPatch(KB_WIN11)]: { kind: 'patch-now', devices: ['WS-3F0007'], cves: windows },
    openssl: {
      kind: 'patch-now',
      devices: ['db-us-0020', 'web-eu-0012'],
      cves: ['CVE-2024-5535'],
      severity: 'critical',
    },
    curl: { kind: 'patch-now', devices: ['web-eu-0012'], cves: ['CVE-2024-7264'] },
    libcurl4: { kind: 'patch-now', devices: ['web-eu-0012'], cves: ['CVE-2024-7264'] },
    'openssh-server': { kind: 'patch-now', devices: ['web-eu-0012'], cves: ['CVE-2024-6387'] },
    [fixOfPatch(SAFARI)]: {
      kind: 'patch-now',
      devices: ['ana-mbp-0005'],
      cves: source === 'qualys' ? ['CVE-2024-44308', 'CVE-2024-44309'] : ['CVE-2024-44308'],
    },
    [SMB1]: { kind: 'patch-with-worklet', devices: ['SRV-SQL-0003'], cves: smb1Cves },
  };
}

const hostOf = (id: number) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? `foreign device ${id}`;

/** The kiosk (no agent) as each sample names it: DNS name, NetBIOS name, host name or address. */
const KIOSK_NAME: Record<ScannerSource, string> = {
  generic: 'kiosk-lobby-01',
  qualys: 'kiosk-lobby-01.corp.example.com',
  tenable: 'KIOSK-LOBBY-01',
  'crowd-strike': 'KIOSK-LOBBY-01',
  rapid7: '10.20.9.41',
};

/** Severities the samples give CVE-2024-5535 (openssl), raw and mapped. */
const OPENSSL_RAW: Record<ScannerSource, string> = {
  generic: 'Critical',
  qualys: '5',
  tenable: 'Critical',
  'crowd-strike': 'CRITICAL',
  rapid7: '9',
};

describe.each(SCANNER_SOURCES)('a %s sample export', (source) => {
  let batch: JsonBody;
  beforeAll(async () => {
    batch = await uploadSample(source);
  });

  it('is matched to the zone’s devices and ready for review', async () => {
    const detail = await z.admin.get(api(`/${batch.id}`));
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: batch.id,
      organization_id: o,
      type: 'patch',
      status: 'ready',
      error: null,
      impacted_device_count: 5,
      created_by_user: { id: z.user.id, email: z.user.email },
      updated_by_user: null,
    });
    expect(detail.body.statistics.issues).toEqual({
      duplicate_host: 0,
      unknown_host: 2,
      unknown_cve: 1,
      cve_not_applicable: 1,
      unsupported_host: 0,
    });
    expect(detail.body.statistics.solutions['patch-now']).toMatchObject({ count: 7, device_count: 5 });
    expect(detail.body.statistics.solutions['patch-with-worklet']).toMatchObject({ count: 1, device_count: 1 });
  });

  it('groups the remediations into one solution per fix and per worklet, never on another zone’s devices', async () => {
    const res = await z.admin.get(api(`/${batch.id}/solutions?limit=100`));
    expect(res.status).toBe(200);
    const got = Object.fromEntries(
      res.body.data.map((s: JsonBody) => [
        s.title,
        { kind: s.kind, devices: s.device_ids.map(hostOf).sort(), cves: s.cves, severity: s.severity },
      ]),
    );
    const expected = expectedSolutions(source);
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const [title, want] of Object.entries(expected)) {
      expect(got[title], title).toMatchObject(want.severity ? want : { ...want, severity: expect.any(String) });
    }
    const smb1 = res.body.data.find((s: JsonBody) => s.title === SMB1);
    expect(smb1).toMatchObject({ worklet_id: 'win-smb1-disabled', patch_name: null, device_count: 1 });
    const foreign = new Set(Object.values(otherIds));
    expect(res.body.data.flatMap((s: JsonBody) => s.device_ids).some((id: number) => foreign.has(id))).toBe(false);
  });

  it('lists the rows that did not become a remediation as potential issues', async () => {
    const res = await z.admin.get(api(`/${batch.id}/issues?limit=50`));
    expect(res.status).toBe(200);
    const issues = res.body.data.map((i: JsonBody) => `${i.issue} ${i.device ? hostOf(i.device) : '-'} ${i.patch_id}`);
    expect(issues.sort()).toEqual(
      [
        'cve_not_applicable db-us-0020 CVE-2024-6387',
        'unknown_cve web-eu-0012 CVE-2023-44487',
        'unknown_host - CVE-2024-43451',
        'unknown_host - CVE-2024-49039',
      ].sort(),
    );
    const kiosk = res.body.data.find((i: JsonBody) => i.issue === 'unknown_host');
    expect(kiosk.ip_addrs_private).toEqual(['10.20.9.41']);
    expect(kiosk.line).toBeGreaterThan(1);
    const filtered = await z.admin.get(api(`/${batch.id}/issues?issue=unknown_cve`));
    expect(filtered.body).toMatchObject({ size: 1, data: [{ patch_id: 'CVE-2023-44487' }] });
  });

  it('lists the host with no device of the zone as an unknown host', async () => {
    const res = await z.admin.get(api(`/${batch.id}/unknown-hosts`));
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(1);
    expect(res.body.data[0]).toMatchObject({
      hostname: KIOSK_NAME[source],
      ip_addrs_private: ['10.20.9.41'],
      cves: ['CVE-2024-43451', 'CVE-2024-49039'],
    });
  });

  it('maps the scanner’s severity to the product’s and keeps the raw value', async () => {
    const res = await z.admin.get(api(`/${batch.id}/vulnerabilities?limit=100`));
    expect(res.status).toBe(200);
    const openssl = res.body.data.find((v: JsonBody) => v.cve === 'CVE-2024-5535');
    expect(openssl).toMatchObject({
      severity: 'critical',
      severity_raw: OPENSSL_RAW[source],
      device_count: 2,
      remediable_device_count: 2,
    });
    expect(openssl.solution_ids).toHaveLength(1);
    const order = res.body.data.map((v: JsonBody) => v.severity);
    const rank = { critical: 4, high: 3, medium: 2, low: 1, none: 0 } as Record<string, number>;
    expect(order).toEqual([...order].sort((a, b) => rank[b]! - rank[a]!));
    const http2 = res.body.data.find((v: JsonBody) => v.cve === 'CVE-2023-44487');
    expect(http2).toMatchObject({ device_count: 1, remediable_device_count: 0, solution_ids: [] });
  });
});

describe('matching rules', () => {
  /** The batch's CSV as records keyed by header. */
  async function csvOf(batchId: number): Promise<Record<string, string>[]> {
    const res = await t.request(api(`/${batchId}/csv`), { headers: { cookie: z.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    return parse(await res.text(), { columns: true }) as Record<string, string>[];
  }

  it('matches IP-only rows (Rapid7) by the devices’ private addresses, names by name or FQDN', async () => {
    const rapid7 = await csvOf((await uploadSample('rapid7')).id);
    const srv = rapid7.filter((r) => r['Device'] === 'SRV-SQL-0003');
    expect(srv.length).toBe(8);
    expect(new Set(srv.map((r) => r['Matched by']))).toEqual(new Set(['ip']));

    const tenable = await csvOf((await uploadSample('tenable')).id);
    // Host 10.20.2.7 with NetBios WS-3F0007: the name wins over the address.
    expect(tenable.find((r) => r['Host'] === 'WS-3F0007')).toMatchObject({
      'IP addresses': '10.20.2.7',
      Device: 'WS-3F0007',
      'Matched by': 'hostname',
    });
    // Host srv-sql-0003.corp.example.com: the device's FQDN.
    expect(tenable.find((r) => r['CVE'] === 'CVE-2017-0144')).toMatchObject({
      Host: 'srv-sql-0003.corp.example.com',
      'Matched by': 'fqdn',
      Result: 'remediation',
      'Solution kind': 'patch-with-worklet',
      Solution: 'Disable SMBv1',
    });
    expect(tenable.find((r) => r['CVE'] === 'CVE-2023-44487')).toMatchObject({
      Result: 'potential issue',
      Issue: 'unknown_cve',
      Device: 'web-eu-0012',
    });
  });

  it('names several devices behind one host a duplicate host, and a worklet for another OS an unsupported host', async () => {
    const zone = await buildZoneWithKey(t);
    const build = (ip: string) => ({
      hostname: 'build-eu-0031',
      fqdn: 'build-eu-0031',
      ip,
      os_family: 'linux' as const,
      os_name: 'Debian GNU/Linux 12 (bookworm)',
      os_version: '12',
      patches: [],
    });
    const devices = await enrollFleet(t, zone.accessKey, [build('10.1.0.31'), build('10.2.0.31')]);
    expect(Object.keys(devices)).toHaveLength(1); // same name: the last id is kept
    const csv =
      'Hostname,IP,CVE ID,Severity\r\n' +
      'build-eu-0031,,CVE-2024-5535,High\r\n' +
      'build-eu-0031,10.2.0.31,CVE-2017-0144,Critical\r\n';
    const res = await uploadCsv(t, { cookie: zone.cookie }, zone.zone.id, 'generic', csv, { filename: 'build.csv' });
    expect(res.status, res.text).toBe(202);
    await t.app.batchBuilder.idle();
    const issues = await zone.admin.get(
      `/api/orgs/${zone.zone.id}/tasks/batches/${res.body.id}/issues?o=${zone.zone.id}`,
    );
    expect(issues.body.data.map((i: JsonBody) => [i.line, i.issue, i.device === null])).toEqual([
      [2, 'duplicate_host', true],
      [3, 'unsupported_host', false],
    ]);
  });

  it('takes the patch’s own severity when the file gives none', async () => {
    const res = await uploadCsv(t, admin, o, 'generic', 'Hostname,CVE ID\nweb-eu-0012.example.com,CVE-2024-6387\n', {
      filename: 'no-severity.csv',
    });
    expect(res.status, res.text).toBe(202);
    await t.app.batchBuilder.idle();
    const solutions = await z.admin.get(api(`/${res.body.id}/solutions`));
    expect(solutions.body.data).toEqual([expect.objectContaining({ title: 'openssh-server', severity: 'high' })]);
  });
});

describe('batch list and permissions', () => {
  it('lists the zone’s batches newest first with who queued them, filtered by status and type', async () => {
    const all = await z.admin.get(api('?limit=100'));
    expect(all.status).toBe(200);
    expect(all.body.size).toBeGreaterThanOrEqual(5);
    const ids = all.body.data.map((b: JsonBody) => b.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(all.body.data[0].created_by_user.email).toBe(z.user.email);
    const notReady = await z.admin.get(api('?status:not_in=ready,approved&type:equals=patch'));
    expect(notReady.body.data.every((b: JsonBody) => !['ready', 'approved'].includes(b.status))).toBe(true);
    const paged = await z.admin.get(api('?limit=2&page=1'));
    expect(paged.body.data.map((b: JsonBody) => b.id)).toEqual(ids.slice(2, 4));
    const bad = await z.admin.get(api('?status:not_in=nonsense'));
    expect(bad.status).toBe(400);
  });

  it('lets a Read Only user read batches but not upload or decide', async () => {
    const viewer = await buildUser(t.db, { accountId: z.account.id, zones: { [o]: 2 } });
    const caller = { cookie: await cookieFor(t, viewer) };
    const list = await clientFor(t, caller).get(api(''));
    expect(list.status).toBe(200);
    const up = await uploadCsv(t, caller, o, 'generic', sampleFile('generic'));
    expect(up.status).toBe(403);
    const accept = await clientFor(t, caller).post(api(`/${list.body.data[0].id}/accept`));
    expect(accept.status).toBe(403);
  });

  it('answers 404 for another zone’s batch, on every batch route, and for `o` naming another zone', async () => {
    const theirs = await uploadCsv(t, { cookie: other.cookie }, other.zone.id, 'generic', sampleFile('generic'));
    expect(theirs.status).toBe(202);
    await t.app.batchBuilder.idle();
    for (const path of ['', '/issues', '/vulnerabilities', '/solutions', '/unknown-hosts', '/csv']) {
      expect((await z.admin.get(api(`/${theirs.body.id}${path}`))).status, path).toBe(404);
    }
    for (const path of ['/accept', '/reject']) {
      expect((await z.admin.post(api(`/${theirs.body.id}${path}`))).status, path).toBe(404);
    }
    const mismatch = await z.admin.get(`/api/orgs/${o}/tasks/batches?o=${other.zone.id}`);
    expect(mismatch.status).toBe(404);
    // Their own batch matched their web-eu-0012 and kiosk, never ours.
    const solutions = await other.admin.get(
      `/api/orgs/${other.zone.id}/tasks/batches/${theirs.body.id}/solutions?o=${other.zone.id}`,
    );
    const mine = new Set(Object.values(ids));
    expect(solutions.body.data.flatMap((s: JsonBody) => s.device_ids).some((id: number) => mine.has(id))).toBe(false);
    expect(solutions.body.data.map((s: JsonBody) => s.title).sort()).toEqual(['KB5046613', 'openssl']);
  });
});

describe('GET .../formats', () => {
  it('lists each provider with the columns it reads, an example and the limits', async () => {
    const res = await z.admin.get(`/api/orgs/${o}/tasks/patch/batches/formats?o=${o}`);
    expect(res.status).toBe(200);
    expect(res.body.map((f: JsonBody) => f.name)).toEqual([...SCANNER_SOURCES]);
    const qualys = res.body.find((f: JsonBody) => f.name === 'qualys');
    expect(qualys).toMatchObject({ format: 'csv', max_rows: 20_000, max_bytes: 32 * 1024 * 1024 });
    expect(qualys.headers.filter((h: JsonBody) => h.required).map((h: JsonBody) => h.name)).toEqual([
      'IP',
      'Severity',
      'CVE ID',
    ]);
    // Each provider's own example is a file it accepts.
    for (const format of res.body) {
      const up = await uploadCsv(t, admin, o, format.name, format.example, { filename: `example-${format.name}.csv` });
      expect(up.status, `${format.name}: ${up.text}`).toBe(202);
    }
    await t.app.batchBuilder.idle();
  });
});
