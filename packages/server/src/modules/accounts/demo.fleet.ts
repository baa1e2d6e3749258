/**
 * The demo account's simulated devices: the agent's fleet simulator, run in the server's
 * process against the server's own URL, enrolling with the demo zones' access keys. The
 * devices are seeded, so a restart on the same DATA_DIR brings back the same machines.
 */
import { startFleet } from '@patchwell/agent/simulate/fleet';
import type { SimMachine } from '@patchwell/agent/simulate/inventory';
import type { AppContext } from '../../context';
import { findUserByEmail } from '../users/users.store';
import { accessKeyOf } from '../zones/zone-settings.service';
import { findAccountZoneIds, findZone } from '../zones/zones.store';
import { DEMO_ADMIN_EMAIL } from './demo.seed';

/** Where the devices go: three quarters to the first zone, the rest to the second. */
const DEMO_FLEET_ZONES = ['Headquarters', 'Cloud Servers'] as const;

export type DemoFleetZone = {
  name: string;
  zoneId: number;
  count: number;
  /** The zone's simulated machines as they started (generated from the seed). */
  machines(): SimMachine[];
  /** Whether every device of the zone has sent its inventory once. */
  isReported(): boolean;
};

export type DemoFleet = {
  /** Devices per zone, as started. */
  zones: DemoFleetZone[];
  stop(): Promise<void>;
};

/**
 * The devices' requests, each on its own connection: a kept-alive socket of an in-process
 * client can keep the listener from closing at shutdown, and a few dozen devices do not need
 * connection reuse.
 */
const withoutKeepAlive: typeof fetch = (input, init = {}) =>
  fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), connection: 'close' } });

/** The first devices of each zone hold a long-poll open: commands reach them at once. */
export const DEMO_LONG_POLL_DEVICES = 4;

/** Splits `total` devices over the demo zones (32 → 24 and 8). */
export function demoFleetSizes(total: number): number[] {
  const first = Math.ceil(total * 0.75);
  return [first, total - first];
}

/**
 * Each demo zone's simulator settings: its own seed (other machines) and its own range of
 * hostname numbers, so that no hostname appears in two zones.
 */
export function demoFleetPlan(total: number): { count: number; seed: number; hostNumberOffset: number }[] {
  let offset = 0;
  return demoFleetSizes(total).map((count, i) => {
    const plan = { count, seed: 1000 + i, hostNumberOffset: offset };
    offset += count;
    return plan;
  });
}

/**
 * Starts the simulated devices of the demo account against `serverUrl`, their commands taking
 * a real machine's time divided by `speed`; undefined when there is no demo account (an
 * instance bootstrapped with PATCHWELL_ADMIN_*) or `total` is 0.
 */
export async function startDemoFleet(
  ctx: AppContext,
  serverUrl: string,
  total: number,
  speed = 1,
): Promise<DemoFleet | undefined> {
  if (total <= 0) return undefined;
  const admin = await findUserByEmail(ctx.db, DEMO_ADMIN_EMAIL);
  if (!admin?.accountId) return undefined;
  const zones = await Promise.all(
    (await findAccountZoneIds(ctx.db, admin.accountId)).map((id) => findZone(ctx.db, id)),
  );
  const plan = demoFleetPlan(total);
  const fleets: { name: string; zoneId: number; count: number; fleet: ReturnType<typeof startFleet> }[] = [];
  for (const [i, name] of DEMO_FLEET_ZONES.entries()) {
    const zone = zones.find((z) => z?.name === name);
    const { count, seed, hostNumberOffset } = plan[i]!;
    if (!zone || count === 0) continue;
    // skipauth: the server enrols its own demo devices; no caller is involved.
    const { access_key } = await accessKeyOf(ctx, zone);
    const fleet = startFleet({
      server: serverUrl,
      accessKey: access_key,
      count,
      seed,
      hostNumberOffset,
      longPollDevices: Math.min(count, DEMO_LONG_POLL_DEVICES),
      concurrency: 8,
      timeScale: 1 / speed,
      fetch: withoutKeepAlive,
      log: (message) => ctx.logger.debug({ zone: name }, `demo fleet: ${message}`),
    });
    fleets.push({ name, zoneId: zone.id, count, fleet });
  }
  return {
    zones: fleets.map(({ name, zoneId, count, fleet }) => ({
      name,
      zoneId,
      count,
      machines: () => Array.from({ length: count }, (_, i) => fleet.machine(i)),
      isReported: () => fleet.stats().inventories >= count,
    })),
    async stop() {
      await Promise.all(fleets.map(({ fleet }) => fleet.stop()));
    },
  };
}
