import WebSocket from 'ws';
import { expect } from 'vitest';
import type { TestApp } from './app';
import {
  agentCall,
  buildZoneWithKey,
  checkinAs,
  enrollDevice,
  flushLastSeen,
  inventoryBody,
  type EnrolledDevice,
} from './agents';

/**
 * Remote sessions in tests (decision 0016): a device ready for one, the agent's consent, and
 * the console's end of the tunnel as a `ws` client with the session cookie.
 */

export type Zone = Awaited<ReturnType<typeof buildZoneWithKey>>;

/** A zone with the remote-control flag on (its plan is Complete by default). */
export async function buildRemoteZone(t: TestApp): Promise<Zone> {
  const zone = await buildZoneWithKey(t);
  const flags = await zone.admin.put(`/api/accounts/${zone.account.id}/flags`, { remote_control: true });
  expect(flags.status).toBe(200);
  return zone;
}

/** A device online and past its first inventory. */
export async function readyDevice(t: TestApp, zone: Zone): Promise<EnrolledDevice> {
  const device = await enrollDevice(t, zone.accessKey);
  expect((await agentCall(t, device.token, 'PUT', '/inventory', inventoryBody())).status).toBeLessThan(300);
  expect((await checkinAs(t, device.token)).status).toBe(200);
  await flushLastSeen(t);
  return device;
}

/** `POST /api/servers/{id}/remote-sessions` as `caller` (the zone's administrator by default). */
export const startSession = (
  zone: Zone,
  device: EnrolledDevice,
  kind: 'control' | 'shell' = 'control',
  caller = zone.admin,
  zoneId = zone.zone.id,
) => caller.post(`/api/servers/${device.id}/remote-sessions?o=${zoneId}`, { kind });

/** The agent's side: the `remote_session` command from a check-in on `t`, then the consent answer. */
export async function agentReceives(t: TestApp, device: EnrolledDevice, sessionId: number, granted = true) {
  const checkin = await checkinAs(t, device.token);
  const command = checkin.body.commands.find(
    (c: { type: string; args: { remote?: { session_id: number } } }) =>
      c.type === 'remote_session' && c.args.remote?.session_id === sessionId,
  );
  expect(command?.args.remote).toMatchObject({ session_id: sessionId, ask_consent: true });
  const answer = await agentCall(t, device.token, 'POST', `/remote-sessions/${sessionId}/consent`, { granted });
  expect(answer.status).toBe(204);
}

export type Browser = {
  socket: WebSocket;
  received(): string;
  waitFor(text: string): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
};

/** The console's end on the node at `baseUrl`: a WebSocket with the session cookie and the single-use token. */
export function openBrowser(baseUrl: string, path: string, token: string, cookie: string): Browser {
  const url = new URL(`${path}?token=${encodeURIComponent(token)}`, baseUrl);
  url.protocol = 'ws:';
  const socket = new WebSocket(url, { headers: { cookie } });
  const chunks: Buffer[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    chunks.push(data as Buffer);
    for (const w of waiters) w();
  });
  const received = () => Buffer.concat(chunks).toString('latin1');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    socket,
    received,
    closed,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received().includes(text)) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        void closed.then(() => {
          check();
          if (waiters.has(check)) reject(new Error(`closed before ${JSON.stringify(text)}; got ${received()}`));
        });
        check();
      }),
  };
}

export const opened = (socket: WebSocket) => new Promise<void>((resolve) => socket.once('open', () => resolve()));

/** Waits until `read` answers something `done` accepts (the relay writes its row after the close). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Opens the console's end of a created session on `node` and waits until that node's relay holds it. */
export async function browserHeldBy(
  node: TestApp,
  zone: Zone,
  created: { body: { id: number; tunnel_path: string; token: string } },
): Promise<Browser> {
  const browser = openBrowser(node.url, created.body.tunnel_path, created.body.token, zone.cookie);
  await opened(browser.socket);
  await eventually(
    async () => node.app.remoteRelay.has(created.body.id),
    (held) => held,
  );
  return browser;
}
