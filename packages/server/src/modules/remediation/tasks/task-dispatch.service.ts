import type { AgentCommandArgs, AgentCommandType } from '@patchwell/core/agent/agent-protocol.schema';
import type { AgentRuntime } from '../../../agent-api/agent-runtime';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { appError } from '../../../domain/errors';
import { logActivities } from '../../activity/activity.service';
import {
  commandTiming,
  queuePreparedCommands,
  reserveCommandIds,
  type NewCommand,
} from '../../commands/commands.service';
import { catalogueWorklet } from '../../worklets/worklet-catalog.service';
import { recordRemediationOutcomes, recordRemediationStarts } from '../cves/cves.service';
import { closeJobsUnrun, findJobTargets, lockWaitingJobs, setJobCommands, type JobTarget } from './jobs.store';
import { announceExecuted } from './task-results.service';
import { closeTaskIfDone, findTasksByIds, setTasksInProgress, type TaskRow, type Tx } from './tasks.store';

/**
 * Queuing the commands of pending tasks, one or a whole batch's, inside the caller's
 * transaction (which holds the tasks' rows): one read of every job, one reservation of
 * command ids and one insert for all of them (the commands module writes them), then the
 * jobs, tasks, CVE states and one activity event per task, each in a statement or a few. A one-time task runs now and
 * without user notifications, so its commands carry no notice and no reboot behaviour.
 */

/** What each device runs: a fix's patches that device reported, or the worklet on devices of its OS. */
type Plan = {
  type: AgentCommandType;
  argsFor(target: Pick<JobTarget, 'osFamily' | 'patchNames'>): AgentCommandArgs | string;
};

/** What executing the task runs on a device, or why it cannot run there (a string). */
function planOf(task: TaskRow): Plan {
  if (task.kind === 'patch-now') {
    if (!task.patchName) throw appError('tasks.patch_missing');
    // The devices' Patch-now and patch policies install named updates the same way. Each job
    // names its device's own versions of the fix; a job made before jobs held them, the task's.
    const fallback: AgentCommandArgs = { names: [task.patchName] };
    return {
      type: 'install_updates',
      argsFor: ({ patchNames }) => (patchNames?.length ? { names: patchNames } : fallback),
    };
  }
  const worklet = task.workletId ? catalogueWorklet(task.workletId) : null;
  if (!worklet) throw appError('tasks.worklet_invalid');
  const args: AgentCommandArgs = { language: worklet.language, script: worklet.remediation_code, purpose: 'remediate' };
  return {
    type: 'run_script',
    argsFor: ({ osFamily }) =>
      osFamily === worklet.os_family
        ? args
        : `The worklet ${worklet.name} is written for ${worklet.os_family} devices; this device runs ${osFamily}.`,
  };
}

/** Jobs grouped by task (Map.groupBy is Node 21's). */
function byTask(jobs: JobTarget[]): Map<number, JobTarget[]> {
  const groups = new Map<number, JobTarget[]>();
  for (const job of jobs) {
    const group = groups.get(job.taskId);
    if (group) group.push(job);
    else groups.set(job.taskId, [job]);
  }
  return groups;
}

type Run = { jobId: number; deviceId: number; type: AgentCommandType; args: AgentCommandArgs };

/**
 * Executes `tasks` (locked, all pending, of zone `zoneId`) in `tx`: a command per live device,
 * removed devices' jobs canceled, a worklet's jobs on another OS failed at once. Returns the
 * devices to wake once the transaction commits.
 * @throws 422 `tasks.worklet_invalid` / `tasks.patch_missing` (nothing is queued).
 */
export async function dispatchLockedTasks(
  ctx: AppContext,
  authz: Authz,
  tx: Tx,
  zoneId: number,
  tasks: TaskRow[],
  now: Date,
): Promise<number[]> {
  if (!tasks.length) return [];
  const plans = new Map(tasks.map((task) => [task.id, planOf(task)]));
  const targets = await findJobTargets(
    tx,
    tasks.map((task) => task.id),
    now,
  );
  const runs = new Map<number, Run[]>(tasks.map((task) => [task.id, []]));
  const removed: number[] = [];
  // Jobs that cannot run, by reason: one statement per reason, not per device.
  const unfit = new Map<string, JobTarget[]>();
  // Devices outside their maintenance window: their jobs stay pending without a command
  // until a window opens (queueWaitingJobs).
  const waiting = new Map<number, number>();
  for (const target of targets) {
    if (target.removed) {
      removed.push(target.jobId);
      continue;
    }
    const plan = plans.get(target.taskId)!;
    const args = plan.argsFor(target);
    if (typeof args === 'string') {
      const same = unfit.get(args);
      if (same) same.push(target);
      else unfit.set(args, [target]);
    } else if (!target.inside) {
      waiting.set(target.taskId, (waiting.get(target.taskId) ?? 0) + 1);
    } else runs.get(target.taskId)!.push({ jobId: target.jobId, deviceId: target.deviceId, type: plan.type, args });
  }
  const all = [...runs.values()].flat();
  const ids = await reserveCommandIds(tx, all.length);
  await queuePreparedCommands(
    tx,
    all.map((r, i): NewCommand => ({
      id: ids[i]!,
      deviceId: r.deviceId,
      organizationId: zoneId,
      type: r.type,
      args: r.args,
      createdBy: authz.userId,
      policyResultId: null,
      ...commandTiming(r.type, now),
    })),
  );
  await setJobCommands(
    tx,
    all.map((r) => r.jobId),
    ids,
  );
  await closeJobsUnrun(tx, removed, 'canceled', 'The device was removed before the task was executed.', now);
  for (const [why, jobs] of unfit) {
    await closeJobsUnrun(
      tx,
      jobs.map((j) => j.jobId),
      'error',
      why,
      now,
    );
  }
  await setTasksInProgress(
    tx,
    tasks.map((task) => task.id),
    authz.userId,
    now,
  );
  // The CVE states: one statement for every task's started jobs. With jobs that could not run
  // (a worklet for another OS), task after task, as their failures and starts interleave.
  // Per task, counted once (a batch has hundreds of tasks and tens of thousands of jobs).
  const unfitByTask = byTask([...unfit.values()].flat());
  const unfitOf = (taskId: number) => unfitByTask.get(taskId) ?? [];
  const removedByTask = byTask(targets.filter((t) => t.removed));
  if (unfit.size === 0) {
    await recordRemediationStarts(tx, {
      zoneId,
      tasks: tasks.map((task) => ({
        taskId: task.id,
        cves: task.cves,
        deviceIds: runs.get(task.id)!.map((r) => r.deviceId),
      })),
      at: now,
    });
  } else {
    for (const task of tasks) {
      const cve = { zoneId, cves: task.cves, taskId: task.id, at: now };
      const runDevices = runs.get(task.id)!.map((r) => r.deviceId);
      await recordRemediationOutcomes(tx, { ...cve, deviceIds: runDevices, outcome: 'remediating' });
      const unfitDevices = unfitOf(task.id).map((u) => u.deviceId);
      if (unfitDevices.length) {
        await recordRemediationOutcomes(tx, { ...cve, deviceIds: unfitDevices, outcome: 'remediation_failed' });
      }
    }
  }
  await logActivities(
    ctx,
    authz,
    zoneId,
    'task.execute',
    tasks.map((task) => ({
      object: { type: 'task', id: task.id },
      details: {
        title: task.title,
        devices: runs.get(task.id)!.length,
        removed_devices: removedByTask.get(task.id)?.length ?? 0,
        other_os_devices: unfitOf(task.id).length,
        waiting_for_window: waiting.get(task.id) ?? 0,
      },
    })),
    tx,
  );
  // Nothing to run (every device removed): the task is done now.
  for (const task of tasks) {
    if (!runs.get(task.id)!.length && !waiting.has(task.id))
      await announceExecuted(tx, await closeTaskIfDone(tx, task.id, now), now);
  }
  return [...new Set(all.map((r) => r.deviceId))];
}

const WAITING_BATCH = 5000;

/**
 * Queues the commands of executed tasks' jobs that waited for their device's maintenance
 * window, once the device is inside one (decision 0019); a waiting job whose device was
 * removed is canceled. One pass of at most 5,000 jobs per transaction, safe on several nodes
 * (`SKIP LOCKED`); the devices are woken after each commit. Returns how many it queued.
 * The engine's tick calls it, after moving the windows on.
 */
export async function queueWaitingJobs(
  ctx: Pick<AppContext, 'db' | 'clock'> & { agents: Pick<AgentRuntime, 'wake'> },
): Promise<number> {
  let queued = 0;
  for (;;) {
    const woken: number[] = [];
    const now = ctx.clock.now();
    const locked = await ctx.db.transaction(async (tx) => {
      const jobs = await lockWaitingJobs(tx, now, WAITING_BATCH);
      if (!jobs.length) return 0;
      const removed = jobs.filter((j) => j.removed);
      await closeJobsUnrun(
        tx,
        removed.map((j) => j.jobId),
        'canceled',
        'The device was removed before the task was executed.',
        now,
      );
      const live = jobs.filter((j) => !j.removed);
      const tasks = new Map((await findTasksByIds(tx, [...new Set(live.map((j) => j.taskId))])).map((t) => [t.id, t]));
      const all: (Run & { task: TaskRow })[] = [];
      for (const job of live) {
        const task = tasks.get(job.taskId)!;
        const plan = planOf(task);
        const args = plan.argsFor(job);
        if (typeof args === 'string') await closeJobsUnrun(tx, [job.jobId], 'error', args, now);
        else all.push({ jobId: job.jobId, deviceId: job.deviceId, type: plan.type, args, task });
      }
      const ids = await reserveCommandIds(tx, all.length);
      await queuePreparedCommands(
        tx,
        all.map((r, i): NewCommand => ({
          id: ids[i]!,
          deviceId: r.deviceId,
          organizationId: r.task.organizationId,
          type: r.type,
          args: r.args,
          createdBy: r.task.executedBy,
          policyResultId: null,
          ...commandTiming(r.type, now),
        })),
      );
      await setJobCommands(
        tx,
        all.map((r) => r.jobId),
        ids,
      );
      const byZone = new Map<number, { taskId: number; cves: string[]; deviceIds: number[] }[]>();
      for (const task of tasks.values()) {
        const deviceIds = all.filter((r) => r.task.id === task.id).map((r) => r.deviceId);
        if (!deviceIds.length) continue;
        const list = byZone.get(task.organizationId) ?? [];
        list.push({ taskId: task.id, cves: task.cves, deviceIds });
        byZone.set(task.organizationId, list);
      }
      for (const [zoneId, started] of byZone) await recordRemediationStarts(tx, { zoneId, tasks: started, at: now });
      queued += all.length;
      woken.push(...new Set(all.map((r) => r.deviceId)));
      return jobs.length;
    });
    if (woken.length) await ctx.agents.wake(woken);
    if (locked < WAITING_BATCH) return queued;
  }
}
