import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_PENDING_MAX_BYTES, TUNNEL_CLOSE, createRelayHub, type RelayOutcome } from './remote-relay';

/**
 * The relay of one node on real sockets: a loopback WebSocket server hands each accepted
 * socket to the hub, as the tunnel routes do. The idle timeout is given in milliseconds
 * here; the service turns the zone's minutes into it.
 */

let server: WebSocketServer;
let url: string;
const accepted: WebSocket[] = [];
const waiting: ((socket: WebSocket) => void)[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => {
    const next = waiting.shift();
    if (next) next(socket);
    else accepted.push(socket);
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A client and the server's side of it. */
async function connect(): Promise<{ client: WebSocket; served: WebSocket }> {
  const served = new Promise<WebSocket>((resolve) => {
    const ready = accepted.shift();
    if (ready) resolve(ready);
    else waiting.push(resolve);
  });
  const client = new WebSocket(url);
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  return { client, served: await served };
}

const closeOf = (socket: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

function hub() {
  const ended: RelayOutcome[] = [];
  const connected: number[] = [];
  let notify = () => {};
  const relay = createRelayHub({
    onConnected: (id) => connected.push(id),
    onEnded: (outcome) => {
      ended.push(outcome);
      notify();
    },
  });
  const endedOnce = () =>
    new Promise<RelayOutcome>((resolve) => {
      if (ended[0]) return resolve(ended[0]);
      notify = () => resolve(ended[0]!);
    });
  return { relay, ended, connected, endedOnce };
}

describe('the relay hub', () => {
  it('ends a session with no byte either way after its idle time, closing both ends with 4408', async () => {
    const { relay, endedOnce } = hub();
    const browser = await connect();
    const agent = await connect();
    const session = { id: 1, kind: 'shell' as const, idleMs: 150 };
    relay.attach(session, 'browser', browser.served);
    relay.attach(session, 'agent', agent.served);
    const got = new Promise<Buffer>((resolve) => agent.client.once('message', (d) => resolve(d as Buffer)));
    browser.client.send(Buffer.from('ls\n'));
    expect((await got).toString()).toBe('ls\n');

    const [browserClosed, agentClosed, outcome] = await Promise.all([
      closeOf(browser.client),
      closeOf(agent.client),
      endedOnce(),
    ]);
    expect(browserClosed).toEqual({ code: TUNNEL_CLOSE.idle, reason: 'idle' });
    expect(agentClosed).toEqual({ code: TUNNEL_CLOSE.idle, reason: 'idle' });
    expect(outcome).toMatchObject({ id: 1, reason: 'idle', connected: true, bytesToDevice: 3 });
    expect(relay.has(1)).toBe(false);
  });

  it('refuses an end that is already attached', async () => {
    const { relay } = hub();
    const first = await connect();
    const second = await connect();
    const session = { id: 2, kind: 'control' as const, idleMs: 60_000 };
    expect(relay.attach(session, 'browser', first.served)).toBe(true);
    expect(relay.attach(session, 'browser', second.served)).toBe(false);
    relay.end(2, 'ended');
    await closeOf(first.client);
    second.client.close();
  });

  it('holds what one end sends until the other arrives, up to its bound', async () => {
    const { relay, endedOnce } = hub();
    const browser = await connect();
    const session = { id: 3, kind: 'shell' as const, idleMs: 60_000 };
    relay.attach(session, 'browser', browser.served);
    browser.client.send(Buffer.from('echo early\n'));
    const agent = await connect();
    const got = new Promise<Buffer>((resolve) => agent.client.once('message', (d) => resolve(d as Buffer)));
    relay.attach(session, 'agent', agent.served);
    expect((await got).toString()).toBe('echo early\n');
    relay.end(3, 'ended');
    await endedOnce();

    const { relay: other, endedOnce: otherEnded } = hub();
    const flood = await connect();
    other.attach({ id: 4, kind: 'shell', idleMs: 60_000 }, 'browser', flood.served);
    const closed = closeOf(flood.client);
    flood.client.send(Buffer.alloc(RELAY_PENDING_MAX_BYTES + 1));
    expect((await closed).code).toBe(TUNNEL_CLOSE.tooMuch);
    expect((await otherEnded()).reason).toBe('browser');
  });
});
