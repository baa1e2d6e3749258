/**
 * Child processes for the agent: one function that runs a command with a timeout, kills the
 * whole process group when the time is up, and keeps only the last bytes of its output.
 */
import { spawn } from 'node:child_process';

export type ProcessSpec = {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Written to stdin, then stdin is closed. */
  input?: string;
};

export type ProcessOutcome = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The command could not be started (ENOENT, EACCES). */
  spawnError: string | null;
  startedAt: Date;
  finishedAt: Date;
};

export type RunOptions = {
  timeoutMs?: number;
  /** Bytes of stdout and stderr kept (the tail). */
  maxBytes?: number;
  /** Time between SIGTERM and SIGKILL after a timeout. */
  killGraceMs?: number;
  /** Ends the process (SIGTERM to its group) when aborted, as a timeout does. */
  signal?: AbortSignal;
};

export type ProcessRunner = (spec: ProcessSpec, options?: RunOptions) => Promise<ProcessOutcome>;

/** Keeps the last `limit` bytes of a stream. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
  }

  toString(): string {
    let buf = Buffer.concat(this.chunks);
    if (buf.length > this.limit) {
      buf = buf.subarray(buf.length - this.limit);
      // Do not start inside a UTF-8 sequence.
      let skip = 0;
      while (skip < 4 && skip < buf.length && (buf[skip]! & 0xc0) === 0x80) skip++;
      buf = buf.subarray(skip);
    }
    return buf.toString('utf8');
  }
}

/** Runs a process to completion (or timeout). Never rejects. */
export const runProcess: ProcessRunner = (spec, options = {}) => {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const killGraceMs = options.killGraceMs ?? 2_000;
  const startedAt = new Date();
  return new Promise((resolve) => {
    const stdout = new TailBuffer(maxBytes);
    const stderr = new TailBuffer(maxBytes);
    let timedOut = false;
    let settled = false;
    const isWindows = process.platform === 'win32';
    const child = spawn(spec.command, spec.args, {
      env: { ...process.env, ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // A process group of its own, so a timeout also ends the script's children.
      detached: !isWindows,
      windowsHide: true,
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError: string | null) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', abort);
      clearTimeout(timer);
      clearTimeout(killTimer);
      resolve({
        exitCode,
        signal,
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        timedOut,
        spawnError,
        startedAt,
        finishedAt: new Date(),
      });
    };
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (!isWindows && child.pid) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // Already gone.
      }
    };
    let killTimer: NodeJS.Timeout | undefined;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          kill('SIGTERM');
          killTimer = setTimeout(() => kill('SIGKILL'), killGraceMs);
        }, options.timeoutMs)
      : undefined;
    const abort = () => {
      kill('SIGTERM');
      killTimer = setTimeout(() => kill('SIGKILL'), killGraceMs);
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    child.stdout.on('data', (c: Buffer) => stdout.push(c));
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.on('error', (err) => finish(null, null, err.message));
    child.on('close', (code, signal) => finish(code, signal, null));
    child.stdin.on('error', () => {
      // The child may exit without reading its input.
    });
    child.stdin.end(spec.input ?? '');
  });
};

/** Runs a command for its output; resolves with stdout or null when it fails to start. */
export async function capture(
  run: ProcessRunner,
  command: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<{ stdout: string; stderr: string; exitCode: number | null } | null> {
  const out = await run({ command, args, env: { LC_ALL: 'C', LANG: 'C' } }, { timeoutMs });
  if (out.spawnError || out.timedOut) return null;
  return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
}
