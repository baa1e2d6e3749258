import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import WebSocket from 'ws';

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
 * Joins the tunnel to `shell` under a pseudo-terminal made by util-linux `script` (no native
 * module). `script` starts with a 0×0 size and has no resize call, so the first line sets one.
 */
export async function bridgeToPty(
  socket: WebSocket,
  options: { shell?: string; cols?: number; rows?: number } = {},
): Promise<void> {
  const shell = options.shell ?? process.env.SHELL ?? '/bin/bash';
  const child: ChildProcess = spawn('script', ['-qfc', shell, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, TERM: 'xterm-256color' },
  });
  child.stdin!.write(`stty cols ${options.cols ?? 120} rows ${options.rows ?? 40}\n`);
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
