/**
 * The executor's side of notices and reboots: the notice before an install or a remediation
 * (the user may defer it), and the policy's reboot behaviour after a successful one. Notices
 * are shown even without --allow-changes (they change nothing); a reboot only happens with it.
 */
import type { CommandNotice, NoticeReport, RebootReport } from '@patchwell/core/agent/agent-protocol.schema';
import { carriesNotices } from '@patchwell/core/agent/notices';
import { unavailableNotifier, deferralHint, reportOf, type Notifier } from '../notify/notifier.js';
import type { Platform } from '../platform/platform.js';
import type { AgentCommand, Patch } from '../protocol.js';
import type { ProcessRunner } from './process.js';

/** Seconds the result needs to reach the server after the reboot command, and the reboot's own least delay. */
const REBOOT_DELAY_S = 60;
/** A notice is never cut below this, even late in the command's time. */
const NOTICE_MIN_S = 30;

/** A restart the user deferred: asked again at `due_at` with `notice` (its deferrals already counted down). */
export type PendingReboot = { due_at: string; reason: string; notice: CommandNotice };

/** The executor's context as notices and reboots need it, with its process runner settled. */
export type NoticeContext = {
  platform: Platform;
  allowChanges: boolean;
  /** The latest inventory's patches (which installed ones need a reboot). */
  knownPatches?: Patch[];
  /** Keeps a restart the user deferred (see `ExecutorContext.deferReboot`). */
  deferReboot?: (pending: PendingReboot) => Promise<void>;
  now?: () => Date;
  run: ProcessRunner;
};

/** The notice to show next time: one deferral fewer, and none once they are spent. */
function countedDown(notice: CommandNotice): CommandNotice {
  const deferral = notice.deferral;
  if (!deferral) return notice;
  return { ...notice, deferral: deferral.remaining > 1 ? { ...deferral, remaining: deferral.remaining - 1 } : null };
}

/** Restarts after `delayS` (only with --allow-changes); the report says what happened. */
async function restart(ctx: NoticeContext, report: RebootReport, delayS: number): Promise<RebootReport> {
  const spec = ctx.platform.rebootCommand(delayS);
  if (!ctx.allowChanges) return { ...report, simulated: true };
  const out = await ctx.run(spec, { timeoutMs: 30_000 });
  if (out.spawnError || out.exitCode !== 0) {
    const error = (out.spawnError ?? out.stderr.trim()) || `exit ${out.exitCode}`;
    return {
      outcome: 'none',
      reason: `${report.reason}, but the restart failed: ${error}`,
      ...(report.notice ? { notice: report.notice } : {}),
    };
  }
  return report;
}

function notifierOf(platform: Platform): Notifier {
  return platform.notifier ?? unavailableNotifier;
}

/**
 * Shows a notice and turns the answer into the report. `budgetS` bounds how long it stays
 * up: the server times the command out, notice included (a notice may ask for 480 minutes
 * while a script's command lasts 15).
 */
export async function showNotice(
  platform: Platform,
  notice: CommandNotice,
  budgetS: number,
  proceedLabel: string,
): Promise<NoticeReport> {
  const periodsH = notice.deferral?.periods_h ?? [];
  const answer = await notifierOf(platform).show({
    message: `${notice.message}${deferralHint(notice.deferral)}`,
    timeoutS: Math.max(NOTICE_MIN_S, Math.min(notice.timeout_min * 60, Math.floor(budgetS))),
    periodsH,
    proceedLabel,
  });
  return reportOf(answer, notice.deferral);
}

/**
 * The notice before the run, within `budgetS` (half the command's time as the executor counts
 * it); undefined when the command carries none.
 */
export async function noticeBeforeRun(
  cmd: AgentCommand,
  ctx: NoticeContext,
  budgetS: number,
): Promise<NoticeReport | undefined> {
  if (!cmd.args.notice || !carriesNotices(cmd)) return undefined;
  return showNotice(ctx.platform, cmd.args.notice, budgetS, 'Install now');
}

/** Whether the machine needs a reboot after installing `names` (the OS says so, or one of them asks for it). */
async function needsReboot(cmd: AgentCommand, ctx: NoticeContext): Promise<string | null> {
  if ((await ctx.platform.status()).needs_reboot) return 'the system reports a pending restart';
  const names = new Set(cmd.args.names ?? []);
  const asking = (ctx.knownPatches ?? []).find(
    (p) => p.reboot_required && (names.has(p.name) || (p.kb && names.has(p.kb))),
  );
  return asking ? `${asking.name} needs a restart` : null;
}

/**
 * After a successful run: `auto` reboots, `when_needed` reboots when needed, `notify` shows
 * the pending-reboot notice when needed. A reboot notice with a deferral lets the user push
 * the reboot back by one period, as many times as the policy allows: the service keeps the
 * deferred restart and asks again when it is due ({@link rebootWhenDue}); without the service
 * the OS schedules it. `remainingS` is the command's time left.
 */
export async function rebootAfterRun(
  cmd: AgentCommand,
  ctx: NoticeContext,
  remainingS: number,
): Promise<RebootReport | undefined> {
  const reboot = cmd.args.reboot;
  if (!reboot || !carriesNotices(cmd)) return undefined;
  const why = reboot.mode === 'auto' ? 'the policy restarts after every run' : await needsReboot(cmd, ctx);
  if (!why) return { outcome: 'none', reason: 'nothing needs a restart' };
  const budgetS = remainingS - REBOOT_DELAY_S;
  if (reboot.mode === 'notify') {
    if (!reboot.notice) return { outcome: 'none', reason: `${why}; the policy does not restart` };
    const notice = await showNotice(ctx.platform, { ...reboot.notice, deferral: null }, budgetS, 'OK');
    return { outcome: notice.shown ? 'notified' : 'none', reason: why, notice };
  }
  const notice = reboot.notice ? await showNotice(ctx.platform, reboot.notice, budgetS, 'Restart now') : undefined;
  const deferred = notice?.choice === 'defer' && notice.defer_h ? notice.defer_h * 3600 : null;
  const delayS = deferred ?? REBOOT_DELAY_S;
  const report: RebootReport = {
    outcome: deferred ? 'scheduled' : 'rebooting',
    delay_s: delayS,
    reason: why,
    ...(notice ? { notice } : {}),
  };
  if (deferred && reboot.notice && ctx.deferReboot) {
    // The service asks again when the deferral ends, with one deferral fewer.
    const now = ctx.now?.() ?? new Date();
    await ctx.deferReboot({
      due_at: new Date(now.getTime() + deferred * 1000).toISOString(),
      reason: why,
      notice: countedDown(reboot.notice),
    });
    return report;
  }
  return restart(ctx, report, delayS);
}

/**
 * A deferred restart that is due: the notice again (with the deferrals left), then either a
 * further deferral (returned, to be kept) or the restart. A notice nobody can see restarts.
 */
export async function rebootWhenDue(
  pending: PendingReboot,
  ctx: NoticeContext,
): Promise<{ next: PendingReboot | null; report: RebootReport }> {
  const notice = await showNotice(ctx.platform, pending.notice, pending.notice.timeout_min * 60, 'Restart now');
  if (notice.choice === 'defer' && notice.defer_h && pending.notice.deferral) {
    const now = ctx.now?.() ?? new Date();
    const next = {
      due_at: new Date(now.getTime() + notice.defer_h * 3600_000).toISOString(),
      reason: pending.reason,
      notice: countedDown(pending.notice),
    };
    return { next, report: { outcome: 'scheduled', delay_s: notice.defer_h * 3600, reason: pending.reason, notice } };
  }
  const report: RebootReport = { outcome: 'rebooting', delay_s: REBOOT_DELAY_S, reason: pending.reason, notice };
  return { next: null, report: await restart(ctx, report, REBOOT_DELAY_S) };
}
