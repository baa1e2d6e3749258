/**
 * Notices to the signed-in user (a policy's "notify before patching / before reboot"). Each
 * OS has its own way to reach the user's session (notify/linux.ts, mac.ts, windows.ts), behind
 * one small interface, so the executor and its tests see only `Notifier`.
 */
import type { NoticeDeferral, NoticeReport } from '@patchwell/core/agent/agent-protocol.schema';

/** A notice to show: the text, how long to wait for an answer, and the deferral options. */
export type NoticeRequest = {
  message: string;
  /** The dialog's title where the system shows one (default "Patchwell"). */
  title?: string;
  /** Seconds to wait for an answer before the notice counts as unanswered. */
  timeoutS: number;
  /** Deferral hours offered; empty for an informative notice. */
  periodsH: number[];
  /** Label of the button that goes ahead ("Install now", "Restart now"). */
  proceedLabel: string;
  /**
   * Label of a second button that refuses ("Deny" of a consent), answered `decline`. Without
   * it a notice with no deferral has one button, and closing it goes ahead.
   */
  declineLabel?: string;
  /**
   * Only a real answer counts (a consent): no bubble or `wall` that goes ahead unanswered;
   * without a dialog the notice is not shown.
   */
  requireChoice?: boolean;
  /** Takes the notice away (its dialog is closed) when aborted: a notice about something that ended. */
  signal?: AbortSignal;
};

/** What the user's session made of a notice, before the policy's timeout rule is applied. */
export type NoticeAnswer =
  | { shown: false; reason: string }
  | {
      shown: true;
      answer: 'proceed' | 'defer' | 'timeout' | 'decline';
      deferH?: number;
      /** Shown, but no choice could be offered (why). */
      note?: string;
    };

export type Notifier = {
  /** Shows the notice; never throws (a failure is `shown: false` with the reason). */
  show(request: NoticeRequest): Promise<NoticeAnswer>;
};

/** Used when the platform has no way to reach a user (and by tests that expect none). */
export const unavailableNotifier: Notifier = {
  show: async () => ({ shown: false, reason: 'this platform cannot show notices' }),
};

/** The label of a deferral button, and back. */
export const deferLabel = (hours: number) => `Defer ${hours} h`;
export function hoursOfLabel(label: string): number | null {
  const m = /defer (\d{1,2}) h/i.exec(label.trim());
  return m ? Number(m[1]) : null;
}

/**
 * The report sent to the server: an unanswered notice defers by the longest period when the
 * policy says so (`auto_defer`) and otherwise goes ahead; a deferral is only ever one that
 * was offered.
 */
export function reportOf(answer: NoticeAnswer, deferral: NoticeDeferral | null | undefined): NoticeReport {
  if (!answer.shown) return { shown: false, reason: answer.reason };
  const periods = deferral?.periods_h ?? [];
  const longest = periods.length ? Math.max(...periods) : null;
  const note = answer.note ? { reason: answer.note } : {};
  if (answer.answer === 'timeout') {
    if (deferral?.auto_defer && longest !== null) {
      return { shown: true, ...note, choice: 'defer', defer_h: longest, timed_out: true };
    }
    return { shown: true, ...note, choice: 'proceed', timed_out: true };
  }
  // A policy's notice offers no refusal; one that came back refused counts as a deferral.
  if ((answer.answer === 'defer' || answer.answer === 'decline') && longest !== null) {
    const hours = answer.deferH !== undefined && periods.includes(answer.deferH) ? answer.deferH : longest;
    return { shown: true, ...note, choice: 'defer', defer_h: hours };
  }
  return { shown: true, ...note, choice: 'proceed' };
}

/** The output of a run the notice deferred: nothing runs, the server queues the command again. */
export function deferredRunText(hours: NoticeReport['defer_h'], automatic = false): string {
  return `${automatic ? 'Deferred automatically (the notice was not answered)' : 'Deferred by the user'} for ${hours} h; nothing was run.\n`;
}

/** The deferral text appended to a notice ("You can defer 2 more times."). */
export function deferralHint(deferral: NoticeDeferral | null | undefined): string {
  if (!deferral) return '';
  return deferral.remaining === 1 ? ' You can defer once more.' : ` You can defer ${deferral.remaining} more times.`;
}
