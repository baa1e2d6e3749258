import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import WebSocket from 'ws';
import type { ProcessRunner } from '../jobs/process.js';
import { loginSessions } from '../notify/linux.js';
import { pickSessions } from '../notify/notify.parsers.js';

/**
 * The agent's end of a remote session (decision 0016): an outbound WebSocket to the server,
 * joined to a loopback VNC server (remote control) or a shell under a pseudo-terminal (remote
 * shell). Bytes only: the browser's noVNC and xterm speak RFB and the terminal end to end.
 */

/** Opens the agent's end of session `sessionId`: `wss://server/api/agent/v1/remote-sessions/{id}/tunnel`. */
export function openTunnel(serverUrl: string, deviceToken: string, sessionId: number): Promise<WebSocket> {
  const url = new URL(`/api/agent/v1/remote-sessions/${sessionId}/tunnel`, serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url, {
    headers: { authorization: `Bearer ${deviceToken}` },
    maxPayload: 4 * 1024 * 1024,
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`tunnel refused: HTTP ${res.statusCode}`)));
  });
}

/** Until the socket closes (resolves with the close code and reason). */
const closed = (socket: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve({ code: 1006, reason: '' });
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });

/** Joins the tunnel to a TCP server on loopback (the VNC server) until either side closes. */
export async function bridgeToTcp(socket: WebSocket, port: number, host = '127.0.0.1'): Promise<void> {
  const tcp = net.connect({ port, host });
  tcp.on('data', (chunk) => socket.send(chunk, { binary: true }));
  socket.on('message', (data) => tcp.write(data as Buffer));
  tcp.on('close', () => socket.close(1000, 'vnc closed'));
  tcp.on('error', () => socket.close(1000, 'vnc failed'));
  await closed(socket);
  tcp.destroy();
}

/**
 * How the remote shell is started on each system (no native module): on Linux and macOS the
 * shell under a pseudo-terminal made by `script` (util-linux's `-qfc SHELL FILE` and the BSD
 * form `-q FILE SHELL` differ), which starts with a 0×0 size and has no resize call, so the
 * first line sets one; on Windows PowerShell reading its commands from the tunnel (`-Command
 * -`: no pseudo-terminal, so no prompt and no line editing, but every command and its output).
 */
export function shellSpawn(
  platform: NodeJS.Platform,
  shell: string,
  size: { cols: number; rows: number },
): { command: string; args: string[]; first: string } {
  if (platform === 'win32') {
    return { command: 'powershell.exe', args: ['-NoLogo', '-NoProfile', '-Command', '-'], first: '' };
  }
  const first = `stty cols ${size.cols} rows ${size.rows}\n`;
  if (platform === 'darwin') return { command: '/usr/bin/script', args: ['-q', '/dev/null', shell], first };
  return { command: 'script', args: ['-qfc', shell, '/dev/null'], first };
}

/** Joins the tunnel to the system's shell (see {@link shellSpawn}) until either side ends. */
export async function bridgeToPty(
  socket: WebSocket,
  options: { shell?: string; cols?: number; rows?: number } = {},
): Promise<void> {
  const shell = options.shell ?? process.env.SHELL ?? '/bin/bash';
  const how = shellSpawn(process.platform, shell, { cols: options.cols ?? 120, rows: options.rows ?? 40 });
  const child: ChildProcess = spawn(how.command, how.args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, TERM: 'xterm-256color' },
    windowsHide: true,
  });
  if (how.first) child.stdin!.write(how.first);
  const out = (chunk: Buffer) => socket.readyState === WebSocket.OPEN && socket.send(chunk, { binary: true });
  child.stdout!.on('data', out);
  child.stderr!.on('data', out);
  socket.on('message', (data) => child.stdin!.write(data as Buffer));
  child.on('exit', () => socket.close(1000, 'shell exited'));
  child.on('error', () => socket.close(1000, 'shell failed'));
  await closed(socket);
  if (child.exitCode === null) child.kill('SIGHUP');
}

/** Waits until something accepts TCP connections on `port` (a VNC server starting), or throws after `ms`. */
export async function waitForPort(port: number, ms: number, host = '127.0.0.1'): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect({ port, host });
      c.once('connect', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${host}:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The X authority x11vnc should use: the agent's `XAUTHORITY` when it has one; a root agent
 * without a display of its own guesses the display owner's (x11vnc `-auth guess`); an agent
 * told its `DISPLAY` uses it as it is (`-auth guess` fails on a display without access
 * control, such as a bare Xvfb, where no cookie is needed at all).
 */
export function x11vncAuth(env: NodeJS.ProcessEnv, uid: number | undefined): { auth?: string } {
  if (env.XAUTHORITY) return { auth: env.XAUTHORITY };
  return uid === 0 && !env.DISPLAY ? { auth: 'guess' } : {};
}

/**
 * A VNC server the device already runs on loopback (macOS Screen Sharing, a Windows VNC server
 * such as TightVNC or UltraVNC): the agent starts nothing and stops nothing, it checks that
 * `port` answers with an RFB greeting and joins the tunnel to it. Its own authentication
 * (the Mac's account, the server's password) is asked in the console.
 */
export async function existingVncServer(port: number, what: string): Promise<{ port: number; stop(): Promise<void> }> {
  const greeting = await new Promise<string>((resolve) => {
    const c = net.connect({ port, host: '127.0.0.1' });
    let got = '';
    const done = () => (c.destroy(), resolve(got));
    c.setTimeout(3_000, done);
    c.on('data', (d) => {
      got += d.toString('latin1');
      if (got.length >= 12) done();
    });
    c.once('error', done);
    c.once('close', done);
  });
  if (!/^RFB \d{3}\.\d{3}\n/.test(greeting)) throw new Error(`${what} is not on at 127.0.0.1:${port}`);
  return { port, stop: async () => undefined };
}

/**
 * The X display to show: the agent's `DISPLAY` when it has one (run inside a desktop session),
 * else the display of the signed-in user's graphical session that logind reports (the active
 * one first), else `:0`. A Wayland session has no X display x11vnc can read: that is said
 * instead of showing the login screen's display.
 */
export async function desktopDisplay(run: ProcessRunner, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.DISPLAY) return env.DISPLAY;
  const sessions = await loginSessions(run);
  const graphical = sessions ? pickSessions(sessions).graphical : null;
  if (graphical?.type === 'wayland' && !graphical.display) {
    throw new Error(`${graphical.name}'s session uses Wayland, which x11vnc cannot show`);
  }
  return graphical?.display || ':0';
}

/**
 * Starts `x11vnc` on `display` for one session: loopback only, no password (the tunnel is the
 * only way in), `-once` so it exits when the session's viewer leaves. Resolves once it listens.
 */
export async function startX11vnc(display: string, options: { port?: number; auth?: string } = {}) {
  const port = options.port ?? (await freePort());
  const args = ['-display', display, '-localhost', '-rfbport', String(port), '-nopw', '-once', '-quiet', '-noxdamage'];
  if (options.auth) args.push('-auth', options.auth);
  const child = spawn('x11vnc', args, { stdio: 'ignore' });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`x11vnc exited with ${code}`))),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(port, 10_000), exited]);
  return {
    port,
    /** Stops it; x11vnc may ignore SIGTERM once its display is gone, so SIGKILL follows after 2 s. */
    stop(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => child.kill('SIGKILL'), 2_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
