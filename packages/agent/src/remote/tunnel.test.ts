import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { fixture } from '../platform/fixtures/fixtures.js';
import { createFakeRunner } from '../test/fake-runner.js';
import { desktopDisplay, existingVncServer, freePort, shellSpawn, x11vncAuth } from './tunnel.js';

describe('x11vncAuth', () => {
  it('uses the agent’s XAUTHORITY when it has one', () => {
    expect(x11vncAuth({ XAUTHORITY: '/run/user/1000/gdm/Xauthority', DISPLAY: ':0' }, 0)).toEqual({
      auth: '/run/user/1000/gdm/Xauthority',
    });
  });

  it('lets a root service without a display guess the display owner’s cookie', () => {
    expect(x11vncAuth({}, 0)).toEqual({ auth: 'guess' });
  });

  it('uses a display it was given as it is (a bare Xvfb has no cookie to guess)', () => {
    expect(x11vncAuth({ DISPLAY: ':99' }, 0)).toEqual({});
    expect(x11vncAuth({}, 1000)).toEqual({});
  });
});

describe('desktopDisplay', () => {
  const sessions = (show: string): [RegExp, { stdout: string }][] => [
    [/^loginctl list-sessions/, { stdout: fixture('loginctl-list-sessions.txt') }],
    [/^loginctl show-session/, { stdout: show }],
  ];

  it('takes the agent’s own DISPLAY first', async () => {
    expect(await desktopDisplay(createFakeRunner([]), { DISPLAY: ':7' })).toBe(':7');
  });

  it('finds the signed-in user’s graphical session through logind', async () => {
    const run = createFakeRunner(sessions(fixture('loginctl-show-session-x11.txt')));
    expect(await desktopDisplay(run, {})).toBe(':1');
  });

  it('says so when that session is Wayland, and falls back to :0 without logind', async () => {
    const wayland = fixture('loginctl-show-session-x11.txt')
      .replace('Type=x11', 'Type=wayland')
      .replace('Display=:1', 'Display=');
    await expect(desktopDisplay(createFakeRunner(sessions(wayland)), {})).rejects.toThrow(
      /carol's session uses Wayland/,
    );
    const none = createFakeRunner([[/^loginctl list-sessions/, { exitCode: 1 }]]);
    expect(await desktopDisplay(none, {})).toBe(':0');
  });
});

describe('existingVncServer', () => {
  /** A loopback server that greets each connection with `greeting`. */
  async function greeter(greeting: string) {
    const server = net.createServer((c) => c.end(greeting));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
  }

  it('joins a VNC server the device runs (its RFB greeting), and leaves it running', async () => {
    const vnc = await greeter('RFB 003.889\n');
    try {
      const desktop = await existingVncServer(vnc.port, 'Screen Sharing');
      expect(desktop.port).toBe(vnc.port);
      await desktop.stop();
    } finally {
      vnc.close();
    }
  });

  it('says which server is missing when the port is closed or is not VNC', async () => {
    const web = await greeter('HTTP/1.1 400 Bad Request\r\n\r\n');
    try {
      await expect(existingVncServer(web.port, 'Screen Sharing')).rejects.toThrow(
        /Screen Sharing is not on at 127\.0\.0\.1:/,
      );
    } finally {
      web.close();
    }
    const port = await freePort();
    await expect(existingVncServer(port, 'A VNC server')).rejects.toThrow(/A VNC server is not on/);
  });
});

describe('shellSpawn', () => {
  const size = { cols: 100, rows: 30 };
  it('runs the shell under script on Linux and macOS (their two forms), PowerShell on Windows', () => {
    expect(shellSpawn('linux', '/bin/bash', size)).toEqual({
      command: 'script',
      args: ['-qfc', '/bin/bash', '/dev/null'],
      first: 'stty cols 100 rows 30\n',
    });
    expect(shellSpawn('darwin', '/bin/zsh', size)).toMatchObject({
      command: '/usr/bin/script',
      args: ['-q', '/dev/null', '/bin/zsh'],
    });
    expect(shellSpawn('win32', 'ignored', size)).toEqual({
      command: 'powershell.exe',
      args: ['-NoLogo', '-NoProfile', '-Command', '-'],
      first: '',
    });
  });
});
