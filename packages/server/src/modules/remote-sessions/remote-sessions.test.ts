import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REMOTE_CLOSE_ENDED_BY_USER,
  REMOTE_CLOSE_INSTALLING,
  REMOTE_ENDED_BY_USER_TEXT,
  REMOTE_TEXTS,
  REMOTE_TRANSCRIPT_MAX_BYTES,
} from '@patchwell/core/remote/remote-sessions.schema';
import { bridgeToPty, bridgeToTcp, openTunnel, startX11vnc } from '@patchwell/agent/remote/tunnel';
import { createApiClient } from '@patchwell/agent/api/client';
import { executeCommand } from '@patchwell/agent/jobs/executor';
import { END_SESSION_LABEL, activeText } from '@patchwell/agent/jobs/remote';
import type { Notifier } from '@patchwell/agent/notify/notifier';
import type { Platform } from '@patchwell/agent/platform/platform';
import { createFakePlatform } from '@patchwell/agent/test/fake-platform';
import { organizations } from '../../db/schema';
import { TUNNEL_CLOSE } from './remote-relay';
import { startTestApp, type TestApp } from '../../test/app';
import {
  agentCall,
  checkinAs,
  enrollDevice,
  flushLastSeen,
  inventoryBody,
  type EnrolledDevice,
} from '../../test/agents';
import { call, clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser } from '../../test/factories';
import {
  agentReceives as agentReceivesOn,
  browserHeldBy,
  buildRemoteZone,
  eventually,
  openBrowser as openBrowserOn,
  opened,
  readyDevice as readyDeviceIn,
  startSession,
  type Zone,
} from '../../test/remote';

/**
 * Remote control and shell through the real tunnel (decision 0016): the API over HTTP, the
 * browser's end as a `ws` client with the session cookie, the agent's end the agent's own
 * tunnel code with the device token, joined to a real x11vnc on Xvfb or a real shell under
 * `script`.
 */

let t: TestApp;
let z: Zone;
let other: Zone;

const readyDevice = (zone = z) => readyDeviceIn(t, zone);
const start = (device: EnrolledDevice, kind: 'control' | 'shell' = 'control', caller = z.admin, zoneId = z.zone.id) =>
  startSession(z, device, kind, caller, zoneId);
const agentReceives = (device: EnrolledDevice, sessionId: number, granted = true) =>
  agentReceivesOn(t, device, sessionId, granted);
const openBrowser = (path: string, token: string, cookie = z.cookie) => openBrowserOn(t.url, path, token, cookie);

beforeAll(async () => {
  t = await startTestApp();
  z = await buildRemoteZone(t);
  other = await buildRemoteZone(t);
});
afterAll(async () => {
  await t?.close();
});

describe('a remote-control session through the tunnel', () => {
  let xvfb: ChildProcess | undefined;
  afterAll(() => {
    xvfb?.kill('SIGTERM');
  });

  it('reaches a real x11vnc on Xvfb: the browser reads the RFB greeting, and the session is logged', async () => {
    const display = 100 + Math.floor(Math.random() * 400);
    // -noreset: Xvfb would otherwise reset (refusing connections meanwhile) when its last client leaves.
    xvfb = spawn('Xvfb', [`:${display}`, '-screen', '0', '1024x768x24', '-nolisten', 'tcp', '-noreset'], {
      stdio: 'ignore',
    });
    await eventually(
      async () => existsSync(`/tmp/.X11-unix/X${display}`),
      (ok) => ok,
    );
    const device = await readyDevice();
    const created = await start(device);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ state: 'pending', kind: 'control', tunnel_path: expect.any(String) });
    const id = created.body.id as number;

    await agentReceives(device, id);
    const vnc = await startX11vnc(`:${display}`);
    const agentSocket = await openTunnel(t.url, device.token, id);
    const agentDone = bridgeToTcp(agentSocket, vnc.port);

    const browser = openBrowser(created.body.tunnel_path, created.body.token);
    await browser.waitFor('RFB 003.008\n');
    browser.socket.close();
    await agentDone;
    await vnc.stop();

    const session = await eventually(
      () => z.admin.get(`/api/remote-sessions/${id}?o=${z.zone.id}`),
      (r) => r.body.state === 'ended',
    );
    expect(session.body).toMatchObject({ consent: 'granted', end_reason: 'browser' });
    expect(session.body.connected_at).not.toBeNull();
    expect(session.body.bytes_from_device).toBeGreaterThanOrEqual(12);

    const events = await z.admin.get(`/api/events?o=${z.zone.id}&limit=50`);
    const actions = (events.body.data as { name?: string; action?: string }[]).map((e) => e.action ?? e.name);
    expect(actions).toEqual(
      expect.arrayContaining(['remote_session.started', 'remote_session.consent', 'remote_session.ended']),
    );
  });
});

describe('a remote shell session', () => {
  it('is off until a zone administrator turns it on', async () => {
    const device = await readyDevice();
    const refused = await start(device, 'shell');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(REMOTE_TEXTS.shellDisabled);

    const operator = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 4 } });
    const asOperator = clientFor(t, { cookie: await cookieFor(t, operator) });
    expect((await asOperator.put(`/api/remote-settings?o=${z.zone.id}`, { shell_enabled: true })).status).toBe(403);
    const on = await z.admin.put(`/api/remote-settings?o=${z.zone.id}`, { shell_enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ shell_enabled: true, unattended: false });
  });

  it('runs `hostname` on the device and keeps the transcript with the session', async () => {
    const device = await readyDevice();
    const created = await start(device, 'shell');
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await agentReceives(device, id);
    const agentSocket = await openTunnel(t.url, device.token, id);
    const agentDone = bridgeToPty(agentSocket, { shell: '/bin/bash' });

    const browser = openBrowser(created.body.tunnel_path, created.body.token);
    await opened(browser.socket);
    browser.socket.send(Buffer.from('echo MARK-$((6*7)); hostname\n'));
    await browser.waitFor('MARK-42');
    await browser.waitFor(os.hostname());
    // More output than the transcript keeps: the first 256 KiB stay, the rest is counted.
    browser.socket.send(Buffer.from("head -c 300000 /dev/zero | tr '\\0' x; echo; echo END-$((2*3))\n"));
    await browser.waitFor('END-6');
    browser.socket.send(Buffer.from('exit\n'));
    await browser.closed;
    await agentDone;

    const transcript = await eventually(
      () => z.admin.get(`/api/remote-sessions/${id}/transcript?o=${z.zone.id}`),
      (r) => r.status === 200 && String(r.body.transcript).includes('MARK-42'),
    );
    expect(transcript.body.transcript).toContain(os.hostname());
    expect(transcript.body.truncated).toBe(true);
    expect(Buffer.byteLength(transcript.body.transcript)).toBeLessThanOrEqual(REMOTE_TRANSCRIPT_MAX_BYTES);
    const session = await z.admin.get(`/api/remote-sessions/${id}?o=${z.zone.id}`);
    expect(session.body.bytes_from_device).toBeGreaterThan(300_000);
  });
});

describe('unattended access for a device group', () => {
  it('starts sessions without asking on the group’s devices only, and refuses another zone’s group', async () => {
    const kiosks = await z.admin.post(`/api/servergroups?o=${z.zone.id}`, { name: `Kiosks ${Date.now()}` });
    expect(kiosks.status).toBe(201);
    const kiosk = await readyDevice();
    const moved = await z.admin.put(`/api/servers/${kiosk.id}?o=${z.zone.id}`, { server_group_id: kiosks.body.id });
    expect(moved.status).toBe(200);
    const desk = await readyDevice();

    const foreign = await other.admin.post(`/api/servergroups?o=${other.zone.id}`, { name: 'Not yours' });
    const refused = await z.admin.put(`/api/remote-settings?o=${z.zone.id}`, {
      unattended_group_ids: [kiosks.body.id, foreign.body.id],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(REMOTE_TEXTS.unknownGroup(foreign.body.id));
    expect((await z.admin.get(`/api/remote-settings?o=${z.zone.id}`)).body.unattended_group_ids).toEqual([]);

    const saved = await z.admin.put(`/api/remote-settings?o=${z.zone.id}`, {
      unattended: false,
      unattended_group_ids: [kiosks.body.id, kiosks.body.id],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.unattended_group_ids).toEqual([kiosks.body.id]);
    try {
      const atKiosk = await start(kiosk);
      expect(atKiosk.body).toMatchObject({ state: 'open', consent: 'unattended' });
      const atDesk = await start(desk);
      expect(atDesk.body).toMatchObject({ state: 'pending', consent: null });
      for (const id of [atKiosk.body.id, atDesk.body.id]) {
        await z.admin.post(`/api/remote-sessions/${id}/end?o=${z.zone.id}`);
      }
    } finally {
      await z.admin.put(`/api/remote-settings?o=${z.zone.id}`, { unattended_group_ids: [] });
    }
  });
});

describe('the agent’s own remote-session command', () => {
  /** Runs the `remote_session` command of the device's check-in the way the agent's loop does. */
  async function agentRuns(
    device: EnrolledDevice,
    sessionId: number,
    notifier: Notifier,
    allowChanges = true,
    signal?: AbortSignal,
    platformParts: Partial<Platform> = {},
  ) {
    const checkin = await checkinAs(t, device.token);
    const command = checkin.body.commands.find(
      (c: { type: string; args: { remote?: { session_id: number } } }) => c.args.remote?.session_id === sessionId,
    );
    const api = createApiClient(t.url, { token: device.token });
    const platform = createFakePlatform({ notifier, ...platformParts });
    return executeCommand(command, { platform, api, allowChanges, ...(signal ? { signal } : {}) });
  }
  /**
   * The device's user: answers the consent prompt with `answer`, and keeps the "session open"
   * notice up until the test presses its End session button or the session takes it away.
   */
  function userAnswering(answer: 'proceed' | 'defer' | 'timeout') {
    const seen: string[] = [];
    let press: (() => void) | undefined;
    let takenAway = false;
    const notifier: Notifier = {
      show: async (request) => {
        seen.push(request.message);
        if (request.proceedLabel !== END_SESSION_LABEL) return { shown: true, answer };
        return new Promise((resolve) => {
          press = () => resolve({ shown: true, answer: 'proceed' });
          request.signal?.addEventListener('abort', () => {
            takenAway = true;
            resolve({ shown: true, answer: 'timeout' });
          });
        });
      },
    };
    return { notifier, seen, pressEndSession: () => press?.(), takenAway: () => takenAway };
  }

  it('asks the user, opens the tunnel to a shell and the browser runs `hostname`; the notice goes with the session', async () => {
    const device = await readyDevice();
    const created = await start(device, 'shell');
    expect(created.status).toBe(201);
    const browser = openBrowser(created.body.tunnel_path, created.body.token);
    await opened(browser.socket);
    const user = userAnswering('proceed');
    const result = await agentRuns(device, created.body.id, user.notifier);
    expect(result).toMatchObject({ status: 'success', data: { kind: 'shell', consent: 'granted' } });
    expect(user.seen[0]).toMatch(/remote shell/);
    browser.socket.send(Buffer.from('hostname\n'));
    await browser.waitFor(os.hostname());
    // While it lasts, the user is shown that a shell is open.
    expect(user.seen[1]).toBe(activeText('shell'));
    browser.socket.send(Buffer.from('exit\n'));
    await browser.closed;
    await eventually(
      async () => user.takenAway(),
      (gone) => gone,
    );
  });

  it('ends when the device’s user presses End session, and says so to the console', async () => {
    const device = await readyDevice();
    const created = await start(device, 'shell');
    const browser = openBrowser(created.body.tunnel_path, created.body.token);
    await opened(browser.socket);
    const user = userAnswering('proceed');
    await agentRuns(device, created.body.id, user.notifier);
    browser.socket.send(Buffer.from('hostname\n'));
    await browser.waitFor(os.hostname());
    user.pressEndSession();
    expect(await browser.closed).toEqual({ code: REMOTE_CLOSE_ENDED_BY_USER, reason: REMOTE_ENDED_BY_USER_TEXT });
    const session = await eventually(
      () => z.admin.get(`/api/remote-sessions/${created.body.id}?o=${z.zone.id}`),
      (r) => r.body.state === 'ended',
    );
    expect(session.body.end_reason).toBe('user');
  });

  it('closes an open session when the agent stops', async () => {
    const device = await readyDevice();
    const created = await start(device, 'shell');
    const browser = openBrowser(created.body.tunnel_path, created.body.token);
    await opened(browser.socket);
    const stopping = new AbortController();
    await agentRuns(device, created.body.id, userAnswering('proceed').notifier, true, stopping.signal);
    browser.socket.send(Buffer.from('hostname\n'));
    await browser.waitFor(os.hostname());
    stopping.abort();
    expect((await browser.closed).code).toBe(1000);
    const session = await eventually(
      () => z.admin.get(`/api/remote-sessions/${created.body.id}?o=${z.zone.id}`),
      (r) => r.body.state === 'ended',
    );
    expect(session.body.end_reason).toBe('agent');
  });

  it('reports a refusal, and the browser gets the consent text', async () => {
    const device = await readyDevice();
    const created = await start(device, 'shell');
    const browser = await browserHeldBy(t, z, created);
    const result = await agentRuns(device, created.body.id, userAnswering('timeout').notifier);
    expect(result).toMatchObject({ status: 'success', data: { consent: 'refused' } });
    expect(await browser.closed).toEqual({ code: 4403, reason: REMOTE_TEXTS.noConsent });
  });

  it('installs what remote control needs before asking anyone: the console is told it is installing', async () => {
    const device = await readyDevice();
    const created = await start(device, 'control');
    const browser = await browserHeldBy(t, z, created);
    const user = userAnswering('proceed');
    // The install is a real process standing in for the package manager (apt-get here would
    // change the test machine); the platform's own command is tested with the Linux adapter.
    const missing = (exitCode: number): Partial<Platform> => ({
      remoteDesktop: async () => {
        throw new Error('x11vnc is not installed');
      },
      remoteDesktopSetup: async () => ({
        what: 'x11vnc',
        install: {
          command: process.execPath,
          args: ['-e', `process.stderr.write('E: no x11vnc'); process.exit(${exitCode})`],
        },
      }),
    });
    const result = await agentRuns(device, created.body.id, user.notifier, true, undefined, missing(0));
    expect(result).toMatchObject({ status: 'success', data: { installing: 'x11vnc', installed: true } });
    expect(await browser.closed).toEqual({ code: REMOTE_CLOSE_INSTALLING, reason: REMOTE_TEXTS.installing });
    expect(user.seen).toEqual([]);
    const session = await z.admin.get(`/api/remote-sessions/${created.body.id}?o=${z.zone.id}`);
    expect(session.body).toMatchObject({ state: 'refused', consent: 'refused', end_reason: 'installing' });
    const events = await z.admin.get(`/api/events?o=${z.zone.id}&limit=50`);
    expect(JSON.stringify(events.body)).toContain('"installing":true');

    // A failed install says why; without --allow-changes nothing is installed.
    const again = await start(device, 'control');
    const failed = await agentRuns(device, again.body.id, user.notifier, true, undefined, missing(100));
    expect(failed).toMatchObject({ status: 'error', data: { installed: false } });
    expect(JSON.stringify(failed)).toContain('E: no x11vnc');
    const third = await start(device, 'control');
    const refused = await agentRuns(device, third.body.id, user.notifier, false, undefined, missing(0));
    expect(refused).toMatchObject({ status: 'error', data: { consent: 'refused', missing: 'x11vnc' } });
    const thirdSession = await z.admin.get(`/api/remote-sessions/${third.body.id}?o=${z.zone.id}`);
    expect(thirdSession.body).toMatchObject({ state: 'refused', end_reason: 'refused' });
  });

  it('refuses a shell without --allow-changes', async () => {
    const device = await readyDevice();
    const created = await start(device, 'shell');
    const result = await agentRuns(device, created.body.id, userAnswering('proceed').notifier, false);
    expect(result).toMatchObject({ status: 'success', data: { consent: 'refused' } });
    const session = await z.admin.get(`/api/remote-sessions/${created.body.id}?o=${z.zone.id}`);
    expect(session.body.state).toBe('refused');
  });
});

describe('refusals', () => {
  it('ends the session with the consent text when the user says no', async () => {
    const device = await readyDevice();
    const created = await start(device);
    const id = created.body.id as number;
    const browser = await browserHeldBy(t, z, created);
    await agentReceives(device, id, false);
    expect(await browser.closed).toEqual({ code: 4403, reason: REMOTE_TEXTS.noConsent });
    const session = await z.admin.get(`/api/remote-sessions/${id}?o=${z.zone.id}`);
    expect(session.body).toMatchObject({ state: 'refused', consent: 'refused' });
    // The agent cannot join a refused session either.
    await expect(openTunnel(t.url, device.token, id).then((s) => new Promise((r) => s.once('close', r)))).resolves.toBe(
      4401,
    );
  });

  it('refuses a reused token and an expired one with the unauthorized text', async () => {
    const device = await readyDevice();
    const first = await start(device);
    // Held by the relay, so its claim has consumed the token before it is presented again.
    const browser = await browserHeldBy(t, z, first);
    const again = openBrowser(first.body.tunnel_path, first.body.token);
    expect(await again.closed).toEqual({ code: 4401, reason: REMOTE_TEXTS.unauthorized });
    // The token is bound to its session: another session's path does not take it.
    const elsewhere = openBrowser(`/api/remote-sessions/${first.body.id + 1000}/tunnel`, first.body.token);
    expect(await elsewhere.closed).toEqual({ code: 4401, reason: REMOTE_TEXTS.unauthorized });
    expect((await z.admin.post(`/api/remote-sessions/${first.body.id}/end?o=${z.zone.id}`)).body.state).toBe('ended');
    await browser.closed;

    const second = await start(device);
    expect(second.status).toBe(201);
    t.clock.advance(61_000);
    const late = openBrowser(second.body.tunnel_path, second.body.token);
    expect(await late.closed).toEqual({ code: 4401, reason: REMOTE_TEXTS.unauthorized });
  });

  it('closes a console end whose claim was still in flight when the session was ended', async () => {
    const device = await readyDevice();
    // The end races the claim; in either order the console's end closes and nothing stays relayed.
    for (let round = 0; round < 10; round++) {
      const created = await start(device);
      const browser = openBrowser(created.body.tunnel_path, created.body.token);
      await opened(browser.socket);
      const ended = await z.admin.post(`/api/remote-sessions/${created.body.id}/end?o=${z.zone.id}`);
      expect(ended.body.state).toBe('ended');
      expect([TUNNEL_CLOSE.normal, TUNNEL_CLOSE.unauthorized]).toContain((await browser.closed).code);
      expect(t.app.remoteRelay.has(created.body.id)).toBe(false);
    }
  });

  it('answers the spec texts for an offline or initializing device, the wrong plan and a missing permission', async () => {
    const initializing = await enrollDevice(t, z.accessKey);
    await checkinAs(t, initializing.token);
    await flushLastSeen(t);
    const first = await start(initializing);
    expect(first.status).toBe(409);
    expect(first.body.message).toBe(REMOTE_TEXTS.initializing);

    const offline = await enrollDevice(t, z.accessKey);
    await agentCall(t, offline.token, 'PUT', '/inventory', inventoryBody());
    const down = await start(offline);
    expect(down.status).toBe(409);
    expect(down.body.message).toBe(REMOTE_TEXTS.offline);

    const device = await readyDevice();
    const readOnly = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 2 } });
    const asReadOnly = clientFor(t, { cookie: await cookieFor(t, readOnly) });
    const denied = await start(device, 'control', asReadOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(REMOTE_TEXTS.unauthorized);

    await t.db.update(organizations).set({ plan: 'manage' }).where(eq(organizations.id, z.zone.id));
    try {
      const basic = await start(device);
      expect(basic.status).toBe(403);
      expect(basic.body.message).toBe(REMOTE_TEXTS.upgrade);
    } finally {
      await t.db.update(organizations).set({ plan: 'tier3' }).where(eq(organizations.id, z.zone.id));
    }
  });

  it('answers 404 for another zone’s device and without the remote-control flag', async () => {
    const device = await readyDevice();
    const foreign = await start(device, 'control', other.admin, other.zone.id);
    expect(foreign.status).toBe(404);
    const sessions = await call(t, { cookie: other.cookie }, 'GET', `/api/remote-sessions/1?o=${other.zone.id}`);
    expect(sessions.status).toBe(404);

    const mine = await readyDevice(other);
    await other.admin.put(`/api/accounts/${other.account.id}/flags`, { remote_control: false });
    const flagOff = await start(mine, 'control', other.admin, other.zone.id);
    expect(flagOff.status).toBe(404);
  });
});
