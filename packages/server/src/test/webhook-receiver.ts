import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link startWebhookReceiver} received. */
export type Received = { headers: http.IncomingHttpHeaders; body: string; path: string };

/**
 * A loopback HTTP server standing in for a webhook's receiver: it keeps every request and
 * answers with the status the test sets (`answer`), so retries can be driven from the test.
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : `receiver says ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(code: number) {
      status = code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
