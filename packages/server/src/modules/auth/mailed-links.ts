import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { sendMail, type OutgoingMail } from '../mail/mail.service';
import { sha256Hex } from '../../domain/sha256';

/** Who asks, from where; `linkOrigin` null: no link can be mailed safely (http/link-origin.ts). */
export type LinkClient = { ip: string; linkOrigin: string | null };

/** A new link token and its stored form (sha256: the table alone opens nothing). */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: linkTokenHash(token) };
}

export const linkTokenHash = (token: string) => sha256Hex(token);

/** A console page's link with the token, under a trusted origin (http/link-origin.ts). */
export const consoleLink = (origin: string, page: string, token: string) =>
  `${origin}/console/${page}?token=${encodeURIComponent(token)}`;

/**
 * Sends a mail without making the request wait for the relay: an SMTP round trip would tell
 * a caller which addresses have accounts (the answer must take as long either way). The
 * message is in the outbox either way; failures are logged and recorded there.
 */
export function sendMailInBackground(ctx: AppContext, mail: OutgoingMail, what: string): void {
  void sendMail(ctx, mail).then(
    ({ outboxId, state }) => ctx.logger.info({ outboxId, state }, `${what} mailed`),
    (err: unknown) => ctx.logger.warn({ err }, `${what}: the mail could not be queued`),
  );
}
