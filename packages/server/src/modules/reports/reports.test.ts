import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { PATCH_SEVERITIES, type PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import { patchAgeBucket, type PatchAge } from '@patchwell/core/reports/patch-age';
import { PATCH_COMMAND_TYPES } from '@patchwell/core/reports/reports.schema';
import { users } from '../../db/schema';
import { deviceCommands, devicePatches, devicePresence, devices } from '../../db/devices.schema';
import { policyDeviceResults } from '../../db/policies.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { agentCall, checkinAs, flushLastSeen, inventoryBody, type EnrolledDevice } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { clientAcrossDays } from '../../test/cve-fixtures';
import { buildUser } from '../../test/factories';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';
import { snapshotCompliance } from './overview.service';

/**
 * The overview, prepatch and needs-attention reports over HTTP on a fixture fleet whose
 * patches, ages, compliance and install history are known: every figure must equal a direct
 * count of the same rows (and, where the fixture fixes it, the literal number).
 */

const DAY = 86_400_000;
const NOW = new Date('2026-03-12T09:00:00.000Z');
const at = (daysBack: number, hours = 0) => new Date(NOW.getTime() - daysBack * DAY + hours * 3_600_000);
const published = (daysBack: number) => at(daysBack).toISOString();

let t: TestApp;
let z: TestZone;
let other: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;
const fleet: Record<string, EnrolledDevice> = {};
/** Direct counts of compliance when each past day's snapshot was taken. */
const snapshotCounts: Record<string, { compliant: number; not: number; total: number }> = {};

async function directCompliance(zoneId: number) {
  const rows = await t.db
    .select({ compliance: devices.compliance })
    .from(devices)
    .where(and(eq(devices.organizationId, zoneId), isNull(devices.removedAt)));
  const compliant = rows.filter((r) => r.compliance === 'compliant').length;
  return { compliant, not: rows.length - compliant, total: rows.length };
}

async function queueAndFinish(
  device: EnrolledDevice,
  command: Record<string, unknown>,
  result: Record<string, unknown>,
): Promise<void> {
  const queued = await admin.post(`/api/servers/${device.id}/queues?o=${z.o}`, command);
  expect(queued.status).toBe(201);
  const [handed] = await commandsOf(t, device);
  expect(handed?.id).toBe(queued.body.id);
  expect((await postResult(t, device, handed!.id, result)).status).toBe(204);
}

beforeAll(async () => {
  t = await startTestApp();
  // Two days back: the first five devices, and that day's snapshot.
  t.clock.set(at(2));
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
  const setups: Record<string, ReturnType<typeof patch>[]> = {
    // needs attention: Critical under 15 days, High 16-30.
    alpha: [
      patch('openssl', 'critical', { published_at: published(5) }),
      patch('openssh-server', 'high', { published_at: published(20) }),
    ],
    // pending: Medium 31-60, Low 61-89.
    bravo: [
      patch('curl', 'medium', { published_at: published(40) }),
      patch('vim', 'low', { published_at: published(70) }),
    ],
    // pending: Low 90+, and a patch without severity or date.
    charlie: [patch('less', 'low', { published_at: published(100) }), patch('tzdata', 'none', { published_at: null })],
    delta: [],
    // needs attention: Critical 90+.
    echo: [patch('openssl', 'critical', { published_at: published(95) })],
  };
  for (const [name, patches] of Object.entries(setups)) fleet[name] = await inventoriedDevice(t, z, name, { patches });
  // Another account's device: never in zone z's figures.
  await inventoriedDevice(t, other, 'outsider', {
    patches: [patch('openssl', 'critical', { published_at: published(3) })],
  });
  await snapshotCompliance(t.ctx);
  snapshotCounts[published(2).slice(0, 10)] = await directCompliance(z.o);

  // Yesterday: a sixth device (compliant), one install of two updates, and that day's snapshot.
  t.clock.set(at(1));
  fleet.foxtrot = await inventoriedDevice(t, z, 'foxtrot');
  await queueAndFinish(
    fleet.alpha!,
    { command_type_name: 'InstallUpdate', args: { names: ['zlib1g', 'libc6'] } },
    { status: 'success', exit_code: 0 },
  );
  await snapshotCompliance(t.ctx);
  snapshotCounts[published(1).slice(0, 10)] = await directCompliance(z.o);

  // Today: delta gets a Critical patch; installs succeed, fail, only simulate; a scan.
  t.clock.set(NOW);
  const inventory = inventoryBody({
    hostname: 'delta',
    patches: [patch('sudo', 'critical', { published_at: published(16) })],
    software: [],
  });
  expect((await agentCall(t, fleet.delta!.token, 'PUT', '/inventory', inventory)).status).toBe(204);
  await queueAndFinish(
    fleet.bravo!,
    { command_type_name: 'InstallPackage', args: { package: 'nginx' } },
    { status: 'success', exit_code: 0 },
  );
  await queueAndFinish(fleet.charlie!, { command_type_name: 'InstallAllUpdates' }, { status: 'error', exit_code: 100 });
  await queueAndFinish(
    fleet.echo!,
    { command_type_name: 'InstallUpdate', args: { names: ['openssl'] } },
    { status: 'success', exit_code: 0, data: { simulated: true } },
  );
  await queueAndFinish(fleet.delta!, { command_type_name: 'GetOS' }, { status: 'success', exit_code: 0 });
  // Queued and never finished: not in any figure.
  expect(
    (await admin.post(`/api/servers/${fleet.foxtrot!.id}/queues?o=${z.o}`, { command_type_name: 'InstallAllUpdates' }))
      .status,
  ).toBe(201);
  // Alpha waits for a reboot. Every device but foxtrot has checked in today.
  await checkinAs(t, fleet.alpha!.token, { status: { needs_reboot: true } });
  await flushLastSeen(t);
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('GET /api/reports/overview', () => {
  let overview: JsonBody;
  beforeAll(async () => {
    const res = await admin.get(`/api/reports/overview?o=${z.o}&internal=1`);
    expect(res.status).toBe(200);
    overview = res.body;
  });

  it('starts 10 days back by default and ends today, one entry per UTC day', () => {
    expect(overview.start_date).toBe('2026-03-02');
    expect(overview.end_date).toBe('2026-03-12');
    expect(overview.days.map((d: { date: string }) => d.date)).toHaveLength(11);
    expect(overview.computed_at).toBe(NOW.toISOString());
  });

  it('counts devices by state as the devices table does', async () => {
    const live = and(eq(devices.organizationId, z.o), isNull(devices.removedAt));
    const rows = await t.db
      .select({
        compliance: devices.compliance,
        needsReboot: devices.needsReboot,
        pending: devices.pendingPatches,
        onlineUntil: devicePresence.onlineUntil,
      })
      .from(devices)
      .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
      .where(live);
    const online = rows.filter((r) => r.onlineUntil && r.onlineUntil > NOW).length;
    expect(overview.devices).toEqual({
      total: rows.length,
      online,
      offline: rows.length - online,
      needs_reboot: rows.filter((r) => r.needsReboot).length,
      compliant: rows.filter((r) => r.compliance === 'compliant').length,
      pending: rows.filter((r) => r.compliance === 'pending').length,
      needs_attention: rows.filter((r) => r.compliance === 'needs_attention').length,
      with_pending_patches: rows.filter((r) => r.pending > 0).length,
    });
    // The fixture fixes them: alpha, delta, echo need attention; bravo, charlie pending; foxtrot
    // compliant; all but foxtrot checked in today.
    expect(overview.devices).toMatchObject({
      total: 6,
      online: 5,
      needs_reboot: 1,
      compliant: 1,
      pending: 2,
      needs_attention: 3,
    });
  });

  it('gives compliance over time: today now, past days from their snapshots, null before any', async () => {
    const today = overview.days.at(-1);
    const now = await directCompliance(z.o);
    expect(today).toMatchObject({ compliant: now.compliant, not_compliant: now.not, total: now.total });
    for (const [day, counts] of Object.entries(snapshotCounts)) {
      expect(overview.days.find((d: { date: string }) => d.date === day)).toMatchObject({
        compliant: counts.compliant,
        not_compliant: counts.not,
        total: counts.total,
      });
    }
    expect(snapshotCounts['2026-03-10']).toEqual({ compliant: 1, not: 4, total: 5 });
    expect(snapshotCounts['2026-03-11']).toEqual({ compliant: 2, not: 4, total: 6 });
    expect(today).toMatchObject({ compliant: 1, not_compliant: 5, total: 6 });
    expect(overview.days[0]).toMatchObject({ date: '2026-03-02', compliant: null, not_compliant: null, total: null });
  });

  it('counts patches installed and failures per day as the command history says', async () => {
    const commands = await t.db
      .select({
        type: deviceCommands.type,
        args: deviceCommands.args,
        status: deviceCommands.status,
        data: deviceCommands.data,
        finishedAt: deviceCommands.finishedAt,
        simulated: policyDeviceResults.simulated,
      })
      .from(deviceCommands)
      .leftJoin(policyDeviceResults, eq(policyDeviceResults.id, deviceCommands.policyResultId))
      .where(eq(deviceCommands.organizationId, z.o));
    const expected = new Map<string, { installed: number; failures: number }>();
    for (const c of commands) {
      if (!c.finishedAt || !(PATCH_COMMAND_TYPES as readonly string[]).includes(c.type)) continue;
      const day = c.finishedAt.toISOString().slice(0, 10);
      const e = expected.get(day) ?? { installed: 0, failures: 0 };
      const isSimulated = (c.data as { simulated?: boolean } | null)?.simulated === true || c.simulated === true;
      if (c.status === 'success' && !isSimulated) e.installed += c.args.names?.length ?? 1;
      if (c.status === 'error' || c.status === 'timed_out') e.failures += 1;
      expected.set(day, e);
    }
    for (const day of overview.days) {
      const e = expected.get(day.date) ?? { installed: 0, failures: 0 };
      expect({ date: day.date, installed: day.patches_installed, failures: day.failures }).toEqual({
        date: day.date,
        ...e,
      });
    }
    expect(overview.days.at(-2)).toMatchObject({ patches_installed: 2, failures: 0 });
    expect(overview.days.at(-1)).toMatchObject({ patches_installed: 1, failures: 1 });
  });

  it('lists the commands behind each daily figure', async () => {
    const installed = await admin.get(
      `/api/reports/patch-history?o=${z.o}&startDate=2026-03-12&endDate=2026-03-12&outcome=installed`,
    );
    expect(installed.status).toBe(200);
    expect(installed.body.size).toBe(1);
    expect(installed.body.data[0]).toMatchObject({
      device_name: 'bravo',
      type: 'install_package',
      patches: ['nginx'],
      status: 'success',
    });
    const failed = await admin.get(
      `/api/reports/patch-history?o=${z.o}&startDate=2026-03-12&endDate=2026-03-12&outcome=failed`,
    );
    expect(failed.body.data.map((e: JsonBody) => e.device_name)).toEqual(['charlie']);
    const yesterday = await admin.get(`/api/reports/patch-history?o=${z.o}&startDate=2026-03-11&endDate=2026-03-11`);
    expect(yesterday.body.data[0]).toMatchObject({ device_name: 'alpha', patches: ['zlib1g', 'libc6'] });
    const all = await admin.get(`/api/reports/patch-history?o=${z.o}`);
    expect(all.body.size).toBe(4);
    expect(all.body.data.find((e: JsonBody) => e.device_name === 'echo').simulated).toBe(true);
  });

  it('takes startDate up to 90 days back, never in the future or malformed', async () => {
    const back = await admin.get(`/api/reports/overview?o=${z.o}&startDate=2025-12-12`);
    expect(back.status).toBe(200);
    expect(back.body.days).toHaveLength(91);
    for (const bad of ['2025-12-11', '2026-03-13', '2026-02-30', 'yesterday']) {
      const res = await admin.get(`/api/reports/overview?o=${z.o}&startDate=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors.startDate).toHaveLength(1);
    }
    const order = await admin.get(`/api/reports/patch-history?o=${z.o}&startDate=2026-03-10&endDate=2026-03-09`);
    expect(order.status).toBe(400);
  });

  it('marks overviewReportRun in the caller’s profile', async () => {
    const [row] = await t.db.select({ metadata: users.metadata }).from(users).where(eq(users.id, z.user.id));
    expect(row!.metadata.overviewReportRun).toBe(true);
    const cookie = await cookieFor(t, z.user);
    const self = await clientFor(t, { cookie }).get('/api/users/self');
    expect(self.body.metadata.overviewReportRun).toBe(true);
  });
});

type PatchRow = { deviceId: number; severity: PatchSeverity; publishedAt: Date | null };

async function directPatches(zoneId: number): Promise<PatchRow[]> {
  return t.db
    .select({
      deviceId: devicePatches.deviceId,
      severity: devicePatches.severity,
      publishedAt: devicePatches.publishedAt,
    })
    .from(devicePatches)
    .innerJoin(devices, eq(devices.id, devicePatches.deviceId))
    .where(and(eq(devices.organizationId, zoneId), isNull(devices.removedAt)));
}

function countOf(rows: PatchRow[]) {
  return { devices: new Set(rows.map((r) => r.deviceId)).size, patches: rows.length };
}

describe('GET /api/reports/prepatch', () => {
  let report: JsonBody;
  let patches: PatchRow[];
  beforeAll(async () => {
    const res = await admin.get(`/api/reports/prepatch?o=${z.o}`);
    expect(res.status).toBe(200);
    report = res.body;
    patches = await directPatches(z.o);
  });

  it('counts pending patches and their devices in all, by severity and by age bucket as the rows do', () => {
    expect(report.summary.total).toEqual(countOf(patches));
    for (const severity of PATCH_SEVERITIES) {
      expect(report.summary.by_severity.find((s: JsonBody) => s.severity === severity)).toEqual({
        severity,
        ...countOf(patches.filter((p) => p.severity === severity)),
      });
    }
    const bucketOf = (p: PatchRow): PatchAge => patchAgeBucket(p.publishedAt, NOW);
    for (const bucket of ['0-15', '16-30', '31-60', '61-89', '90+', 'unknown'] as const) {
      expect(report.summary.by_age.find((s: JsonBody) => s.bucket === bucket)).toEqual({
        bucket,
        ...countOf(patches.filter((p) => bucketOf(p) === bucket)),
      });
    }
    // The fixture: 8 patches on 5 devices; Critical on alpha, delta, echo; 90+ on charlie and echo.
    expect(report.summary.total).toEqual({ devices: 5, patches: 8 });
    expect(report.summary.by_severity.find((s: JsonBody) => s.severity === 'critical')).toMatchObject({
      devices: 3,
      patches: 3,
    });
    expect(report.summary.by_age.map((s: JsonBody) => s.patches)).toEqual([1, 2, 1, 1, 2, 1]);
  });

  it('lists the devices with pending patches with their counts and oldest age', async () => {
    expect(report.size).toBe(5);
    const alpha = report.data.find((d: JsonBody) => d.name === 'alpha');
    expect(alpha).toMatchObject({
      pending_patches: 2,
      critical: 1,
      high: 1,
      medium: 0,
      low: 0,
      other: 0,
      oldest_age_days: 20,
    });
    const charlie = report.data.find((d: JsonBody) => d.name === 'charlie');
    expect(charlie).toMatchObject({ pending_patches: 2, low: 1, other: 1, oldest_age_days: 100 });
    // Default order: most pending first, then by name.
    expect(report.data.map((d: JsonBody) => d.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
  });

  it('filters the table by severity and age as each number links to', async () => {
    const names = async (query: string) => {
      const res = await admin.get(`/api/reports/prepatch?o=${z.o}&${query}`);
      expect(res.status).toBe(200);
      expect(res.body.size).toBe(res.body.data.length);
      return res.body.data.map((d: JsonBody) => d.name).sort();
    };
    for (const severity of PATCH_SEVERITIES) {
      const ids = new Set(patches.filter((p) => p.severity === severity).map((p) => p.deviceId));
      const expected = Object.entries(fleet)
        .filter(([, d]) => ids.has(d.id))
        .map(([n]) => n)
        .sort();
      expect(await names(`severity=${severity}`)).toEqual(expected);
    }
    expect(await names('age=90%2B')).toEqual(['charlie', 'echo']);
    expect(await names('age=0-15')).toEqual(['alpha']);
    expect(await names('age=16-30')).toEqual(['alpha', 'delta']);
    expect(await names('age=unknown')).toEqual(['charlie']);
    expect(await names('severity=low&age=61-89')).toEqual(['bravo']);
    expect(await names('severity=low&age=0-15')).toEqual([]);
    expect(await names('search=ALP')).toEqual(['alpha']);
  });

  it('sorts and pages', async () => {
    const res = await admin.get(`/api/reports/prepatch?o=${z.o}&sort=oldest_age_days:desc&limit=2&page=0`);
    expect(res.body.data.map((d: JsonBody) => d.name)).toEqual(['charlie', 'echo']);
    expect(res.body.size).toBe(5);
    const next = await admin.get(`/api/reports/prepatch?o=${z.o}&sort=oldest_age_days:desc&limit=2&page=2`);
    expect(next.body.data.map((d: JsonBody) => d.name)).toEqual(['delta']);
    const bad = await admin.get(`/api/reports/prepatch?o=${z.o}&sort=hostname:asc`);
    expect(bad.status).toBe(400);
  });

  it('exports the filtered table as CSV with the same rows', async () => {
    const cookie = await cookieFor(t, z.user);
    const res = await t.request(`/api/reports/prepatch/csv?o=${z.o}&severity=critical&sort=name:asc`, {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows: Record<string, string>[] = parse(await res.text(), { columns: true });
    expect(rows.map((r) => r.Name)).toEqual(['alpha', 'delta', 'echo']);
    expect(rows[2]).toMatchObject({ Critical: '1', 'Pending patches': '1', 'Oldest patch age (days)': '95' });
  });

  it('marks prepatchReportRun in the caller’s profile', async () => {
    const [row] = await t.db.select({ metadata: users.metadata }).from(users).where(eq(users.id, z.user.id));
    expect(row!.metadata.prepatchReportRun).toBe(true);
  });
});

describe('GET /api/reports/needs-attention', () => {
  it('lists every device that is not compliant with its reason, as the devices table says', async () => {
    const res = await admin.get(`/api/reports/needs-attention?o=${z.o}&limit=100`);
    expect(res.status).toBe(200);
    const rows = await t.db
      .select({ id: devices.id, compliance: devices.compliance, reason: devices.complianceReason })
      .from(devices)
      .where(
        and(eq(devices.organizationId, z.o), isNull(devices.removedAt), sql`${devices.compliance} <> 'compliant'`),
      );
    expect(res.body.size).toBe(rows.length);
    expect(res.body.summary).toEqual({
      total: rows.length,
      pending: rows.filter((r) => r.compliance === 'pending').length,
      needs_attention: rows.filter((r) => r.compliance === 'needs_attention').length,
    });
    for (const r of rows) {
      expect(res.body.data.find((d: JsonBody) => d.id === r.id)).toMatchObject({
        compliance: r.compliance,
        compliance_reason: r.reason,
      });
    }
    // Needing attention first, then pending; each by name.
    expect(res.body.data.map((d: JsonBody) => d.name)).toEqual(['alpha', 'delta', 'echo', 'bravo', 'charlie']);
    expect(res.body.data[0].compliance_reason).toContain('Critical');
  });

  it('filters by state and exports the same rows as CSV', async () => {
    const pending = await admin.get(`/api/reports/needs-attention?o=${z.o}&compliance=pending`);
    expect(pending.body.data.map((d: JsonBody) => d.name)).toEqual(['bravo', 'charlie']);
    const cookie = await cookieFor(t, z.user);
    const res = await t.request(`/api/reports/needs-attention/csv?o=${z.o}&compliance=pending`, {
      headers: { cookie },
    });
    const rows: Record<string, string>[] = parse(await res.text(), { columns: true });
    expect(rows.map((r) => [r.Name, r.Compliance])).toEqual([
      ['bravo', 'pending'],
      ['charlie', 'pending'],
    ]);
    expect(rows[0]!.Reason).toBe(pending.body.data[0].compliance_reason);
  });
});

describe('the reports’ permissions', () => {
  it('are Report.read: a Read Only user of the zone reads every report', async () => {
    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } });
    const client = clientFor(t, { cookie: await cookieFor(t, reader) });
    for (const path of ['overview', 'prepatch', 'needs-attention', 'patch-history', 'policy-results']) {
      expect((await client.get(`/api/reports/${path}?o=${z.o}`)).status, path).toBe(200);
    }
  });

  it('answer 404 for another account’s zone and show only the caller’s own zone', async () => {
    const outsider = clientAcrossDays(t, other.user);
    for (const path of [
      'overview',
      'prepatch',
      'needs-attention',
      'patch-history',
      'prepatch/csv',
      'needs-attention/csv',
    ]) {
      expect((await outsider.get(`/api/reports/${path}?o=${z.o}`)).status, path).toBe(404);
    }
    const own = await outsider.get(`/api/reports/prepatch?o=${other.o}`);
    expect(own.body.summary.total).toEqual({ devices: 1, patches: 1 });
    expect(own.body.data.map((d: JsonBody) => d.name)).toEqual(['outsider']);
  });
});

describe('the prepatch summary', () => {
  it('is kept five minutes while the table is read live, then computed again', async () => {
    const before = await admin.get(`/api/reports/prepatch?o=${z.o}`);
    const inventory = inventoryBody({
      hostname: 'foxtrot',
      patches: [patch('zsh', 'low', { published_at: published(3) })],
      software: [],
    });
    expect((await agentCall(t, fleet.foxtrot!.token, 'PUT', '/inventory', inventory)).status).toBe(204);
    t.clock.set(new Date(NOW.getTime() + 4 * 60_000));
    const cached = await admin.get(`/api/reports/prepatch?o=${z.o}`);
    expect(cached.body.summary).toEqual(before.body.summary);
    expect(cached.body.computed_at).toBe(before.body.computed_at);
    expect(cached.body.data.map((d: JsonBody) => d.name)).toContain('foxtrot');
    t.clock.set(new Date(NOW.getTime() + 5 * 60_000));
    const fresh = await admin.get(`/api/reports/prepatch?o=${z.o}`);
    expect(fresh.body.computed_at).toBe(new Date(NOW.getTime() + 5 * 60_000).toISOString());
    expect(fresh.body.summary.total).toEqual(countOf(await directPatches(z.o)));
    expect(fresh.body.summary.total).toEqual({ devices: 6, patches: 9 });
    t.clock.set(NOW);
  });
});
