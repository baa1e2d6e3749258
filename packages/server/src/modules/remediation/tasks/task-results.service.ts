import { COMMAND_TAIL_MAX } from '@patchwell/core/agent/agent-protocol.schema';
import type { AppContext } from '../../../context';
import { startPeriodic, type PeriodicTask } from '../../../periodic';
import type { CommandFinished } from '../../commands/commands.events';
import { recordRemediationOutcome, recordRemediationOutcomes } from '../cves/cves.service';
import { finishJobOfCommand, syncFinishedJobs, syncStartedJobs, type FinishedJob } from './jobs.store';
import { enqueueWebhookEvent } from '../../webhooks/webhooks.service';
import type { Exec } from '../../commands/commands.store';
import { closeDoneTasks, closeTaskIfDone, countJobsOf, type ExecutedTask } from './tasks.store';

/**
 * How remediation jobs learn their commands' outcomes, as the policy engine does: a result
 * the agent posts reaches {@link applyTaskCommandResult} at once (the `commandFinished`
 * subscription made in app.ts); the periodic {@link syncTaskJobs} copies what raises no
 * event (a command handed out, timeouts of the commands sweep) and repairs a missed event.
 * Both only move an open job to a later state; a task with no open job left is `executed`.
 */

/**
 * A dry run remediates nothing: the job fails with this note (a device whose agent runs
 * without --allow-changes is not remediated however often it says success).
 */
export const DRY_RUN_NOTE =
  'The agent only simulated the change (it runs without --allow-changes): nothing was remediated.';

/** How much of a command's output a job keeps (the end, where errors are). */
const OUTPUT_MAX = 4000;
const SYNC_BATCH = 5000;
/** How often each node copies command states onto jobs (the commands sweep's pace). */
export const TASK_SYNC_INTERVAL_MS = 15_000;

type Ctx = Pick<AppContext, 'db' | 'clock'>;

function outputTail(stdout: string | null | undefined, stderr: string | null | undefined): string | null {
  const text = [stdout, stderr].filter((s): s is string => Boolean(s)).join('\n');
  return text ? text.slice(-Math.min(OUTPUT_MAX, COMMAND_TAIL_MAX)) : null;
}

function outcomeOf(status: FinishedJob['status']) {
  if (status === 'success') return 'remediated' as const;
  if (status === 'error' || status === 'timed_out') return 'remediation_failed' as const;
  // A canceled command leaves the CVE where it was before the task.
  return 'open' as const;
}

/**
 * The tasks' side of a finished command: finishes the open job it carries out (if any), moves
 * the device's CVE states, and closes the task when it was its last open job. Commands of
 * other modules find no job and cost one indexed update.
 */
export async function applyTaskCommandResult(ctx: Ctx, { command, result, at }: CommandFinished): Promise<void> {
  const isDryRun = result.status === 'success' && result.simulated === true;
  const tail = outputTail(result.stdout_tail, result.stderr_tail);
  const job = await finishJobOfCommand(ctx.db, command.id, {
    status: isDryRun ? 'error' : result.status,
    exitCode: result.exit_code ?? null,
    output: isDryRun ? [DRY_RUN_NOTE, tail].filter(Boolean).join('\n') : tail,
    startedAt: command.startedAt,
    at,
  });
  if (!job) return;
  const outcome = outcomeOf(job.status);
  const cve = { zoneId: job.organizationId, cves: job.cves, taskId: job.taskId, at };
  if (outcome === 'open') await recordRemediationOutcomes(ctx.db, { ...cve, deviceIds: [job.deviceId], outcome });
  else await recordRemediationOutcome(ctx.db, { ...cve, deviceId: job.deviceId, outcome });
  // Apart from the job's transaction on purpose: of two last jobs finishing at once, the
  // later commit sees the other. The close and its webhook event commit together.
  await ctx.db.transaction(async (tx) => announceExecuted(tx, await closeTaskIfDone(tx, job.taskId, at), at));
}

/** The webhooks' `task.executed` for tasks that just became executed, in the closing transaction. */
export async function announceExecuted(tx: Exec, tasks: ExecutedTask[], at: Date): Promise<number> {
  if (!tasks.length) return 0;
  const jobs = await countJobsOf(
    tx,
    tasks.map((t) => t.id),
  );
  for (const task of tasks) {
    await enqueueWebhookEvent(
      tx,
      task.organizationId,
      'task.executed',
      {
        task: {
          id: task.id,
          title: task.title,
          kind: task.kind,
          severity: task.severity,
          cves: task.cves,
          batch_id: task.batchId,
          executed_at: task.executedAt?.toISOString() ?? null,
        },
        jobs: jobs.get(task.id) ?? {},
      },
      at,
    );
  }
  return tasks.length;
}

export type TaskSyncReport = { started: number; finished: number; tasksDone: number };

/**
 * One pass: jobs whose command a device took become `in_progress`; open jobs whose command
 * is final (the sweep's `timed_out`, or a result whose event was missed) take its status,
 * with their CVE states moved in one statement per task and outcome; in-progress tasks with
 * no open job left become `executed`. Safe on several nodes at once (rows held elsewhere are skipped).
 */
export async function syncTaskJobs(ctx: Ctx): Promise<TaskSyncReport> {
  const at = ctx.clock.now();
  let started = 0;
  let n: number;
  do {
    n = await syncStartedJobs(ctx.db, SYNC_BATCH);
    started += n;
  } while (n === SYNC_BATCH);
  let finished = 0;
  for (;;) {
    const jobs = await syncFinishedJobs(ctx.db, SYNC_BATCH, DRY_RUN_NOTE);
    finished += jobs.length;
    const groups = new Map<string, FinishedJob[]>();
    for (const job of jobs) {
      const key = `${job.taskId}:${outcomeOf(job.status)}`;
      const group = groups.get(key);
      if (group) group.push(job);
      else groups.set(key, [job]);
    }
    for (const group of groups.values()) {
      const { taskId, organizationId, cves, status } = group[0]!;
      await recordRemediationOutcomes(ctx.db, {
        zoneId: organizationId,
        deviceIds: group.map((j) => j.deviceId),
        cves,
        outcome: outcomeOf(status),
        taskId,
        at,
      });
    }
    if (jobs.length < SYNC_BATCH) break;
  }
  let tasksDone = 0;
  do {
    n = await ctx.db.transaction(async (tx) => announceExecuted(tx, await closeDoneTasks(tx, at, SYNC_BATCH), at));
    tasksDone += n;
  } while (n === SYNC_BATCH);
  return { started, finished, tasksDone };
}

/** Runs {@link syncTaskJobs} every `intervalMs` on this node (serve.ts starts it next to the commands sweep). */
export function startTaskJobSync(ctx: AppContext, intervalMs: number = TASK_SYNC_INTERVAL_MS): PeriodicTask {
  return startPeriodic(
    ctx.logger,
    intervalMs,
    async () => {
      const r = await syncTaskJobs(ctx);
      if (r.started || r.finished || r.tasksDone) ctx.logger.debug(r, 'remediation jobs synced');
    },
    'sync of remediation jobs failed',
  );
}
