import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { freePort } from './free-port';
import { startMailCapture } from './mail-capture';

// The workers load this file again: the port chosen here reaches them through the
// environment they inherit, so the server and every test agree on it. E2E_PORT overrides.
process.env.E2E_PORT ??= String(await freePort());
const port = Number(process.env.E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;
// The server's mail goes by SMTP to a loopback capture that the runner starts once (the
// workers, which load this file again, find its address and folder in the environment).
if (!process.env.E2E_MAIL_DIR) {
  process.env.E2E_MAIL_DIR = mkdtempSync(join(tmpdir(), 'patchwell-e2e-mail-'));
  process.env.E2E_SMTP_URL = await startMailCapture(process.env.E2E_MAIL_DIR);
}
// A fresh embedded database per run, unless DATABASE_URL points at PostgreSQL.
const dataDir = mkdtempSync(join(tmpdir(), 'patchwell-e2e-'));

export default defineConfig({
  testDir: './tests',
  // A journey's whole budget (each wait inside it still ends at its condition): two journeys
  // finished their last step past 30 s while the demo fleet enrolled beside them.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['line'], ['json']],
  outputDir: '../test-results/e2e-artifacts',
  use: {
    baseURL,
    // The console then skips its transitions (theme.respectReducedMotion): no snackbar is
    // analysed by axe mid-fade, and no frames are drawn for motion nobody watches.
    reducedMotion: 'reduce',
    // No trace unless E2E_TRACE is set (then a failed journey keeps its actions, DOM snapshots
    // and network): taking a DOM snapshot at every action cost a quarter of the journeys' time on
    // CI's two cores (491 s with, 368 s without). A failed journey keeps its screenshot either way.
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // The server is started the way the README starts it: `npm start` from the root.
  webServer: {
    command: 'npm start',
    cwd: '..',
    url: `${baseURL}/readyz`,
    // `npm start` builds the console first: a loaded machine needs minutes for that.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PATCHWELL_DEMO: '1',
      // The simulated devices install in a twentieth of a real machine's time (an update in
      // 0.5 to 3 s): journeys that follow a run wait for its results, not for the clock.
      PATCHWELL_DEMO_SPEED: '20',
      // The password pages are behind the first authentication milestone flag (spec A section 2);
      // /manage/maintenance-windows behind its own.
      PATCHWELL_FLAGS: 'auth_milestone_1=1,maintenance_windows=1',
      LOG_LEVEL: 'warn',
      SMTP_URL: process.env.E2E_SMTP_URL!,
      MAIL_FROM: 'Patchwell <noreply@patchwell.test>',
    },
  },
});
