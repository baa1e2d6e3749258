import { and, eq, isNull } from 'drizzle-orm';
import type { AgentCommandArgs, CommandResultBody, NoticeReport } from '@patchwell/core/agent/agent-protocol.schema';
import { standingOf } from '@patchwell/core/policies/policy-compliance';
import type { AgentRuntime } from '../agent-api/agent-runtime';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { policies, policyEvaluations } from '../db/policies.schema';
import { findCandidateDevices, type ResultRow } from './engine.store';
import {
  allocateIds,
  expireCatchUps,
  findOpenEvaluations,
  findCommandLink,
  finishResult,
  insertCommandRows,
  lockCatchUps,
  recordEvaluation,
  refreshOpenRuns,
  setResultCommands,
  syncResultsFromCommands,
  upsertStandings,
  type NewCommand,
} from './results.store';
import { commandTiming } from './commands';
import { deferralOf, outcomeMessage } from './notices';
import { deferResult } from './notices.store';
import { customPolicyScripts, targetsDevice } from './targets';

/**
 * How results come back: the agent's result for a command reaches {@link onPolicyCommandResult}
 * at once (the one call agent.store.ts makes into the engine); every tick,
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
 * The engine's side of a recorded command result (called by agent.store.ts
 * `recordCommandResult` after it wrote the result): finishes the policy result the command
 * carried out (and, after a worklet's successful remediation, queues its evaluation),
 * records a worklet evaluation, or, after a successful scan, queues the evaluations of the
 * device's worklet policies. Never throws (errors go to `onError`): the next tick's
 * {@link syncResults} repairs anything missed here.
 */
export async function onPolicyCommandResult(
  db: Db,
  deviceId: number,
  commandId: number,
  result: CommandResultBody,
  now: Date,
  onError?: (err: unknown) => void,
): Promise<number> {
  try {
    const link = await findCommandLink(db, commandId);
    if (!link) return 0;
    if (link.policy_result_id !== null) {
      // The user deferred the run: it waits (pending) and is queued again once the deferral ends.
      if (result.notice?.choice === 'defer') {
        const deferred = await deferPolicyResult(db, link.policy_result_id, commandId, link.args, result.notice, now);
        if (deferred) {
          await upsertStandings(db, standingsOf([deferred]), now);
          return 0;
        }
      }
      const row = await finishResult(
        db,
        link.policy_result_id,
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
        await refreshOpenRuns(db, now, row.runId, { onlyWhenDone: true });
        await upsertStandings(db, standingsOf([row]), now);
      }
      // As the family does, a worklet is evaluated again after its remediation ran.
      if (row && link.type === 'run_script' && result.status === 'success') {
        return await queueEvaluations(db, link.organization_id, deviceId, now, row.policyId);
      }
      return 0;
    }
    if (link.eval_policy_id !== null) {
      await recordEvaluation(db, {
        deviceId,
        policyId: link.eval_policy_id,
        organizationId: link.organization_id,
        exitCode: result.status === 'success' || result.status === 'error' ? (result.exit_code ?? null) : null,
        now,
      });
      return 0;
    }
    if (link.type === 'scan' && result.status === 'success') {
      return await queueEvaluations(db, link.organization_id, deviceId, now);
    }
    return 0;
  } catch (err) {
    // The agent's result is already stored, and the next tick's syncResults copies it: the
    // agent is not failed for it, but the error is reported.
    onError?.(err);
    return 0;
  }
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
  const custom = await db
    .select()
    .from(policies)
    .where(
      and(
        eq(policies.organizationId, zoneId),
        eq(policies.type, 'custom'),
        eq(policies.status, 'active'),
        isNull(policies.deletedAt),
        onlyPolicyId === undefined ? undefined : eq(policies.id, onlyPolicyId),
      ),
    );
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
  const ids = await allocateIds(db, wanted.length);
  wanted.forEach((policy, i) => {
    const scripts = customPolicyScripts(policy, device);
    const commandId = ids[i]!.commandId;
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
    await insertCommandRows(tx, commands);
    await tx
      .insert(policyEvaluations)
      .values(links.map((l) => ({ commandId: l.commandId, policyId: l.policyId, deviceId, createdAt: now })));
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
      const ids = await allocateIds(tx, rows.length);
      const commands: NewCommand[] = rows.map((r, i) => ({
        id: ids[i]!.commandId,
        deviceId: r.deviceId,
        organizationId: r.organizationId,
        type: r.commandType as NewCommand['type'],
        args: r.args as NewCommand['args'],
        createdBy: null,
        policyResultId: r.id,
        ...commandTiming(r.commandType as NewCommand['type'], now),
      }));
      await insertCommandRows(tx, commands);
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
