import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The server as `npm start` runs it: the bundle of src/main.ts (scripts/bundle.mjs), written
// beside dist/main.mjs under a name of this run's own.
const bundle = `dist/main.test-${process.pid}.mjs`;
beforeAll(() => {
  execFileSync(process.execPath, ['scripts/bundle.mjs', '--outfile', bundle], { cwd: packageRoot });
});
afterAll(async () => {
  await rm(path.join(packageRoot, bundle), { force: true });
  await rm(path.join(packageRoot, `${bundle}.map`), { force: true });
});

describe('npm start (the bundle of src/main.ts)', () => {
  it('starts on an empty data directory, prints the address, demo sign-in and simulated devices, and drains and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'patchwell-main-'));
    // The server must not touch a developer's DATABASE_URL: it would seed the demo there.
    const env = {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '1000',
      PATCHWELL_DEMO_DEVICES: '6',
    };
    const child = spawn(process.execPath, [bundle], { cwd: packageRoot, env });
    try {
      let out = '';
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const address = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /Patchwell is running: (http:\/\/127\.0\.0\.1:\d+)\/console\//.exec(out);
          if (match && out.includes('Demo sign-in')) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(out).toContain('Created the demo account. Demo sign-in: demo@patchwell.local / patchwell-demo-2026');
      expect(out).toContain('Simulated demo devices: 5 in Headquarters, 1 in Cloud Servers');
      // Let the simulated devices enrol and check in, so the shutdown below stops their long-polls too.
      const answered = async (route: string, status: number) => {
        const metrics = await (await fetch(`${address}/metrics`)).text();
        const line = metrics
          .split('\n')
          .find(
            (l) =>
              l.startsWith('http_requests_total{') &&
              l.includes(`route="${route}"`) &&
              l.includes(`status="${status}"`),
          );
        return Number(line?.split(' ').pop() ?? 0);
      };
      await expect.poll(() => answered('/api/agent/v1/enroll', 201), { timeout: 60_000 }).toBe(6);
      await expect.poll(() => answered('/api/agent/v1/checkin', 200), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
      expect((await fetch(`${address}/readyz`)).status).toBe(200);

      let exited = false;
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve)).finally(() => (exited = true));
      child.kill('SIGTERM');
      // During the drain the server still answers, but no longer as ready.
      let readyz = 200;
      while (readyz === 200 && !exited) readyz = (await fetch(`${address}/readyz`)).status;
      expect(readyz).toBe(503);
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
    // A cold start migrates an empty database and seeds the demo: 15 s on a machine at load 4,
    // more on a busy CI runner. This bounds a hang, it does not measure speed (bench/start-time.ts does).
  }, 180_000);

  it('exits with status 1 and names each invalid variable', async () => {
    const env = { ...process.env, DATABASE_URL: '', PORT: 'nope', LOG_LEVEL: 'loud' };
    const child = spawn(process.execPath, [bundle], { cwd: packageRoot, env });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('PORT must be a number');
    expect(err).toContain('LOG_LEVEL must be one of');
  });
});
