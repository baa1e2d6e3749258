import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import type { Mailer } from '../../context';

/** A relay that does not answer within these bounds fails the send (recorded in the outbox), not the request forever. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/**
 * The SMTP transport for `SMTP_URL`, built once at start (`serve.ts` puts it in the context),
 * or undefined when no relay is configured and mail waits in the outbox. One connection per
 * message (no pool), so nothing stays open to close at shutdown.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  return nodemailer.createTransport({ url: config.smtpUrl, ...TIMEOUTS }, { from: config.mailFrom });
}
