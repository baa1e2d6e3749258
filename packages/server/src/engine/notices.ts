import type {
  AgentCommandArgs,
  CommandNotice,
  CommandReboot,
  CommandResultBody,
  NoticeReport,
  RebootReport,
} from '@patchwell/core/agent/agent-protocol.schema';
import {
  DEFERRAL_HOURS_DEFAULT,
  MAX_DEFERRALS_DEFAULT,
  NOTICE_TIMEOUT_MIN,
  rebootModeOf,
  type RebootMode,
} from '@patchwell/core/policies/policy-configuration.schema';
import { carriesNotices } from '@patchwell/core/agent/notices';
import type { PolicyRow, Tx } from './engine.store';
import type { DevicePlan } from './plan-types';
import { findDeferralsUsed } from './notices.store';

/**
 * User notices, deferrals and reboots: a policy's notification fields (core
 * policy-configuration.schema.ts) become the `notice` and `reboot` arguments of the
 * commands that carry it out, and the agent's answer (`notice.choice: 'defer'`) becomes a
 * deferred result that the catch-up queues again later (results.ts).
 */

/** Texts used when the policy sets none. */
export const NOTICE_DEFAULTS = {
  patch: 'Patchwell will install updates on this computer now. Please save your work.',
  reboot: 'This computer will restart after the updates are installed.',
  pendingReboot: 'Updates were installed. This computer will restart to finish installing them.',
  pendingRebootNotify: 'Updates were installed. Restart this computer soon to finish installing them.',
} as const;

/** The fields notices read (patch and worklet configurations, as stored with core's defaults). */
type NoticeConfig = {
  notify_user?: boolean | null;
  custom_notification_patch_message?: string | null;
  custom_notification_patch_message_mac?: string | null;
  install_deferral_enabled?: boolean | null;
  custom_notification_max_delays?: number | null;
  custom_notification_deferment_periods?: number[] | null;
  notify_user_message_timeout?: number | null;
  notify_user_auto_deferral_enabled?: boolean | null;
  reboot_mode?: RebootMode | null;
  auto_reboot?: boolean | null;
  notify_reboot_user?: boolean | null;
  notify_deferred_reboot_user?: boolean | null;
  custom_notification_reboot_message?: string | null;
  custom_notification_reboot_message_mac?: string | null;
  custom_pending_reboot_notification_message?: string | null;
  custom_pending_reboot_notification_message_mac?: string | null;
  pending_reboot_deferral_enabled?: boolean | null;
  custom_pending_reboot_notification_max_delays?: number | null;
  custom_pending_reboot_notification_deferment_periods?: number[] | null;
  notify_deferred_reboot_user_message_timeout?: number | null;
  notify_deferred_reboot_user_auto_deferral_enabled?: boolean | null;
};

/** The device's variant of a message: the `_mac` one on macOS when set, else the other, else the default. */
function textFor(osFamily: string, text: string | null | undefined, mac: string | null | undefined, fallback: string) {
  const chosen = osFamily === 'mac' ? mac?.trim() || text?.trim() : text?.trim();
  return chosen || fallback;
}

export function installDeferralsMax(config: NoticeConfig): number | null {
  return config.notify_user && config.install_deferral_enabled
    ? (config.custom_notification_max_delays ?? MAX_DEFERRALS_DEFAULT)
    : null;
}

/**
 * The notice shown before the run: the patch notice (`notify_user`, with its deferral) and/or
 * the line saying a reboot will follow (`notify_reboot_user`); null when neither is asked for.
 * `used` is the deferrals this device already spent on the run.
 */
export function runNoticeOf(config: NoticeConfig, osFamily: string, used: number): CommandNotice | null {
  const lines: string[] = [];
  if (config.notify_user) {
    lines.push(
      textFor(
        osFamily,
        config.custom_notification_patch_message,
        config.custom_notification_patch_message_mac,
        NOTICE_DEFAULTS.patch,
      ),
    );
  }
  if (config.notify_reboot_user) {
    lines.push(
      textFor(
        osFamily,
        config.custom_notification_reboot_message,
        config.custom_notification_reboot_message_mac,
        NOTICE_DEFAULTS.reboot,
      ),
    );
  }
  if (!lines.length) return null;
  const max = installDeferralsMax(config);
  const remaining = max === null ? 0 : max - used;
  return {
    message: lines.join(' '),
    timeout_min: config.notify_user_message_timeout ?? NOTICE_TIMEOUT_MIN,
    deferral:
      remaining > 0
        ? {
            periods_h: config.custom_notification_deferment_periods ?? DEFERRAL_HOURS_DEFAULT,
            remaining,
            max: max!,
            auto_defer: config.notify_user_auto_deferral_enabled ?? false,
          }
        : null,
  };
}

/**
 * The reboot behaviour after the run. `notify` shows the pending-reboot notice instead of
 * rebooting; `auto` and `when_needed` show it first only when the policy asks
 * (`notify_deferred_reboot_user`), with its deferral. The agent counts a deferred restart's
 * deferrals down itself (it keeps the restart and asks again), so `remaining` starts at the maximum.
 */
export function rebootOf(config: NoticeConfig, osFamily: string): CommandReboot {
  const mode = rebootModeOf(config);
  const timeout_min = config.notify_deferred_reboot_user_message_timeout ?? NOTICE_TIMEOUT_MIN;
  const text = (fallback: string) =>
    textFor(
      osFamily,
      config.custom_pending_reboot_notification_message,
      config.custom_pending_reboot_notification_message_mac,
      fallback,
    );
  if (mode === 'notify') {
    return { mode, notice: { message: text(NOTICE_DEFAULTS.pendingRebootNotify), timeout_min, deferral: null } };
  }
  if (!config.notify_deferred_reboot_user) return { mode, notice: null };
  const max = config.custom_pending_reboot_notification_max_delays ?? MAX_DEFERRALS_DEFAULT;
  return {
    mode,
    notice: {
      message: text(NOTICE_DEFAULTS.pendingReboot),
      timeout_min,
      deferral: config.pending_reboot_deferral_enabled
        ? {
            periods_h: config.custom_pending_reboot_notification_deferment_periods ?? DEFERRAL_HOURS_DEFAULT,
            remaining: max,
            max,
            auto_defer: config.notify_deferred_reboot_user_auto_deferral_enabled ?? false,
          }
        : null,
    },
  };
}

/**
 * Adds `notice` and `reboot` to the planned commands of a patch or worklet policy. Deferrals
 * a device spent on a still-waiting result of this policy carry over to the new run (that
 * result is superseded by it), so a new run does not reset the count.
 */
export async function addNotices(tx: Tx, policy: PolicyRow, plans: DevicePlan[]): Promise<void> {
  if (policy.type !== 'patch' && policy.type !== 'custom') return;
  const config = policy.configuration as NoticeConfig;
  const planned = plans.filter((p) => p.command !== null && carriesNotices(p.command));
  if (!planned.length) return;
  const used =
    installDeferralsMax(config) === null
      ? new Map<number, number>()
      : await findDeferralsUsed(
          tx,
          policy.id,
          planned.map((p) => p.device.id),
        );
  for (const plan of planned) {
    const args: AgentCommandArgs = plan.command!.args;
    const notice = runNoticeOf(config, plan.device.osFamily, used.get(plan.device.id) ?? 0);
    if (notice) args.notice = notice;
    args.reboot = rebootOf(config, plan.device.osFamily);
  }
}

/** A deferral to record: the result's new arguments, when it runs again, and its message. */
export type Deferral = {
  args: AgentCommandArgs;
  deferredUntil: Date;
  deferralsUsed: number;
  message: string;
};

/**
 * The deferral an agent's answer asks for, or null when the command offered none (then the
 * answer is not honoured). The hours are one of the offered periods (the longest otherwise);
 * the next notice offers one deferral fewer, and none once they are spent.
 */
export function deferralOf(args: AgentCommandArgs, report: NoticeReport, now: Date): Deferral | null {
  const offered = args.notice?.deferral;
  if (!args.notice || !offered || report.choice !== 'defer') return null;
  const hours = offered.periods_h.includes(report.defer_h ?? 0) ? report.defer_h! : Math.max(...offered.periods_h);
  const max = offered.max ?? offered.remaining;
  const used = max - offered.remaining + 1;
  const remaining = offered.remaining - 1;
  const how = report.timed_out
    ? `Deferred automatically for ${hours} h: the notice was not answered`
    : `Deferred by the user for ${hours} h`;
  return {
    args: { ...args, notice: { ...args.notice, deferral: remaining > 0 ? { ...offered, remaining } : null } },
    deferredUntil: new Date(now.getTime() + hours * 3_600_000),
    deferralsUsed: used,
    message: `${how} (${used} of ${max} deferrals).`,
  };
}

function noticeText(report: NoticeReport, what: string): string {
  if (!report.shown) return `${what} not shown: ${report.reason ?? 'unknown reason'}.`;
  if (report.timed_out) return `${what} not answered in time.`;
  if (report.reason) return `${what} shown (${report.reason}).`;
  return `${what} shown${report.choice === 'proceed' ? '; the user went ahead' : ''}.`;
}

function rebootText(report: RebootReport): string {
  const delay = report.delay_s ?? 0;
  const when = delay >= 3600 ? `${Math.round(delay / 3600)} h` : `${Math.max(1, Math.round(delay / 60))} min`;
  const parts: string[] = [];
  if (report.notice) parts.push(noticeText(report.notice, 'Restart notice'));
  switch (report.outcome) {
    case 'rebooting':
      parts.push(report.simulated ? `Would restart in ${when} (no --allow-changes).` : `Restarting in ${when}.`);
      break;
    case 'scheduled':
      parts.push(
        report.simulated
          ? `Would restart in ${when}, as the user deferred (no --allow-changes).`
          : `Restart deferred by the user: in ${when}.`,
      );
      break;
    case 'notified':
      parts.push('The user was told a restart is pending.');
      break;
    case 'none':
      if (report.reason) parts.push(`No restart: ${report.reason}.`);
      break;
  }
  return parts.join(' ');
}

/** What a result's notice and reboot reports add to its message (null: nothing to add). */
export function outcomeMessage(result: Pick<CommandResultBody, 'notice' | 'reboot'>): string | null {
  const parts: string[] = [];
  if (result.notice) parts.push(noticeText(result.notice, 'Notice'));
  if (result.reboot) parts.push(rebootText(result.reboot));
  const text = parts.filter(Boolean).join(' ');
  return text || null;
}
