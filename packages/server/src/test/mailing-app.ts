import { startTestApp, type TestApp } from './app';
import { startSmtpCapture, type SmtpCapture } from './smtp-capture';

export type MailingApp = { t: TestApp; smtp: SmtpCapture; close(): Promise<void> };

/**
 * An app whose mail goes by SMTP to a loopback capture, whose links name https://pw.test, and
 * which trusts X-Forwarded-For so each request can come from its own address (past the
 * per-address rate limits): what the sign-in, reset and verification tests share.
 */
export async function startMailingApp(): Promise<MailingApp> {
  const smtp = await startSmtpCapture();
  const t = await startTestApp({
    config: { trustProxy: true },
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Patchwell <noreply@patchwell.test>',
      PATCHWELL_PUBLIC_URL: 'https://pw.test',
    },
  });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/** Headers naming a new client address on each call, within `prefix` (e.g. `198.18.0`). */
export function addressSequence(prefix: string): () => Record<string, string> {
  let n = 0;
  return () => ({ 'x-forwarded-for': `${prefix}.${++n}` });
}
