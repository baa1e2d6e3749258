/**
 * The console's weight (issue 16): every JavaScript and CSS file Chromium loads for
 * `/console/login` (signed out) and for `/console/devices?o=<zone>` (signed in, cold cache),
 * with gzip sizes and totals against the targets. Figures only; nothing here fails on size.
 * Needs the built console (`npm run build -w @patchwell/web`).
 * Run: npx tsx bench/console-weight.ts   (LIST=0 prints only the totals)
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { BENCH_ADMIN_ENV, benchSession, startServer } from './server';

const KiB = 1024;
/** Gzipped targets from issue 16. */
const TARGETS = {
  login: { js: 150 * KiB, css: 30 * KiB },
  devices: { js: 250 * KiB, css: undefined },
} as const;

type Row = { url: string; kind: 'script' | 'stylesheet'; raw: number; gzip: number };

/** Loads `url` in a fresh context (empty cache) and records every script and stylesheet. */
async function measure(browser: Browser, url: string, cookie?: { name: string; value: string }, waitFor?: string) {
  const context = await browser.newContext();
  if (cookie) await context.addCookies([{ ...cookie, url: new URL('/', url).href }]);
  const page = await context.newPage();
  const rows: Row[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    const kind = res.request().resourceType();
    if (kind !== 'script' && kind !== 'stylesheet') return;
    pending.push(
      res
        .body()
        .then((body) => {
          rows.push({ url: new URL(res.url()).pathname, kind, raw: body.length, gzip: gzipSync(body).length });
        })
        .catch(() => undefined),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  if (waitFor) await page.waitForSelector(waitFor, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  const finalPath = new URL(page.url()).pathname;
  await context.close();
  return { rows, finalPath };
}

const kb = (n: number) => `${(n / KiB).toFixed(1)} KiB`;
const sum = (rows: Row[], kind: Row['kind'], key: 'raw' | 'gzip') =>
  rows.filter((r) => r.kind === kind).reduce((a, r) => a + r[key], 0);

function report(name: string, rows: Row[], target: { js: number; css: number | undefined }) {
  console.log(`\n${name}`);
  if (process.env.LIST !== '0') {
    for (const r of [...rows].sort((a, b) => b.gzip - a.gzip))
      console.log(`  ${r.kind.padEnd(10)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gz  ${r.url}`);
  }
  for (const kind of ['script', 'stylesheet'] as const) {
    const gz = sum(rows, kind, 'gzip');
    const limit = kind === 'script' ? target.js : target.css;
    const verdict = limit === undefined ? '(no target)' : `target ≤ ${kb(limit)}: ${gz <= limit ? 'met' : 'NOT met'}`;
    const label = kind === 'script' ? 'JS ' : 'CSS';
    const count = rows.filter((r) => r.kind === kind).length;
    console.log(
      `  ${label} ${String(count).padStart(3)} files ${kb(sum(rows, kind, 'raw')).padStart(10)} raw ${kb(gz).padStart(10)} gzip  ${verdict}`,
    );
  }
}

const server = await startServer({
  port: Number(process.env.BENCH_PORT ?? 18183),
  env: { PATCHWELL_DEMO: '0', ...BENCH_ADMIN_ENV },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const login = await measure(browser, `${server.url}/console/login`, undefined, 'input[type="password"]');
  report(`/console/login (signed out, cold cache)`, login.rows, TARGETS.login);

  const { zoneId, cookie } = await benchSession(server.url);
  const eq = cookie.indexOf('=');
  const devices = await measure(
    browser,
    `${server.url}/console/devices?o=${zoneId}`,
    { name: cookie.slice(0, eq), value: cookie.slice(eq + 1) },
    'main table, main h1',
  );
  if (!devices.finalPath.startsWith('/console/devices'))
    throw new Error(`the devices page redirected to ${devices.finalPath}: not signed in?`);
  report(`/console/devices?o=${zoneId} (signed in, cold cache)`, devices.rows, TARGETS.devices);
} finally {
  await browser.close();
  await server.stop();
}
