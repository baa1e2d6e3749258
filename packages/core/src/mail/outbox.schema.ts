import { z } from 'zod';
import { ZPaging } from '../paging.schema';

/** Payloads of `GET /api/accounts/{accountId}/outbox` (docs/api/zones-users-contract.md, "Mail"). */

/** Paging of the outbox: zero-based pages (spec A section 9). */
export const ZOutboxQuery = ZPaging;
export type OutboxQuery = z.infer<typeof ZOutboxQuery>;

/** One outgoing message, as recorded. */
export const ZOutboxMessage = z.object({
  /** Message id. */
  id: z.number().int(),
  /** Recipient address. */
  to: z.string(),
  /** Subject line. */
  subject: z.string(),
  /** Plain-text body (an invitation's link included, so only global administrators read it). */
  text: z.string(),
  /** HTML body, when there is one. */
  html: z.string().nullable(),
  /** When the message was recorded (ISO 8601). */
  created_at: z.string(),
  /** When the SMTP relay accepted it (ISO 8601); null while it waits in the outbox. */
  sent_at: z.string().nullable(),
  /** Why sending failed, when it did; null otherwise. */
  error: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof ZOutboxMessage>;

/** A page of the outbox, latest message first. */
export const ZOutboxPage = z.object({
  /** The messages of this page. */
  data: z.array(ZOutboxMessage),
  /** Messages in the whole outbox of the account. */
  size: z.number().int(),
  /** This page's number (zero-based). */
  page: z.number().int(),
  /** Page size used. */
  limit: z.number().int(),
});
export type OutboxPage = z.infer<typeof ZOutboxPage>;
