import type { AgentCommandArgs } from '@patchwell/core/agent/agent-protocol.schema';
import { standingOf } from '@patchwell/core/policies/policy-compliance';
import { isInside, nextWindow } from '@patchwell/core/maintenance/maintenance-windows';
import { MAINTENANCE_WINDOW_TEXTS } from '@patchwell/core/maintenance/maintenance-windows.schema';
import type { AppContext } from '../context';
import type { ResultStatus } from '../db/policies.schema';
import { runCommandsSql } from '../modules/commands/commands.service';
import { logActivity, SYSTEM_ACTOR } from '../modules/activity/activity.service';
import { windowRulesByGroup } from '../modules/maintenance-windows/maintenance-windows.service';
import {
  findCandidateDevices,
  findSlots,
  lockPolicyRunStart,
  updateRun,
  type PolicyRow,
  type RunRow,
  type Tx,
} from './engine.store';
import { installDeferralsMax, rebootOf, runNoticeOf } from './notices';
import { noteRunsChanged } from './results.store';
import {
  cancelSupersededOfRun,
  fillRunTargets,
  insertRunResults,
  runCommandsSource,
  upsertRunStandings,
  type RunExtras,
} from './run-targets.store';
import { targetsDevice } from './targets';

/** Texts of the results dispatch.ts writes, shared with it. */
export const RESULT_TEXTS = {
  nothing: 'No patches for this policy to install.',
  offline: 'The device is offline; the policy runs at its next check-in.',
  missed: 'The device was offline at the scheduled time and the policy does not catch up missed runs.',
};

/** A patch policy that installs every available patch: its plan needs nothing but the patch names. */
export function isPatchAll(policy: PolicyRow): boolean {
  return policy.type === 'patch' && policy.configuration.patch_rule === 'all';
}

/**
 * The notice and reboot arguments of the run's commands by `<mac|other>:<deferrals used>`
 * (notices.ts `addNotices` per device): they depend only on the OS being macOS and on the
 * deferrals already spent, which count the same from the maximum on.
 */
function noticeExtras(policy: PolicyRow): RunExtras {
  const config = policy.configuration;
  const max = installDeferralsMax(config);
  const extras: Record<string, AgentCommandArgs> = {};
  for (const [key, osFamily] of [
    ['mac', 'mac'],
    ['other', 'linux'],
  ] as const) {
    for (let used = 0; used <= (max ?? 0); used++) {
      const notice = runNoticeOf(config, osFamily, used);
      extras[`${key}:${used}`] = {
        ...(notice ? { notice } : {}),
        reboot: rebootOf(config, osFamily),
      } as AgentCommandArgs;
    }
  }
  return { extras, deferralsMax: Math.max(0, max ?? 0) };
}

/**
 * What a dispatch leaves to do after its commit: the devices to wake (their commands are
 * visible), and the devices whose compliance to recompute (a set-based run's standings).
 */
export type Dispatched = { wake: number[]; recompute: number[] };

/**
 * dispatch.ts's `dispatchRun` for a patch_all policy, set-based: the targets, their patch
 * names and arguments, the results, the commands and the standings are each one statement
 * over the run's `run_targets` table, with the same outcomes per device (skipped, nothing to
 * install, waiting for a maintenance window, queued, waiting for the device, missed). The
 * device filters, core's JavaScript rules, are the one step that reads devices into
 * JavaScript, and only when the policy has them on.
 */
export async function dispatchPatchAll(
  tx: Tx,
  ctx: Pick<AppContext, 'clock' | 'logger'>,
  run: RunRow,
  policy: PolicyRow,
): Promise<Dispatched> {
  const now = ctx.clock.now();
  const zoneId = policy.organizationId;
  const chosen = run.deviceIds;
  let ids = chosen;
  if (!chosen && policy.configuration.device_filters_enabled) {
    const candidates = await findCandidateDevices(tx, zoneId, { groupIds: policy.serverGroups, ids: null, now });
    ids = candidates.filter((d) => targetsDevice(policy, d)).map((d) => d.id);
  }
  const isLocalSlot = run.tzKey !== null && !policy.useScheduledTimezone;
  const extras = noticeExtras(policy);
  // Maintenance windows, decided per group once per run: the groups whose windows are all closed.
  const closedGroups = [...(await windowRulesByGroup(tx, zoneId, null))].flatMap(([groupId, list]) =>
    isInside(list, now)
      ? []
      : [{ groupId, message: MAINTENANCE_WINDOW_TEXTS.waiting(nextWindow(list, now)?.start ?? null) }],
  );
  await lockPolicyRunStart(tx, policy.id);
  const busy = await fillRunTargets(tx, {
    zoneId,
    policyId: policy.id,
    runId: run.id,
    groupIds: ids ? null : policy.serverGroups,
    ids,
    tzKey: isLocalSlot ? run.tzKey : null,
    now,
    withDeferrals: installDeferralsMax(policy.configuration) !== null,
    closedGroupIds: closedGroups.map((c) => c.groupId),
    catchUp: run.trigger === 'manual' || policy.configuration.missed_patch_window === true,
  });
  if (busy.busy) {
    ctx.logger.info(
      { runId: run.id, policyId: policy.id, trigger: run.trigger, skipped: busy.busy, openRuns: busy.openRuns },
      'policy run skips devices where another run of the policy is still open',
    );
  }

  // Results of earlier runs still waiting for these devices: this run replaces them.
  const superseded = await cancelSupersededOfRun(tx, policy.id, now);
  const counts = await insertRunResults(tx, {
    runId: run.id,
    policyId: policy.id,
    zoneId,
    now,
    closedGroups,
    texts: RESULT_TEXTS,
    extras,
    commands: runCommandsSql({
      zoneId,
      type: 'install_updates',
      createdBy: run.createdBy,
      ...runCommandsSource(extras),
      now,
    }),
  });

  const slots = await findSlots(tx, [policy.id]);
  const nextByTz = policy.useScheduledTimezone
    ? [{ tz: '*', at: slots.find((s) => s.tzKey === policy.scheduledTimezone)?.nextRunAt ?? null }]
    : slots.map((s) => ({ tz: s.tzKey, at: s.nextRunAt }));
  const standings: Partial<Record<ResultStatus, NonNullable<ReturnType<typeof standingOf>>>> = {};
  for (const status of ['pending', 'canceled', 'success'] as const) {
    const standing = standingOf(status);
    if (standing) standings[status] = standing;
  }
  const recompute = await upsertRunStandings(
    tx,
    { policyId: policy.id, zoneId, now },
    standings,
    'compliant',
    nextByTz,
  );

  await updateRun(tx, run.id, {
    status: counts.open ? 'queued' : counts.failed ? 'error' : 'completed',
    deviceCount: counts.planned + busy.busy,
    successCount: counts.success,
    errorCount: counts.failed,
    pendingCount: counts.open,
    queuedAt: now,
    finishedAt: counts.open ? null : now,
  });
  await logActivity(
    { db: tx, clock: ctx.clock },
    SYSTEM_ACTOR,
    zoneId,
    'policy.run_dispatched',
    { type: 'policy', id: policy.id, name: policy.name },
    { run_id: run.id, trigger: run.trigger, devices: counts.planned, commands: counts.commands },
  );
  // Last: the notes stay locked until the commit.
  await noteRunsChanged(tx, superseded);
  return { wake: counts.wake, recompute };
}
