import { randomBytes } from 'node:crypto';
import os from 'node:os';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_TEXTS } from '@patchwell/core/remote/remote-sessions.schema';
import { bridgeToPty, openTunnel } from '@patchwell/agent/remote/tunnel';
import { startTestApp, type TestApp } from '../../test/app';
import { createTestClock } from '../../test/clock';
import { createTestDb, type TestDbHandle } from '../../test/db';
import {
  agentReceives,
  browserHeldBy,
  buildRemoteZone,
  eventually,
  openBrowser,
  opened,
  readyDevice,
  startSession,
  type Zone,
} from '../../test/remote';
import {
  RELAY_SIGNATURE_HEADER,
  internalEndPath,
  internalTunnelPath,
  signRelayRequest,
  tunnelPurpose,
  endPurpose,
  verifyRelayRequest,
} from './remote-forward';

/**
 * Two server nodes on one database (decision 0016): a session's ends reach different nodes,
 * the second node forwards its end to the node that relays the session, and ends and
 * refusals asked on one node close the ends held by the other. Both nodes listen on loopback,
 * so each is reached at its own address; they share the secret key, as nodes of one
 * database must.
 */

const secretKey = randomBytes(32);
let db: TestDbHandle;
let nodeA: TestApp;
let nodeB: TestApp;
let z: Zone;

beforeAll(async () => {
  db = await createTestDb();
  const clock = createTestClock();
  const config = { secretKey, ...(db.url ? { databaseUrl: db.url } : {}) };
  nodeA = await startTestApp({ db, clock, config });
  nodeB = await startTestApp({ db, clock, config });
  z = await buildRemoteZone(nodeA);
});
afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await db?.close();
});

const shellOn = async () => {
  const on = await z.admin.put(`/api/remote-settings?o=${z.zone.id}`, { shell_enabled: true });
  expect(on.status).toBe(200);
};

describe('a session whose ends reach two nodes', () => {
  it('relays a shell through the node the agent joined; an end asked on the other node gets the counters', async () => {
    await shellOn();
    const device = await readyDevice(nodeA, z);
    const created = await startSession(z, device, 'shell');
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    // The agent reaches node A first: A relays the session.
    await agentReceives(nodeA, device, id);
    const agentSocket = await openTunnel(nodeA.url, device.token, id);
    const agentDone = bridgeToPty(agentSocket, { shell: '/bin/bash' });
    await eventually(
      async () => nodeA.app.remoteRelay.has(id),
      (held) => held,
    );

    // The browser reaches node B, which pipes its end to A.
    const browser = openBrowser(nodeB.url, created.body.tunnel_path, created.body.token, z.cookie);
    await opened(browser.socket);
    browser.socket.send(Buffer.from('echo NODE-$((20+3)); hostname\n'));
    await browser.waitFor('NODE-23');
    await browser.waitFor(os.hostname());
    expect(nodeB.app.remoteRelay.has(id)).toBe(false);

    // Ended through node B: A closes both ends and hands B what it relayed.
    const ended = await nodeB.request(`/api/remote-sessions/${id}/end?o=${z.zone.id}`, {
      method: 'POST',
      headers: { cookie: z.cookie },
    });
    expect(ended.status).toBe(200);
    const body = (await ended.json()) as { bytes_from_device: number; bytes_to_device: number };
    expect(body).toMatchObject({ state: 'ended', end_reason: 'ended' });
    expect(body.bytes_from_device).toBeGreaterThan(0);
    expect(body.bytes_to_device).toBeGreaterThan(0);
    await browser.closed;
    await agentDone;
    expect(nodeA.app.remoteRelay.has(id)).toBe(false);

    const transcript = await z.admin.get(`/api/remote-sessions/${id}/transcript?o=${z.zone.id}`);
    expect(transcript.body.transcript).toContain('NODE-23');
  });

  it('closes a browser waiting on node A when the user refuses through node B', async () => {
    const device = await readyDevice(nodeA, z);
    const created = await startSession(z, device);
    const id = created.body.id as number;
    const browser = await browserHeldBy(nodeA, z, created);
    await agentReceives(nodeB, device, id, false);
    expect(await browser.closed).toEqual({ code: 4403, reason: REMOTE_TEXTS.noConsent });
  });

  it('pipes the agent’s end when the browser reached the other node first', async () => {
    await shellOn();
    const device = await readyDevice(nodeA, z);
    const created = await startSession(z, device, 'shell');
    const id = created.body.id as number;
    const browser = await browserHeldBy(nodeB, z, created);
    await agentReceives(nodeA, device, id);
    const agentDone = bridgeToPty(await openTunnel(nodeA.url, device.token, id), { shell: '/bin/bash' });
    browser.socket.send(Buffer.from('hostname\n'));
    await browser.waitFor(os.hostname());
    browser.socket.send(Buffer.from('exit\n'));
    await browser.closed;
    await agentDone;
    const session = await eventually(
      () => z.admin.get(`/api/remote-sessions/${id}?o=${z.zone.id}`),
      (r) => r.body.state === 'ended',
    );
    expect(session.body.bytes_from_device).toBeGreaterThan(0);
  });
});

describe('node-to-node requests', () => {
  const now = () => nodeA.clock.now().getTime();

  it('accept only a fresh signature for the same purpose under the shared key', () => {
    const signature = signRelayRequest(secretKey, tunnelPurpose(7, 'browser'), now());
    expect(verifyRelayRequest(secretKey, tunnelPurpose(7, 'browser'), signature, now())).toBe(true);
    expect(verifyRelayRequest(secretKey, tunnelPurpose(7, 'agent'), signature, now())).toBe(false);
    expect(verifyRelayRequest(secretKey, tunnelPurpose(8, 'browser'), signature, now())).toBe(false);
    expect(verifyRelayRequest(randomBytes(32), tunnelPurpose(7, 'browser'), signature, now())).toBe(false);
    expect(verifyRelayRequest(secretKey, tunnelPurpose(7, 'browser'), signature, now() + 61_000)).toBe(false);
    expect(verifyRelayRequest(secretKey, tunnelPurpose(7, 'browser'), undefined, now())).toBe(false);
    expect(verifyRelayRequest(secretKey, tunnelPurpose(7, 'browser'), 'x.y', now())).toBe(false);
  });

  it('refuse an unsigned or forged end, and a forged tunnel end', async () => {
    const device = await readyDevice(nodeA, z);
    const created = await startSession(z, device);
    const id = created.body.id as number;
    const browser = await browserHeldBy(nodeA, z, created);
    const body = JSON.stringify({ why: 'ended', code: 1000, reason: 'ended', quiet: true });
    const post = (signature?: string) =>
      nodeA.request(internalEndPath(id), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { [RELAY_SIGNATURE_HEADER]: signature } : {}) },
        body,
      });
    expect((await post()).status).toBe(401);
    expect((await post(signRelayRequest(randomBytes(32), endPurpose(id), now()))).status).toBe(401);
    expect((await post(signRelayRequest(secretKey, endPurpose(id + 1), now()))).status).toBe(401);

    // A forged agent end: refused before it reaches the relay.
    const url = new URL(internalTunnelPath(id, 'agent'), nodeA.url);
    url.protocol = 'ws:';
    const forged = new WebSocket(url, {
      headers: { [RELAY_SIGNATURE_HEADER]: signRelayRequest(randomBytes(32), tunnelPurpose(id, 'agent'), now()) },
    });
    const code = await new Promise((resolve) => forged.once('close', (c) => resolve(c)));
    expect(code).toBe(4401);
    // A correctly signed end for an end nobody claimed: the session is not joined through it.
    const unclaimed = new WebSocket(url, {
      headers: { [RELAY_SIGNATURE_HEADER]: signRelayRequest(secretKey, tunnelPurpose(id, 'agent'), now()) },
    });
    expect(await new Promise((resolve) => unclaimed.once('close', (c) => resolve(c)))).toBe(4503);
    expect(nodeA.app.remoteRelay.has(id)).toBe(true);

    // The real one ends it.
    const ok = await post(signRelayRequest(secretKey, endPurpose(id), now()));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id, connected: false });
    await browser.closed;
  });
});
