import { standingOf } from '@patchwell/core/policies/policy-compliance';
import type { AppContext } from '../context';
import {
  commandTiming,
  queuePreparedCommands,
  reserveCommandIds,
  type NewCommand,
} from '../modules/commands/commands.service';
import {
  findCandidateDevices,
  findSlots,
  lockPolicyRunStart,
  updateRun,
  type PolicyRow,
  type RunRow,
  type Tx,
} from './engine.store';
import {
  allocateResultIds,
  cancelSuperseded,
  noteRunsChanged,
  findOpenCommandRuns,
  insertResults,
  writeStandings,
  type NewResult,
} from './results.store';
import { logActivity, SYSTEM_ACTOR } from '../modules/activity/activity.service';
import { dispatchPatchAll, isPatchAll, RESULT_TEXTS, type Dispatched } from './dispatch-all';
import { planRun } from './plans';
import { upsertApprovals } from './plans.store';
import { targetsDevice } from './targets';
import { isInside, nextWindow } from '@patchwell/core/maintenance/maintenance-windows';
import { MAINTENANCE_WINDOW_TEXTS } from '@patchwell/core/maintenance/maintenance-windows.schema';
import { windowRulesByGroup } from '../modules/maintenance-windows/maintenance-windows.service';

/**
 * Dispatches one run inside the caller's transaction (which holds the run's row lock):
 * resolves the targeted devices, plans each one from its stored inventory, inserts the
 * results and the commands in bulk, and returns the devices to wake once committed.
 *
 * Offline devices: a device not online when the run is dispatched gets a `pending` result
 * without a command when the run was asked for by a person ("Run now") or the policy asks
 * for catch-up (`configuration.missed_patch_window`); the engine queues its command when
 * the device next checks in (results.ts `queueCatchUps`). Otherwise the device missed this
 * run: its result is `canceled` with the reason.
 *
 * Maintenance windows (decision 0019): a device whose group has windows, none of them open
 * now, gets a `pending` result without a command whatever its presence; the catch-up queues
 * its command once a window of its group is open and the device has checked in since.
 * Decided per group, once per run.
 *
 * Overlap: a device on which another run of the policy still has a command open (a
 * scheduled slot while a "Run now" is running, or the other way round after a race) is
 * skipped, its result `canceled` with the open run named, so no device ever holds two open
 * commands of one policy. The policy's run-start lock orders this with run starts and other
 * dispatches on every node.
 */
export async function dispatchRun(
  tx: Tx,
  ctx: Pick<AppContext, 'clock' | 'logger'>,
  run: RunRow,
  policy: PolicyRow,
): Promise<Dispatched> {
  const now = ctx.clock.now();
  if (policy.deletedAt) {
    await updateRun(tx, run.id, { status: 'error', errorMessage: 'The policy was deleted.', finishedAt: now });
    return { wake: [], recompute: [] };
  }
  // Every available patch: the plan is the patch names, so the whole run is set-based SQL.
  if (isPatchAll(policy)) return dispatchPatchAll(tx, ctx, run, policy);
  const chosen = run.deviceIds;
  const candidates = await findCandidateDevices(tx, policy.organizationId, {
    groupIds: chosen ? null : policy.serverGroups,
    ids: chosen,
    now,
  });
  const isLocalSlot = run.tzKey !== null && !policy.useScheduledTimezone;
  const targeted = candidates.filter(
    (d) => (chosen ? true : targetsDevice(policy, d)) && (!isLocalSlot || d.timezone === run.tzKey),
  );
  await lockPolicyRunStart(tx, policy.id);
  const busy = await findOpenCommandRuns(
    tx,
    policy.id,
    targeted.map((d) => d.id),
    run.id,
  );
  const free = busy.size ? targeted.filter((d) => !busy.has(d.id)) : targeted;
  if (busy.size) {
    ctx.logger.info(
      {
        runId: run.id,
        policyId: policy.id,
        trigger: run.trigger,
        skipped: busy.size,
        openRuns: [...new Set(busy.values())],
      },
      'policy run skips devices where another run of the policy is still open',
    );
  }
  const { plans, approvals } = await planRun(tx, policy, free, run.trigger, now);
  const catchUp = run.trigger === 'manual' || policy.configuration.missed_patch_window === true;
  const rules = await windowRulesByGroup(tx, policy.organizationId, null);
  const openByGroup = new Map<number, { open: boolean; opensAt: Date | null }>();
  const windowOf = (groupId: number) => {
    let w = openByGroup.get(groupId);
    if (!w) {
      const list = rules.get(groupId) ?? [];
      const open = isInside(list, now);
      w = { open, opensAt: open ? null : (nextWindow(list, now)?.start ?? null) };
      openByGroup.set(groupId, w);
    }
    return w;
  };

  const superseded = await cancelSuperseded(
    tx,
    policy.id,
    free.map((d) => d.id),
    now,
  );
  const resultIds = await allocateResultIds(tx, plans.length + busy.size);
  const commandIds = await reserveCommandIds(tx, plans.length);
  const results: NewResult[] = [];
  const commands: NewCommand[] = [];
  const wake: number[] = [];
  plans.forEach((plan, i) => {
    const resultId = resultIds[i]!;
    const commandId = commandIds[i]!;
    const base = {
      id: resultId,
      runId: run.id,
      policyId: policy.id,
      organizationId: policy.organizationId,
      deviceId: plan.device.id,
      selectedPatches: plan.selected,
      createdAt: now,
    };
    if (!plan.command) {
      results.push({ ...base, status: plan.status, message: plan.message, finishedAt: now });
      return;
    }
    const carried = { commandType: plan.command.type, args: plan.command.args };
    const window = windowOf(plan.device.groupId);
    if (!window.open) {
      results.push({
        ...base,
        ...carried,
        status: 'pending',
        message: MAINTENANCE_WINDOW_TEXTS.waiting(window.opensAt),
      });
    } else if (plan.device.isOnline) {
      // The arguments travel once, on the command: a 100,000-device run would write them twice.
      results.push({
        ...base,
        commandType: plan.command.type,
        status: 'pending',
        message: plan.message,
        commandId,
        queuedAt: now,
      });
      commands.push({
        id: commandId,
        deviceId: plan.device.id,
        organizationId: policy.organizationId,
        type: plan.command.type,
        args: plan.command.args,
        createdBy: run.createdBy,
        policyResultId: resultId,
        ...commandTiming(plan.command.type, now),
      });
      wake.push(plan.device.id);
    } else if (catchUp) {
      results.push({
        ...base,
        ...carried,
        status: 'pending',
        message: RESULT_TEXTS.offline,
      });
    } else {
      results.push({
        ...base,
        ...carried,
        status: 'canceled',
        message: RESULT_TEXTS.missed,
        finishedAt: now,
      });
    }
  });
  // Skipped devices keep the standing their open run gives them.
  const skipped: NewResult[] = [...busy].map(([deviceId, openRunId], i) => ({
    id: resultIds[plans.length + i]!,
    runId: run.id,
    policyId: policy.id,
    organizationId: policy.organizationId,
    deviceId,
    selectedPatches: [],
    createdAt: now,
    status: 'canceled',
    message: `Skipped: run ${openRunId} of this policy is still open on this device.`,
    finishedAt: now,
  }));
  await insertResults(tx, [...results, ...skipped]);
  await queuePreparedCommands(tx, commands);

  // The next patch time shown per device: the slot's next run (its own timezone's for local-time policies).
  const slots = await findSlots(tx, [policy.id]);
  const nextByKey = new Map(slots.map((s) => [s.tzKey, s.nextRunAt]));
  const nextFor = (tz: string) =>
    (policy.useScheduledTimezone ? nextByKey.get(policy.scheduledTimezone) : nextByKey.get(tz)) ?? null;
  const standings = results.flatMap((r, i) => {
    const plan = plans[i]!;
    const status = r.commandType ? standingOf(r.status) : plan.standing;
    if (!status) return [];
    return [
      {
        deviceId: r.deviceId,
        policyId: policy.id,
        organizationId: policy.organizationId,
        status,
        resultId: r.id,
        resultStatus: r.status,
        runAt: now,
        nextPatchTime: nextFor(plan.device.timezone),
      },
    ];
  });
  await writeStandings(tx, standings, now);
  await upsertApprovals(tx, policy, approvals, now);

  const open = results.filter((r) => r.status === 'pending' || r.status === 'in_progress').length;
  const failed = results.filter((r) => r.status === 'error').length;
  await updateRun(tx, run.id, {
    status: open ? 'queued' : failed ? 'error' : 'completed',
    deviceCount: results.length + skipped.length,
    successCount: results.filter((r) => r.status === 'success').length,
    errorCount: failed,
    pendingCount: open,
    queuedAt: now,
    finishedAt: open ? null : now,
  });
  // One event per run, however many devices it reaches (each device's outcome is logged as it finishes).
  await logActivity(
    { db: tx, clock: ctx.clock },
    SYSTEM_ACTOR,
    policy.organizationId,
    'policy.run_dispatched',
    { type: 'policy', id: policy.id, name: policy.name },
    { run_id: run.id, trigger: run.trigger, devices: results.length, commands: commands.length },
  );
  // Last: the notes stay locked until the commit.
  await noteRunsChanged(tx, superseded);
  // The standings' compliance is recomputed after the commit (scheduler.ts dispatchCreatedRuns).
  return { wake, recompute: standings.map((s) => s.deviceId) };
}
