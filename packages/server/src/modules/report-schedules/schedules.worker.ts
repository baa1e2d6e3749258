import { nextDueAt } from '@patchwell/core/reports/schedule-due';
import type { AppContext } from '../../context';
import { sendMail } from '../mail/mail.service';
import { findZone } from '../zones/zones.store';
import { buildReportContent, dueScheduleOf, reportMailNames } from './report-mail';
import {
  claimSend,
  failAbandonedSends,
  findSend,
  finishSend,
  insertSend,
  lockDueSchedules,
  saveSendContent,
  setNextDue,
  type ClaimedSend,
  type SendRow,
} from './schedules.store';

/**
 * The scheduled reports' worker: every node runs it (schedules.jobs.ts). A tick has two
 * steps, each safe on any number of nodes at once, as the policy engine's slots are:
 * 1. Due schedules are locked `FOR UPDATE SKIP LOCKED`; each gets a send row for its due
 *    time, whose unique `(schedule_id, due_at)` is the exactly-once guarantee, and its next
 *    due time, in one transaction. A node down for days owes one mail, not one per day missed.
 * 2. Sends are claimed one at a time (`SKIP LOCKED`, `attempts` as a fencing token): the CSV
 *    is built as of the due time and kept on the send, then mailed through the mail module.
 *    A relay failure is tried again after {@link RETRY_DELAYS_MS} up to {@link SEND_MAX_ATTEMPTS}.
 */

/** Schedules claimed per transaction. */
const DUE_BATCH = 50;
/** Claims of one send before its failure is final. */
export const SEND_MAX_ATTEMPTS = 3;
/** Waits before the 2nd and 3rd attempt. */
export const RETRY_DELAYS_MS = [60_000, 10 * 60_000] as const;
/** A send claimed this long ago without an outcome was abandoned by its node; it is claimed again. */
export const SEND_STALE_MS = 10 * 60_000;

export const NO_RELAY_MESSAGE = 'No SMTP relay is configured (SMTP_URL): the mail waits in the outbox.';
const BUILD_FAILED_MESSAGE = 'The report could not be built.';
const ABANDONED_MESSAGE = 'The server sending this report stopped before it finished.';

type Ctx = AppContext;

/** Step 1: a send row for every due time come, and each schedule's next due time. Returns the sends created. */
export async function claimDueSchedules(ctx: Ctx): Promise<number> {
  let created = 0;
  for (;;) {
    const now = ctx.clock.now();
    const claimed = await ctx.db.transaction(async (tx) => {
      const due = await lockDueSchedules(tx, now, DUE_BATCH);
      for (const schedule of due) {
        const send = await insertSend(tx, {
          scheduleId: schedule.id,
          organizationId: schedule.organizationId,
          dueAt: schedule.nextDueAt!,
          manual: false,
          createdAt: now,
        });
        if (send) created += 1;
        await setNextDue(tx, schedule.id, nextDueAt(dueScheduleOf(schedule), now));
      }
      return due.length;
    });
    if (claimed < DUE_BATCH) return created;
  }
}

/** Builds (once) and mails one claimed send; records the outcome under its claim. */
async function deliver(ctx: Ctx, send: ClaimedSend): Promise<void> {
  const claim = { id: send.id, attempts: send.attempts, scheduleId: send.scheduleId };
  const { schedule } = send;
  const zone = await findZone(ctx.db, send.organizationId);
  if (!zone) return;
  // A retry attaches the CSV built for the first attempt: the report as of its due time.
  let content = send.csv !== null && send.summary !== null ? { csv: send.csv, summary: send.summary } : null;
  if (!content) {
    try {
      const built = await buildReportContent(ctx, schedule, zone, send.dueAt);
      content = { csv: built.csv, summary: built.summary };
      if (!(await saveSendContent(ctx.db, claim, built))) return;
    } catch (err) {
      ctx.logger.error({ err, send: send.id, schedule: schedule.id }, 'scheduled report: building failed');
      await finishSend(ctx.db, claim, {
        status: 'failed',
        at: ctx.clock.now(),
        error: BUILD_FAILED_MESSAGE,
        retryAt: retryAt(ctx, send.attempts),
        outboxId: null,
      });
      return;
    }
  }
  const names = reportMailNames(schedule, zone, send.dueAt);
  const outcome = await sendMail(ctx, {
    accountId: zone.accountId,
    to: schedule.recipients,
    subject: names.subject,
    text: content.summary,
    attachments: [{ filename: names.filename, contentType: 'text/csv; charset=utf-8', content: content.csv }],
  });
  const error =
    outcome.state === 'failed'
      ? (outcome.error ?? 'unknown error')
      : outcome.state === 'queued'
        ? NO_RELAY_MESSAGE
        : null;
  await finishSend(ctx.db, claim, {
    status: outcome.state,
    at: ctx.clock.now(),
    error,
    retryAt: outcome.state === 'failed' ? retryAt(ctx, send.attempts) : null,
    outboxId: outcome.outboxId,
  });
  ctx.logger.info({ send: send.id, schedule: schedule.id, state: outcome.state }, 'scheduled report mailed');
}

/** When a failed attempt is tried again, or null when it was the last. */
function retryAt(ctx: Ctx, attempts: number): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return attempts < SEND_MAX_ATTEMPTS && delay !== undefined ? new Date(ctx.clock.now().getTime() + delay) : null;
}

function claimOptions(ctx: Ctx, onlyId?: number) {
  const now = ctx.clock.now();
  return { now, staleBefore: new Date(now.getTime() - SEND_STALE_MS), maxAttempts: SEND_MAX_ATTEMPTS, onlyId };
}

/** Step 2: mails claimable sends one after another until none is left (or `signal` aborts). */
export async function deliverSends(ctx: Ctx, options: { signal?: AbortSignal } = {}): Promise<number[]> {
  const done: number[] = [];
  while (!options.signal?.aborted) {
    const send = await claimSend(ctx.db, claimOptions(ctx));
    if (!send) break;
    await deliver(ctx, send);
    done.push(send.id);
  }
  return done;
}

/** Mails one send at once ("Send now"); its row afterwards, or undefined when another node has it. */
export async function deliverSend(ctx: Ctx, id: number): Promise<SendRow | undefined> {
  const send = await claimSend(ctx.db, claimOptions(ctx, id));
  if (!send) return undefined;
  await deliver(ctx, send);
  return findSend(ctx.db, id);
}

/** One tick of the worker: due times claimed, then sends mailed. */
export async function runReportSchedules(ctx: Ctx, options: { signal?: AbortSignal } = {}) {
  const created = await claimDueSchedules(ctx);
  const sent = await deliverSends(ctx, options);
  const { staleBefore, maxAttempts } = claimOptions(ctx);
  const abandoned = await failAbandonedSends(ctx.db, staleBefore, maxAttempts, ABANDONED_MESSAGE);
  return { created, sent, abandoned };
}
