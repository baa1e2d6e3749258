import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client.js';
import { startFakeAgentServer } from '../test/fake-agent-server.js';
import { createFakePlatform } from '../test/fake-platform.js';
import { runAgent } from './agent-loop.js';
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

// Enrolment, --once, re-enrolment, removal and long-poll run against the real server in
// packages/server/src/agent-api/agent-e2e.test.ts; a stand-in server stays only for what the
// real one cannot be made to do on cue: answer 503 several times in a row.
describe('runAgent (service)', () => {
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

  it('keeps checking in, busy, while a deferred restart’s notice waits for the user', async () => {
    const { api, state, statePath } = await enrolled();
    let showing = false;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const waiting = createFakePlatform({
      notifier: {
        show: async () => {
          showing = true;
          await answered;
          return { shown: true, answer: 'defer', deferH: 1 };
        },
      },
    });
    const notice = {
      message: 'Restart needed.',
      timeout_min: 15,
      deferral: { periods_h: [1], remaining: 2, max: 2, auto_defer: false },
    };
    const controller = new AbortController();
    const outcome = runAgent({
      platform: waiting,
      api,
      state: { ...state, pending_reboot: { due_at: '2026-01-01T00:00:00.000Z', reason: 'kernel', notice } },
      statePath,
      allowChanges: false,
      waitS: 0,
      heartbeatMs: 20,
      signal: controller.signal,
      log: quiet,
      sleep: async () => controller.abort(),
    });
    const device = () => server.devices.get('fake-machine-1')!;
    while (!showing) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = device().checkins;
    while (device().checkins < before + 2) await new Promise((resolve) => setTimeout(resolve, 10));
    answer();
    expect(await outcome).toBe('stopped');
    expect(device().checkins).toBeGreaterThanOrEqual(before + 2);
  });
});
