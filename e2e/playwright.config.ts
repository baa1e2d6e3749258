import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** A port the system has free now (listen on 0, read it back, close). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// The workers load this file again: the port chosen here reaches them through the
// environment they inherit, so the server and every test agree on it. E2E_PORT overrides.
process.env.E2E_PORT ??= String(await freePort());
const port = Number(process.env.E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;
// A fresh embedded database per run, unless DATABASE_URL points at PostgreSQL.
const dataDir = mkdtempSync(join(tmpdir(), 'patchwell-e2e-'));

export default defineConfig({
  testDir: './tests',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['line'], ['json']],
  outputDir: '../test-results/e2e-artifacts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
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
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PATCHWELL_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
