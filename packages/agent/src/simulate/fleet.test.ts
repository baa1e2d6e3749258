import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abortableSleep } from '../run/agent-loop.js';
import { startFakeAgentServer } from '../test/fake-agent-server.js';
import { startFleet } from './fleet.js';

let server: Awaited<ReturnType<typeof startFakeAgentServer>>;
beforeEach(async () => {
  server = await startFakeAgentServer({ intervalS: 1 });
});
afterEach(async () => {
  await server.close();
});

async function until(check: () => boolean, ms = 10_000) {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await abortableSleep(25);
  return check();
}

describe('the fleet simulator', () => {
  it('enrols its devices, sends their inventories and answers commands', async () => {
    const fleet = startFleet({
      server: server.url,
      accessKey: server.accessKey,
      count: 12,
      seed: 3,
      longPollDevices: 2,
      timeScale: 0.01,
      failureRate: 0,
    });
    try {
      expect(await until(() => [...server.devices.values()].filter((d) => d.inventory).length === 12)).toBe(true);
      const hostnames = [...server.devices.values()].map((d) => d.hostname);
      expect(new Set(hostnames).size).toBe(12);
      const longPolling = fleet.machine(0).machineId;
      const polling = fleet.machine(5).machineId;
      const a = server.queue(longPolling, 'install_all');
      const b = server.queue(polling, 'scan');
      expect(
        await until(
          () => server.devices.get(longPolling)!.results.has(a) && server.devices.get(polling)!.results.has(b),
        ),
      ).toBe(true);
      expect(server.devices.get(longPolling)!.results.get(a)).toMatchObject({ status: 'success', exit_code: 0 });
      // Installing everything leaves no pending patches in the next inventory.
      expect(await until(() => server.devices.get(longPolling)!.inventory!.patches.length === 0)).toBe(true);
      expect(fleet.stats()).toMatchObject({ devices: 12, enrolled: 12, results: 2 });
    } finally {
      await fleet.stop();
    }
  }, 20_000);

  it('stops a device the server removed', async () => {
    const fleet = startFleet({
      server: server.url,
      accessKey: server.accessKey,
      count: 3,
      seed: 9,
      longPollDevices: 0,
    });
    try {
      expect(await until(() => server.devices.size === 3)).toBe(true);
      server.remove(fleet.machine(1).machineId);
      expect(await until(() => fleet.stats().removed === 1)).toBe(true);
    } finally {
      await fleet.stop();
    }
  }, 20_000);
});
