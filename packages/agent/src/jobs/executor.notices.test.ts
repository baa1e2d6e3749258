import { describe, expect, it } from 'vitest';
import { createLinuxNotifier } from '../notify/linux.js';
import { fixture } from '../platform/fixtures/fixtures.js';
import type { AgentCommand, Patch } from '../protocol.js';
import { fakeApi } from '../test/fake-api.js';
import { createFakePlatform } from '../test/fake-platform.js';
import { createFakeRunner, type FakeAnswer, type FakeRule } from '../test/fake-runner.js';
import { executeCommand } from './executor.js';
import { rebootWhenDue, type PendingReboot } from './notices.js';

/**
 * The executor with notices: a fake Linux machine (its processes answered by rules) with the
 * real Linux notifier, so the flow from the command's `notice` to zenity's answer and back
 * into the result is the agent's own code throughout.
 */

const api = fakeApi();

const deferral = { periods_h: [1, 4, 8], remaining: 3, max: 6, auto_defer: false };
const notice = { message: 'Updates are coming.', timeout_min: 15, deferral };

const install = (args: Partial<AgentCommand['args']> = {}): AgentCommand => ({
  id: 7,
  type: 'install_updates',
  args: { names: ['curl'], notice, reboot: { mode: 'when_needed', notice: null }, ...args },
  timeout_s: 7200,
  created_at: new Date().toISOString(),
});

const desktop: FakeRule[] = [
  [/^loginctl list-sessions/, { stdout: fixture('loginctl-list-sessions.txt') }],
  [/^loginctl show-session/, { stdout: fixture('loginctl-show-session.txt') }],
];

/** A machine whose user answers the first zenity dialog with `first` and any later one with `later`. */
function machine(first: FakeAnswer, later: FakeAnswer = { exitCode: 0 }, extra: FakeRule[] = []) {
  const answers = [first];
  return createFakeRunner([
    ...extra,
    ...desktop,
    [/zenity/, () => answers.shift() ?? later],
    [/^sh -c echo/, { stdout: 'installed\n' }],
    [/^echo reboot/, {}],
  ]);
}

const curlNeedsReboot: Patch = {
  name: 'curl',
  current_version: '7.88',
  version: '7.89',
  severity: 'high',
  cves: [],
  kb: null,
  source: 'apt',
  reboot_required: true,
  published_at: null,
};

function context(run: ReturnType<typeof machine>, allowChanges: boolean, knownPatches: Patch[] = []) {
  return {
    platform: createFakePlatform({ notifier: createLinuxNotifier({ run, uid: 0 }) }),
    api,
    allowChanges,
    run,
    knownPatches,
  };
}

describe('executeCommand with a notice', () => {
  it('runs nothing when the user defers, and reports the deferral', async () => {
    const run = machine({ exitCode: 1, stdout: 'Defer 4 h\n' });
    const result = await executeCommand(install(), context(run, true));
    expect(result).toMatchObject({ status: 'canceled', notice: { shown: true, choice: 'defer', defer_h: 4 } });
    expect(result.stdout_tail).toMatch(/Deferred by the user for 4 h/);
    expect(run.lines().some((l) => l.startsWith('sh -c'))).toBe(false);
    // The user saw how many deferrals are left.
    expect(run.lines().find((l) => l.includes('zenity'))).toContain('You can defer 3 more times.');
  });

  it('installs after "Install now" and reboots when an installed update needs it', async () => {
    const run = machine({ exitCode: 0 });
    const result = await executeCommand(install(), context(run, true, [curlNeedsReboot]));
    expect(result).toMatchObject({
      status: 'success',
      notice: { shown: true, choice: 'proceed' },
      reboot: { outcome: 'rebooting', delay_s: 60, reason: 'curl needs a restart' },
    });
    expect(run.lines()).toContain('echo reboot 60');
  });

  it('only reports the reboot it would do without --allow-changes', async () => {
    const run = machine({ exitCode: 0 });
    const result = await executeCommand(install(), context(run, false, [curlNeedsReboot]));
    expect(result.reboot).toMatchObject({ outcome: 'rebooting', simulated: true });
    expect(run.lines()).not.toContain('echo reboot 60');
  });

  it('does not reboot when nothing needs it', async () => {
    const run = machine({ exitCode: 0 });
    const result = await executeCommand(install(), context(run, true));
    expect(result.reboot).toEqual({ outcome: 'none', reason: 'nothing needs a restart' });
    expect(run.lines().some((l) => l.startsWith('echo reboot'))).toBe(false);
  });

  it('defers by the longest period when the notice times out and the policy auto-defers', async () => {
    const run = machine({ exitCode: 5 });
    const result = await executeCommand(
      install({ notice: { ...notice, deferral: { ...deferral, auto_defer: true } } }),
      context(run, true),
    );
    expect(result).toMatchObject({ status: 'canceled', notice: { choice: 'defer', defer_h: 8, timed_out: true } });
  });

  it('goes ahead when nobody is signed in, and says so', async () => {
    const run = machine({}, {}, [[/^loginctl list-sessions/, { stdout: '' }]]);
    const result = await executeCommand(install(), context(run, true));
    expect(result).toMatchObject({ status: 'success', notice: { shown: false, reason: 'no signed-in user' } });
    expect(run.lines().some((l) => l.startsWith('sh -c'))).toBe(true);
  });

  it('lets the user push a reboot back: the OS schedules it after the chosen period', async () => {
    const run = machine({ exitCode: 0 }, { exitCode: 1, stdout: 'Defer 2 h\n' });
    const reboot = {
      mode: 'auto' as const,
      notice: {
        message: 'Restarting.',
        timeout_min: 15,
        deferral: { periods_h: [2], remaining: 6, max: 6, auto_defer: false },
      },
    };
    const result = await executeCommand(install({ reboot }), context(run, true));
    expect(result.reboot).toMatchObject({
      outcome: 'scheduled',
      delay_s: 7200,
      notice: { choice: 'defer', defer_h: 2 },
    });
    expect(run.lines()).toContain('echo reboot 7200');
    // The reboot dialog offers "Restart now".
    expect(
      run
        .lines()
        .filter((l) => l.includes('zenity'))
        .at(-1),
    ).toContain('--ok-label=Restart now');
  });

  it('in notify mode tells the user a restart is pending and does not restart', async () => {
    const run = machine({ exitCode: 0 });
    const reboot = { mode: 'notify' as const, notice: { message: 'Restart soon.', timeout_min: 15, deferral: null } };
    const result = await executeCommand(install({ reboot }), context(run, true, [curlNeedsReboot]));
    expect(result.reboot).toMatchObject({ outcome: 'notified', notice: { shown: true } });
    expect(run.lines().some((l) => l.startsWith('echo reboot'))).toBe(false);
  });

  it('shows no notice before a remediation it refuses to run (no --allow-changes)', async () => {
    const run = machine({ exitCode: 0 });
    const result = await executeCommand(
      { ...install(), type: 'run_script', args: { script: 'true', purpose: 'remediate', notice } },
      context(run, false),
    );
    expect(result.status).toBe('error');
    expect(result.notice).toBeUndefined();
    expect(run.calls).toHaveLength(0);
  });
});

describe('a restart the user defers', () => {
  const restartNotice = {
    message: 'Your computer restarts to finish updating.',
    timeout_min: 15,
    deferral: { periods_h: [1, 4], remaining: 2, max: 2, auto_defer: false },
  };
  const now = () => new Date('2026-11-21T10:00:00.000Z');

  it('is kept by the service with one deferral fewer, asked again when due, and done once they are spent', async () => {
    // The install runs without a notice; the restart's notice is answered "Defer 4 h", twice.
    const run = machine({ exitCode: 1, stdout: 'Defer 4 h\n' }, { exitCode: 1, stdout: 'Defer 4 h\n' });
    const kept: PendingReboot[] = [];
    const result = await executeCommand(
      install({ notice: undefined, reboot: { mode: 'auto', notice: restartNotice } }),
      {
        ...context(run, true),
        now,
        deferReboot: async (pending) => {
          kept.push(pending);
        },
      },
    );
    expect(result.reboot).toMatchObject({ outcome: 'scheduled', delay_s: 4 * 3600 });
    expect(run.lines().some((l) => l.startsWith('echo reboot'))).toBe(false);
    expect(kept).toEqual([
      {
        due_at: '2026-11-21T14:00:00.000Z',
        reason: 'the policy restarts after every run',
        notice: { ...restartNotice, deferral: { ...restartNotice.deferral, remaining: 1 } },
      },
    ]);

    // Due: the user defers the last time; the next notice offers no deferral.
    const ctx = { platform: context(run, true).platform, allowChanges: true, run, now };
    const second = await rebootWhenDue(kept[0]!, ctx);
    expect(second.report).toMatchObject({ outcome: 'scheduled', delay_s: 4 * 3600 });
    expect(second.next).toMatchObject({ due_at: '2026-11-21T14:00:00.000Z', notice: { deferral: null } });
    expect(run.lines().some((l) => l.startsWith('echo reboot'))).toBe(false);

    // Due again: only "Restart now" is offered, and the machine restarts.
    const last = await rebootWhenDue(second.next!, ctx);
    expect(last.next).toBeNull();
    expect(last.report).toMatchObject({ outcome: 'rebooting', delay_s: 60 });
    expect(run.lines()).toContain('echo reboot 60');
    const dialogs = run.lines().filter((l) => l.includes('zenity'));
    expect(dialogs.at(-1)).not.toContain('Defer');
  });
});
