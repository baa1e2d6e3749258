/**
 * What the login page costs a browser: every JavaScript and CSS response Chromium loads
 * for /console/login, with its gzip size. Needs the built console (npm run build).
 * Run: npx tsx bench/login-page-size.ts
 */
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from './server';

const server = await startServer({ port: 18182, env: { PATCHWELL_DEMO: '0' } });
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
const rows: { url: string; kind: string; raw: number; gzip: number }[] = [];
try {
  const page = await browser.newPage();
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const body = await res.body().catch(() => null);
    if (body)
      rows.push({ url: new URL(res.url()).pathname, kind: type, raw: body.length, gzip: gzipSync(body).length });
  });
  await page.goto(`${server.url}/console/login`, { waitUntil: 'networkidle' });
} finally {
  await browser.close();
  await server.stop();
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
for (const r of rows)
  console.log(`${r.kind.padEnd(10)} ${kb(r.raw).padStart(9)} ${kb(r.gzip).padStart(9)} gz  ${r.url}`);
const js = rows.filter((r) => r.kind === 'script');
console.log(
  `login page JS: ${js.length} files, ${kb(js.reduce((a, r) => a + r.raw, 0))} raw, ${kb(js.reduce((a, r) => a + r.gzip, 0))} gzip`,
);
