import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** A message as the capture received it over SMTP, parsed. */
export type CapturedMail = {
  /** Envelope recipients (RCPT TO). */
  recipients: string[];
  from: string | undefined;
  subject: string;
  text: string;
  html: string | undefined;
  /** Attached files, their content decoded as UTF-8. */
  attachments: { filename: string | null; mimeType: string; content: string }[];
};

export type SmtpCapture = {
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  /** Every message received so far, oldest first. */
  messages: CapturedMail[];
  /** The first message to `to` among those received after the first `since` (default 0), waiting up to 5 s. */
  waitFor(to: string, since?: number): Promise<CapturedMail>;
  close(): Promise<void>;
};

/**
 * A real SMTP server on loopback (port 0) that keeps what it receives: the far side of the
 * mail relay, which tests may fake (STYLE.md). A message is parsed before the server
 * answers 250, so when the app's send has finished the message is already in `messages`.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (email) => {
            messages.push({
              recipients: session.envelope.rcptTo.map((r) => r.address),
              from: email.from?.address,
              subject: email.subject ?? '',
              text: email.text ?? '',
              html: email.html,
              attachments: email.attachments.map((a) => ({
                filename: a.filename,
                mimeType: a.mimeType,
                content: typeof a.content === 'string' ? a.content : new TextDecoder().decode(a.content as ArrayBuffer),
              })),
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, since = 0) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = messages.slice(since).find((m) => m.recipients.includes(to));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} arrived within 5 s.`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
