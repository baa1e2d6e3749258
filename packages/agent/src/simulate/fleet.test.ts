import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAgentServer } from '../test/fake-agent-server.js';
import { startFleet } from './fleet.js';

/**
 * The simulator keeps what the server could not store, as the agent does: a result or an
 * inventory answered 503 (the server's database restarting) is sent again after the
 * server's Retry-After, until it is stored, and stored once. A real HTTP server on
 * loopback answers; the test waits on what it received, never on a timer of its own.
 */

type Fake = Awaited<ReturnType<typeof startFakeAgentServer>>;
let server: Fake | undefined;
let fleet: ReturnType<typeof startFleet> | undefined;

afterEach(async () => {
  await fleet?.stop();
  await server?.close();
  fleet = undefined;
  server = undefined;
});

async function oneDevice() {
  server = await startFakeAgentServer();
  fleet = startFleet({
    server: server.url,
    accessKey: server.accessKey,
    count: 1,
    longPollDevices: 1,
    failureRate: 0,
    timeScale: 0.001,
    retryMaxMs: 50,
  });
  const machineId = fleet.machine(0).machineId;
  const fake = server;
  await expect.poll(() => fake.devices.get(machineId)?.inventory ?? null, { timeout: 10_000 }).not.toBeNull();
  return { fake, machineId, device: fake.devices.get(machineId)! };
}

/** The answers to requests matching `path`, in order. */
const answersTo = (fake: Fake, path: RegExp) => fake.answers.filter((a) => path.test(a.request));

describe('the simulator against a server answering 503', () => {
  it('sends a result again after Retry-After until it is stored, and it is stored once', async () => {
    const { fake, machineId, device } = await oneDevice();
    const resultPath = /^POST \/api\/agent\/v1\/commands\/\d+\/result$/;
    fake.failNext(2, { path: resultPath, retryAfterS: 1 });
    const id = fake.queue(machineId, 'reboot', { delay_s: 60 });

    await expect.poll(() => device.results.has(id), { timeout: 15_000 }).toBe(true);
    const answers = answersTo(fake, resultPath);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 204]);
    // Each retry waited the second the server asked for (less a few ms: a timer may fire a
    // millisecond before Date.now() shows its full delay, and the stamps are the server's).
    expect(answers[1]!.at - answers[0]!.at).toBeGreaterThanOrEqual(990);
    expect(answers[2]!.at - answers[1]!.at).toBeGreaterThanOrEqual(990);
    expect(device.results.get(id)).toMatchObject({ status: 'success' });
    // The fleet counts the result once the 204 has reached it, a moment after the server stored it.
    await expect.poll(() => fleet!.stats().results).toBe(1);
    expect(fleet!.stats()).toMatchObject({ retries: 2, longest_retry_streak: 2 });
  });

  it('sends an inventory again until it is stored', async () => {
    const { fake, machineId, device } = await oneDevice();
    const inventoryPath = /^PUT \/api\/agent\/v1\/inventory$/;
    const before = answersTo(fake, inventoryPath).length;
    fake.failNext(2, { path: inventoryPath, retryAfterS: 1 });
    // A scan sends the inventory before its result.
    const id = fake.queue(machineId, 'scan');

    await expect.poll(() => device.results.has(id), { timeout: 15_000 }).toBe(true);
    expect(
      answersTo(fake, inventoryPath)
        .slice(before)
        .map((a) => a.status),
    ).toEqual([503, 503, 204]);
    expect(fleet!.stats().retries).toBe(2);
  });
});
