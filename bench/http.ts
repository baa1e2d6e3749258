/**
 * HTTP throughput of the cheapest routes and of an authenticated one, with autocannon on
 * loopback. Run: npx tsx bench/http.ts
 */
import autocannon from 'autocannon';
import { startServer } from './server';

const server = await startServer({ port: 18183, env: { PATCHWELL_DEMO: '1' } });
try {
  const signIn = await fetch(`${server.url}/api/users/self`, {
    headers: { authorization: `Basic ${Buffer.from('demo@patchwell.local:patchwell-demo-2026').toString('base64')}` },
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  for (const [label, path, headers] of [
    ['GET /healthz', '/healthz', {}],
    ['GET /api/users/is-authenticated (session)', '/api/users/is-authenticated', { cookie }],
    ['GET /api/users/self (session)', '/api/users/self', { cookie }],
  ] as const) {
    const r = await autocannon({ url: server.url + path, headers, connections: 10, duration: 5 });
    console.log(
      `${label}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
    );
  }
} finally {
  await server.stop();
}
