/**
 * The real agent against the real server: the agent's own code (enrolment, run loop,
 * executor, fleet simulator) talking HTTP to the app started in-process on a real
 * database. Only the operating system under the agent is a fake (createFakePlatform).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiClient } from '@patchwell/agent/api/client';
import { abortableSleep, runAgent, type RunOptions } from '@patchwell/agent/run/agent-loop';
import { enrollDevice } from '@patchwell/agent/run/enroll';
import { startFleet } from '@patchwell/agent/simulate/fleet';
import { readState } from '@patchwell/agent/state/state';
import { createFakePlatform } from '@patchwell/agent/test/fake-platform';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { buildZoneWithKey } from '../test/agents';

let t: TestApp;
let zone: Awaited<ReturnType<typeof buildZoneWithKey>>;
let dir: string;
const quiet = () => {};

beforeAll(async () => {
  t = await startTestApp();
  zone = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pw-agent-e2e-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<boolean> {
  const start = Date.now();
  while (!(await check()) && Date.now() - start < ms) await abortableSleep(50);
  return check();
}

/** A machine of its own per test, so devices do not collide in the shared zone. */
async function enrolledAgent(machine: string, options: { fetch?: typeof fetch } = {}) {
  const platform = createFakePlatform({
    machineId: async () => machine,
    system: async () => ({ ...(await createFakePlatform().system()), hostname: machine }),
  });
  const api = createApiClient(t.url, options.fetch ? { fetch: options.fetch } : {});
  const state = await enrollDevice(platform, api, zone.accessKey);
  const statePath = path.join(dir, 'state.json');
  const run = (overrides: Partial<RunOptions> = {}) =>
    runAgent({ platform, api, state, statePath, allowChanges: false, once: true, log: quiet, ...overrides });
  return { platform, api, state, statePath, run };
}

const o = () => `o=${zone.zone.id}`;

describe('the agent against the real server', () => {
  it('refuses a bad access key', async () => {
    const api = createApiClient(t.url);
    await expect(enrollDevice(createFakePlatform(), api, 'pwz_not-a-key')).rejects.toMatchObject({
      status: 401,
      code: 'agent.invalid_access_key',
    });
  });

  it('enrols, sends its inventory, runs a scan queued from the console and reports the result', async () => {
    const agent = await enrolledAgent('e2e-scan-host');
    expect(await agent.run()).toBe('once');

    const id = agent.state.device_id;
    const listed = await zone.admin.get(`/api/servers?${o()}&search=e2e-scan-host`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id, hostname: 'e2e-scan-host', os_family: 'linux', pending_patches: 1 }),
    ]);
    const detail = await zone.admin.get(`/api/servers/${id}?${o()}`);
    expect(detail.body).toMatchObject({ package_count: 2, detail: expect.objectContaining({ cpu: 'Fake CPU' }) });
    const packages = await zone.admin.get(`/api/servers/${id}/packages?${o()}`);
    expect(packages.body.data.map((p: { name: string }) => p.name).sort()).toEqual(['bash', 'curl']);

    const queued = await zone.admin.post(`/api/servers/${id}/queues?${o()}`, { command_type_name: 'GetOS' });
    expect(queued.status).toBe(201);
    expect(await agent.run()).toBe('once');
    const commands = await zone.admin.get(`/api/servers/${id}/commands?${o()}`);
    expect(commands.body.data).toEqual([
      expect.objectContaining({ id: queued.body.id, type: 'scan', status: 'success', exit_code: 0 }),
    ]);
    expect((await readState(agent.statePath))?.last_checkin_at).toBeTruthy();
  });

  it('does not resend an unchanged inventory', async () => {
    const puts: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (init?.method === 'PUT') puts.push(String(input));
      return fetch(input, init);
    };
    const agent = await enrolledAgent('e2e-hash-host', { fetch: counting });
    await agent.run();
    expect(puts).toHaveLength(1);
    const saved = (await readState(agent.statePath))!;
    await agent.run({ state: saved });
    expect(puts).toHaveLength(1);
  });

  it('re-enrols with the stored key when the server rejects its token', async () => {
    const agent = await enrolledAgent('e2e-reenrol-host');
    // The same machine enrolling again (say, reinstalled) revokes the first token.
    await enrollDevice(agent.platform, createApiClient(t.url), zone.accessKey);
    expect(await agent.run()).toBe('once');
    const saved = (await readState(agent.statePath))!;
    expect(saved.token).not.toBe(agent.state.token);
    expect(saved.device_id).toBe(agent.state.device_id);
  });

  it('stops when the device is removed in the console', async () => {
    const agent = await enrolledAgent('e2e-removed-host');
    expect((await zone.admin.del(`/api/servers/${agent.state.device_id}?${o()}`)).status).toBeLessThan(300);
    expect(await agent.run()).toBe('removed');
  });

  it('gets a command queued in the console during its long-poll within a second', async () => {
    const agent = await enrolledAgent('e2e-longpoll-host');
    await agent.run(); // inventory sent, so the service long-polls at once
    const controller = new AbortController();
    const running = agent.run({
      once: false,
      waitS: 10,
      signal: controller.signal,
      state: (await readState(agent.statePath))!,
    });
    try {
      const id = agent.state.device_id;
      await expect.poll(() => t.app.agents.isWaiting(id)).toBe(true);
      const queued = await zone.admin.post(`/api/servers/${id}/queues?${o()}`, { command_type_name: 'GetOS' });
      const done = await until(async () => {
        const res = await zone.admin.get(`/api/servers/${id}/commands?${o()}`);
        return res.body.data.some(
          (c: { id: number; status: string }) => c.id === queued.body.id && c.status === 'success',
        );
      }, 5_000);
      // The service long-polls for 10 s: done within 5 s means the queueing woke it.
      expect(done).toBe(true);
    } finally {
      controller.abort();
    }
    expect(await running).toBe('stopped');
  });
});

describe('a long command', () => {
  it('keeps the device checking in, busy, and takes a command queued meanwhile only after it', async () => {
    const checkins: { busy?: boolean; answered: number }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/checkin') && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { busy?: boolean };
        const answer = (await res.clone().json()) as { commands: unknown[] };
        checkins.push({ busy: body.busy, answered: answer.commands.length });
      }
      return res;
    };
    const agent = await enrolledAgent('e2e-busy-host', { fetch: recording });
    await agent.run();
    const id = agent.state.device_id;
    // The scan's inventory collection waits for the test, as a long install would (the
    // service's own collection when it starts does not).
    let collections = 0;
    let scanning = false;
    let finishScan!: () => void;
    const scanMayFinish = new Promise<void>((resolve) => (finishScan = resolve));
    const software = agent.platform.software.bind(agent.platform);
    agent.platform.software = async () => {
      if (++collections === 1) return software();
      scanning = true;
      await scanMayFinish;
      return software();
    };
    const controller = new AbortController();
    const running = agent.run({
      once: false,
      waitS: 5,
      heartbeatMs: 100,
      signal: controller.signal,
      state: (await readState(agent.statePath))!,
    });
    try {
      const scan = await zone.admin.post(`/api/servers/${id}/queues?${o()}`, { command_type_name: 'GetOS' });
      expect(scan.status).toBeLessThan(300);
      expect(await until(() => scanning)).toBe(true);
      checkins.length = 0;
      const later = await zone.admin.post(`/api/servers/${id}/queues?${o()}`, { command_type_name: 'GetOS' });
      expect(await until(() => checkins.filter((c) => c.busy).length >= 3)).toBe(true);
      // Heartbeats take nothing: the command queued meanwhile is still waiting.
      expect(checkins.every((c) => c.busy && c.answered === 0)).toBe(true);
      const pending = await zone.admin.get(`/api/servers/${id}/commands?${o()}`);
      expect(pending.body.data.find((c: { id: number }) => c.id === later.body.id).status).toBe('pending');
      finishScan();
      const done = await until(async () => {
        const res = await zone.admin.get(`/api/servers/${id}/commands?${o()}`);
        return res.body.data.filter((c: { status: string }) => c.status === 'success').length >= 2;
      });
      expect(done).toBe(true);
    } finally {
      finishScan();
      controller.abort();
    }
    expect(await running).toBe('stopped');
  });
});

describe('the fleet simulator against the real server', () => {
  it('enrols 20 devices with their inventories, and they answer a batch scan', async () => {
    const fleetZone = await buildZoneWithKey(t);
    const zo = `o=${fleetZone.zone.id}`;
    const fleet = startFleet({
      server: t.url,
      accessKey: fleetZone.accessKey,
      count: 20,
      seed: 3,
      longPollDevices: 20,
      timeScale: 0.01,
      failureRate: 0,
    });
    try {
      expect(await until(() => fleet.stats().inventories >= 20, 20_000)).toBe(true);
      const list = await fleetZone.admin.get(`/api/servers?${zo}&limit=100`);
      expect(list.body.size).toBe(20);
      const hostnames = Array.from({ length: 20 }, (_, i) => fleet.machine(i).system.hostname).sort();
      expect(list.body.data.map((d: { hostname: string }) => d.hostname).sort()).toEqual(hostnames);
      const ids: number[] = list.body.data.map((d: { id: number }) => d.id);
      for (const id of ids.slice(0, 3)) {
        const detail = await fleetZone.admin.get(`/api/servers/${id}?${zo}`);
        expect(detail.body.package_count).toBeGreaterThan(50);
        expect(detail.body.last_inventory_at).toBeTruthy();
      }

      const batch = await fleetZone.admin.post(`/api/servers/batch?${zo}`, { action: 'scan', ids });
      expect(batch.status).toBe(200);
      expect(batch.body.affected).toBe(20);
      const answered = await until(async () => {
        const statuses = await Promise.all(
          ids.map(async (id) => (await fleetZone.admin.get(`/api/servers/${id}/commands?${zo}`)).body.data[0]?.status),
        );
        return statuses.every((s) => s === 'success');
      }, 20_000);
      expect(answered).toBe(true);
      // A device counts its result when the server's answer to it arrives, which may be after
      // the console already shows the result stored.
      expect(await until(() => fleet.stats().results >= 20, 20_000)).toBe(true);
      expect(fleet.stats()).toMatchObject({ enrolled: 20, commands: 20, results: 20 });
    } finally {
      await fleet.stop();
    }
  }, 60_000);

  it('stops a device removed in the console', async () => {
    const fleetZone = await buildZoneWithKey(t);
    const zo = `o=${fleetZone.zone.id}`;
    const fleet = startFleet({
      server: t.url,
      accessKey: fleetZone.accessKey,
      count: 3,
      seed: 9,
      longPollDevices: 3,
      timeScale: 0.01,
    });
    try {
      expect(await until(() => fleet.stats().inventories >= 3)).toBe(true);
      const hostname = fleet.machine(1).system.hostname;
      const list = await fleetZone.admin.get(`/api/servers?${zo}&limit=100`);
      const device = list.body.data.find((d: { hostname: string }) => d.hostname === hostname);
      expect((await fleetZone.admin.del(`/api/servers/${device.id}?${zo}`)).status).toBeLessThan(300);
      expect(await until(() => fleet.stats().removed === 1)).toBe(true);
    } finally {
      await fleet.stop();
    }
  }, 30_000);
});
