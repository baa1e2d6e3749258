import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { DASHBOARD_TTL_MS } from '@patchwell/core/reports/dashboard.constants';
import { deviceCommands, devicePatches, devices } from '../../db/devices.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { type EnrolledDevice } from '../../test/agents';
import { clientAcrossDays } from '../../test/cve-fixtures';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';
import { snapshotCompliance } from './overview.service';
import { DASHBOARD_STALE_MAX_MS, refreshDashboards } from './dashboard.service';

/**
 * The dashboard over HTTP on a fixture fleet: each figure equals a direct count of the rows
 * behind it, the critical figure equals the devices list filtered as its link says, and
 * another zone's devices never count.
 */

const DAY = 86_400_000;
const NOW = new Date('2026-05-20T12:00:00.000Z');
const at = (daysBack: number) => new Date(NOW.getTime() - daysBack * DAY);
const published = (daysBack: number, hours = 0) => new Date(at(daysBack).getTime() - hours * 3_600_000).toISOString();

let t: TestApp;
let z: TestZone;
let other: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;
const fleet: Record<string, EnrolledDevice> = {};
let dashboard: JsonBody;

async function finish(device: EnrolledDevice, command: Record<string, unknown>, result: Record<string, unknown>) {
  const queued = await admin.post(`/api/servers/${device.id}/queues?o=${z.o}`, command);
  expect(queued.status).toBe(201);
  const [handed] = await commandsOf(t, device);
  expect((await postResult(t, device, handed!.id, result)).status).toBe(204);
}

beforeAll(async () => {
  t = await startTestApp();
  t.clock.set(at(3));
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
  const setups: Record<string, ReturnType<typeof patch>[]> = {
    // Critical for 20 days: missing critical patches.
    alpha: [
      patch('openssl', 'critical', { published_at: published(23) }),
      patch('curl', 'high', { published_at: published(23) }),
    ],
    // Critical for 14 days and 23 hours: 14 whole days, not "more than 14".
    bravo: [patch('openssl', 'critical', { published_at: published(14, 23) })],
    // High only.
    charlie: [
      patch('curl', 'high', { published_at: published(40) }),
      patch('vim', 'low', { published_at: published(70) }),
    ],
    delta: [],
    // Critical for exactly 15 days: more than 14.
    echo: [patch('sudo', 'critical', { published_at: published(15) })],
  };
  for (const [name, patches] of Object.entries(setups)) fleet[name] = await inventoriedDevice(t, z, name, { patches });
  await inventoriedDevice(t, other, 'outsider', {
    patches: [patch('openssl', 'critical', { published_at: published(90) })],
  });
  await snapshotCompliance(t.ctx);
  t.clock.set(at(1));
  await finish(
    fleet.alpha!,
    { command_type_name: 'InstallUpdate', args: { names: ['zlib1g', 'libc6'] } },
    { status: 'success', exit_code: 0 },
  );
  await snapshotCompliance(t.ctx);
  t.clock.set(NOW);
  await finish(fleet.charlie!, { command_type_name: 'InstallAllUpdates' }, { status: 'error', exit_code: 100 });
  const res = await admin.get(`/api/reports/dashboard?o=${z.o}`);
  expect(res.status).toBe(200);
  dashboard = res.body;
}, 60_000);

afterAll(async () => {
  await t.close();
});

const live = (zoneId: number) => and(eq(devices.organizationId, zoneId), isNull(devices.removedAt));

describe('GET /api/reports/dashboard', () => {
  it('says when it was computed, and gives compliance now and over 30 days', async () => {
    expect(dashboard.computed_at).toBe(NOW.toISOString());
    const rows = await t.db.select({ compliance: devices.compliance }).from(devices).where(live(z.o));
    const compliant = rows.filter((r) => r.compliance === 'compliant').length;
    expect(dashboard.devices.total).toBe(5);
    expect(dashboard.devices.compliant).toBe(compliant);
    expect(dashboard.compliance.percent).toBe(Math.round((compliant / rows.length) * 1000) / 10);
    expect(dashboard.compliance.trend).toHaveLength(30);
    const days = dashboard.compliance.trend as { date: string; total: number | null }[];
    expect(days.at(-1)).toMatchObject({ date: '2026-05-20', compliant, total: 5 });
    expect(days.find((d) => d.date === '2026-05-17')).toMatchObject({ total: 5 });
    expect(days.find((d) => d.date === '2026-05-01')).toMatchObject({ total: null, percent: null });
  });

  it('counts the devices missing a critical patch for more than 14 days, as the devices list filters them', async () => {
    const cutoff = at(15);
    const patches = await t.db
      .select({
        deviceId: devicePatches.deviceId,
        publishedAt: devicePatches.publishedAt,
        severity: devicePatches.severity,
      })
      .from(devicePatches)
      .innerJoin(devices, eq(devices.id, devicePatches.deviceId))
      .where(live(z.o));
    const direct = new Set(
      patches
        .filter((p) => p.severity === 'critical' && p.publishedAt && p.publishedAt <= cutoff)
        .map((p) => p.deviceId),
    );
    expect(dashboard.missing_critical).toEqual({ days: 14, devices: direct.size });
    expect(direct).toEqual(new Set([fleet.alpha!.id, fleet.echo!.id]));
    const list = await admin.get(`/api/servers?o=${z.o}&critical_older_than=14&limit=100`);
    expect(list.status).toBe(200);
    expect(new Set(list.body.data.map((d: { id: number }) => d.id))).toEqual(direct);
    expect(list.body.size).toBe(direct.size);
  });

  it('gives pending patches by severity and age as the prepatch report does', async () => {
    const prepatch = await admin.get(`/api/reports/prepatch?o=${z.o}`);
    expect(prepatch.status).toBe(200);
    expect(dashboard.pending).toEqual(prepatch.body.summary);
    const critical = dashboard.pending.by_severity.find((s: { severity: string }) => s.severity === 'critical');
    expect(critical).toEqual({ severity: 'critical', devices: 3, patches: 3 });
  });

  it('ranks software by the devices with a high or critical patch of it pending', async () => {
    const rows = await t.db
      .select({ name: devicePatches.name, deviceId: devicePatches.deviceId })
      .from(devicePatches)
      .innerJoin(devices, eq(devices.id, devicePatches.deviceId))
      .where(and(live(z.o), inArray(devicePatches.severity, ['critical', 'high'])));
    const byName = new Map<string, Set<number>>();
    for (const r of rows) byName.set(r.name, (byName.get(r.name) ?? new Set()).add(r.deviceId));
    expect(dashboard.vulnerable_software.map((s: { name: string; devices: number }) => [s.name, s.devices])).toEqual(
      [...byName]
        .map(([n, s]) => [n, s.size])
        .sort((a, b) => Number(b[1]) - Number(a[1]) || String(a[0]).localeCompare(String(b[0]))),
    );
    expect(dashboard.vulnerable_software[0]).toEqual({ name: 'curl', devices: 2, critical_devices: 0 });
  });

  it('lists the latest failed installs and the last 7 days of installs', async () => {
    const failed = await t.db
      .select({ id: deviceCommands.id, deviceId: deviceCommands.deviceId })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.organizationId, z.o), inArray(deviceCommands.status, ['error', 'timed_out'])));
    expect(dashboard.recent_failures.map((f: { command_id: number }) => f.command_id)).toEqual(failed.map((f) => f.id));
    expect(dashboard.recent_failures[0]).toMatchObject({ device_id: fleet.charlie!.id, status: 'error' });
    expect(dashboard.activity).toHaveLength(7);
    expect(dashboard.activity.at(-1)).toEqual({ date: '2026-05-20', installed: 0, failed: 1 });
    expect(dashboard.activity.at(-2)).toEqual({ date: '2026-05-19', installed: 2, failed: 0 });
    expect(dashboard.activity.reduce((n: number, d: { installed: number }) => n + d.installed, 0)).toBe(2);
  });

  it('serves figures computed ahead by the tick, once across nodes, and stale ones while the next tick computes', async () => {
    const later = (ms: number) => new Date(NOW.getTime() + ms);
    const get = async () => (await admin.get(`/api/reports/dashboard?o=${z.o}`)).body;
    await inventoriedDevice(t, z, 'foxtrot');
    expect((await get()).devices.total).toBe(5);
    // Two minutes old: not due yet.
    t.clock.set(later(2 * 60_000));
    expect(await refreshDashboards(t.ctx)).toEqual([]);
    // Three and a half minutes old, two nodes tick at once: one computes it.
    const ahead = later(3.5 * 60_000);
    t.clock.set(ahead);
    const [a, b] = await Promise.all([refreshDashboards(t.ctx), refreshDashboards(t.ctx)]);
    expect([...a, ...b]).toEqual([z.o]);
    t.clock.set(later(4 * 60_000));
    const served = await get();
    expect(served.computed_at).toBe(ahead.toISOString());
    expect(served.devices.total).toBe(6);
    // Past the TTL the figures are still served, not computed by the request...
    await inventoriedDevice(t, z, 'golf');
    const stale = new Date(ahead.getTime() + DASHBOARD_TTL_MS + 60_000);
    t.clock.set(stale);
    expect((await get()).computed_at).toBe(ahead.toISOString());
    // ...and the next tick computes them.
    expect(await refreshDashboards(t.ctx)).toEqual([z.o]);
    expect(await get()).toMatchObject({ computed_at: stale.toISOString(), devices: { total: 7 } });
    // Nobody asked for two hours: not computed ahead any more; after a day the request computes.
    t.clock.set(new Date(stale.getTime() + 2 * 3_600_000));
    expect(await refreshDashboards(t.ctx)).toEqual([]);
    const dayLater = new Date(stale.getTime() + DASHBOARD_STALE_MAX_MS);
    t.clock.set(dayLater);
    expect((await get()).computed_at).toBe(dayLater.toISOString());
    t.clock.set(NOW);
  });

  it("answers 404 for another account's zone and counts only the caller's zone", async () => {
    expect((await admin.get(`/api/reports/dashboard?o=${other.o}`)).status).toBe(404);
    const own = clientAcrossDays(t, other.user);
    const res = await own.get(`/api/reports/dashboard?o=${other.o}`);
    expect(res.status).toBe(200);
    expect(res.body.devices.total).toBe(1);
    expect(res.body.missing_critical.devices).toBe(1);
  });

  it('rejects a bad critical_older_than on the devices list with 400', async () => {
    expect((await admin.get(`/api/servers?o=${z.o}&critical_older_than=-1`)).status).toBe(400);
  });
});
