/**
 * The console's main-thread work when a page loads, summed by Chromium itself over many loads:
 * a quieter measure than Lighthouse's blocking time for a change worth a few per cent (on a
 * shared 2-core machine one build's mobile TBT moves by a factor of two between runs). Each
 * load is a fresh browser context (cold cache) with the CPU slowed `CPU` times, as Lighthouse's
 * mobile preset does; once the page has drawn its data and the network is idle it reads
 * `Performance.getMetrics` (the time in tasks, in scripts, in style and layout) and the page's
 * longest task. (In such a real slowed load the first paint comes after the long tasks: the
 * blocking time Lighthouse reports comes from its simulation, which this does not redo.) One
 * load of each page first warms the server. Prints medians and quartiles, and each signed-in
 * page's task time against the login page's, measured in the same run (a ratio that a slower
 * machine leaves alone).
 *
 * To compare two builds, run it on each, alternating, in one sitting.
 *
 * Run: node --import tsx bench/console-cpu.ts   (needs `npm run build -w @patchwell/web`)
 * Env: LOADS=10  CPU=4  PAGES=login,dashboard,devices  DEVICES=200  BENCH_PORT=18186
 *      CHROMIUM_PATH=/usr/bin/chromium
 */
import { chromium } from 'playwright-core';
import { completeQuickStart, enrolFleet } from './fleet';
import { load } from './proc';
import { BENCH_ADMIN_ENV, benchSession, startServer } from './server';

const LOADS = Number(process.env.LOADS ?? 10);
const CPU = Number(process.env.CPU ?? 4);
const PAGES = (process.env.PAGES ?? 'login,dashboard,devices').split(',');
const DEVICES = Number(process.env.DEVICES ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 18186);

const FIGURES = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'longest'] as const;
type Sample = Record<(typeof FIGURES)[number], number>;

// What shows that a page has drawn its data. Waiting for the network to be idle alone is not
// enough: at 4× CPU the scripts run for over half a second before the page asks for anything.
const DRAWN: Record<string, string> = {
  login: 'form input[type="password"]',
  dashboard: 'section[aria-label] [role="img"]',
  devices: 'tbody tr[data-index]',
};

// Runs in the page before its scripts: its long tasks.
const OBSERVE = `
  window.__pwLong = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__pwLong.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });
`;

const quartiles = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
};

const server = await startServer({ port: PORT, env: { PATCHWELL_DEMO: '0', ...BENCH_ADMIN_ENV } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const session = await benchSession(server.url);
  await completeQuickStart(session, await enrolFleet(server.url, session, DEVICES));
  const [cookieName, cookieValue] = session.cookie.split(';')[0]!.split('=');
  const urlOf = (page: string) =>
    page === 'login' ? `${server.url}/console/login` : `${server.url}/console/${page}?o=${session.zoneId}`;

  const loadOnce = async (page: string): Promise<Sample> => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    try {
      if (page !== 'login') await context.addCookies([{ name: cookieName!, value: cookieValue!, url: server.url }]);
      const tab = await context.newPage();
      await tab.addInitScript({ content: OBSERVE });
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Performance.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      await tab.goto(urlOf(page));
      await tab.waitForSelector(DRAWN[page] ?? 'main', { timeout: 60_000 });
      await tab.waitForLoadState('networkidle');
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const ms = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      // A string: the bench is compiled without the DOM's types.
      const long = (await tab.evaluate('window.__pwLong')) as [number, number][];
      return {
        TaskDuration: ms('TaskDuration'),
        ScriptDuration: ms('ScriptDuration'),
        RecalcStyleDuration: ms('RecalcStyleDuration'),
        LayoutDuration: ms('LayoutDuration'),
        longest: Math.max(0, ...long.map(([, d]) => d)),
      };
    } finally {
      await context.close();
    }
  };

  console.log(`# Console main thread, ${LOADS} loads a page at ${CPU}× CPU, ${DEVICES} devices; ${load()}`);
  for (const page of PAGES) await loadOnce(page);
  // Pages interleaved, so that a slow stretch of the machine falls on all of them alike.
  const samples = new Map<string, Sample[]>(PAGES.map((p) => [p, []]));
  for (let i = 0; i < LOADS; i++) for (const page of PAGES) samples.get(page)!.push(await loadOnce(page));

  const medianTask = new Map<string, number>();
  for (const [page, list] of samples) {
    const line = FIGURES.map((k) => {
      const { q1, median, q3 } = quartiles(list.map((s) => s[k]));
      return `${k} ${median.toFixed(0)} (${q1.toFixed(0)}–${q3.toFixed(0)})`;
    }).join(', ');
    medianTask.set(page, quartiles(list.map((s) => s.TaskDuration)).median);
    console.log(`${page}: ${line} ms`);
  }
  const login = medianTask.get('login');
  if (login) {
    for (const [page, task] of medianTask) {
      if (page !== 'login') console.log(`${page} ÷ login, task time: ${(task / login).toFixed(2)}`);
    }
  }
  console.log(`; ${load()}`);
} finally {
  await browser.close();
  await server.stop();
}
