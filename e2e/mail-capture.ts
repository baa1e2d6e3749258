import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/**
 * The far side of the e2e server's mail relay: a real SMTP server on loopback that writes each
 * message it receives to a file in `dir`, named by arrival (the journeys run in other
 * processes, so files are how they read the mail). Started once by playwright.config.ts.
 */
export async function startMailCapture(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received += 1;
        const to = session.envelope.rcptTo.map((r) => r.address);
        writeFileSync(
          join(dir, `${String(received).padStart(6, '0')}.json`),
          JSON.stringify({ to, raw: Buffer.concat(chunks).toString('utf8') }),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The runner must be free to exit when the journeys are done.
  server.server.unref();
  return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

/** The text of every message to `to` captured in `dir` so far, oldest first. */
export async function mailsTo(dir: string, to: string): Promise<string[]> {
  const texts: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const mail = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { to: string[]; raw: string };
    if (!mail.to.includes(to)) continue;
    const parsed = await PostalMime.parse(mail.raw);
    texts.push(parsed.text ?? '');
  }
  return texts;
}
