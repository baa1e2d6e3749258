import type { AgentCommandArgs, AgentCommandType } from '@patchwell/core/agent/agent-protocol.schema';
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
import { closeJobsUnrun, findJobTargets, setJobCommands, type JobTarget } from './jobs.store';
import { announceExecuted } from './task-results.service';
import { closeTaskIfDone, setTasksInProgress, type TaskRow, type Tx } from './tasks.store';

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
  );
  const runs = new Map<number, Run[]>(tasks.map((task) => [task.id, []]));
  const removed: number[] = [];
  // Jobs that cannot run, by reason: one statement per reason, not per device.
  const unfit = new Map<string, JobTarget[]>();
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
      },
    })),
    tx,
  );
  // Nothing to run (every device removed): the task is done now.
  for (const task of tasks) {
    if (!runs.get(task.id)!.length) await announceExecuted(tx, await closeTaskIfDone(tx, task.id, now), now);
  }
  return [...new Set(all.map((r) => r.deviceId))];
}
