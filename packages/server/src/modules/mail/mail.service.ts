import type { OutboxMessage, OutboxPage, OutboxQuery } from '@patchwell/core/mail/outbox.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { requireAccount } from '../zones/zone-access.service';
import { insertMessage, listMessages, recordDelivery, type OutboxRow } from './outbox.store';

/** A message to send: who gets it, and which account it belongs to (whose administrators may read the outbox). */
export type OutgoingMail = {
  accountId: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/** What became of a message: sent through SMTP, waiting in the outbox (no relay), or failed. */
export type MailOutcome = { outboxId: number; state: 'sent' | 'queued' | 'failed' };

/** Shortest useful form of a relay's error: the first line, without any credentials it might echo. */
function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? '').replace(/\/\/[^@/\s]*@/g, '//[redacted]@').slice(0, 500) || 'unknown error';
}

/**
 * Records the message in the outbox, then hands it to the SMTP relay when one is configured
 * (`SMTP_URL`) and records the outcome (`sent_at`, or `error`). A failure to send is logged
 * and recorded, never thrown: the action that sent the mail (an invitation) stands, and a
 * global administrator finds the message in the outbox. Log lines carry ids only, never the
 * body, which may hold an invitation's link.
 */
export async function sendMail(ctx: AppContext, mail: OutgoingMail): Promise<MailOutcome> {
  const row = await insertMessage(ctx.db, {
    accountId: mail.accountId,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    createdAt: ctx.clock.now(),
  });
  const meta = { outboxId: row.id, accountId: mail.accountId };
  if (!ctx.mailer) {
    ctx.logger.info(meta, 'mail: no SMTP relay configured (SMTP_URL); the message waits in the outbox');
    return { outboxId: row.id, state: 'queued' };
  }
  try {
    await ctx.mailer.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    await recordDelivery(ctx.db, row.id, { sentAt: ctx.clock.now() });
    ctx.logger.info(meta, 'mail: sent');
    return { outboxId: row.id, state: 'sent' };
  } catch (err) {
    const error = describeError(err);
    await recordDelivery(ctx.db, row.id, { error });
    ctx.logger.warn({ ...meta, error }, 'mail: sending failed; the message stays in the outbox');
    return { outboxId: row.id, state: 'failed' };
  }
}

function toMessage(row: OutboxRow): OutboxMessage {
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    error: row.error,
  };
}

/**
 * A page of the account's outbox, latest first (`GET /api/accounts/{accountId}/outbox`).
 * @throws AppError 404 for another account, 403 for a user of the account who is not its global administrator.
 */
export async function listOutbox(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  query: OutboxQuery,
): Promise<OutboxPage> {
  requireAccount(authz, accountId, 'Account', 'read');
  const { rows, total } = await listMessages(ctx.db, accountId, {
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: rows.map(toMessage), size: total, page: query.page, limit: query.limit };
}
