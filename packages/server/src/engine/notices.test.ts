import { createApiClient } from '@patchwell/agent/api/client';
import { executeCommand } from '@patchwell/agent/jobs/executor';
import type { NoticeAnswer } from '@patchwell/agent/notify/notifier';
import { createFakePlatform } from '@patchwell/agent/test/fake-platform';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyDeviceResults } from '../db/policies.schema';
import { startTestApp, type TestApp } from '../test/app';
import { flushLastSeen, checkinAs, type EnrolledDevice } from '../test/agents';
import { clientFor, cookieFor } from '../test/authz-helpers';
import {
  buildPolicyZone,
  commandsOf,
  customPolicyBody,
  inventoriedDevice,
  patch,
  patchPolicyBody,
  postResult,
  type TestZone,
} from '../test/policy-fixtures';
import { NOTICE_DEFAULTS } from './notices';

/**
 * Notices, deferrals and reboots end to end through HTTP: the policy's notification fields
 * reach the agent as command arguments, and the agent's answers (deferred, not shown) come
 * back into the results. The scheduler is ticked by hand on the test's clock.
 */

let t: TestApp;
let z: TestZone;
let desk: EnrolledDevice;
let laptop: EnrolledDevice;

const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  desk = await inventoriedDevice(t, z, 'desk', { patches: [patch('openssl', 'critical')] });
  laptop = await inventoriedDevice(t, z, 'laptop', { patches: [patch('openssl', 'critical')], osFamily: 'mac' });
  await checkinAs(t, desk.token);
  await checkinAs(t, laptop.token);
  await flushLastSeen(t);
});
afterAll(async () => {
  await t.close();
});

/** The administrator's client; a fresh session each time, since the tests move the clock by hours. */
async function admin() {
  return clientFor(t, { cookie: await cookieFor(t, z.user) });
}

async function createPolicy(body: Record<string, unknown>) {
  const res = await (await admin()).post(`/api/policies?o=${z.o}`, body);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body as { id: number };
}

async function runOn(policyId: number, device: EnrolledDevice) {
  const res = await (
    await admin()
  ).post(`/api/policies/${policyId}/action?o=${z.o}`, {
    action: 'remediateServer',
    serverId: device.id,
  });
  expect(res.status).toBe(202);
  return res.body.run as { id: number };
}

async function resultOf(policyId: number, runId: number) {
  const res = await (await admin()).get(`/api/policies/${policyId}/runs/${runId}/results?o=${z.o}&limit=10`);
  expect(res.status).toBe(200);
  return res.body.data[0] as { status: string; message: string | null; command_id: number | null };
}

/** Moves the clock, lets the device check in, and ticks the engine. */
async function laterCheckIn(device: EnrolledDevice, ms: number) {
  t.clock.advance(ms);
  await checkinAs(t, device.token);
  await flushLastSeen(t);
  return t.app.policyEngine.tick();
}

const notifying = {
  patch_rule: 'all',
  notify_user: true,
  custom_notification_patch_message: 'Patching now, save your work.',
  custom_notification_patch_message_mac: 'Mac patching now.',
  install_deferral_enabled: true,
  custom_notification_max_delays: 2,
  custom_notification_deferment_periods: [1, 4],
  notify_user_message_timeout: 30,
  notify_reboot_user: true,
  custom_notification_reboot_message: 'A restart follows.',
  reboot_mode: 'when_needed',
  notify_deferred_reboot_user: true,
  pending_reboot_deferral_enabled: true,
  custom_pending_reboot_notification_deferment_periods: [2],
};

describe('notices reach the agent', () => {
  it('sends the patch notice with its deferral and the reboot behaviour, in the device’s OS variant', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], notifying, { name: 'Notify' }));
    await runOn(policy.id, desk);
    const [command] = await commandsOf(t, desk);
    expect(command).toMatchObject({ type: 'install_updates', args: { names: ['openssl'] } });
    expect(command!.args.notice).toEqual({
      message: 'Patching now, save your work. A restart follows.',
      timeout_min: 30,
      deferral: { periods_h: [1, 4], remaining: 2, max: 2, auto_defer: false },
    });
    expect(command!.args.reboot).toEqual({
      mode: 'when_needed',
      notice: {
        message: NOTICE_DEFAULTS.pendingReboot,
        timeout_min: 15,
        deferral: { periods_h: [2], remaining: 6, max: 6, auto_defer: false },
      },
    });
    await postResult(t, desk, command!.id, { status: 'success', exit_code: 0 });

    await runOn(policy.id, laptop);
    const [onMac] = await commandsOf(t, laptop);
    expect((onMac!.args.notice as { message: string }).message).toBe('Mac patching now. A restart follows.');
    await postResult(t, laptop, onMac!.id, { status: 'success', exit_code: 0 });
  });

  it('sends no notice when the policy asks for none, and the pending-reboot notice in notify mode', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Quiet' }));
    await runOn(policy.id, desk);
    const [command] = await commandsOf(t, desk);
    expect(command!.args.notice).toBeUndefined();
    expect(command!.args.reboot).toMatchObject({
      mode: 'notify',
      notice: { message: NOTICE_DEFAULTS.pendingRebootNotify, deferral: null },
    });
    await postResult(t, desk, command!.id, { status: 'success', exit_code: 0 });
  });

  it('tells the user before a worklet’s remediation that a restart follows', async () => {
    const policy = await createPolicy(
      customPolicyBody([z.defaultGroupId], { notify_reboot_user: true, reboot_mode: 'auto' }, { name: 'Fix' }),
    );
    await runOn(policy.id, desk);
    const [command] = await commandsOf(t, desk);
    expect(command).toMatchObject({ type: 'run_script', args: { purpose: 'remediate' } });
    expect(command!.args.notice).toEqual({ message: NOTICE_DEFAULTS.reboot, timeout_min: 15, deferral: null });
    expect(command!.args.reboot).toEqual({ mode: 'auto', notice: null });
    await postResult(t, desk, command!.id, { status: 'success', exit_code: 0 });
    // The evaluation that follows a remediation changes nothing: no notice, no reboot.
    const [evaluation] = await commandsOf(t, desk);
    expect(evaluation).toMatchObject({ type: 'run_script', args: { purpose: 'evaluate' } });
    expect(evaluation!.args.notice).toBeUndefined();
    expect(evaluation!.args.reboot).toBeUndefined();
    await postResult(t, desk, evaluation!.id, { status: 'success', exit_code: 0 });
  });
});

describe('deferrals', () => {
  it('keeps a deferred run pending, queues it after the deferral with one deferral fewer, and none at the end', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], notifying, { name: 'Defer me' }));
    const run = await runOn(policy.id, desk);
    const [first] = await commandsOf(t, desk);
    const deferredAt = t.clock.now();
    const posted = await postResult(t, desk, first!.id, {
      status: 'canceled',
      notice: { shown: true, choice: 'defer', defer_h: 4 },
    });
    expect(posted.status).toBe(204);
    expect(await resultOf(policy.id, run.id)).toMatchObject({
      status: 'pending',
      command_id: null,
      message: 'Deferred by the user for 4 h (1 of 2 deferrals).',
    });
    const [stored] = await t.db
      .select()
      .from(policyDeviceResults)
      .where(and(eq(policyDeviceResults.runId, run.id), eq(policyDeviceResults.deviceId, desk.id)));
    expect(stored).toMatchObject({ deferralsUsed: 1, deferredUntil: new Date(deferredAt.getTime() + 4 * HOUR) });
    // The result does not fail: the run stays open and the device pending.
    const open = await (await admin()).get(`/api/policies/${policy.id}/runs/${run.id}?o=${z.o}`);
    expect(open.body.results).toMatchObject({ pending: 1, error: 0 });

    // Not before its time, even though the device checks in.
    expect((await laterCheckIn(desk, 1 * HOUR)).catchUps).toBe(0);
    expect(await commandsOf(t, desk)).toEqual([]);

    // After it: queued at the next check-in, offering one deferral fewer.
    expect((await laterCheckIn(desk, 3 * HOUR + 60_000)).catchUps).toBe(1);
    const [second] = await commandsOf(t, desk);
    expect(second).toMatchObject({ type: 'install_updates', args: { names: ['openssl'] } });
    expect(second!.args.notice).toMatchObject({ deferral: { remaining: 1, max: 2, periods_h: [1, 4] } });

    // An unanswered notice with auto-deferral: the agent applies the longest period.
    await postResult(t, desk, second!.id, {
      status: 'canceled',
      notice: { shown: true, choice: 'defer', defer_h: 4, timed_out: true },
    });
    expect((await resultOf(policy.id, run.id)).message).toBe(
      'Deferred automatically for 4 h: the notice was not answered (2 of 2 deferrals).',
    );
    expect((await laterCheckIn(desk, 4 * HOUR + 60_000)).catchUps).toBe(1);
    const [third] = await commandsOf(t, desk);
    // No deferral left: the notice only informs.
    expect(third!.args.notice).toMatchObject({ message: 'Patching now, save your work. A restart follows.' });
    expect((third!.args.notice as { deferral: unknown }).deferral).toBeNull();

    await postResult(t, desk, third!.id, {
      status: 'success',
      exit_code: 0,
      notice: { shown: true, choice: 'proceed' },
      reboot: { outcome: 'rebooting', delay_s: 60 },
    });
    expect(await resultOf(policy.id, run.id)).toMatchObject({
      status: 'success',
      message:
        'Deferred automatically for 4 h: the notice was not answered (2 of 2 deferrals). ' +
        'Notice shown; the user went ahead. Restarting in 1 min.',
    });
  });

  it('carries the deferrals already used over to a new run of the policy', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], notifying, { name: 'Carry over' }));
    const first = await runOn(policy.id, desk);
    const [command] = await commandsOf(t, desk);
    await postResult(t, desk, command!.id, {
      status: 'canceled',
      notice: { shown: true, choice: 'defer', defer_h: 1 },
    });

    await runOn(policy.id, desk);
    const [again] = await commandsOf(t, desk);
    expect(again!.args.notice).toMatchObject({ deferral: { remaining: 1, max: 2 } });
    expect((await resultOf(policy.id, first.id)).status).toBe('canceled');
    await postResult(t, desk, again!.id, { status: 'success', exit_code: 0 });
  });

  it('does not honour a deferral the command did not offer', async () => {
    const policy = await createPolicy(
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all', notify_user: true }, { name: 'No deferral' }),
    );
    const run = await runOn(policy.id, desk);
    const [command] = await commandsOf(t, desk);
    expect((command!.args.notice as { deferral: unknown }).deferral).toBeNull();
    await postResult(t, desk, command!.id, {
      status: 'canceled',
      notice: { shown: true, choice: 'defer', defer_h: 1 },
    });
    expect((await resultOf(policy.id, run.id)).status).toBe('canceled');
  });
});

describe('notices that could not be shown', () => {
  it('records why in the result, and the run goes ahead', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], notifying, { name: 'Nobody home' }));
    const run = await runOn(policy.id, desk);
    const [command] = await commandsOf(t, desk);
    await postResult(t, desk, command!.id, {
      status: 'success',
      exit_code: 0,
      notice: { shown: false, reason: 'no signed-in user' },
      reboot: {
        outcome: 'rebooting',
        delay_s: 60,
        simulated: true,
        notice: { shown: false, reason: 'no signed-in user' },
      },
    });
    expect(await resultOf(policy.id, run.id)).toMatchObject({
      status: 'success',
      message:
        'Notice not shown: no signed-in user. Restart notice not shown: no signed-in user. ' +
        'Would restart in 1 min (no --allow-changes).',
    });
  });
});

describe('the agent’s own answers', () => {
  /** The real agent executor and API client; only the machine and its user are fake. */
  async function agentRuns(answer: NoticeAnswer) {
    const api = createApiClient(t.url);
    api.setToken(desk.token);
    const platform = createFakePlatform({ notifier: { show: async () => answer } });
    const res = await api.checkin({ status: await platform.status(), inventory_hash: null, wait_s: 0 });
    for (const cmd of res.commands)
      await api.postResult(cmd.id, await executeCommand(cmd, { platform, api, allowChanges: false }));
    return res.commands;
  }

  it('defers through the agent, then runs when nobody is there to answer', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], notifying, { name: 'Agent answers' }));
    const run = await runOn(policy.id, desk);
    const [first] = await agentRuns({ shown: true, answer: 'defer', deferH: 1 });
    expect(first!.args.notice).toBeTruthy();
    expect(await resultOf(policy.id, run.id)).toMatchObject({
      status: 'pending',
      message: 'Deferred by the user for 1 h (1 of 2 deferrals).',
    });

    t.clock.advance(HOUR + 60_000);
    await checkinAs(t, desk.token);
    await flushLastSeen(t);
    expect((await t.app.policyEngine.tick()).catchUps).toBe(1);
    const [second] = await agentRuns({ shown: false, reason: 'no signed-in user' });
    expect(second!.type).toBe('install_updates');
    expect(await resultOf(policy.id, run.id)).toMatchObject({
      status: 'success',
      message:
        'Deferred by the user for 1 h (1 of 2 deferrals). Notice not shown: no signed-in user. ' +
        'No restart: nothing needs a restart.',
    });
  });
});
