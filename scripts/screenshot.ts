/**
 * Takes the README's screenshot (docs/screenshot.png): the demo's device list, in Chromium.
 * Needs the built console. Run: npx tsx scripts/screenshot.ts
 */
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { root, startServer } from '../bench/server';

const server = await startServer({ port: 18184, env: { PATCHWELL_DEMO: '1' } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/console/login`);
  await page.getByLabel('Email').fill('demo@patchwell.local');
  await page.getByLabel(/^password/i).fill('patchwell-demo-2026');
  await page.getByRole('button', { name: /^log ?in$/i }).click();
  await page.waitForURL(/dashboard/);
  // The demo fleet enrols in the background: wait until its devices are listed.
  const zone = new URL(page.url()).searchParams.get('o');
  await page.goto(`${server.url}/console/devices?o=${zone}`);
  await page.getByRole('table').getByRole('row').nth(5).waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500); // let the menu's transition and the loader's hide delay finish
  await page.screenshot({ path: join(root, 'docs/screenshot.png') });
  console.log('wrote docs/screenshot.png');
} finally {
  await browser.close();
  await server.stop();
}
