/**
 * The agent API's limits, through HTTP on the real app: requests per device per minute, and
 * the inventory's byte and row limits.
 */
import {
  INVENTORY_BODY_MAX_BYTES,
  INVENTORY_SOFTWARE_MAX,
  type InventorySoftware,
} from '@patchwell/core/agent/agent-protocol.schema';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { agentCall, buildZoneWithKey, checkinAs, enrollDevice, inventoryBody } from '../test/agents';
import { DEVICE_RATE_PER_MINUTE } from './agent-runtime';

let t: TestApp;
let zone: Awaited<ReturnType<typeof buildZoneWithKey>>;

beforeAll(async () => {
  t = await startTestApp();
  zone = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** `count` check-ins of one device, `parallel` at a time; the statuses in order of sending. */
async function checkins(token: string, count: number, parallel = 10): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - i) }, () => checkinAs(t, token));
    statuses.push(...(await Promise.all(batch)).map((r) => r.status));
  }
  return statuses;
}

describe('the per-device rate limit', () => {
  it('answers a device’s 601st request within a minute with 429 and Retry-After, other devices and the next minute unaffected', async () => {
    // The limiter counts per wall-clock minute (Date.now, not the injected clock): pin
    // Date, and only Date, so the 600 requests cannot straddle a minute boundary.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T09:00:05.000Z'));
    const busy = await enrollDevice(t, zone.accessKey);
    const quiet = await enrollDevice(t, zone.accessKey);

    const statuses = await checkins(busy.token, DEVICE_RATE_PER_MINUTE);
    expect(statuses.filter((s) => s === 200)).toHaveLength(DEVICE_RATE_PER_MINUTE);

    const limited = await checkinAs(t, busy.token);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'agent.rate_limited', message: 'Too many requests from this device.' });
    const res = await t.request('/api/agent/v1/checkin', {
      method: 'POST',
      headers: { authorization: `Bearer ${busy.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: {}, inventory_hash: null, wait_s: 0 }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    await res.arrayBuffer();
    // Every agent route counts, not only check-ins.
    expect((await agentCall(t, busy.token, 'PUT', '/inventory', inventoryBody())).status).toBe(429);

    expect((await checkinAs(t, quiet.token)).status).toBe(200);

    vi.setSystemTime(new Date('2026-03-02T09:01:00.000Z'));
    expect((await checkinAs(t, busy.token)).status).toBe(200);
  }, 180_000);
});

/** Software rows of about `rowBytes` bytes of JSON each (at most ~550), with distinct names. */
function softwareRows(count: number, rowBytes: number): InventorySoftware[] {
  const nameLength = Math.min(300, Math.max(12, rowBytes - 80));
  const versionLength = Math.min(200, Math.max(1, rowBytes - 80 - nameLength));
  return Array.from({ length: count }, (_, i) => ({
    name: `pkg-${String(i).padStart(5, '0')}-`.padEnd(nameLength, 'x'),
    version: '1'.padEnd(versionLength, '.0'),
    source: 'dpkg',
    arch: 'amd64',
  }));
}

describe('PUT /api/agent/v1/inventory limits', () => {
  it('takes a large inventory just under 8 MiB with the most software rows', async () => {
    const device = await enrollDevice(t, zone.accessKey);
    const body = inventoryBody({ software: softwareRows(INVENTORY_SOFTWARE_MAX, 400), patches: [] });
    const bytes = Buffer.byteLength(JSON.stringify(body));
    expect(bytes).toBeGreaterThan(7 * 1024 * 1024);
    expect(bytes).toBeLessThan(INVENTORY_BODY_MAX_BYTES);

    expect((await agentCall(t, device.token, 'PUT', '/inventory', body)).status).toBe(204);
    const stored = await zone.admin.get(`/api/servers/${device.id}/packages?o=${zone.zone.id}&limit=1`);
    expect(stored.status).toBe(200);
    expect(stored.body.size).toBe(INVENTORY_SOFTWARE_MAX);
  }, 180_000);

  it('refuses a body just over 8 MiB with 413 in the error shape', async () => {
    const device = await enrollDevice(t, zone.accessKey);
    const body = inventoryBody({ software: softwareRows(INVENTORY_SOFTWARE_MAX, 400), patches: [] });
    let json = JSON.stringify(body);
    // Pad the hash-free part (whitespace is valid JSON) to exactly one byte over the limit.
    json = `${json.slice(0, -1)}${' '.repeat(INVENTORY_BODY_MAX_BYTES - Buffer.byteLength(json) + 1)}}`;
    expect(Buffer.byteLength(json)).toBe(INVENTORY_BODY_MAX_BYTES + 1);

    const res = await t.request('/api/agent/v1/inventory', {
      method: 'PUT',
      headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
      body: json,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 'payload_too_large', message: 'The request body is too large.' });
  });

  it('refuses more than 20,000 software rows with 400', async () => {
    const device = await enrollDevice(t, zone.accessKey);
    const body = inventoryBody({ software: softwareRows(INVENTORY_SOFTWARE_MAX + 1, 80), patches: [] });
    const res = await agentCall(t, device.token, 'PUT', '/inventory', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(Object.keys(res.body.errors)).toEqual(['software']);
    const stored = await zone.admin.get(`/api/servers/${device.id}/packages?o=${zone.zone.id}&limit=1`);
    expect(stored.body.size).toBe(0);
  });
});
