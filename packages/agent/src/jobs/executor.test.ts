import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { AgentApiError, NetworkError } from '../api/client.js';
import type { AgentCommand } from '../protocol.js';
import { fakeApi } from '../test/fake-api.js';
import { createFakePlatform } from '../test/fake-platform.js';
import { executeCommand, postResult } from './executor.js';
import { runProcess, TailBuffer } from './process.js';

const command = (type: AgentCommand['type'], args: AgentCommand['args'] = {}, timeout_s = 60): AgentCommand => ({
  id: 1,
  type,
  args,
  timeout_s,
  created_at: new Date().toISOString(),
});

/** Whether a process runs (a zombie, killed and waiting to be reaped, does not). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('runProcess', () => {
  it('kills a process that outlives its timeout, with its children', async () => {
    // The child prints its background sleep's pid; the limit leaves a loaded machine time to
    // start bash (300 ms did not, once, in CI), and the sleep must be gone afterwards.
    const out = await runProcess(
      { command: 'bash', args: ['-c', 'sleep 30 & echo "started $!"; wait'] },
      { timeoutMs: 3_000, killGraceMs: 200 },
    );
    expect(out.timedOut).toBe(true);
    const pid = Number(/started (\d+)/.exec(out.stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(running(pid)).toBe(false), { timeout: 10_000 });
  });

  it('reports a command that cannot start', async () => {
    const out = await runProcess({ command: 'definitely-not-a-command-xyz', args: [] });
    expect(out.spawnError).toMatch(/ENOENT/);
    expect(out.exitCode).toBeNull();
  });

  it('keeps only the tail of long output', async () => {
    const out = await runProcess(
      { command: 'bash', args: ['-c', 'head -c 100000 /dev/zero | tr "\\0" a; echo END'] },
      { maxBytes: 1024 },
    );
    expect(out.stdout.length).toBe(1024);
    expect(out.stdout.endsWith('END\n')).toBe(true);
  });

  it('does not cut a UTF-8 character in half', () => {
    const tail = new TailBuffer(5);
    tail.push(Buffer.from('ééééé', 'utf8'));
    expect(tail.toString()).toBe('éé');
  });
});

describe('executeCommand', () => {
  it('marks a script that runs past its timeout timed_out (a real child process)', async () => {
    const result = await executeCommand(
      command('run_script', { language: 'bash', script: 'echo begin; sleep 20; echo never' }, 1),
      {
        platform: createFakePlatform(),
        api: fakeApi(),
        allowChanges: true,
      },
    );
    expect(result.status).toBe('timed_out');
    expect(result.stdout_tail).toBe('begin\n');
    expect(Date.parse(result.finished_at) - Date.parse(result.started_at)).toBeLessThan(6_000);
  });

  it('reports a script exit code, stdout and stderr tails capped at 16 KiB', async () => {
    const result = await executeCommand(
      command('run_script', {
        language: 'bash',
        script: 'head -c 40000 /dev/zero | tr "\\0" x; echo oops >&2; exit 3',
      }),
      { platform: createFakePlatform(), api: fakeApi(), allowChanges: true },
    );
    expect(result).toMatchObject({ status: 'error', exit_code: 3, stderr_tail: 'oops\n' });
    expect(result.stdout_tail.length).toBe(16 * 1024);
  });

  it('refuses scripts without --allow-changes', async () => {
    const result = await executeCommand(command('run_script', { script: 'touch /tmp/x' }), {
      platform: createFakePlatform(),
      api: fakeApi(),
      allowChanges: false,
    });
    expect(result.status).toBe('error');
    expect(result.stderr_tail).toMatch(/--allow-changes/);
  });

  it("runs a worklet's evaluation without --allow-changes, and reports its exit code", async () => {
    const ctx = { platform: createFakePlatform(), api: fakeApi(), allowChanges: false };
    const compliant = await executeCommand(
      command('run_script', { language: 'bash', script: 'echo fine; exit 0', purpose: 'evaluate' }),
      ctx,
    );
    expect(compliant).toMatchObject({ status: 'success', exit_code: 0, stdout_tail: 'fine\n' });
    expect(compliant.data).toMatchObject({ purpose: 'evaluate' });
    const failing = await executeCommand(
      command('run_script', { language: 'bash', script: 'echo firewall off; exit 1', purpose: 'evaluate' }),
      ctx,
    );
    expect(failing).toMatchObject({ status: 'error', exit_code: 1, stdout_tail: 'firewall off\n' });
    // A remediation is a change: refused like any script.
    const remediation = await executeCommand(
      command('run_script', { language: 'bash', script: 'echo fixed', purpose: 'remediate' }),
      ctx,
    );
    expect(remediation.status).toBe('error');
    expect(remediation.stderr_tail).toMatch(/--allow-changes/);
  });

  it('simulates package changes without --allow-changes', async () => {
    const result = await executeCommand(command('install_updates', { names: ['curl'] }), {
      platform: createFakePlatform(),
      api: fakeApi(),
      allowChanges: false,
    });
    expect(result).toMatchObject({ status: 'success', exit_code: 0, stdout_tail: 'would install_updates\n' });
    expect(result.data).toMatchObject({ simulated: true });
    // The protocol's flag: the server never counts a dry run as installed.
    expect(result.simulated).toBe(true);
  });

  it('flags only changes as simulated: a real run, a scan and an evaluation carry no flag', async () => {
    const ctx = (allowChanges: boolean) => ({ platform: createFakePlatform(), api: fakeApi(), allowChanges });
    const real = await executeCommand(command('install_updates', { names: ['curl'] }), ctx(true));
    expect(real.status).toBe('success');
    expect(real.simulated).toBeUndefined();
    expect((await executeCommand(command('scan'), ctx(false))).simulated).toBeUndefined();
    const evaluation = await executeCommand(
      command('run_script', { language: 'bash', script: 'exit 0', purpose: 'evaluate' }),
      ctx(false),
    );
    expect(evaluation.simulated).toBeUndefined();
    expect((await executeCommand(command('reboot', { delay_s: 120 }), ctx(false))).simulated).toBe(true);
  });

  it('reports a reboot as simulated unless changes are allowed', async () => {
    const result = await executeCommand(command('reboot', { delay_s: 120 }), {
      platform: createFakePlatform(),
      api: fakeApi(),
      allowChanges: false,
    });
    expect(result.status).toBe('success');
    expect(result.stdout_tail).toMatch(/Simulated: would run echo reboot 120/);
  });

  it('scans: sends the inventory and summarises it', async () => {
    const api = fakeApi();
    const seen: string[] = [];
    const result = await executeCommand(command('scan'), {
      platform: createFakePlatform(),
      api,
      allowChanges: false,
      onInventory: (inv, sent) => seen.push(`${inv.software.length}:${sent}`),
    });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ software_count: 2, patch_count: 1 });
    expect(api.putInventory).toHaveBeenCalledOnce();
    expect(seen).toEqual(['2:true']);
  });

  it('turns bad arguments into an error result', async () => {
    const result = await executeCommand(command('install_package'), {
      platform: createFakePlatform(),
      api: fakeApi(),
      allowChanges: true,
    });
    expect(result).toMatchObject({ status: 'error', stderr_tail: 'install_package needs args.package\n' });
  });
});

describe('postResult', () => {
  const result = {
    status: 'success' as const,
    exit_code: 0,
    stdout_tail: '',
    stderr_tail: '',
    started_at: new Date().toISOString(),
    finished_at: new Date().toISOString(),
  };

  it('retries network failures, posting the same result again', async () => {
    let calls = 0;
    const api = fakeApi({
      postResult: vi.fn(async () => {
        if (++calls < 3) throw new NetworkError('ECONNRESET');
      }),
    });
    expect(await postResult(api, 1, result, { sleep: async () => {} })).toBe(true);
    expect(api.postResult).toHaveBeenCalledTimes(3);
    expect(vi.mocked(api.postResult).mock.calls.every(([id, body]) => id === 1 && body === result)).toBe(true);
  });

  it('waits at least the Retry-After of a 503 (capped at 5 minutes) before trying again', async () => {
    const waits: number[] = [];
    let calls = 0;
    const api = fakeApi({
      postResult: vi.fn(async () => {
        calls++;
        if (calls === 1) throw new NetworkError('503 database restarting', { retryAfterMs: 5_000 });
        if (calls === 2) throw new NetworkError('503 overloaded', { retryAfterMs: 3_600_000 });
      }),
    });
    const sleep = async (ms: number) => void waits.push(ms);
    expect(await postResult(api, 1, result, { sleep, random: () => 0 })).toBe(true);
    expect(waits).toEqual([5_000, 300_000]);
  });

  it('gives up after the last attempt and says so', async () => {
    const api = fakeApi({ postResult: vi.fn(async () => Promise.reject(new NetworkError('down'))) });
    expect(await postResult(api, 1, result, { attempts: 2, sleep: async () => {} })).toBe(false);
  });

  it('drops a result the server does not know (404) and rethrows other refusals', async () => {
    const notFound = fakeApi({
      postResult: vi.fn(async () => Promise.reject(new AgentApiError(404, 'not_found', 'x'))),
    });
    expect(await postResult(notFound, 1, result)).toBe(true);
    const unauthorized = fakeApi({
      postResult: vi.fn(async () => Promise.reject(new AgentApiError(401, 'agent.invalid_token', 'x'))),
    });
    await expect(postResult(unauthorized, 1, result)).rejects.toThrow(AgentApiError);
  });
});
