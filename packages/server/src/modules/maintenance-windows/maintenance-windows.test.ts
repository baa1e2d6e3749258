import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINTENANCE_WINDOW_TEXTS } from '@patchwell/core/maintenance/maintenance-windows.schema';
import { activityLog } from '../../db/activity.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { checkinAs, flushLastSeen } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { createTestClock } from '../../test/clock';
import { buildUser } from '../../test/factories';
import { acceptedBatch, cveStatus } from '../../test/remediation-fixtures';
import { call } from '../../test/authz-helpers';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  patchPolicyBody,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';

/** Maintenance windows over HTTP (PGlite, or PostgreSQL with DATABASE_URL), and the engine honouring them. */

let t: TestApp;
let z: TestZone;
let other: TestZone;
const clock = createTestClock('2026-03-02T09:00:00.000Z'); // a Monday

beforeAll(async () => {
  t = await startTestApp({ clock });
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
});
afterAll(async () => {
  await t?.close();
});

/** The zone's administrator with a fresh session (moving the clock ends older ones). */
async function adminOf(zone: TestZone) {
  return clientFor(t, { cookie: await cookieFor(t, zone.user) });
}

const weekly = (groupId: number, extra: Record<string, unknown> = {}) => ({
  name: 'Tuesday mornings',
  server_group_id: groupId,
  timezone: 'Europe/Berlin',
  schedule: { kind: 'weekly', days: [2], start_time: '05:00', duration_minutes: 60 },
  ...extra,
});

async function eventsOf(zoneId: number, action: string) {
  return t.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.organizationId, zoneId), eq(activityLog.action, action)));
}

describe('/api/maintenance-windows', () => {
  it('creates, lists, reads, changes and deletes a window, logging each change', async () => {
    const admin = await adminOf(z);
    const created = await admin.post(`/api/maintenance-windows?o=${z.o}`, weekly(z.defaultGroupId));
    expect(created.status).toBe(201);
    // Tuesday 05:00 in Berlin (CET, UTC+1 in early March).
    expect(created.body).toMatchObject({
      name: 'Tuesday mornings',
      server_group_id: z.defaultGroupId,
      server_group_name: 'Default Group',
      next: { starts_at: '2026-03-03T04:00:00.000Z', ends_at: '2026-03-03T05:00:00.000Z' },
      is_open: false,
    });
    const id = created.body.id as number;

    const list = await admin.get(`/api/maintenance-windows?o=${z.o}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: number }) => w.id)).toEqual([id]);

    const changed = await admin.put(
      `/api/maintenance-windows/${id}?o=${z.o}`,
      weekly(z.defaultGroupId, {
        name: 'Month end',
        timezone: 'UTC',
        schedule: { kind: 'monthly', day_of_month: 31, start_time: '22:00', duration_minutes: 120 },
      }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body.next).toEqual({ starts_at: '2026-03-31T22:00:00.000Z', ends_at: '2026-04-01T00:00:00.000Z' });
    expect((await admin.get(`/api/maintenance-windows/${id}?o=${z.o}`)).body.name).toBe('Month end');

    expect((await admin.del(`/api/maintenance-windows/${id}?o=${z.o}`)).status).toBe(204);
    expect((await admin.get(`/api/maintenance-windows/${id}?o=${z.o}`)).status).toBe(404);

    expect(await eventsOf(z.o, 'maintenance_window.create')).toHaveLength(1);
    const [update] = await eventsOf(z.o, 'maintenance_window.update');
    expect(update?.details).toMatchObject({ changes: { name: { from: 'Tuesday mornings', to: 'Month end' } } });
    expect(await eventsOf(z.o, 'maintenance_window.delete')).toHaveLength(1);
  });

  it.each([
    [
      'an end before the start',
      { schedule: { kind: 'one_off', starts_at: '2026-03-05T10:00', ends_at: '2026-03-05T09:00' } },
      MAINTENANCE_WINDOW_TEXTS.endAfterStart,
    ],
    [
      'a zero duration',
      { schedule: { kind: 'weekly', days: [1], start_time: '05:00', duration_minutes: 0 } },
      MAINTENANCE_WINDOW_TEXTS.duration,
    ],
    [
      'more than 7 days',
      { schedule: { kind: 'weekly', days: [1], start_time: '05:00', duration_minutes: 10_081 } },
      MAINTENANCE_WINDOW_TEXTS.duration,
    ],
    ['an unknown timezone', { timezone: 'Europe/Atlantis' }, MAINTENANCE_WINDOW_TEXTS.timezone],
  ])('refuses %s with its text', async (_, extra, message) => {
    const res = await (await adminOf(z)).post(`/api/maintenance-windows?o=${z.o}`, weekly(z.defaultGroupId, extra));
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
  });

  it('refuses a group of another zone', async () => {
    const res = await (await adminOf(z)).post(`/api/maintenance-windows?o=${z.o}`, weekly(other.defaultGroupId));
    expect(res.status).toBe(400);
    expect(res.text).toContain(MAINTENANCE_WINDOW_TEXTS.group);
  });

  it('answers 404 for another zone’s window and 403 to a role without the groups’ rights', async () => {
    const mine = await (await adminOf(z)).post(`/api/maintenance-windows?o=${z.o}`, weekly(z.defaultGroupId));
    const id = mine.body.id as number;
    const stranger = await adminOf(other);
    expect((await stranger.get(`/api/maintenance-windows/${id}?o=${other.o}`)).status).toBe(404);
    expect(
      (await stranger.put(`/api/maintenance-windows/${id}?o=${other.o}`, weekly(other.defaultGroupId))).status,
    ).toBe(404);
    expect((await stranger.del(`/api/maintenance-windows/${id}?o=${other.o}`)).status).toBe(404);
    expect((await stranger.get(`/api/maintenance-windows?o=${z.o}`)).status).toBe(404);

    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } }); // Read Only
    const readOnly = clientFor(t, { cookie: await cookieFor(t, reader) });
    expect((await readOnly.get(`/api/maintenance-windows?o=${z.o}`)).status).toBe(200);
    expect((await readOnly.post(`/api/maintenance-windows?o=${z.o}`, weekly(z.defaultGroupId))).status).toBe(403);
    expect((await readOnly.del(`/api/maintenance-windows/${id}?o=${z.o}`)).status).toBe(403);
    expect((await (await adminOf(z)).del(`/api/maintenance-windows/${id}?o=${z.o}`)).status).toBe(204);
  });
});

describe('the engine and maintenance windows', () => {
  it('holds a policy due outside its device’s window and runs it inside the window', async () => {
    clock.set('2026-03-02T09:00:00.000Z');
    const zone = await buildPolicyZone(t);
    const device = await inventoriedDevice(t, zone, 'windowed', { patches: [patch('openssl', 'critical')] });
    const free = await buildPolicyZone(t);
    const unrestricted = await inventoriedDevice(t, free, 'unrestricted', { patches: [patch('openssl', 'critical')] });
    const admin = await adminOf(zone);
    // Tuesdays 05:00–06:00 Berlin time: 04:00–05:00 UTC.
    expect((await admin.post(`/api/maintenance-windows?o=${zone.o}`, weekly(zone.defaultGroupId))).status).toBe(201);
    const nightly = { name: 'Nightly', schedule_days: 254, schedule_time: '02:00', use_scheduled_timezone: true };
    const policy = await admin.post(
      `/api/policies?o=${zone.o}`,
      patchPolicyBody([zone.defaultGroupId], { patch_rule: 'all' }, { ...nightly, scheduled_timezone: 'UTC+0000' }),
    );
    expect(policy.status).toBe(201);
    const freePolicy = await (
      await adminOf(free)
    ).post(
      `/api/policies?o=${free.o}`,
      patchPolicyBody([free.defaultGroupId], { patch_rule: 'all' }, { ...nightly, scheduled_timezone: 'UTC+0000' }),
    );
    expect(freePolicy.status).toBe(201);

    // The device details name the window it waits for.
    const detail = await admin.get(`/api/servers/${device.id}?o=${zone.o}`);
    expect(detail.body.next_maintenance_window).toEqual({
      starts_at: '2026-03-03T04:00:00.000Z',
      ends_at: '2026-03-03T05:00:00.000Z',
    });
    const freeDetail = await (await adminOf(free)).get(`/api/servers/${unrestricted.id}?o=${free.o}`);
    expect(freeDetail.body.next_maintenance_window).toBeNull();

    // 02:00 UTC: both devices are online; the policy comes due outside the window.
    clock.set('2026-03-03T01:59:00.000Z');
    await checkinAs(t, device.token);
    await checkinAs(t, unrestricted.token);
    await flushLastSeen(t);
    clock.set('2026-03-03T02:00:20.000Z');
    await t.app.policyEngine.tick();
    // Without a window, the other zone's device gets its command at once.
    expect(await commandsOf(t, unrestricted)).toMatchObject([{ type: 'install_updates' }]);
    expect(await commandsOf(t, device)).toEqual([]);
    const runs = await (await adminOf(zone)).get(`/api/policies/${policy.body.id}/runs?o=${zone.o}`);
    const runId = runs.body.data[0].id as number;
    const resultsPath = `/api/policies/${policy.body.id}/runs/${runId}/results?o=${zone.o}`;
    expect((await (await adminOf(zone)).get(resultsPath)).body.data).toMatchObject([
      {
        server_name: 'windowed',
        status: 'pending',
        command_id: null,
        message: MAINTENANCE_WINDOW_TEXTS.waiting(new Date('2026-03-03T04:00:00.000Z')),
      },
    ]);

    // Still outside: the device checks in, ticks pass, nothing is queued.
    clock.set('2026-03-03T03:59:00.000Z');
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    expect((await t.app.policyEngine.tick()).catchUps).toBe(0);
    expect(await commandsOf(t, device)).toEqual([]);

    // The window opens: the next check-in and tick queue the run's command, and it runs.
    clock.set('2026-03-03T04:00:30.000Z');
    const listed = await (await adminOf(zone)).get(`/api/maintenance-windows?o=${zone.o}`);
    expect(listed.body.data[0]).toMatchObject({ is_open: true, next: { starts_at: '2026-03-03T04:00:00.000Z' } });
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    expect((await t.app.policyEngine.tick()).catchUps).toBe(1);
    const commands = await commandsOf(t, device);
    expect(commands).toMatchObject([{ type: 'install_updates', args: { names: ['openssl'] } }]);
    const posted = await postResult(t, device, commands[0]!.id, { status: 'success', exit_code: 0 });
    expect(posted.status).toBeLessThan(300);
    await t.app.policyEngine.tick();
    expect((await (await adminOf(zone)).get(resultsPath)).body.data).toMatchObject([{ status: 'success' }]);
    const run = await (await adminOf(zone)).get(`/api/policies/${policy.body.id}/runs/${runId}?o=${zone.o}`);
    expect(run.body.status).toBe('completed');
  }, 120_000);

  it('does not queue a waiting run after its window closed until the next one opens', async () => {
    clock.set('2026-03-09T09:00:00.000Z'); // a Monday
    const zone = await buildPolicyZone(t);
    const device = await inventoriedDevice(t, zone, 'late', { patches: [patch('curl', 'medium')] });
    const admin = await adminOf(zone);
    await admin.post(`/api/maintenance-windows?o=${zone.o}`, weekly(zone.defaultGroupId));
    const policy = await admin.post(
      `/api/policies?o=${zone.o}`,
      patchPolicyBody([zone.defaultGroupId], { patch_rule: 'all' }, { name: 'Now' }),
    );
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    const started = await admin.post(`/api/policies/${policy.body.id}/action?o=${zone.o}`, {
      action: 'remediateServer',
      serverId: device.id,
    });
    expect(started.status).toBe(202);
    expect(await commandsOf(t, device)).toEqual([]);

    // The device was away during Tuesday's window (04:00–05:00 UTC); back at 06:00 it still waits.
    clock.set('2026-03-10T06:00:00.000Z');
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    expect((await t.app.policyEngine.tick()).catchUps).toBe(0);
    const detail = await (await adminOf(zone)).get(`/api/servers/${device.id}?o=${zone.o}`);
    expect(detail.body.next_maintenance_window.starts_at).toBe('2026-03-17T04:00:00.000Z');

    // A week later the window opens and the run goes out.
    clock.set('2026-03-17T04:10:00.000Z');
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    expect((await t.app.policyEngine.tick()).catchUps).toBe(1);
    expect(await commandsOf(t, device)).toMatchObject([{ type: 'install_updates', args: { names: ['curl'] } }]);
  }, 120_000);

  it('holds a remediation task’s jobs outside the window and queues them when it opens', async () => {
    clock.set('2026-03-23T09:00:00.000Z'); // a Monday
    const zone = await buildPolicyZone(t);
    const device = await inventoriedDevice(t, zone, 'remediated-later');
    const admin = await adminOf(zone);
    await admin.post(`/api/maintenance-windows?o=${zone.o}`, weekly(zone.defaultGroupId));
    const cve = 'CVE-2026-7701';
    const { taskIds } = await acceptedBatch(t, {
      zoneId: zone.o,
      userId: zone.user.id,
      solutions: [{ patchName: 'openssl', cves: [cve], deviceIds: [device.id] }],
    });
    const taskUrl = `/api/orgs/${zone.o}/tasks/${taskIds[0]}?o=${zone.o}`;
    const cookie = await cookieFor(t, zone.user);
    const executed = await call(t, { cookie }, 'PATCH', taskUrl, { action: 'execute' });
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe('in_progress');
    expect(await commandsOf(t, device)).toEqual([]);
    expect((await t.app.policyEngine.tick()).jobsQueued).toBe(0);
    expect(await cveStatus(t, zone.o, cve, device.id)).toBe('open');

    // Tuesday 05:00 Berlin (04:00 UTC; CEST starts only on the 29th): the job's command goes out.
    clock.set('2026-03-24T04:00:05.000Z');
    expect((await t.app.policyEngine.tick()).jobsQueued).toBe(1);
    const commands = await commandsOf(t, device);
    expect(commands).toMatchObject([{ type: 'install_updates', args: { names: ['openssl'] } }]);
    expect(await cveStatus(t, zone.o, cve, device.id)).toBe('remediating');
    await postResult(t, device, commands[0]!.id, { status: 'success', exit_code: 0 });
    const after = await call(t, { cookie: await cookieFor(t, zone.user) }, 'GET', taskUrl);
    expect(after.body.status).toBe('executed');
  }, 120_000);
});
