/**
 * Lighthouse's performance score of the console's login, dashboard and devices pages (issue 16:
 * ≥ 95 each), with the metrics behind it, from Debian's Chromium driven offline against the
 * real server on loopback. The built console is served by the server: run `npm run build`
 * first. The signed-in pages are loaded with the bench administrator's session cookie, in its
 * first zone, with `DEVICES` simulated machines enrolled there through the agent API first
 * (bench/fleet.ts: the list's first page is full and the dashboard has figures), and the
 * quick start guide completed through the API, so that /dashboard is the dashboard (until
 * session 30 it measured the redirect to /onboarding).
 *
 * Beside them, the same runs of two floors (bench/lighthouse-floor.ts): the login form in React
 * and Mantine alone, and the same behind React Router and TanStack Query: what a page of this
 * stack scores with none of the console's code, the baseline the pages' scores are read against.
 *
 * Lighthouse's default settings: a mobile device, simulated slow 4G and a 4× slower CPU;
 * `PRESET=desktop` takes Lighthouse's own desktop preset instead (a desktop screen, 10 Mbit/s
 * with 40 ms round trips, the CPU as it is). The score is the median of `RUNS` runs per page
 * (the machine is shared: each run prints too).
 *
 * Run: node --import tsx bench/lighthouse.ts   (figures in bench/README.md)
 * Env: RUNS=3  PRESET=mobile  BENCH_PORT=18185  CHROMIUM_PATH=/usr/bin/chromium  PAGES=floor-form,floor-stack,login,dashboard,devices
 *      DEVICES=200  REPORT_DIR=dir  (keeps each run's report as JSON, e.g. for the LCP element and the request chain)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { completeQuickStart, enrolFleet } from './fleet';
import { startFloor } from './lighthouse-floor';
import { BENCH_ADMIN_ENV, benchSession, startServer } from './server';
import { load } from './proc';

const RUNS = Number(process.env.RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 18185);
const PAGES = (process.env.PAGES ?? 'floor-form,floor-stack,login,dashboard,devices').split(',');
const DEVICES = Number(process.env.DEVICES ?? 200);
const REPORT_DIR = process.env.REPORT_DIR;
const PRESET = process.env.PRESET ?? 'mobile';
if (PRESET !== 'mobile' && PRESET !== 'desktop') throw new Error(`PRESET is mobile or desktop, not ${PRESET}`);
if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true });

type Metrics = { score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number };

const server = await startServer({
  port: PORT,
  env: { PATCHWELL_DEMO: '0', ...BENCH_ADMIN_ENV },
});
const floor = await startFloor(PORT + 1);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  const session = await benchSession(server.url);
  const { zoneId, cookie } = session;
  await completeQuickStart(session, await enrolFleet(server.url, session, DEVICES));
  const urls: Record<string, { url: string; signedIn: boolean }> = {
    'floor-form': { url: floor.url('floor-form'), signedIn: false },
    'floor-stack': { url: floor.url('floor-stack'), signedIn: false },
    login: { url: `${server.url}/console/login`, signedIn: false },
    dashboard: { url: `${server.url}/console/dashboard?o=${zoneId}`, signedIn: true },
    devices: { url: `${server.url}/console/devices?o=${zoneId}`, signedIn: true },
  };
  console.log(
    `# Lighthouse performance, ${PRESET} (${new Date().toISOString()}), ${RUNS} runs a page, ${DEVICES} devices; ${load()}`,
  );
  for (const name of PAGES) {
    const target = urls[name];
    if (!target) throw new Error(`no page ${name}: ${Object.keys(urls).join(', ')}`);
    const runs: Metrics[] = [];
    for (let i = 0; i < RUNS; i++) {
      const measure = () =>
        lighthouse(
          target.url,
          {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            ...(target.signedIn ? { extraHeaders: { cookie } } : {}),
          },
          PRESET === 'desktop' ? desktopConfig : undefined,
        );
      let result = await measure();
      // Chromium now and then loses the trace's navigation start (seen once in a few dozen runs
      // on two pages with different scripts): that run measured nothing; it is run again, once.
      if (result?.lhr.runtimeError?.code === 'NO_NAVSTART') {
        console.log(`  ${name} run ${i + 1}: the trace lost its navigation start (NO_NAVSTART); run again`);
        result = await measure();
      }
      if (!result) throw new Error(`lighthouse gave no result for ${name}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`${name}: ${lhr.runtimeError.message}`);
      if (REPORT_DIR) writeFileSync(join(REPORT_DIR, `${name}-${i + 1}.json`), JSON.stringify(lhr));
      const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const m: Metrics = {
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcp: value('first-contentful-paint'),
        lcp: value('largest-contentful-paint'),
        tbt: value('total-blocking-time'),
        cls: value('cumulative-layout-shift'),
        si: value('speed-index'),
      };
      runs.push(m);
      // A signed-in page that ended on the login page measured the wrong page.
      if (target.signedIn && lhr.finalDisplayedUrl.includes('/login')) throw new Error(`${name}: signed out`);
      console.log(
        `  ${name} run ${i + 1}: ${m.score} (FCP ${m.fcp.toFixed(0)} ms, LCP ${m.lcp.toFixed(0)} ms, ` +
          `TBT ${m.tbt.toFixed(0)} ms, CLS ${m.cls.toFixed(3)}, SI ${m.si.toFixed(0)} ms)`,
      );
    }
    const pick = (k: keyof Metrics) => median(runs.map((r) => r[k]));
    console.log(
      `${name}: score ${pick('score')} (median; target ≥ 95), FCP ${pick('fcp').toFixed(0)} ms, LCP ${pick('lcp').toFixed(0)} ms, ` +
        `TBT ${pick('tbt').toFixed(0)} ms, CLS ${pick('cls').toFixed(3)}; ${load()}`,
    );
  }
} finally {
  await chrome.kill();
  await server.stop();
  await floor.close();
}
