import type { OutboxMessage, OutboxPage, OutboxQuery } from '@patchwell/core/mail/outbox.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { requireAccount } from '../zones/zone-access.service';
import { insertMessage, listMessages, recordDelivery, type OutboxRow } from './outbox.store';

/** A message to send: who gets it, and which account it belongs to (whose administrators may read the outbox). */
export type OutgoingMail = {
  accountId: number | null;
  /** One address, or several (one message to all of them). */
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Files attached; the outbox records their names and sizes, the caller keeps the contents. */
  attachments?: MailAttachment[];
  /**
   * What in the message opens something for its recipient alone (a reset or unlock link's
   * token, a sign-in code): sent, but withheld from the outbox, which the account's global
   * administrators read (an invitation's link is not: handing it over is what the outbox is for).
   */
  secrets?: string[];
};

/** What the outbox shows in place of a secret. */
export const WITHHELD = '[withheld from the outbox]';

const withhold = (body: string, secrets: string[]) =>
  secrets.reduce((text, secret) => (secret ? text.split(secret).join(WITHHELD) : text), body);

export type MailAttachment = { filename: string; contentType: string; content: string };

/** What became of a message: sent through SMTP, waiting in the outbox (no relay), or failed (with the relay's error). */
export type MailOutcome = { outboxId: number; state: 'sent' | 'queued' | 'failed'; error?: string };

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
  const to = Array.isArray(mail.to) ? mail.to.join(', ') : mail.to;
  const attachments = mail.attachments ?? [];
  const secrets = mail.secrets ?? [];
  const row = await insertMessage(ctx.db, {
    accountId: mail.accountId,
    to,
    subject: mail.subject,
    text: withhold(mail.text, secrets),
    html: mail.html === undefined ? null : withhold(mail.html, secrets),
    attachments: attachments.length
      ? attachments.map((a) => ({
          filename: a.filename,
          content_type: a.contentType,
          size: Buffer.byteLength(a.content),
        }))
      : null,
    createdAt: ctx.clock.now(),
  });
  const meta = { outboxId: row.id, accountId: mail.accountId };
  if (!ctx.mailer) {
    ctx.logger.info(meta, 'mail: no SMTP relay configured (SMTP_URL); the message waits in the outbox');
    return { outboxId: row.id, state: 'queued' };
  }
  try {
    await ctx.mailer.sendMail({
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
    });
    await recordDelivery(ctx.db, row.id, { sentAt: ctx.clock.now() });
    ctx.logger.info(meta, 'mail: sent');
    return { outboxId: row.id, state: 'sent' };
  } catch (err) {
    const error = describeError(err);
    await recordDelivery(ctx.db, row.id, { error });
    ctx.logger.warn({ ...meta, error }, 'mail: sending failed; the message stays in the outbox');
    return { outboxId: row.id, state: 'failed', error };
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
