import { describe, expect, it } from 'vitest';
import { fixture } from '../platform/fixtures/fixtures.js';
import { createFakeRunner } from '../test/fake-runner.js';
import { createLinuxNotifier } from './linux.js';
import { createMacNotifier } from './mac.js';
import type { NoticeRequest } from './notifier.js';
import { createWindowsNotifier } from './windows.js';

const request: NoticeRequest = {
  message: 'Updates now; save "your" work.',
  timeoutS: 900,
  periodsH: [1, 4, 8],
  proceedLabel: 'Install now',
};

const sessions = (show: string): [RegExp, { stdout: string }][] => [
  [/^loginctl list-sessions/, { stdout: fixture('loginctl-list-sessions.txt') }],
  [/^loginctl show-session/, { stdout: show }],
];

describe('the Linux notifier', () => {
  it('asks the desktop user with zenity, as that user on their session bus, with a button per deferral', async () => {
    const run = createFakeRunner([
      ...sessions(fixture('loginctl-show-session.txt')),
      [/zenity/, { exitCode: 1, stdout: 'Defer 4 h\n' }],
    ]);
    const answer = await createLinuxNotifier({ run, uid: 0, env: {} }).show(request);
    expect(answer).toEqual({ shown: true, answer: 'defer', deferH: 4 });
    const zenity = run.calls.find((c) => c.args.includes('zenity'))!;
    expect(zenity.command).toBe('runuser');
    expect(zenity.args).toEqual(
      expect.arrayContaining([
        'alice',
        'DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus',
        'XDG_RUNTIME_DIR=/run/user/1000',
        'WAYLAND_DISPLAY=wayland-0',
        '--question',
        `--text=${request.message}`,
        '--timeout=900',
        '--ok-label=Install now',
        '--cancel-label=Defer 1 h',
        '--extra-button=Defer 4 h',
        '--extra-button=Defer 8 h',
      ]),
    );
    // loginctl is asked about all sessions at once.
    expect(run.lines()[1]).toMatch(/^loginctl show-session 2 14 c1 -p Id/);
  });

  it('falls back to notify-send without zenity, saying no choice could be offered', async () => {
    const run = createFakeRunner([...sessions(fixture('loginctl-show-session-x11.txt')), [/notify-send/, {}]]);
    const answer = await createLinuxNotifier({ run, uid: 0, env: {} }).show(request);
    expect(answer).toEqual({
      shown: true,
      answer: 'proceed',
      note: 'zenity is not installed: no choice could be offered',
    });
    expect(run.lines().find((l) => l.includes('notify-send'))).toContain('DISPLAY=:1');
  });

  it('writes to terminal sessions with wall when nobody has a desktop', async () => {
    const terminalsOnly = fixture('loginctl-show-session.txt').split('\n\n')[1]!;
    const run = createFakeRunner([...sessions(terminalsOnly), [/^wall/, {}]]);
    const answer = await createLinuxNotifier({ run, uid: 0, env: {} }).show(request);
    expect(answer).toMatchObject({ shown: true, answer: 'proceed', note: expect.stringMatching(/wall/) });
    expect(run.calls.at(-1)!.input).toBe(`Patchwell: ${request.message}\n`);
  });

  it('finds terminal users with who where logind is missing', async () => {
    const run = createFakeRunner([
      [/^loginctl/, { exitCode: 1, stderr: 'System has not been booted with systemd as init system (PID 1).' }],
      [/^who/, { stdout: 'bob      pts/0        2026-11-21 17:00 (10.0.0.5)\n' }],
      [/^wall/, {}],
    ]);
    expect(await createLinuxNotifier({ run, uid: 0, env: {} }).show(request)).toMatchObject({
      shown: true,
      answer: 'proceed',
    });
    const nobody = createFakeRunner([
      [/^loginctl/, { exitCode: 1 }],
      [/^who/, { stdout: '' }],
    ]);
    expect(await createLinuxNotifier({ run: nobody, uid: 0 }).show(request)).toEqual({
      shown: false,
      reason: 'no signed-in user',
    });
  });

  it('does not show anything when nobody is signed in', async () => {
    const run = createFakeRunner([[/^loginctl list-sessions/, { stdout: '' }]]);
    expect(await createLinuxNotifier({ run, uid: 0, env: {} }).show(request)).toEqual({
      shown: false,
      reason: 'no signed-in user',
    });
  });

  it('asks on the agent’s own display when logind lists no desktop (an agent started in the session)', async () => {
    const run = createFakeRunner([
      [/^loginctl list-sessions/, { stdout: '' }],
      [/^env DISPLAY=:5 zenity/, { exitCode: 0 }],
    ]);
    const consent = { ...request, periodsH: [], proceedLabel: 'Allow', requireChoice: true };
    const answer = await createLinuxNotifier({ run, uid: 1000, env: { DISPLAY: ':5' } }).show(consent);
    expect(answer).toEqual({ shown: true, answer: 'proceed' });
    const zenity = run.calls.find((c) => c.args.includes('zenity'))!;
    expect(zenity.args).toEqual(expect.arrayContaining(['DISPLAY=:5', '--info', '--ok-label=Allow']));
  });

  it('cannot reach another user’s desktop without root', async () => {
    const run = createFakeRunner(sessions(fixture('loginctl-show-session.txt')));
    const answer = await createLinuxNotifier({ run, uid: 1500, env: {} }).show(request);
    expect(answer).toMatchObject({ shown: false, reason: expect.stringMatching(/not run as root.*alice/) });
    expect(run.lines().some((l) => l.includes('zenity'))).toBe(false);
  });
});

describe('the macOS notifier', () => {
  it('shows the dialog in the console user’s session, passing the texts as arguments', async () => {
    const run = createFakeRunner([
      [/^\/usr\/bin\/stat/, { stdout: 'alice\n' }],
      [/^\/usr\/bin\/id -u alice/, { stdout: '501\n' }],
      [/^\/bin\/launchctl asuser 501/, { stdout: 'Defer 8 h\n' }],
    ]);
    expect(await createMacNotifier({ run, uid: 0 }).show(request)).toEqual({ shown: true, answer: 'defer', deferH: 8 });
    const args = run.calls.at(-1)!.args;
    expect(args.slice(0, 5)).toEqual(['asuser', '501', '/usr/bin/sudo', '-u', 'alice']);
    expect(args.slice(-8)).toEqual([
      request.message,
      '900',
      'Install now',
      'Patchwell',
      '',
      'Defer 1 h',
      'Defer 4 h',
      'Defer 8 h',
    ]);
    // The message never becomes AppleScript code.
    expect(args.filter((a, i) => args[i - 1] === '-e').join('\n')).not.toContain('save');
  });

  it('does not show anything at the login window', async () => {
    const run = createFakeRunner([[/^\/usr\/bin\/stat/, { stdout: 'root\n' }]]);
    expect(await createMacNotifier({ run, uid: 0 }).show(request)).toEqual({
      shown: false,
      reason: 'no signed-in user',
    });
  });
});

describe('the Windows notifier', () => {
  const decode = (args: string[]) => Buffer.from(args.at(-1)!, 'base64').toString('utf16le');

  it('asks a deferral through WTSSendMessage, the texts as PowerShell literals, No deferring by the longest period', async () => {
    const run = createFakeRunner([[/^powershell\.exe/, { stdout: 'answer=7\r\n' }]]);
    const answer = await createWindowsNotifier({ run }).show(request);
    expect(answer).toEqual({ shown: true, answer: 'defer', deferH: 8 });
    const call = run.calls[0]!;
    expect(call.args.slice(0, 5)).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    const script = decode(call.args);
    expect(script).toContain('WTSSendMessageW');
    // The message's quotes stay inside one literal: nothing in it is code.
    expect(script).toContain(`'Updates now; save "your" work.\n\nYes: Install now. No: Defer 8 h.', 900)`);
  });

  it('carries a consent: Yes allows, No denies, no answer times out', async () => {
    const consent: NoticeRequest = {
      message: "Allow the admin's session?",
      timeoutS: 90,
      periodsH: [],
      proceedLabel: 'Allow',
      declineLabel: 'Deny',
      requireChoice: true,
    };
    for (const [code, answer] of [
      ['6', 'proceed'],
      ['7', 'decline'],
      ['32000', 'timeout'],
    ] as const) {
      const run = createFakeRunner([[/^powershell\.exe/, { stdout: `answer=${code}\n` }]]);
      expect(await createWindowsNotifier({ run }).show(consent)).toEqual({ shown: true, answer });
      expect(decode(run.calls[0]!.args)).toContain(`'Allow the admin''s session?\n\nYes: Allow. No: Deny.', 90)`);
    }
  });

  it('records that nobody was signed in, and why a question failed', async () => {
    const nobody = createFakeRunner([[/^powershell\.exe/, { stdout: 'nosession\n' }]]);
    expect(await createWindowsNotifier({ run: nobody }).show(request)).toEqual({
      shown: false,
      reason: 'no signed-in user',
    });
    const failed = createFakeRunner([[/^powershell\.exe/, { stdout: 'failed=5\n' }]]);
    expect(await createWindowsNotifier({ run: failed }).show(request)).toEqual({
      shown: false,
      reason: 'WTSSendMessage failed (error 5)',
    });
  });

  it('sends an informative notice to every session with msg.exe', async () => {
    const info = { ...request, periodsH: [] };
    const run = createFakeRunner([[/^msg\.exe/, {}]]);
    expect(await createWindowsNotifier({ run }).show(info)).toEqual({ shown: true, answer: 'proceed' });
    expect(run.calls[0]!.args).toEqual(['*', '/TIME:900', `Patchwell: ${request.message}`]);
    const nobody = createFakeRunner([[/^msg\.exe/, { exitCode: 1, stderr: 'No session exists for *\n' }]]);
    expect(await createWindowsNotifier({ run: nobody }).show(info)).toEqual({
      shown: false,
      reason: 'no signed-in user',
    });
  });
});
