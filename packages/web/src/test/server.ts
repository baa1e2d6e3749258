import http from 'node:http';

export type TestRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
};
export type TestReply = { status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };
export type TestHandler = (req: TestRequest) => TestReply | Promise<TestReply>;

/**
 * A real HTTP server on 127.0.0.1 (random port) for tests of the API client and pages:
 * routes are "METHOD /path" keys; unknown routes answer 404.
 */
export async function startTestServer(routes: Record<string, TestHandler>) {
  const requests: TestRequest[] = [];
  const server = http.createServer((incoming, res) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
    incoming.on('end', async () => {
      // jsdom's XMLHttpRequest (uploads with progress) keeps the browser's CORS rules; the
      // page's origin is not this server's, so answer its preflight and allow every origin.
      res.setHeader('access-control-allow-origin', '*');
      if (incoming.method === 'OPTIONS') {
        res.statusCode = 204;
        res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
        res.setHeader('access-control-allow-headers', incoming.headers['access-control-request-headers'] ?? '*');
        res.end();
        return;
      }
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const req: TestRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body,
      };
      requests.push(req);
      const handler = routes[`${req.method} ${req.path}`];
      const reply: TestReply = handler ? await handler(req) : { status: 404, body: { message: 'Not found' } };
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      res.statusCode = reply.status ?? 200;
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
      if (reply.body === undefined) {
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
