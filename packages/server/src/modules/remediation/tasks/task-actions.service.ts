import type {
  Task,
  TaskActionBody,
  TaskExecuteBody,
  TaskExecuteResult,
} from '@patchwell/core/remediation/tasks.schema';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { AppError, appError, notFound } from '../../../domain/errors';
import { logActivity } from '../../activity/activity.service';
import type { CommandEvents } from '../../commands/commands.events';
import { cancelCommands, type Waker } from '../../commands/commands.service';
import type { ZoneRow } from '../../zones/zones.store';
import { recordRemediationOutcomes } from '../cves/cves.service';
import { cancelOpenJobs, findOpenJobCommands } from './jobs.store';
import { dispatchLockedTasks } from './task-dispatch.service';
import { requireTaskZone, taskView } from './tasks.service';
import { deleteTaskRows, lockBatchTasks, lockTasks, setTaskCanceled } from './tasks.store';

/**
 * Executing, cancelling and deleting remediation tasks. Executing queues one device command
 * per job, once (task-dispatch.service.ts): the tasks' row locks make a second execute (a
 * retry, another tab, another node) wait and then find them no longer pending.
 */

export type TasksCtx = AppContext & { agents: Waker; commandEvents: CommandEvents };

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
    return dispatchLockedTasks(ctx, authz, tx, zone.id, [task], now);
  });
  if (wake.length) await ctx.agents.wake(wake);
  return taskView(ctx, zone.id, taskId);
}

/**
 * `POST /api/orgs/{orgId}/tasks/execute` (Task.execute): executes many tasks in one
 * transaction, named by `ids` (every one the zone's, else 404, and pending, else 409
 * `tasks.not_pending`: nothing is queued) or by `batch_id` (the batch's pending tasks; those
 * already executed or canceled are left as they are; a batch without tasks in the zone is 404).
 */
export async function executeTasks(
  ctx: TasksCtx,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  body: TaskExecuteBody,
): Promise<TaskExecuteResult> {
  const zone = await requireExecute(ctx, authz, orgId, o);
  const now = ctx.clock.now();
  const { executed, wake } = await ctx.db.transaction(async (tx) => {
    let tasks;
    if (body.batch_id !== undefined) {
      const ofBatch = await lockBatchTasks(tx, zone.id, body.batch_id);
      if (!ofBatch.length) throw notFound();
      tasks = ofBatch.filter((task) => task.status === 'pending');
    } else {
      const unique = [...new Set(body.ids)];
      tasks = await lockTasks(tx, zone.id, unique);
      if (tasks.length !== unique.length) throw notFound();
      if (tasks.some((task) => task.status !== 'pending')) throw appError('tasks.not_pending');
    }
    return {
      executed: tasks.map((task) => task.id),
      wake: await dispatchLockedTasks(ctx, authz, tx, zone.id, tasks, now),
    };
  });
  if (wake.length) await ctx.agents.wake(wake);
  return { task_ids: executed, device_count: wake.length };
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
