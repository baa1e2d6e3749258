import type { AgentCommandArgs, AgentCommandType } from '@patchwell/core/agent/agent-protocol.schema';
import type { Task, TaskActionBody } from '@patchwell/core/remediation/tasks.schema';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { AppError, appError, notFound } from '../../../domain/errors';
import { logActivity } from '../../activity/activity.service';
import type { CommandEvents } from '../../commands/commands.events';
import {
  cancelCommands,
  commandTiming,
  queuePreparedCommands,
  reserveCommandIds,
  type NewCommand,
  type Waker,
} from '../../commands/commands.service';
import { catalogueWorklet } from '../../worklets/worklet-catalog.service';
import type { ZoneRow } from '../../zones/zones.store';
import { recordRemediationOutcomes } from '../cves/cves.service';
import { cancelOpenJobs, closeJobsUnrun, findJobTargets, findOpenJobCommands, setJobCommands } from './jobs.store';
import { requireTaskZone, taskView } from './tasks.service';
import {
  closeTaskIfDone,
  deleteTaskRows,
  lockTasks,
  setTaskCanceled,
  setTaskInProgress,
  type TaskRow,
} from './tasks.store';

/**
 * Executing, cancelling and deleting remediation tasks. Executing queues one device command
 * per job, once: the task's row lock makes a second execute (a retry, another tab, another
 * node) wait and then find the task no longer pending. A one-time task runs now and without
 * user notifications, so its commands carry no notice and no reboot behaviour.
 */

export type TasksCtx = AppContext & { agents: Waker; commandEvents: CommandEvents };

/** The task's devices by OS family need the same command, except a worklet's devices of another OS. */
type Plan = { type: AgentCommandType; argsFor(osFamily: string): AgentCommandArgs | string };

/** What executing the task runs on a device, or why it cannot run there (a string). */
function planOf(task: TaskRow): Plan {
  if (task.kind === 'patch-now') {
    if (!task.patchName) throw appError('tasks.patch_missing');
    // The devices' Patch-now and patch policies install named updates the same way.
    const args: AgentCommandArgs = { names: [task.patchName] };
    return { type: 'install_updates', argsFor: () => args };
  }
  const worklet = task.workletId ? catalogueWorklet(task.workletId) : null;
  if (!worklet) throw appError('tasks.worklet_invalid');
  const args: AgentCommandArgs = { language: worklet.language, script: worklet.remediation_code, purpose: 'remediate' };
  return {
    type: 'run_script',
    argsFor: (osFamily) =>
      osFamily === worklet.os_family
        ? args
        : `The worklet ${worklet.name} is written for ${worklet.os_family} devices; this device runs ${osFamily}.`,
  };
}

/** Task.execute in the path's zone, refused with the spec's text. */
async function requireExecute(ctx: AppContext, authz: Authz, orgId: number, o: number | undefined): Promise<ZoneRow> {
  try {
    return await requireTaskZone(ctx, authz, orgId, o, 'execute');
  } catch (err) {
    if (err instanceof AppError && err.code === 'authz.forbidden') throw appError('tasks.execute_forbidden');
    throw err;
  }
}

/** The permission `PATCH {action}` needs, checked again before an idempotent replay. */
export function requireTaskAction(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  action: TaskActionBody['action'],
): Promise<ZoneRow> {
  return action === 'execute' ? requireExecute(ctx, authz, orgId, o) : requireTaskZone(ctx, authz, orgId, o, 'modify');
}

/** `PATCH /api/orgs/{orgId}/tasks/{taskId}` `{action}`: execute (Task.execute) or cancel (Task.modify). */
export function actOnTask(
  ctx: TasksCtx,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  taskId: number,
  body: TaskActionBody,
): Promise<Task> {
  return body.action === 'execute'
    ? executeTask(ctx, authz, orgId, o, taskId)
    : cancelTask(ctx, authz, orgId, o, taskId);
}

/**
 * Executes a pending task: one command per live device, queued with the jobs' command ids
 * and the task's `in_progress` in one transaction, devices woken after the commit. Jobs of
 * removed devices are canceled; a worklet's jobs on devices of another OS fail at once.
 * @throws 404 not the zone's, 409 `tasks.not_pending`, 422 `tasks.worklet_invalid` / `tasks.patch_missing`.
 */
export async function executeTask(
  ctx: TasksCtx,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  taskId: number,
): Promise<Task> {
  const zone = await requireExecute(ctx, authz, orgId, o);
  const now = ctx.clock.now();
  const wake = await ctx.db.transaction(async (tx) => {
    const [task] = await lockTasks(tx, zone.id, [taskId]);
    if (!task) throw notFound();
    if (task.status !== 'pending') throw appError('tasks.not_pending');
    const plan = planOf(task);
    const targets = await findJobTargets(tx, task.id);
    const removed = targets.filter((t) => t.removed).map((t) => t.jobId);
    const runs: { jobId: number; deviceId: number; args: AgentCommandArgs }[] = [];
    const unfit: { jobId: number; deviceId: number; why: string }[] = [];
    for (const t of targets) {
      if (t.removed) continue;
      const args = plan.argsFor(t.osFamily);
      if (typeof args === 'string') unfit.push({ jobId: t.jobId, deviceId: t.deviceId, why: args });
      else runs.push({ jobId: t.jobId, deviceId: t.deviceId, args });
    }
    const ids = await reserveCommandIds(tx, runs.length);
    const timing = commandTiming(plan.type, now);
    await queuePreparedCommands(
      tx,
      runs.map((r, i): NewCommand => ({
        id: ids[i]!,
        deviceId: r.deviceId,
        organizationId: zone.id,
        type: plan.type,
        args: r.args,
        createdBy: authz.userId,
        policyResultId: null,
        ...timing,
      })),
    );
    await setJobCommands(
      tx,
      runs.map((r) => r.jobId),
      ids,
    );
    await closeJobsUnrun(tx, removed, 'canceled', 'The device was removed before the task was executed.', now);
    // One statement per reason (one per other OS family), not per device.
    for (const why of new Set(unfit.map((u) => u.why))) {
      const jobIds = unfit.filter((u) => u.why === why).map((u) => u.jobId);
      await closeJobsUnrun(tx, jobIds, 'error', why, now);
    }
    await setTaskInProgress(tx, task.id, authz.userId, now);
    const cve = { zoneId: zone.id, cves: task.cves, taskId: task.id, at: now };
    await recordRemediationOutcomes(tx, { ...cve, deviceIds: runs.map((r) => r.deviceId), outcome: 'remediating' });
    await recordRemediationOutcomes(tx, {
      ...cve,
      deviceIds: unfit.map((u) => u.deviceId),
      outcome: 'remediation_failed',
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'task.execute',
      { type: 'task', id: task.id },
      { title: task.title, devices: runs.length, removed_devices: removed.length, other_os_devices: unfit.length },
      tx,
    );
    // Nothing to run (every device removed): the task is done now.
    if (!runs.length) await closeTaskIfDone(tx, task.id, now);
    return runs.map((r) => r.deviceId);
  });
  if (wake.length) await ctx.agents.wake(wake);
  return taskView(ctx, zone.id, taskId);
}

/**
 * Cancels a pending or in-progress task: its open jobs are canceled, their CVE states that
 * were `remediating` open again, then their commands are canceled (a device that already
 * took one may still run it; its late result is ignored).
 * @throws 404 not the zone's, 409 `tasks.not_cancelable`.
 */
export async function cancelTask(
  ctx: TasksCtx,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  taskId: number,
): Promise<Task> {
  const zone = await requireTaskZone(ctx, authz, orgId, o, 'modify');
  const now = ctx.clock.now();
  const commandIds = await ctx.db.transaction(async (tx) => {
    const [task] = await lockTasks(tx, zone.id, [taskId]);
    if (!task) throw notFound();
    if (task.status !== 'pending' && task.status !== 'in_progress') throw appError('tasks.not_cancelable');
    const canceled = await cancelOpenJobs(tx, [task.id], now);
    await setTaskCanceled(tx, task.id, now);
    const started = canceled.filter((j) => j.commandId !== null);
    await recordRemediationOutcomes(tx, {
      zoneId: zone.id,
      deviceIds: started.map((j) => j.deviceId),
      cves: task.cves,
      outcome: 'open',
      taskId: task.id,
      at: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'task.cancel',
      { type: 'task', id: task.id },
      { title: task.title, canceled_jobs: canceled.length },
      tx,
    );
    return started.map((j) => j.commandId!);
  });
  // The jobs are canceled above: no subscriber needs 10,000 events saying so.
  await cancelCommands(ctx, zone.id, commandIds, { announce: false });
  return taskView(ctx, zone.id, taskId);
}

/**
 * `DELETE /api/orgs/{orgId}/tasks` `{ids}` (Task.modify): deletes the tasks with their jobs
 * (their details are gone for good) and cancels the commands of jobs still open. Every id
 * must be a task of the zone, else nothing is deleted (404).
 */
export async function deleteTasks(
  ctx: TasksCtx,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  ids: number[],
): Promise<void> {
  const zone = await requireTaskZone(ctx, authz, orgId, o, 'modify');
  const unique = [...new Set(ids)];
  const now = ctx.clock.now();
  const commandIds = await ctx.db.transaction(async (tx) => {
    const tasks = await lockTasks(tx, zone.id, unique);
    if (tasks.length !== unique.length) throw notFound();
    const open = await findOpenJobCommands(tx, unique);
    for (const task of tasks) {
      await recordRemediationOutcomes(tx, {
        zoneId: zone.id,
        deviceIds: open.filter((j) => j.taskId === task.id).map((j) => j.deviceId),
        cves: task.cves,
        outcome: 'open',
        taskId: task.id,
        at: now,
      });
      await logActivity(
        ctx,
        authz,
        zone.id,
        'task.delete',
        { type: 'task', id: task.id },
        { title: task.title, status: task.status },
        tx,
      );
    }
    await deleteTaskRows(tx, zone.id, unique);
    return open.map((j) => j.commandId);
  });
  // The jobs are gone with their tasks: nothing subscribes to these commands' end.
  await cancelCommands(ctx, zone.id, commandIds, { announce: false });
}
