import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cveEvents } from '../../../db/remediation.schema';
import { startTestApp, type TestApp } from '../../../test/app';
import { agentCall, inventoryBody } from '../../../test/agents';
import { acceptBatch, clientAcrossDays, recordOutcome } from '../../../test/cve-fixtures';
import { buildUser } from '../../../test/factories';
import { buildPolicyZone, inventoriedDevice, patch, type TestZone } from '../../../test/policy-fixtures';
import type { EnrolledDevice } from '../../../test/agents';

/**
 * Issue 11, "a CVE view that explains itself": the zone's CVEs with counts, one CVE's devices
 * with why each matched and what fixes it, its history, the summary and the CSV, and nothing of
 * another zone. States are built by the batches' and tasks' own calls (test/cve-fixtures.ts).
 */

const DAY = 86_400_000;
const OPENSSL = 'CVE-2026-1000';
const KERNEL = 'CVE-2026-2000';
const NOFIX = 'CVE-2026-3000';
const FOREIGN = 'CVE-2026-9999';

let t: TestApp;
let z: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;
let otherAdmin: ReturnType<typeof clientAcrossDays>;
let reader: ReturnType<typeof clientAcrossDays>;
let web1: EnrolledDevice;
let web2: EnrolledDevice;
let db1: EnrolledDevice;
let other: TestZone;
let otherDevice: EnrolledDevice;
let firstBatch: number;
const start = new Date('2026-03-02T09:00:00.000Z');

const opensslPatch = () =>
  patch('openssl', 'critical', { cves: [OPENSSL], current_version: '3.0.1', version: '3.0.13', source: 'apt' });
const opensslInstalled = { name: 'openssl', version: '3.0.1', source: 'dpkg', arch: 'amd64' };

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
  const readOnly = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 2 } });
  reader = clientAcrossDays(t, readOnly);
  web1 = await inventoriedDevice(t, z, 'web-1', { patches: [opensslPatch()], software: [opensslInstalled] });
  web2 = await inventoriedDevice(t, z, 'web-2', { patches: [opensslPatch()], software: [opensslInstalled] });
  db1 = await inventoriedDevice(t, z, 'db-1', { patches: [], software: [] });

  ({ batchId: firstBatch } = await acceptBatch(
    t,
    z.zone.id,
    [
      {
        deviceId: web1.id,
        cve: OPENSSL,
        severity: 'critical',
        severityRaw: '5',
        cvss: 9.8,
        title: 'OpenSSL buffer overflow',
        host: 'WEB-1',
        matchedBy: 'hostname',
        fix: { kind: 'patch-now', patchName: 'openssl' },
      },
      {
        deviceId: web2.id,
        cve: OPENSSL,
        severity: 'high',
        severityRaw: '4',
        cvss: 7.5,
        host: '10.0.0.12',
        matchedBy: 'ip',
        fix: { kind: 'patch-now', patchName: 'openssl' },
      },
      {
        deviceId: db1.id,
        cve: KERNEL,
        severity: 'high',
        severityRaw: '4',
        cvss: 8.1,
        title: 'Kernel privilege escalation',
        host: 'db-1.example.test',
        matchedBy: 'fqdn',
        fix: { kind: 'patch-with-worklet', workletId: 'linux-kernel-sysctl', title: 'Harden kernel sysctl' },
      },
      // The scanner says it is vulnerable; nothing Patchwell knows fixes it: it still counts.
      { deviceId: db1.id, cve: NOFIX, severity: 'medium', title: 'No fix yet', issue: 'unknown_cve' },
      // Already patched by the inventory's account: not a state.
      { deviceId: db1.id, cve: 'CVE-2026-4000', severity: 'low', issue: 'cve_not_applicable' },
      // No device: an unknown host is not in the view.
      { deviceId: null, cve: 'CVE-2026-5000', severity: 'critical', issue: 'unknown_host' },
    ],
    { source: 'qualys', fileName: 'qualys-march.csv', userId: z.user.id },
  ));

  other = await buildPolicyZone(t);
  otherAdmin = clientAcrossDays(t, other.user);
  otherDevice = await inventoriedDevice(t, other, 'foreign-1');
  await acceptBatch(t, other.zone.id, [
    { deviceId: otherDevice.id, cve: FOREIGN, severity: 'critical', title: 'FOREIGN-TITLE' },
    { deviceId: otherDevice.id, cve: OPENSSL, severity: 'critical', title: 'FOREIGN-OPENSSL' },
  ]);
});

afterAll(async () => {
  await t.close();
});

const list = (query = '') => admin.get(`/api/orgs/${z.zone.id}/cves?o=${z.zone.id}${query}`);
const detail = (cve: string, query = '') => admin.get(`/api/orgs/${z.zone.id}/cves/${cve}?o=${z.zone.id}${query}`);

describe('GET /api/orgs/{orgId}/cves', () => {
  it('lists each CVE with its worst severity, highest CVSS, counts and due date', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(3);
    expect(res.body.data.map((c: { cve: string }) => c.cve)).toEqual([OPENSSL, KERNEL, NOFIX]);
    expect(res.body.data[0]).toEqual({
      cve: OPENSSL,
      severity: 'critical',
      cvss: 9.8,
      title: 'OpenSSL buffer overflow',
      affected_device_count: 2,
      remediated_device_count: 0,
      excepted_device_count: 0,
      overdue_device_count: 0,
      first_seen_at: start.toISOString(),
      last_seen_at: start.toISOString(),
      // Web-2's row says high (30 days) but web-1's critical row makes the CVE due first.
      due_at: new Date(start.getTime() + 15 * DAY).toISOString(),
    });
    expect(res.body.data[2]).toMatchObject({ cve: NOFIX, severity: 'medium', affected_device_count: 1 });
  });

  it('filters by severity, search and overdue, sorts and pages', async () => {
    expect((await list('&severity=high')).body.data.map((c: { cve: string }) => c.cve)).toEqual([KERNEL]);
    expect((await list('&search=kernel')).body.data.map((c: { cve: string }) => c.cve)).toEqual([KERNEL]);
    expect((await list('&search=2026-30')).body.data.map((c: { cve: string }) => c.cve)).toEqual([NOFIX]);
    expect((await list('&overdue=true')).body).toEqual({ data: [], size: 0 });
    expect((await list('&overdue=false')).body.size).toBe(3);
    expect((await list('&sort=cve:desc')).body.data.map((c: { cve: string }) => c.cve)).toEqual([
      NOFIX,
      KERNEL,
      OPENSSL,
    ]);
    const page = await list('&sort=cve:asc&limit=2&page=1');
    expect(page.body).toMatchObject({ size: 3, data: [{ cve: NOFIX }] });
    expect((await list('&limit=2&page=5')).body).toEqual({ data: [], size: 3 });
  });

  it('refuses a bad sort with the schema’s message', async () => {
    const res = await list('&sort=title:asc');
    expect(res.status).toBe(400);
    expect(res.body.errors.sort).toEqual(['Sort must be field:asc or field:desc.']);
  });

  it('is readable with Task.read and never shows another zone’s CVEs', async () => {
    const res = await reader.get(`/api/orgs/${z.zone.id}/cves?o=${z.zone.id}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(FOREIGN);
    expect(res.text).not.toContain('FOREIGN-OPENSSL');
    // The same CVE id in another zone counts only that zone's device.
    const theirs = await otherAdmin.get(`/api/orgs/${other.zone.id}/cves?o=${other.zone.id}`);
    expect(theirs.body.data.find((c: { cve: string }) => c.cve === OPENSSL).affected_device_count).toBe(1);
  });
});

describe('GET /api/orgs/{orgId}/cves/{cve}', () => {
  it('explains each device: the scanner row, the installed package and the patch that fixes it', async () => {
    const res = await detail(OPENSSL.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body.cve.cve).toBe(OPENSSL);
    expect(res.body.devices_size).toBe(2);
    const one = res.body.devices.find((d: { device_id: number }) => d.device_id === web1.id);
    expect(one).toEqual({
      device_id: web1.id,
      hostname: 'web-1',
      status: 'open',
      findings: [
        {
          batch_id: firstBatch,
          source: 'qualys',
          file_name: 'qualys-march.csv',
          line: 2,
          scanned_host: 'WEB-1',
          matched_by: 'hostname',
          severity_raw: '5',
          cvss: 9.8,
          seen_at: start.toISOString(),
        },
      ],
      installed: { name: 'openssl', version: '3.0.1' },
      fix: { kind: 'patch', name: 'openssl', version: '3.0.13', source: 'apt' },
      exception: null,
      due_at: new Date(start.getTime() + 15 * DAY).toISOString(),
      overdue: false,
      remediated_at: null,
    });
    const two = res.body.devices.find((d: { device_id: number }) => d.device_id === web2.id);
    expect(two.findings[0]).toMatchObject({ scanned_host: '10.0.0.12', matched_by: 'ip', severity_raw: '4' });
    expect(two.due_at).toBe(new Date(start.getTime() + 30 * DAY).toISOString());
    expect(res.body.exceptions).toEqual([]);
  });

  it('names the worklet that fixes a CVE no patch lists, and no fix for an unknown one', async () => {
    const kernel = (await detail(KERNEL)).body.devices[0];
    expect(kernel.findings[0]).toMatchObject({ scanned_host: 'db-1.example.test', matched_by: 'fqdn' });
    expect(kernel.fix).toEqual({
      kind: 'worklet',
      name: 'Harden kernel sysctl',
      version: null,
      source: 'linux-kernel-sysctl',
    });
    expect(kernel.installed).toBeNull();
    const nofix = (await detail(NOFIX)).body.devices[0];
    expect(nofix).toMatchObject({ status: 'open', fix: null, installed: null, overdue: false });
    expect(nofix.due_at).toBe(new Date(start.getTime() + 90 * DAY).toISOString());
  });

  it('answers 404 for a CVE the zone does not have, even one another zone has', async () => {
    expect((await detail('CVE-2026-4000')).status).toBe(404);
    const foreign = await detail(FOREIGN);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('FOREIGN');
    // And the other zone's path with the caller's own o, or the other zone's o: 404 too.
    expect((await admin.get(`/api/orgs/${other.zone.id}/cves/${FOREIGN}?o=${other.zone.id}`)).status).toBe(404);
    expect((await admin.get(`/api/orgs/${other.zone.id}/cves/${FOREIGN}?o=${z.zone.id}`)).status).toBe(404);
    expect((await admin.get(`/api/orgs/${z.zone.id}/cves/${OPENSSL}?o=${other.zone.id}`)).status).toBe(404);
  });

  it('refuses a malformed CVE id with the schema’s message', async () => {
    const res = await detail('CVE-26-1');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.errors.cve).toEqual(['Must be a CVE id such as CVE-2024-3094.']);
  });

  it('pages its devices', async () => {
    const res = await detail(OPENSSL, '&limit=1&page=1');
    expect(res.body.devices_size).toBe(2);
    expect(res.body.devices).toHaveLength(1);
  });
});

describe('the fix status over time', () => {
  it('counts affected and remediated devices at the end of each day from jobs and scanner reports', async () => {
    // Day 2: web-1's job starts; day 3: it succeeds and web-2's fails; day 4: a later failure leaves web-1 remediated.
    t.clock.set(new Date(start.getTime() + DAY));
    await recordOutcome(t, { zoneId: z.zone.id, deviceId: web1.id, cves: [OPENSSL], outcome: 'remediating' });
    t.clock.set(new Date(start.getTime() + 2 * DAY));
    await recordOutcome(t, {
      zoneId: z.zone.id,
      deviceId: web1.id,
      cves: [OPENSSL, 'CVE-2026-7777'],
      outcome: 'remediated',
    });
    await recordOutcome(t, { zoneId: z.zone.id, deviceId: web2.id, cves: [OPENSSL], outcome: 'remediation_failed' });
    t.clock.set(new Date(start.getTime() + 3 * DAY));
    await recordOutcome(t, {
      zoneId: z.zone.id,
      deviceId: web1.id,
      cves: [OPENSSL],
      outcome: 'remediation_failed',
      taskId: 2,
    });

    const res = await detail(OPENSSL);
    expect(res.body.cve).toMatchObject({ affected_device_count: 1, remediated_device_count: 1 });
    expect(res.body.history).toEqual([
      { date: '2026-03-02', affected: 2, remediated: 0 },
      { date: '2026-03-03', affected: 2, remediated: 0 },
      { date: '2026-03-04', affected: 1, remediated: 1 },
      { date: '2026-03-05', affected: 1, remediated: 1 },
    ]);
    const devices = res.body.devices;
    expect(devices[0]).toMatchObject({ device_id: web2.id, status: 'remediation_failed' });
    expect(devices[1]).toMatchObject({
      device_id: web1.id,
      status: 'remediated',
      remediated_at: new Date(start.getTime() + 2 * DAY).toISOString(),
    });
    // One event per change: no event for the CVE the device was never reported for, none for the refused downgrade.
    const events = await t.db
      .select({ status: cveEvents.status, cause: cveEvents.cause })
      .from(cveEvents)
      .where(and(eq(cveEvents.deviceId, web1.id), eq(cveEvents.cve, OPENSSL)))
      .orderBy(cveEvents.at, cveEvents.id);
    expect(events).toEqual([
      { status: 'open', cause: `batch:${firstBatch}` },
      { status: 'remediating', cause: 'task:1' },
      { status: 'remediated', cause: 'task:1' },
    ]);
  });

  it('opens a remediated device again when a later batch still reports it, keeping its first sighting', async () => {
    const { batchId } = await acceptBatch(t, z.zone.id, [
      {
        deviceId: web1.id,
        cve: OPENSSL,
        severity: 'critical',
        cvss: null,
        fix: { kind: 'patch-now', patchName: 'openssl' },
      },
      // Seen again while failed: open again; seen again while open: no event.
      { deviceId: db1.id, cve: KERNEL, severity: 'high' },
    ]);
    const res = await detail(OPENSSL);
    const one = res.body.devices.find((d: { device_id: number }) => d.device_id === web1.id);
    expect(one).toMatchObject({ status: 'open', remediated_at: null });
    expect(one.findings.map((f: { batch_id: number }) => f.batch_id)).toEqual([batchId, firstBatch]);
    expect(res.body.cve).toMatchObject({ cvss: 9.8, first_seen_at: start.toISOString(), affected_device_count: 2 });
    expect(res.body.cve.last_seen_at).toBe(new Date(start.getTime() + 3 * DAY).toISOString());
    expect(res.body.history.at(-1)).toEqual({ date: '2026-03-05', affected: 2, remediated: 0 });
    const kernelEvents = await t.db
      .select({ cause: cveEvents.cause })
      .from(cveEvents)
      .where(and(eq(cveEvents.deviceId, db1.id), eq(cveEvents.cve, KERNEL)));
    expect(kernelEvents).toEqual([{ cause: `batch:${firstBatch}` }]);
  });
});

describe('patched outside a task', () => {
  it('remediates a CVE once the device’s inventory no longer lists the patch that fixed it', async () => {
    const before = (await detail(OPENSSL)).body.devices.find((d: { device_id: number }) => d.device_id === web2.id);
    expect(before.status).toBe('remediation_failed');
    // Web-2's inventory still lists openssl as pending: nothing changes.
    const same = inventoryBody({ hostname: 'web-2', patches: [opensslPatch()], software: [opensslInstalled] });
    expect((await agentCall(t, web2.token, 'PUT', '/inventory', same)).status).toBe(204);
    expect((await detail(OPENSSL)).body.cve.affected_device_count).toBe(2);

    t.clock.advance(60_000);
    const patched = inventoryBody({
      hostname: 'web-2',
      patches: [],
      software: [{ ...opensslInstalled, version: '3.0.13' }],
    });
    expect((await agentCall(t, web2.token, 'PUT', '/inventory', patched)).status).toBe(204);
    const after = (await detail(OPENSSL)).body.devices.find((d: { device_id: number }) => d.device_id === web2.id);
    expect(after).toMatchObject({ status: 'remediated', remediated_at: t.clock.now().toISOString() });
    // The batch's patch is still named as the fix, with the version now installed.
    expect(after.fix).toEqual({ kind: 'patch', name: 'openssl', version: null, source: null });
    expect(after.installed).toEqual({ name: 'openssl', version: '3.0.13' });
    const [event] = await t.db
      .select({ status: cveEvents.status, cause: cveEvents.cause })
      .from(cveEvents)
      .where(and(eq(cveEvents.deviceId, web2.id), eq(cveEvents.cause, 'inventory')));
    expect(event).toEqual({ status: 'remediated', cause: 'inventory' });
  });

  it('leaves CVEs fixed by a worklet or with no known fix alone', async () => {
    t.clock.advance(60_000);
    const res = await agentCall(
      t,
      db1.token,
      'PUT',
      '/inventory',
      inventoryBody({ hostname: 'db-1', patches: [], software: [] }),
    );
    expect(res.status).toBe(204);
    expect((await detail(KERNEL)).body.devices[0].status).toBe('open');
    expect((await detail(NOFIX)).body.devices[0].status).toBe('open');
  });
});

describe('GET /api/orgs/{orgId}/cves/summary', () => {
  it('totals open CVEs, affected devices and overdue devices by severity', async () => {
    const res = await admin.get(`/api/orgs/${z.zone.id}/cves/summary?o=${z.zone.id}`);
    expect(res.status).toBe(200);
    // web-1 (openssl), db-1 (kernel, nofix); web-2 remediated.
    expect(res.body).toEqual({
      open_cves: 3,
      affected_devices: 2,
      overdue: { critical: 0, high: 0, medium: 0, low: 0, none: 0 },
      overdue_total: 0,
    });
    // 16 days after the first sighting web-1's critical openssl is overdue (15 days); kernel (high, 30) not yet.
    t.clock.set(new Date(start.getTime() + 16 * DAY));
    const later = await admin.get(`/api/orgs/${z.zone.id}/cves/summary?o=${z.zone.id}`);
    expect(later.body).toMatchObject({ overdue: { critical: 1, high: 0, medium: 0 }, overdue_total: 1 });
    expect((await list('&overdue=true')).body.data.map((c: { cve: string }) => c.cve)).toEqual([OPENSSL]);
    expect((await detail(OPENSSL)).body.devices[0]).toMatchObject({ device_id: web1.id, overdue: true });
  });
});

describe('GET /api/orgs/{orgId}/cves/csv', () => {
  it('exports every CVE and device with status, due date and an overdue column, guarding formula cells', async () => {
    await acceptBatch(t, z.zone.id, [
      { deviceId: db1.id, cve: 'CVE-2026-6000', severity: 'low', title: '=HYPERLINK("x")' },
    ]);
    const res = await admin.get(`/api/orgs/${z.zone.id}/cves/csv?o=${z.zone.id}`);
    expect(res.status).toBe(200);
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe(
      'CVE,Title,Severity,CVSS,Device ID,Hostname,Status,Exception,Exception expires,First seen,Last seen,Due,Overdue,Remediated',
    );
    expect(lines).toHaveLength(1 + 5);
    const web1Row = lines.find((l) => l.startsWith(`${OPENSSL},`) && l.includes(',web-1,'))!;
    expect(web1Row).toContain(',Open,,,');
    expect(web1Row).toContain(`,${new Date(start.getTime() + 15 * DAY).toISOString()},Yes,`);
    const web2Row = lines.find((l) => l.includes(',web-2,'))!;
    expect(web2Row).toContain(',Remediated,');
    expect(web2Row).toContain(',No,');
    expect(lines.find((l) => l.startsWith('CVE-2026-6000'))).toContain(`"'=HYPERLINK(""x"")"`);
    expect(res.text).not.toContain(FOREIGN);

    const overdue = await admin.get(`/api/orgs/${z.zone.id}/cves/csv?o=${z.zone.id}&overdue=true`);
    expect(overdue.text.trim().split('\n')).toHaveLength(2);
  });

  it('is refused to another zone’s caller', async () => {
    expect((await otherAdmin.get(`/api/orgs/${z.zone.id}/cves/csv?o=${z.zone.id}`)).status).toBe(404);
  });

  it('streams a zone larger than one read page, every row once', async () => {
    const many = Array.from({ length: 2100 }, (_, i) => ({
      deviceId: web2.id,
      cve: `CVE-2027-${String(10000 + i)}`,
      severity: 'low' as const,
    }));
    await acceptBatch(t, z.zone.id, many);
    const res = await admin.get(`/api/orgs/${z.zone.id}/cves/csv?o=${z.zone.id}`);
    const lines = res.text.trim().split('\n').slice(1);
    expect(lines).toHaveLength(5 + 2100);
    expect(new Set(lines.map((l) => l.split(',').slice(0, 5).join())).size).toBe(lines.length);
  });
});
