import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client.js';
import { readState } from '../state/state.js';
import { startFakeAgentServer } from '../test/fake-agent-server.js';
import { createFakePlatform } from '../test/fake-platform.js';
import { abortableSleep, runAgent } from './agent-loop.js';
import { enrollDevice } from './enroll.js';

let server: Awaited<ReturnType<typeof startFakeAgentServer>>;
let dir: string;
const platform = createFakePlatform();
const quiet = () => {};

beforeEach(async () => {
  server = await startFakeAgentServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pw-loop-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function enrolled() {
  const api = createApiClient(server.url);
  const state = await enrollDevice(platform, api, server.accessKey);
  return { api, state, statePath: path.join(dir, 'state.json') };
}

describe('enrolment', () => {
  it('refuses a bad access key', async () => {
    await expect(enrollDevice(platform, createApiClient(server.url), 'bad')).rejects.toMatchObject({
      status: 401,
      code: 'agent.invalid_access_key',
    });
  });
});

describe('runAgent --once', () => {
  it('checks in, sends its inventory, executes what is queued, posts results and exits', async () => {
    const { api, state, statePath } = await enrolled();
    const scan = server.queue('fake-machine-1', 'scan');
    const install = server.queue('fake-machine-1', 'install_updates', { names: ['curl'] });
    const outcome = await runAgent({ platform, api, state, statePath, allowChanges: false, once: true, log: quiet });
    expect(outcome).toBe('once');
    const device = server.devices.get('fake-machine-1')!;
    expect(device.inventory?.software.map((s) => s.name)).toEqual(['bash', 'curl']);
    expect(device.results.get(scan)).toMatchObject({ status: 'success' });
    expect(device.results.get(install)).toMatchObject({ status: 'success', stdout_tail: 'would install_updates\n' });
    expect((await readState(statePath))?.last_checkin_at).toBeTruthy();
  });

  it('does not resend an unchanged inventory', async () => {
    const { api, state, statePath } = await enrolled();
    await runAgent({ platform, api, state, statePath, allowChanges: false, once: true, log: quiet });
    const puts = () => server.requests.filter((r) => r.startsWith('PUT')).length;
    expect(puts()).toBe(1);
    const saved = (await readState(statePath))!;
    await runAgent({ platform, api, state: saved, statePath, allowChanges: false, once: true, log: quiet });
    expect(puts()).toBe(1);
  });

  it('re-enrols with the stored key when the token is rejected (401)', async () => {
    const { api, state, statePath } = await enrolled();
    server.revokeToken('fake-machine-1');
    const outcome = await runAgent({ platform, api, state, statePath, allowChanges: false, once: true, log: quiet });
    expect(outcome).toBe('once');
    const saved = await readState(statePath);
    expect(saved?.token).toBe(server.devices.get('fake-machine-1')!.token);
    expect(saved?.token).not.toBe(state.token);
    expect(saved?.device_id).toBe(state.device_id);
  });

  it('stops when the server removed the device (410)', async () => {
    const { api, state, statePath } = await enrolled();
    server.remove('fake-machine-1');
    expect(await runAgent({ platform, api, state, statePath, allowChanges: false, once: true, log: quiet })).toBe(
      'removed',
    );
  });
});

describe('runAgent (service)', () => {
  it('gets a command queued during its long-poll within a second', async () => {
    const { api, state, statePath } = await enrolled();
    const controller = new AbortController();
    const running = runAgent({
      platform,
      api,
      state,
      statePath,
      allowChanges: false,
      waitS: 10,
      signal: controller.signal,
      log: quiet,
    });
    await abortableSleep(300);
    const queuedAt = Date.now();
    const id = server.queue('fake-machine-1', 'reboot', { delay_s: 60 });
    const device = server.devices.get('fake-machine-1')!;
    while (!device.results.has(id) && Date.now() - queuedAt < 5_000) await abortableSleep(20);
    expect(Date.now() - queuedAt).toBeLessThan(1_000);
    expect(device.results.get(id)).toMatchObject({ status: 'success' });
    controller.abort();
    expect(await running).toBe('stopped');
  });

  it('backs off with growing delays while the server is unreachable, then recovers', async () => {
    const { api, state, statePath } = await enrolled();
    server.failNext(3);
    const delays: number[] = [];
    const controller = new AbortController();
    const outcome = runAgent({
      platform,
      api,
      state,
      statePath,
      allowChanges: false,
      waitS: 0,
      signal: controller.signal,
      log: quiet,
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
        if (delays.length >= 4) controller.abort();
      },
    });
    expect(await outcome).toBe('stopped');
    expect(delays.slice(0, 3)).toEqual([1_000, 1_500, 3_000]);
    // After recovering, the next wait is the jittered check-in interval (60 s ± 10 %).
    expect(delays[3]).toBeGreaterThan(50_000);
    expect(server.devices.get('fake-machine-1')!.checkins).toBe(1);
  });
});
