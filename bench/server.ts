/** Starts the real server (`node --import tsx packages/server/src/main.ts`) for a bench. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..');

export type Running = { url: string; child: ChildProcess; startMs: number; stop(): Promise<void> };

export async function startServer(opts: {
  port: number;
  dataDir?: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}): Promise<Running> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'patchwell-bench-'));
  const url = `http://127.0.0.1:${opts.port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', 'src/main.ts'], {
    cwd: join(root, 'packages/server'),
    env: {
      ...process.env,
      PORT: String(opts.port),
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...opts.env,
    },
    // BENCH_LOG=1 shows the server's log (warnings and errors) beside the bench's lines.
    stdio: ['ignore', process.env.BENCH_LOG === '1' ? 'inherit' : 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startMs = performance.now() - t0;
  return {
    url,
    child,
    startMs,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
