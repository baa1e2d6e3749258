/**
 * How simulated users answer notices: servers have nobody signed in (not shown), and on
 * workstations most people go ahead, some defer and a few let the notice time out. Windows'
 * question box has only Yes and No (notify/windows.ts), so a deferral there is the longest one. The answers go through the agent's own `reportOf`, so the
 * timeout and auto-deferral rules are the real ones.
 */
import type { CommandNotice, NoticeReport, RebootReport } from '@patchwell/core/agent/agent-protocol.schema';
import { reportOf, type NoticeAnswer } from '../notify/notifier.js';
import type { AgentCommand } from '../protocol.js';
import type { SimMachine } from './inventory.js';
import type { Rng } from './rng.js';

/** Shares of answers on a workstation with a deferral offered. */
const DEFER_SHARE = 0.12;
const TIMEOUT_SHARE = 0.08;

export function answerNotice(rng: Rng, machine: SimMachine, notice: CommandNotice): NoticeReport {
  const periods = notice.deferral?.periods_h ?? [];
  let answer: NoticeAnswer;
  if (!machine.system.logged_in_user) {
    answer = { shown: false, reason: 'no signed-in user' };
  } else {
    const roll = rng.next();
    const windows = machine.system.os_family === 'windows';
    if (periods.length && roll < DEFER_SHARE) {
      answer = { shown: true, answer: 'defer', deferH: windows ? Math.max(...periods) : rng.pick(periods) };
    } else if (roll < DEFER_SHARE + TIMEOUT_SHARE) answer = { shown: true, answer: 'timeout' };
    else answer = { shown: true, answer: 'proceed' };
  }
  return reportOf(answer, notice.deferral);
}

/** The notice before a run, when the command carries one. */
export function noticeBefore(rng: Rng, machine: SimMachine, cmd: AgentCommand): NoticeReport | undefined {
  return cmd.args.notice ? answerNotice(rng, machine, cmd.args.notice) : undefined;
}

/** The reboot after a successful run (the machine's `needsReboot` already reflects it). */
export function rebootAfter(rng: Rng, machine: SimMachine, cmd: AgentCommand): RebootReport | undefined {
  const reboot = cmd.args.reboot;
  if (!reboot) return undefined;
  if (reboot.mode !== 'auto' && !machine.needsReboot) return { outcome: 'none', reason: 'nothing needs a restart' };
  const reason = reboot.mode === 'auto' ? 'the policy restarts after every run' : 'an installed update needs a restart';
  const notice = reboot.notice ? answerNotice(rng, machine, reboot.notice) : undefined;
  const withNotice = notice ? { notice } : {};
  if (reboot.mode === 'notify') return { outcome: notice?.shown ? 'notified' : 'none', reason, ...withNotice };
  if (notice?.choice === 'defer' && notice.defer_h) {
    return { outcome: 'scheduled', delay_s: notice.defer_h * 3600, reason, ...withNotice };
  }
  return { outcome: 'rebooting', delay_s: 60, reason, ...withNotice };
}
