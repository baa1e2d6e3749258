/**
 * What drawing a first page costs the server (decision 0030): the dashboard and the devices
 * list opened by address, drawn with the user's data, against a signed-in page the server does
 * not draw (/software: the same session, profile and banners reads, the build's HTML), with
 * autocannon on loopback, in the same run. Prints requests a second, latency, the server's CPU
 * a page (its own thread, then all of its threads) and the ratio to the undrawn page; the HTML's
 * size once gzipped. Also the renderer's first load (the first drawn page after start).
 *
 * Run: node --import tsx bench/page-drawing.ts   (needs `npm run build -w @patchwell/web`)
 * Env: DURATION=10 (seconds a page)  CONNECTIONS=10  DEVICES=200  BENCH_PORT=18187
 */
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { completeQuickStart, enrolFleet } from './fleet';
import { cpuSeconds, load, rssMb } from './proc';
import { BENCH_ADMIN_ENV, benchSession, startServer } from './server';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DEVICES = Number(process.env.DEVICES ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 18187);

const server = await startServer({ port: PORT, env: { PATCHWELL_DEMO: '0', ...BENCH_ADMIN_ENV } });
const pid = server.child.pid!;
try {
  const session = await benchSession(server.url);
  await completeQuickStart(session, await enrolFleet(server.url, session, DEVICES));
  const { zoneId, cookie } = session;
  const page = (path: string) => `${server.url}${path}?o=${zoneId}`;
  const get = (path: string) => fetch(page(path), { headers: { cookie } });

  const rss0 = rssMb(pid);
  const t0 = performance.now();
  const first = await (await get('/console/devices')).text();
  if (!first.includes('id="pw-rendered"')) throw new Error('/console/devices came undrawn: is the console built?');
  console.log(
    `# Drawing first pages (${new Date().toISOString()}), ${DEVICES} devices, ${CONNECTIONS} connections, ${DURATION} s a page; ${load()}`,
  );
  console.log(
    `first drawn page after start (loads the renderer): ${Math.round(performance.now() - t0)} ms, RSS ${Math.round(rss0)} → ${Math.round(rssMb(pid))} MB`,
  );

  let baseline = 0;
  for (const [label, path] of [
    ['signed-in page, not drawn (/software)', '/console/software'],
    ['dashboard, drawn', '/console/dashboard'],
    ['devices (25 rows), drawn', '/console/devices'],
  ] as const) {
    const html = await (await get(path)).text();
    const cpu0 = cpuSeconds(pid);
    const main0 = cpuSeconds(pid, pid);
    const r = await autocannon({ url: page(path), headers: { cookie }, connections: CONNECTIONS, duration: DURATION });
    const perSecond = r.requests.total / r.duration;
    baseline ||= perSecond;
    const perPage = (seconds: number) => ((1000 * seconds) / r.requests.total).toFixed(2);
    console.log(
      `${label}: ${Math.round(perSecond)} pages/s (${((100 * perSecond) / baseline).toFixed(1)} % of the undrawn page), ` +
        `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}; ` +
        `CPU a page ${perPage(cpuSeconds(pid, pid) - main0)} ms (server's thread), ${perPage(cpuSeconds(pid) - cpu0)} ms (all); ` +
        `HTML ${(html.length / 1024).toFixed(1)} KiB, ${(gzipSync(html).length / 1024).toFixed(1)} KiB gzipped; ${load()}`,
    );
  }
  console.log(`RSS at the end: ${Math.round(rssMb(pid))} MB`);
} finally {
  await server.stop();
}
