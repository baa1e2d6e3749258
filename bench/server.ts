/**
 * Starts the real server for a bench as `npm start` runs it: the bundle `packages/server/dist/main.mjs`,
 * built again from the sources first (a third of a second), so a bench never measures a stale one.
 * BENCH_TSX=1 runs the sources through tsx instead (`node --import tsx src/main.ts`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
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
  const cwd = join(root, 'packages/server');
  const tsx = process.env.BENCH_TSX === '1';
  if (!tsx) execFileSync(process.execPath, ['scripts/bundle.mjs'], { cwd, stdio: 'inherit' });
  const t0 = performance.now();
  const entry = tsx ? ['--import', 'tsx', 'src/main.ts'] : ['dist/main.mjs'];
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...entry], {
    cwd,
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

/** The administrator every bench's server is started with (`PATCHWELL_ADMIN_*`). */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench passphrase 2026' };
/** The server's environment that creates {@link BENCH_ADMIN} on an empty database. */
export const BENCH_ADMIN_ENV = {
  PATCHWELL_ADMIN_EMAIL: BENCH_ADMIN.email,
  PATCHWELL_ADMIN_PASSWORD: BENCH_ADMIN.password,
};

/**
 * Signs the bench's administrator in: its first zone, the session cookie, and a caller that
 * adds `o`, sends JSON (or a FormData as multipart) and throws on an answer of 300 or more.
 */
export async function benchSession(url: string) {
  const basic = Buffer.from(`${BENCH_ADMIN.email}:${BENCH_ADMIN.password}`).toString('base64');
  const res = await fetch(`${url}/api/users/self`, { headers: { authorization: `Basic ${basic}` } });
  const self = (await res.json()) as { orgs: { id: number }[] };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const zoneId = self.orgs[0]!.id;
  const call = async (method: string, path: string, body?: unknown) => {
    const sep = path.includes('?') ? '&' : '?';
    const form = body instanceof FormData;
    const r = await fetch(`${url}${path}${sep}o=${zoneId}`, {
      method,
      headers: { cookie, ...(!form && body ? { 'content-type': 'application/json' } : {}) },
      body: form ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 500)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  return { zoneId, cookie, call };
}
