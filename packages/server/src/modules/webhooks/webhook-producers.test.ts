import { TransactionRollbackError, and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PATCH_FAILED_ERROR_MAX,
  WEBHOOK_EVENT_TYPES,
  ZPatchFailedPayload,
  type WebhookEventType,
} from '@patchwell/core/webhooks/webhooks.schema';
import { webhookDeliveries } from '../../db/webhooks.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { checkinAs, flushLastSeen } from '../../test/agents';
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
import { acceptedBatch } from '../../test/remediation-fixtures';
import { scanWentOffline, type WentOffline } from './webhooks.store';
import { scanOfflineDevices } from './webhooks.worker';
import { sweepOverdueCommands } from '../commands/commands.sweep';
import { COMMAND_TIMEOUTS_S } from '../commands/commands.timing';

/**
 * Each of the five event types is enqueued where its fact happens, through the real paths:
 * an agent's failed install result, the policy engine closing a run, a remediation task's
 * last job, an accepted batch with a new critical CVE, and a device's presence running out.
 */

let t: TestApp;
let z: TestZone;
let hookId: number;

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } });
  z = await buildPolicyZone(t);
  const res = await z.admin.post(`/api/webhooks?o=${z.o}`, {
    url: 'http://127.0.0.1:9/hooks',
    event_types: [...WEBHOOK_EVENT_TYPES],
  });
  expect(res.status).toBe(201);
  hookId = res.body.id;
});
afterAll(async () => {
  await t.close();
});

async function eventsOf(type: WebhookEventType) {
  const rows = await t.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, hookId), eq(webhookDeliveries.eventType, type)))
    .orderBy(webhookDeliveries.id);
  return rows.map((r) => r.payload as Record<string, JsonBody>);
}

describe('webhook producers', () => {
  it('a failed install result enqueues patch.failed, and the run it closes enqueues run.finished', async () => {
    const device = await inventoriedDevice(t, z, 'hook-patch', { patches: [patch('openssl', 'critical')] });
    const policy = await z.admin.post(
      `/api/policies?o=${z.o}`,
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Hooked' }),
    );
    expect(policy.status).toBe(201);
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    const run = await z.admin.post(`/api/policies/${policy.body.id}/action?o=${z.o}`, { action: 'remediateAll' });
    expect(run.status).toBe(202);
    const [command] = await commandsOf(t, device);
    expect(command?.type).toBe('install_updates');
    expect(await eventsOf('patch.failed')).toEqual([]);
    expect(await eventsOf('run.finished')).toEqual([]);

    // 16 KiB of output: the payload carries its last 500 characters.
    const stderr = `E: Sub-process /usr/bin/dpkg returned an error code (1)\n${'x'.repeat(16_000)}tail end`;
    const posted = await postResult(t, device, command!.id, {
      status: 'error',
      exit_code: 100,
      stderr_tail: stderr,
      finished_at: '2026-05-10T12:00:00.000Z',
    });
    expect(posted.status).toBe(204);
    const failed = await eventsOf('patch.failed');
    expect(failed).toHaveLength(1);
    const finished = await eventsOf('run.finished');
    expect(finished).toHaveLength(1);
    expect(ZPatchFailedPayload.parse(failed[0])).toEqual({
      device: { id: device.id, name: 'hook-patch', hostname: expect.any(String) },
      zone: { id: z.o, name: z.zone.name },
      command: {
        id: command!.id,
        type: 'install_updates',
        status: 'error',
        exit_code: 100,
        updates: ['openssl'],
        policy_result_id: expect.any(Number),
        finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      policy: { id: policy.body.id, name: 'Hooked', run_id: finished[0]!.run.id },
      error: stderr.slice(-PATCH_FAILED_ERROR_MAX),
    });
    expect(failed[0]!.error).toHaveLength(500);
    expect(finished[0]!.run).toMatchObject({
      policy_id: policy.body.id,
      status: 'error',
      device_count: 1,
      error_count: 1,
    });
    // The scheduler's next pass finds the run closed and announces nothing more.
    await t.app.policyEngine.tick();
    expect(await eventsOf('run.finished')).toHaveLength(1);
  });

  it('a failed install queued by hand enqueues patch.failed without a policy', async () => {
    const device = await inventoriedDevice(t, z, 'hook-hand', { patches: [patch('curl', 'high')] });
    const queued = await z.admin.post(`/api/servers/${device.id}/queues?o=${z.o}`, {
      command_type_name: 'InstallUpdate',
      args: { names: ['curl', 'libcurl4'] },
    });
    expect(queued.status).toBe(201);
    const [command] = await commandsOf(t, device);
    expect((await postResult(t, device, command!.id, { status: 'error', exit_code: 1 })).status).toBe(204);
    const failed = (await eventsOf('patch.failed')).at(-1);
    expect(ZPatchFailedPayload.parse(failed)).toMatchObject({
      device: { id: device.id, name: 'hook-hand' },
      zone: { id: z.o, name: z.zone.name },
      command: {
        id: command!.id,
        status: 'error',
        exit_code: 1,
        updates: ['curl', 'libcurl4'],
        policy_result_id: null,
      },
      policy: null,
      error: null,
    });
  });

  it('a successful install enqueues no patch.failed', async () => {
    const device = await inventoriedDevice(t, z, 'hook-ok', { patches: [patch('curl', 'high')] });
    const before = (await eventsOf('patch.failed')).length;
    const policy = await z.admin.post(
      `/api/policies?o=${z.o}`,
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Fine' }),
    );
    await checkinAs(t, device.token);
    await flushLastSeen(t);
    await z.admin.post(`/api/policies/${policy.body.id}/action?o=${z.o}`, {
      action: 'remediateServer',
      serverId: device.id,
    });
    const [command] = await commandsOf(t, device);
    expect((await postResult(t, device, command!.id, { status: 'success', exit_code: 0 })).status).toBe(204);
    expect(await eventsOf('patch.failed')).toHaveLength(before);
  });

  it('a remediation task whose last job finishes enqueues task.executed', async () => {
    const device = await inventoriedDevice(t, z, 'hook-task', { patches: [patch('openssl', 'critical')] });
    const { taskIds } = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [{ patchName: 'openssl', cves: ['CVE-2026-5101'], severity: 'high', deviceIds: [device.id] }],
    });
    const taskId = taskIds[0]!;
    const exec = await call(t, { cookie: z.cookie }, 'PATCH', `/api/orgs/${z.o}/tasks/${taskId}?o=${z.o}`, {
      action: 'execute',
    });
    expect(exec.status).toBe(200);
    expect((await eventsOf('task.executed')).filter((e) => e.task.id === taskId)).toEqual([]);
    const [command] = await commandsOf(t, device);
    expect((await postResult(t, device, command!.id, { status: 'success', exit_code: 0 })).status).toBe(204);
    const executed = (await eventsOf('task.executed')).filter((e) => e.task.id === taskId);
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ task: { id: taskId, cves: ['CVE-2026-5101'] }, jobs: { success: 1 } });
  });

  it('an accepted batch enqueues vulnerability.critical once per critical CVE newly open in the zone', async () => {
    const a = await inventoriedDevice(t, z, 'hook-cve-a');
    const b = await inventoriedDevice(t, z, 'hook-cve-b');
    const first = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [
        { patchName: 'openssl', cves: ['CVE-2026-6001'], severity: 'critical', deviceIds: [a.id, b.id] },
        { patchName: 'zlib', cves: ['CVE-2026-6002'], severity: 'high', deviceIds: [a.id] },
      ],
    });
    const critical = await eventsOf('vulnerability.critical');
    expect(critical.map((e) => e.cve)).toEqual(['CVE-2026-6001']);
    expect(critical[0]).toMatchObject({ severity: 'critical', device_count: 2, batch_id: first.batchId });
    // Reported again while still open: not new.
    await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [{ patchName: 'openssl', cves: ['CVE-2026-6001'], severity: 'critical', deviceIds: [a.id] }],
    });
    expect(await eventsOf('vulnerability.critical')).toHaveLength(1);
  });

  it('a device whose presence runs out enqueues device.offline once; a zone nobody listens to is not read', async () => {
    await scanOfflineDevices(t.ctx); // starts the watch
    const device = await inventoriedDevice(t, z, 'hook-offline');
    // Gone at the same instant as the first, and a second later: the watch reads by chunks.
    const twin = await inventoriedDevice(t, z, 'hook-offline-twin');
    const later = await inventoriedDevice(t, z, 'hook-offline-later');
    const unheard = await buildPolicyZone(t);
    const quiet = await inventoriedDevice(t, unheard, 'hook-unheard');
    await checkinAs(t, device.token);
    await checkinAs(t, twin.token);
    await checkinAs(t, quiet.token);
    t.clock.advance(1000);
    await checkinAs(t, later.token);
    await flushLastSeen(t);
    const ours = [device.id, twin.id, later.id];
    const mine = async () =>
      (await eventsOf('device.offline')).filter((e) => ours.includes(Number((e.device as { id: number }).id)));
    await scanOfflineDevices(t.ctx);
    expect(await mine()).toEqual([]);

    t.clock.advance(10 * 60_000);
    // What the watch reads, in a transaction rolled back (the watch does not move).
    let read: WentOffline[] | undefined;
    await t.db
      .transaction(async (tx) => {
        read = (await scanWentOffline(tx, t.clock.now()))?.devices;
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(read?.map((d) => d.deviceId)).toEqual(expect.arrayContaining(ours));
    expect(read?.map((d) => d.deviceId)).not.toContain(quiet.id);
    // One device a pass: the twins come in one (they went at the same instant), the later one next.
    await scanOfflineDevices(t.ctx, 1);
    const offline = await mine();
    expect(offline.map((e) => e.device.id)).toEqual([device.id, twin.id, later.id]);
    expect(offline[0]).toMatchObject({ device: { id: device.id, uuid: device.uuid, hostname: 'hook-offline' } });
    expect(new Date(offline[0]!.offline_since).getTime()).toBeLessThanOrEqual(t.clock.now().getTime());

    t.clock.advance(10 * 60_000);
    await scanOfflineDevices(t.ctx);
    expect(await mine()).toHaveLength(3);
  });

  it('installs the sweep times out enqueue patch.failed, each with its own device, once', async () => {
    const device = await inventoriedDevice(t, z, 'hook-late', { patches: [patch('zlib1g', 'high')] });
    const other = await inventoriedDevice(t, z, 'hook-later', { patches: [patch('curl', 'high')] });
    for (const [target, name] of [
      [device, 'zlib1g'],
      [other, 'curl'],
    ] as const) {
      const queued = await z.admin.post(`/api/servers/${target.id}/queues?o=${z.o}`, {
        command_type_name: 'InstallUpdate',
        args: { names: [name] },
      });
      expect(queued.status).toBe(201);
    }
    const [command] = await commandsOf(t, device);
    const [otherCommand] = await commandsOf(t, other);
    // Last in this file: the clock it moves on would end the other tests' sessions.
    // The device took it and never answered: past its timeout and grace, the sweep ends it.
    t.clock.advance((COMMAND_TIMEOUTS_S.install_updates + 120) * 1000);
    expect(await sweepOverdueCommands(t.ctx)).toBeGreaterThanOrEqual(1);
    const late = (await eventsOf('patch.failed')).filter((e) => e.command.id === command!.id);
    expect(late).toHaveLength(1);
    expect(ZPatchFailedPayload.parse(late[0])).toMatchObject({
      device: { id: device.id, name: 'hook-late' },
      command: { id: command!.id, status: 'timed_out', exit_code: null, updates: ['zlib1g'] },
      policy: null,
    });
    // Swept in the same batch, read in the same statement: its own device and update.
    const otherLate = (await eventsOf('patch.failed')).filter((e) => e.command.id === otherCommand!.id);
    expect(otherLate).toHaveLength(1);
    expect(otherLate[0]).toMatchObject({
      device: { id: other.id, name: 'hook-later', hostname: 'hook-later' },
      command: { updates: ['curl'] },
    });
    // Its late result changes nothing, and the next sweep finds nothing more.
    expect((await postResult(t, device, command!.id, { status: 'error', exit_code: 1 })).status).toBe(204);
    await sweepOverdueCommands(t.ctx);
    expect((await eventsOf('patch.failed')).filter((e) => e.command.id === command!.id)).toHaveLength(1);
  });
});
