import { inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePresence, devices } from '../db/devices.schema';
import { startTestApp, type TestApp } from '../test/app';
import { buildZoneWithKey, enrollDevice } from '../test/agents';
import type { SeenEntry } from './agent.store';

let t: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ logger: pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) }) });
});
afterAll(async () => {
  await t.close();
});

function entry(id: number, zoneId: number, user: string): SeenEntry {
  return {
    id,
    organization_id: zoneId,
    at: t.clock.now().toISOString(),
    interval_s: 60,
    needs_reboot: true,
    ip_addrs: ['10.0.0.1'],
    ip_addrs_private: null,
    uptime_s: 42,
    logged_in_user: user,
  };
}

describe('the coalesced last-seen write', () => {
  it('writes every healthy device’s presence when one check-in in the batch cannot be stored', async () => {
    const healthy: number[] = [];
    let poisoned: { id: number; zoneId: number } | undefined;
    for (let z = 0; z < 3; z++) {
      const { zone, accessKey } = await buildZoneWithKey(t);
      for (let i = 0; i < 4; i++) {
        const device = await enrollDevice(t, accessKey);
        // One device of the middle zone, fed straight to the runtime as a check-in that
        // slipped past the edge: PostgreSQL refuses a NUL byte in text (and in jsonb).
        if (z === 1 && i === 2) poisoned = { id: device.id, zoneId: zone.id };
        else {
          healthy.push(device.id);
          t.app.agents.seen(entry(device.id, zone.id, `user-${device.id}`));
        }
      }
    }
    t.app.agents.seen(entry(poisoned!.id, poisoned!.zoneId, 'bad\u0000user'));
    await t.app.agents.flushSeen();

    const presence = await t.db
      .select({ id: devicePresence.deviceId, uptime: devicePresence.uptimeS })
      .from(devicePresence)
      .where(inArray(devicePresence.deviceId, healthy));
    expect(presence.map((p) => p.id).sort((a, b) => a - b)).toEqual(healthy);
    expect(presence.every((p) => Number(p.uptime) === 42)).toBe(true);
    const rows = await t.db
      .select({ id: devices.id, user: devices.loggedInUser, reboot: devices.needsReboot })
      .from(devices)
      .where(inArray(devices.id, healthy));
    expect(rows.every((r) => r.user === `user-${r.id}` && r.reboot)).toBe(true);
    // The bad row is named by its ids; what the device sent stays out of the log.
    const skipped = logged.map((l) => JSON.parse(l)).filter((l) => l.msg === 'check-in not stored: skipped');
    expect(skipped.map((l) => l.deviceId)).toEqual([poisoned!.id]);
    expect(logged.join('\n')).not.toContain('bad');
  });
});
