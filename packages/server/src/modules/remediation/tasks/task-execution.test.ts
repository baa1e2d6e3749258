import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXTS } from '@patchwell/core/texts';
import { activityLog } from '../../../db/policies.schema';
import { deviceCommands } from '../../../db/devices.schema';
import { sweepOverdueCommands } from '../../commands/commands.sweep';
import { COMMAND_TIMEOUTS_S } from '../../commands/commands.timing';
import { findWorkletCatalogEntry } from '../../worklets/worklet-catalog.loader';
import { startTestApp, type TestApp } from '../../../test/app';
import { call, cookieFor } from '../../../test/authz-helpers';
import { buildUser } from '../../../test/factories';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  postResult,
  type TestZone,
} from '../../../test/policy-fixtures';
import type { EnrolledDevice } from '../../../test/agents';
import { acceptedBatch, cveStatus, type SolutionSpec } from '../../../test/remediation-fixtures';
import { DRY_RUN_NOTE, syncTaskJobs } from './task-results.service';

/**
 * Executing remediation tasks over HTTP against the real database, with devices that check
 * in, take their commands and post results through the agent API.
 */

let t: TestApp;
let z: TestZone;
/** The zone administrator's session (renewed after the clock jumps past its idle timeout). */
let cookie: string;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  cookie = z.cookie;
});
afterAll(async () => {
  await t.close();
});

const tasksUrl = (id: number) => `/api/orgs/${z.o}/tasks/${id}?o=${z.o}`;
const act = (id: number, action: 'execute' | 'cancel', headers: Record<string, string> = {}, as = cookie) =>
  call(t, { cookie: as }, 'PATCH', tasksUrl(id), { action }, headers);
const get = (path: string) => call(t, { cookie }, 'GET', path);
const task = async (id: number) => (await get(tasksUrl(id))).body;
const jobs = async (id: number, filter = '') =>
  (await get(`/api/orgs/${z.o}/tasks/${id}/jobs?o=${z.o}&limit=100${filter}`)).body;

let seq = 0;
async function devices(n: number, osFamily: 'linux' | 'windows' = 'linux'): Promise<EnrolledDevice[]> {
  const out: EnrolledDevice[] = [];
  for (let i = 0; i < n; i++) out.push(await inventoriedDevice(t, z, `rem-${++seq}`, { osFamily }));
  return out;
}

async function oneTask(spec: SolutionSpec): Promise<number> {
  const { taskIds } = await acceptedBatch(t, { zoneId: z.o, userId: z.user.id, solutions: [spec] });
  return taskIds[0]!;
}

describe('PATCH /api/orgs/:orgId/tasks/:taskId {action: execute}', () => {
  it('queues one install command per device, without notices, and the devices become remediated', async () => {
    const fleet = await devices(3);
    const cve = 'CVE-2026-4101';
    const id = await oneTask({ patchName: 'openssl', cves: [cve], deviceIds: fleet.map((d) => d.id) });
    expect((await task(id)).overall_status).toBe('unknown');
    expect(await cveStatus(t, z.o, cve, fleet[0]!.id)).toBe('open');

    const res = await act(id, 'execute');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'in_progress',
      overall_status: 'in_progress',
      executed_by_user: { id: z.user.id, email: z.user.email },
      counts: { devices: 3, remediating: 3, remediated: 0, remediation_failed: 0, not_run: 0 },
    });
    expect(await cveStatus(t, z.o, cve, fleet[0]!.id)).toBe('remediating');

    for (const device of fleet) {
      const commands = await commandsOf(t, device);
      expect(commands).toHaveLength(1);
      // The install a device's Patch-now queues, and nothing that would prompt its user.
      expect(commands[0]).toMatchObject({ type: 'install_updates', args: { names: ['openssl'] } });
      expect(commands[0]!.args).not.toHaveProperty('notice');
      expect(commands[0]!.args).not.toHaveProperty('reboot');
      const posted = await postResult(t, device, commands[0]!.id, {
        status: 'success',
        exit_code: 0,
        stdout_tail: 'openssl upgraded',
      });
      expect(posted.status).toBe(204);
    }
    const done = await task(id);
    expect(done).toMatchObject({
      status: 'executed',
      overall_status: 'executed',
      counts: { devices: 3, remediated: 3, remediating: 0, remediation_failed: 0 },
    });
    const list = await jobs(id);
    expect(list.size).toBe(3);
    for (const job of list.data) {
      expect(job).toMatchObject({ status: 'success', remediation_status: 'remediated', exit_code: 0 });
      expect(job.output).toBe('openssl upgraded');
    }
    for (const device of fleet) expect(await cveStatus(t, z.o, cve, device.id)).toBe('remediated');
    const events = await t.db.select().from(activityLog).where(eq(activityLog.action, 'task.execute'));
    expect(events.find((e) => e.objectId === String(id))).toMatchObject({ userId: z.user.id });
  });

  it('installs on each device of a fix the versions that device reported', async () => {
    const fleet = await devices(2, 'windows');
    const cu = '2026-11 Cumulative Update for Windows 11 for x64-based Systems';
    const names = { [fleet[0]!.id]: [`${cu} (KB5046617)`], [fleet[1]!.id]: [`${cu} (KB5046633)`] };
    const id = await oneTask({ patchName: cu, deviceIds: fleet.map((d) => d.id), devicePatches: names });
    const listed = await jobs(id);
    expect(
      Object.fromEntries(
        listed.data.map((j: { device_id: number; patch_names: string[] }) => [j.device_id, j.patch_names]),
      ),
    ).toEqual(names);
    expect((await act(id, 'execute')).status).toBe(200);
    for (const device of fleet) {
      const commands = await commandsOf(t, device);
      expect(commands).toMatchObject([{ type: 'install_updates', args: { names: names[device.id] } }]);
    }
  });

  it('is partially executed when some devices fail, keeping the end of their output', async () => {
    const [good, bad] = await devices(2);
    const cve = 'CVE-2026-4102';
    const id = await oneTask({ patchName: 'curl', cves: [cve], deviceIds: [good!.id, bad!.id] });
    await act(id, 'execute');
    const [ok] = await commandsOf(t, good!);
    await postResult(t, good!, ok!.id, { status: 'success', exit_code: 0 });
    expect((await task(id)).overall_status).toBe('in_progress');
    const [failing] = await commandsOf(t, bad!);
    await postResult(t, bad!, failing!.id, {
      status: 'error',
      exit_code: 100,
      stderr_tail: `${'x'.repeat(5000)}E: Could not get lock /var/lib/dpkg/lock-frontend`,
    });
    expect(await task(id)).toMatchObject({
      status: 'executed',
      overall_status: 'partially_executed',
      counts: { remediated: 1, remediation_failed: 1 },
    });
    const failed = await jobs(id, '&status=error');
    expect(failed.size).toBe(1);
    expect(failed.data[0]).toMatchObject({ device_id: bad!.id, remediation_status: 'remediation_failed' });
    expect(failed.data[0].output.length).toBe(4000);
    expect(failed.data[0].output.endsWith('Could not get lock /var/lib/dpkg/lock-frontend')).toBe(true);
    expect(await cveStatus(t, z.o, cve, good!.id)).toBe('remediated');
    expect(await cveStatus(t, z.o, cve, bad!.id)).toBe('remediation_failed');
  });

  it('counts a dry run (an agent without --allow-changes) as not remediated', async () => {
    const [device] = await devices(1);
    const id = await oneTask({ cves: ['CVE-2026-4103'], deviceIds: [device!.id] });
    await act(id, 'execute');
    const [command] = await commandsOf(t, device!);
    await postResult(t, device!, command!.id, { status: 'success', exit_code: 0, simulated: true });
    expect((await task(id)).overall_status).toBe('partially_executed');
    expect((await jobs(id)).data[0]).toMatchObject({ status: 'error', output: DRY_RUN_NOTE });
    expect(await cveStatus(t, z.o, 'CVE-2026-4103', device!.id)).toBe('remediation_failed');
  });

  it('runs a worklet’s remediation code on devices of its OS and fails the others at once', async () => {
    const [linux] = await devices(1);
    const [windows] = await devices(1, 'windows');
    const worklet = findWorkletCatalogEntry('linux-ssh-root-login-disabled')!;
    const id = await oneTask({
      kind: 'patch-with-worklet',
      workletId: worklet.id,
      cves: ['CVE-2026-4104'],
      deviceIds: [linux!.id, windows!.id],
    });
    expect((await act(id, 'execute')).status).toBe(200);
    const [command] = await commandsOf(t, linux!);
    expect(command).toMatchObject({
      type: 'run_script',
      args: { language: 'bash', script: worklet.remediation_code, purpose: 'remediate' },
    });
    expect(command!.args).not.toHaveProperty('notice');
    expect(await commandsOf(t, windows!)).toEqual([]);
    const other = (await jobs(id)).data.find((j: { device_id: number }) => j.device_id === windows!.id);
    expect(other).toMatchObject({ status: 'error', remediation_status: 'remediation_failed' });
    expect(other.output).toContain('written for linux devices');
    await postResult(t, linux!, command!.id, { status: 'success', exit_code: 0 });
    expect(await task(id)).toMatchObject({ status: 'executed', overall_status: 'partially_executed' });
  });

  it('refuses a worklet task whose worklet is not in the catalogue, with the spec’s text, and queues nothing', async () => {
    const [device] = await devices(1);
    const id = await oneTask({ kind: 'patch-with-worklet', workletId: 'no-such-worklet', deviceIds: [device!.id] });
    const res = await act(id, 'execute');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'tasks.worklet_invalid' });
    expect(`Error: ${res.body.message}`).toBe(TEXTS.remediationTasks.workletInvalid);
    expect((await task(id)).status).toBe('pending');
    expect(await commandsOf(t, device!)).toEqual([]);
  });

  it('cancels the jobs of removed devices and finishes a task with nothing left to run', async () => {
    const [kept, removed] = await devices(2);
    const id = await oneTask({ cves: ['CVE-2026-4105'], deviceIds: [kept!.id, removed!.id] });
    expect((await call(t, { cookie }, 'DELETE', `/api/servers/${removed!.id}?o=${z.o}`)).status).toBe(204);
    const res = await act(id, 'execute');
    expect(res.body.counts).toMatchObject({ devices: 2, remediating: 1, not_run: 1 });
    const gone = (await jobs(id)).data.find((j: { device_id: number }) => j.device_id === removed!.id);
    expect(gone).toMatchObject({ status: 'canceled', remediation_status: null });

    const onlyRemoved = await oneTask({ deviceIds: [removed!.id] });
    expect((await act(onlyRemoved, 'execute')).body).toMatchObject({ status: 'executed', overall_status: 'unknown' });
  });

  it('executes a task once: a second execute answers 409 and queues nothing', async () => {
    const [device] = await devices(1);
    const id = await oneTask({ deviceIds: [device!.id] });
    expect((await act(id, 'execute')).status).toBe(200);
    const again = await act(id, 'execute');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'tasks.not_pending' });
    expect(await commandsOf(t, device!)).toHaveLength(1);
  });

  it('replays the first answer for a retried execute with the same Idempotency-Key', async () => {
    const fleet = await devices(2);
    const id = await oneTask({ deviceIds: fleet.map((d) => d.id) });
    const key = { 'idempotency-key': `execute-${id}` };
    const first = await act(id, 'execute', key);
    const retry = await act(id, 'execute', key);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const queued = await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, fleet[0]!.id));
    expect(queued).toHaveLength(1);
  });

  it('queues once when two executes arrive together', async () => {
    const fleet = await devices(3);
    const id = await oneTask({ deviceIds: fleet.map((d) => d.id) });
    const answers = await Promise.all([act(id, 'execute'), act(id, 'execute')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    for (const device of fleet) {
      const queued = await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, device.id));
      expect(queued).toHaveLength(1);
    }
  });

  it('refuses users without admin or patch admin rights with the spec’s text', async () => {
    const [device] = await devices(1);
    const id = await oneTask({ deviceIds: [device!.id] });
    for (const roleId of [2, 5]) {
      const user = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: roleId } });
      const res = await act(id, 'execute', {}, await cookieFor(t, user));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(TEXTS.remediationTasks.executeForbidden);
    }
    // The Zone Operator is the former patch administrator.
    const operator = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 4 } });
    expect((await act(id, 'execute', {}, await cookieFor(t, operator))).status).toBe(200);
  });
});

describe('PATCH /api/orgs/:orgId/tasks/:taskId {action: cancel}', () => {
  it('cancels the open jobs and their commands; a late result changes nothing', async () => {
    const [done, taken, waiting] = await devices(3);
    const cve = 'CVE-2026-4201';
    const id = await oneTask({ cves: [cve], deviceIds: [done!.id, taken!.id, waiting!.id] });
    await act(id, 'execute');
    const [first] = await commandsOf(t, done!);
    await postResult(t, done!, first!.id, { status: 'success', exit_code: 0 });
    const [running] = await commandsOf(t, taken!);

    const res = await act(id, 'cancel');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'canceled',
      overall_status: 'canceled',
      counts: { remediated: 1, remediating: 0, not_run: 2 },
    });
    expect(await commandsOf(t, waiting!)).toEqual([]);
    expect(await cveStatus(t, z.o, cve, waiting!.id)).toBe('open');
    expect(await cveStatus(t, z.o, cve, done!.id)).toBe('remediated');
    const commands = await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, taken!.id));
    expect(commands[0]!.status).toBe('canceled');
    // The device that already took its command may still run it: its result is ignored.
    await postResult(t, taken!, running!.id, { status: 'success', exit_code: 0 });
    expect((await task(id)).counts).toMatchObject({ remediated: 1, not_run: 2 });
    expect(await cveStatus(t, z.o, cve, taken!.id)).toBe('open');

    const again = await act(id, 'cancel');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('tasks.not_cancelable');
    expect((await act(id, 'execute')).status).toBe(409);
  });

  it('cancels a pending task, which then never executes', async () => {
    const [device] = await devices(1);
    const id = await oneTask({ deviceIds: [device!.id] });
    expect((await act(id, 'cancel')).body).toMatchObject({ status: 'canceled', counts: { not_run: 1 } });
    expect((await act(id, 'execute')).status).toBe(409);
    expect(await commandsOf(t, device!)).toEqual([]);
  });
});

describe('the periodic sync of jobs from their commands', () => {
  it('marks jobs in progress once taken, and timed out (remediation failed) after the commands sweep', async () => {
    const [slow, silent] = await devices(2);
    const cve = 'CVE-2026-4301';
    const id = await oneTask({ cves: [cve], deviceIds: [slow!.id, silent!.id] });
    await act(id, 'execute');
    await commandsOf(t, slow!);
    await syncTaskJobs(t.ctx);
    const taken = (await jobs(id)).data.find((j: { device_id: number }) => j.device_id === slow!.id);
    expect(taken).toMatchObject({ status: 'in_progress', remediation_status: 'remediating' });
    expect(taken.started_at).not.toBeNull();

    // Past the install's timeout and grace: the sweep times both out, raising no event.
    t.clock.advance((COMMAND_TIMEOUTS_S.install_updates + 120) * 1000);
    expect(await sweepOverdueCommands(t.ctx)).toBeGreaterThanOrEqual(2);
    cookie = await cookieFor(t, z.user);
    expect((await task(id)).status).toBe('in_progress');
    const report = await syncTaskJobs(t.ctx);
    expect(report.finished).toBeGreaterThanOrEqual(2);
    expect(await task(id)).toMatchObject({
      status: 'executed',
      overall_status: 'partially_executed',
      counts: { remediation_failed: 2, remediating: 0 },
    });
    expect((await jobs(id)).data.map((j: { status: string }) => j.status)).toEqual(['timed_out', 'timed_out']);
    expect(await cveStatus(t, z.o, cve, slow!.id)).toBe('remediation_failed');
    expect(await cveStatus(t, z.o, cve, silent!.id)).toBe('remediation_failed');
    // Nothing left to copy: a second pass changes nothing.
    expect(await syncTaskJobs(t.ctx)).toMatchObject({ started: 0, finished: 0 });
  });

  it('repairs a result whose event did not reach the tasks', async () => {
    const [device] = await devices(1);
    const id = await oneTask({ cves: ['CVE-2026-4302'], deviceIds: [device!.id] });
    await act(id, 'execute');
    const [command] = await commandsOf(t, device!);
    // The result lands in the commands table without its event (as when the subscriber failed).
    await t.db
      .update(deviceCommands)
      .set({ status: 'success', exitCode: 0, stdoutTail: 'done', finishedAt: t.clock.now() })
      .where(eq(deviceCommands.id, command!.id));
    expect((await task(id)).status).toBe('in_progress');
    await syncTaskJobs(t.ctx);
    expect(await task(id)).toMatchObject({ status: 'executed', overall_status: 'executed' });
    expect((await jobs(id)).data[0]).toMatchObject({ status: 'success', output: 'done' });
    expect(await cveStatus(t, z.o, 'CVE-2026-4302', device!.id)).toBe('remediated');
  });
});
