import type { AgentCommandArgs, NoticeReport } from '@patchwell/core/agent/agent-protocol.schema';
import { standingOf } from '@patchwell/core/policies/policy-compliance';
import type { AgentRuntime } from '../agent-api/agent-runtime';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import type { CommandFinished } from '../modules/commands/commands.events';
import {
  commandTiming,
  queuePreparedCommands,
  reserveCommandIds,
  type NewCommand,
} from '../modules/commands/commands.service';
import { findActiveCustomPolicies, findCandidateDevices, type ResultRow } from './engine.store';
import {
  expireCatchUps,
  findEvaluationPolicyOf,
  findOpenEvaluations,
  finishResult,
  insertEvaluationLinks,
  lockCatchUps,
  recordEvaluation,
  refreshOpenRuns,
  setResultCommands,
  syncResultsFromCommands,
  upsertStandings,
} from './results.store';
import { enqueueWebhookEvent } from '../modules/webhooks/webhooks.service';
import { deferralOf, outcomeMessage } from './notices';
import { deferResult } from './notices.store';
import { customPolicyScripts, targetsDevice } from './targets';

/**
 * How results come back: the commands module announces each agent's result as
 * `commandFinished`, which reaches {@link applyCommandResult} at once (the engine's one
 * subscription, made in app.ts); every tick,
 * {@link syncResults} also copies command statuses onto open results, which covers commands
 * handed out (`in_progress`), timed out by the sweep, and any result whose direct feedback
 * failed. Both only ever move an open result to a later state.
 */

const SYNC_BATCH = 5000;
const CATCH_UP_BATCH = 1000;
/** How long a result waits for an offline device before it is given up (the console's results window). */
export const CATCH_UP_WINDOW_MS = 30 * 86_400_000;

function standingsOf(
  rows: Pick<ResultRow, 'id' | 'deviceId' | 'policyId' | 'organizationId' | 'status' | 'createdAt' | 'simulated'>[],
) {
  return rows.flatMap((r) => {
    const status = standingOf(r.status, r.simulated);
    return status
      ? [
          {
            deviceId: r.deviceId,
            policyId: r.policyId,
            organizationId: r.organizationId,
            status,
            resultId: r.id,
            resultStatus: r.status,
            runAt: r.createdAt,
            nextPatchTime: null,
          },
        ]
      : [];
  });
}

/**
 * {@link refreshOpenRuns} with the webhooks' `run.finished` for each run it finished, in one
 * transaction (outbox): a run leaves `queued`/`running` once, so it is announced once.
 * Returns how many open runs it recounted.
 */
export async function closeOpenRuns(
  db: Db,
  now: Date,
  runId?: number,
  options: { onlyWhenDone?: boolean; everyRun?: boolean } = {},
): Promise<number> {
  return db.transaction(async (tx) => {
    const runs = await refreshOpenRuns(tx, now, runId, options);
    for (const run of runs) {
      if (!run.finishedAt) continue;
      await enqueueWebhookEvent(
        tx,
        run.organizationId,
        'run.finished',
        {
          run: {
            id: run.id,
            uuid: run.uuid,
            policy_id: run.policyId,
            trigger: run.trigger,
            status: run.status,
            device_count: run.deviceCount,
            success_count: run.successCount,
            error_count: run.errorCount,
            finished_at: run.finishedAt.toISOString(),
          },
        },
        now,
      );
    }
    return runs.length;
  });
}

/**
 * The engine's side of a finished command (the `commandFinished` event): finishes the policy
 * result the command carried out (and, after a worklet's successful remediation, queues its
 * evaluation), records a worklet evaluation, or, after a successful scan, queues the
 * evaluations of the device's worklet policies, waking the device for what it queued. An
 * error reaches the event registry, which logs it: the result is stored, and the next tick's
 * {@link syncResults} repairs anything missed here.
 */
export async function applyCommandResult(
  ctx: { db: Db; agents: Pick<AgentRuntime, 'wake'> },
  event: CommandFinished,
): Promise<void> {
  const queued = await resultFollowUp(ctx.db, event);
  // Commands the result led to reach the device's long-poll now, not at its next wake.
  if (queued > 0) await ctx.agents.wake([event.command.deviceId]);
}

/** Applies the result to policies; returns how many commands it queued. */
async function resultFollowUp(db: Db, { command, result, at: now }: CommandFinished): Promise<number> {
  const { deviceId } = command;
  if (command.policyResultId !== null) {
    const resultId = command.policyResultId;
    // The user deferred the run: it waits (pending) and is queued again once the deferral ends.
    if (result.notice?.choice === 'defer') {
      const deferred = await deferPolicyResult(db, resultId, command.id, command.args, result.notice, now);
      if (deferred) {
        await upsertStandings(db, standingsOf([deferred]), now);
        return 0;
      }
    }
    const row = await finishResult(
      db,
      resultId,
      {
        status: result.status,
        exitCode: result.exit_code ?? null,
        stdoutTail: result.stdout_tail ?? null,
        stderrTail: result.stderr_tail ?? null,
        finishedAt: now,
        simulated: result.simulated === true,
      },
      outcomeMessage(result),
    );
    if (row) {
      // The run's last open result closes the run now, not at the scheduler's next tick.
      await closeOpenRuns(db, now, row.runId, { onlyWhenDone: true });
      await upsertStandings(db, standingsOf([row]), now);
    }
    // As the family does, a worklet is evaluated again after its remediation ran.
    if (row && command.type === 'run_script' && result.status === 'success') {
      return queueEvaluations(db, command.organizationId, deviceId, now, row.policyId);
    }
    return 0;
  }
  const evalPolicyId = await findEvaluationPolicyOf(db, command.id);
  if (evalPolicyId !== undefined) {
    await recordEvaluation(db, {
      deviceId,
      policyId: evalPolicyId,
      organizationId: command.organizationId,
      exitCode: result.status === 'success' || result.status === 'error' ? (result.exit_code ?? null) : null,
      now,
    });
    return 0;
  }
  if (command.type === 'scan' && result.status === 'success') {
    return queueEvaluations(db, command.organizationId, deviceId, now);
  }
  return 0;
}

/**
 * Records a deferral on the result (see notices.ts `deferralOf`) from the command's arguments
 * (a result keeps its own only while it waits without one); undefined when none applies.
 */
async function deferPolicyResult(
  db: Db,
  resultId: number,
  commandId: number,
  args: AgentCommandArgs,
  notice: NoticeReport,
  now: Date,
) {
  const deferral = deferralOf(args, notice, now);
  return deferral ? deferResult(db, resultId, commandId, deferral) : undefined;
}

/**
 * Queues the evaluation code of every active worklet policy targeting the device, as
 * `run_script` commands linked in `policy_evaluations`. Returns how many were queued.
 */
export async function queueEvaluations(
  db: Db,
  zoneId: number,
  deviceId: number,
  now: Date,
  onlyPolicyId?: number,
): Promise<number> {
  const custom = await findActiveCustomPolicies(db, zoneId, onlyPolicyId);
  if (!custom.length) return 0;
  const [device] = await findCandidateDevices(db, zoneId, { groupIds: null, ids: [deviceId], now });
  if (!device) return 0;
  const commands: NewCommand[] = [];
  const links: { commandId: number; policyId: number }[] = [];
  // An evaluation still waiting for the device (or running) answers for this change too.
  const open = await findOpenEvaluations(db, deviceId);
  const wanted = custom.filter(
    (p) => !open.has(p.id) && targetsDevice(p, device) && customPolicyScripts(p, device).evaluation,
  );
  const ids = await reserveCommandIds(db, wanted.length);
  wanted.forEach((policy, i) => {
    const scripts = customPolicyScripts(policy, device);
    const commandId = ids[i]!;
    commands.push({
      id: commandId,
      deviceId,
      organizationId: zoneId,
      type: 'run_script',
      args: { language: scripts.language, script: scripts.evaluation!, purpose: 'evaluate' },
      createdBy: null,
      policyResultId: null,
      ...commandTiming('run_script', now),
    });
    links.push({ commandId, policyId: policy.id });
  });
  if (!commands.length) return 0;
  await db.transaction(async (tx) => {
    await queuePreparedCommands(tx, commands);
    await insertEvaluationLinks(tx, deviceId, links, now);
  });
  return commands.length;
}

/** Copies command statuses onto open results (handed out, finished, timed out) and updates standings. */
export async function syncResults(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await syncResultsFromCommands(ctx.db, SYNC_BATCH);
    total += rows.length;
    await upsertStandings(ctx.db, standingsOf(rows), ctx.clock.now());
    if (rows.length < SYNC_BATCH) return total;
  }
}

/**
 * Queues the commands of results that waited for their device (offline when the run was
 * dispatched) once it has checked in again. The check-in is seen through the presence row's `last_seen_at`,
 * written within a second of it; the wake then reaches the device's long-poll at once.
 */
export async function queueCatchUps(
  ctx: Pick<AppContext, 'db' | 'clock'> & { agents: Pick<AgentRuntime, 'wake'> },
): Promise<number> {
  await expireCatchUps(ctx.db, ctx.clock.now(), CATCH_UP_WINDOW_MS);
  let total = 0;
  for (;;) {
    const now = ctx.clock.now();
    const woken = await ctx.db.transaction(async (tx) => {
      const rows = (await lockCatchUps(tx, CATCH_UP_BATCH, now)).filter((r) => r.commandType);
      const ids = await reserveCommandIds(tx, rows.length);
      const commands: NewCommand[] = rows.map((r, i) => ({
        id: ids[i]!,
        deviceId: r.deviceId,
        organizationId: r.organizationId,
        type: r.commandType as NewCommand['type'],
        args: r.args as NewCommand['args'],
        createdBy: null,
        policyResultId: r.id,
        ...commandTiming(r.commandType as NewCommand['type'], now),
      }));
      await queuePreparedCommands(tx, commands);
      await setResultCommands(
        tx,
        commands.map((c) => ({ resultId: c.policyResultId!, commandId: c.id })),
        now,
      );
      return { devices: rows.map((r) => r.deviceId), locked: rows.length };
    });
    total += woken.locked;
    if (woken.devices.length) await ctx.agents.wake([...new Set(woken.devices)]);
    if (woken.locked < CATCH_UP_BATCH) return total;
  }
}
