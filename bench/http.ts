/**
 * HTTP throughput of the cheapest route and of session-authenticated ones, with autocannon on
 * loopback, each as a ratio to `/healthz` measured in the same run (the machine is shared).
 * Run: npx tsx bench/http.ts   Env: DURATION=5 (seconds per route), PROFILE=<dir> (a CPU
 * profile of the server, written when it stops), DATABASE_URL (PostgreSQL instead of PGlite).
 */
import autocannon from 'autocannon';
import { startServer } from './server';

const DURATION = Number(process.env.DURATION ?? 5);
const profile = process.env.PROFILE;
const server = await startServer({
  port: 18183,
  env: { PATCHWELL_DEMO: '1' },
  ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
});
try {
  const signIn = await fetch(`${server.url}/api/users/self`, {
    headers: { authorization: `Basic ${Buffer.from('demo@patchwell.local:patchwell-demo-2026').toString('base64')}` },
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  let healthz = 0;
  for (const [label, path, headers] of [
    ['GET /healthz', '/healthz', {}],
    ['GET /api/users/is-authenticated (session)', '/api/users/is-authenticated', { cookie }],
    ['GET /api/users/self (session)', '/api/users/self', { cookie }],
  ] as const) {
    const r = await autocannon({ url: server.url + path, headers, connections: 10, duration: DURATION });
    const perSecond = r.requests.total / r.duration;
    if (!healthz) healthz = perSecond;
    console.log(
      `${label}: ${Math.round(perSecond)} req/s (${((100 * perSecond) / healthz).toFixed(1)} % of /healthz), p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
    );
  }
} finally {
  await server.stop();
}
