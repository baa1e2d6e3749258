import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/raw';
import { deviceCommands, devicePresence, devices } from '../db/devices.schema';
import { startTestApp, type TestApp } from '../test/app';
import {
  flushLastSeen,
  agentCall,
  buildZoneWithKey,
  checkinAs,
  enrollBody,
  enrollDevice,
  inventoryBody,
} from '../test/agents';
import { call } from '../test/authz-helpers';
import { sweepOverdueCommands } from '../modules/commands/commands.sweep';
import { COMMAND_TIMEOUT_GRACE_S } from '../modules/commands/commands.timing';
import { hashDeviceToken } from './agent.service';
import { TokenCache } from './agent-runtime';

let t: TestApp;
let zoneA: Awaited<ReturnType<typeof buildZoneWithKey>>;
let zoneB: Awaited<ReturnType<typeof buildZoneWithKey>>;

beforeAll(async () => {
  t = await startTestApp();
  zoneA = await buildZoneWithKey(t);
  zoneB = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/agent/v1/enroll', () => {
  it('enrols a device into the access key’s zone and stores only the token’s hash', async () => {
    const res = await call(t, {}, 'POST', '/api/agent/v1/enroll', enrollBody(zoneA.accessKey, { hostname: 'enrol-1' }));
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^pwd_[A-Za-z0-9]{40}$/);
    expect(res.body.checkin_interval_s).toBe(60);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, res.body.device_id));
    expect(row!.organizationId).toBe(zoneA.zone.id);
    expect(row!.tokenHash).toBe(hashDeviceToken(res.body.token));
    expect(row!.tokenHash).not.toContain(res.body.token);
    expect(row!.uuid).toBe(res.body.device_uuid);
  });

  it('refuses a bad access key with 401 agent.invalid_access_key', async () => {
    const res = await call(t, {}, 'POST', '/api/agent/v1/enroll', enrollBody('pwz_not-a-key'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('agent.invalid_access_key');
  });

  it('gives the same machine the same device and a new token; the old one gets 401', async () => {
    const first = await enrollDevice(t, zoneA.accessKey);
    expect((await checkinAs(t, first.token)).status).toBe(200); // cached now
    const again = await enrollDevice(t, zoneA.accessKey, { machine_id: first.machineId, hostname: 'renamed' });
    expect(again.id).toBe(first.id);
    expect(again.token).not.toBe(first.token);
    const old = await checkinAs(t, first.token);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('agent.invalid_token');
    expect((await checkinAs(t, again.token)).status).toBe(200);
  });

  it('gives the same machine in another zone another device', async () => {
    const a = await enrollDevice(t, zoneA.accessKey);
    const b = await enrollDevice(t, zoneB.accessKey, { machine_id: a.machineId });
    expect(b.id).not.toBe(a.id);
    expect((await checkinAs(t, a.token)).status).toBe(200);
  });
});

describe('POST /api/agent/v1/checkin', () => {
  it('refuses a missing or invalid token with 401', async () => {
    expect((await call(t, {}, 'POST', '/api/agent/v1/checkin', { status: {} })).status).toBe(401);
    const res = await checkinAs(t, `pwd_${'x'.repeat(40)}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('agent.invalid_token');
  });

  it('records the check-in in a coalesced write: last seen, reboot flag, addresses', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const res = await checkinAs(t, d.token, {
      status: { needs_reboot: true, ip_addrs: ['203.0.113.9'], ip_addrs_private: ['10.1.2.3'], uptime_s: 42 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ commands: [], send_inventory: true, checkin_interval_s: 60 });
    await flushLastSeen(t);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, d.id));
    expect(row!.needsReboot).toBe(true);
    expect(row!.ipAddrs).toEqual(['203.0.113.9']);
    expect(row!.ipAddrsPrivate).toEqual(['10.1.2.3']);
    const [presence] = await t.db.select().from(devicePresence).where(eq(devicePresence.deviceId, d.id));
    expect(presence!.lastSeenAt.toISOString()).toBe(t.clock.now().toISOString());
    // Online for the interval the answer gave (60 s) plus the 90 s grace.
    expect(presence!.onlineUntil.getTime()).toBe(t.clock.now().getTime() + 150_000);
    expect(presence!.uptimeS).toBe(42);
    expect(presence!.organizationId).toBe(zoneA.zone.id);
  });

  it('leaves the device row unwritten by a check-in that changes nothing but the time', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const status = { needs_reboot: false, ip_addrs: ['203.0.113.10'], ip_addrs_private: [], uptime_s: 1 };
    await checkinAs(t, d.token, { status });
    await flushLastSeen(t);
    // xmin names the transaction that wrote the row version: unchanged means not rewritten.
    const version = async () =>
      (await queryRows<{ v: string }>(t.db, sql`select xmin::text as v from ${devices} where id = ${d.id}`))[0]!.v;
    const before = await version();
    t.clock.advance(60_000);
    await checkinAs(t, d.token, { status: { ...status, uptime_s: 61 } });
    await flushLastSeen(t);
    expect(await version()).toBe(before);
    const [presence] = await t.db.select().from(devicePresence).where(eq(devicePresence.deviceId, d.id));
    expect(presence!.uptimeS).toBe(61);
    expect(presence!.lastSeenAt.toISOString()).toBe(t.clock.now().toISOString());
    // A changed address is written.
    await checkinAs(t, d.token, { status: { ...status, ip_addrs: ['203.0.113.11'] } });
    await flushLastSeen(t);
    expect(await version()).not.toBe(before);
  });

  it('asks for the inventory until the server has the agent’s hash', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const inv = inventoryBody();
    expect((await checkinAs(t, d.token, { inventory_hash: inv.hash })).body.send_inventory).toBe(true);
    expect((await agentCall(t, d.token, 'PUT', '/inventory', inv)).status).toBe(204);
    expect((await checkinAs(t, d.token, { inventory_hash: inv.hash })).body.send_inventory).toBe(false);
    expect((await checkinAs(t, d.token, { inventory_hash: 'changed' })).body.send_inventory).toBe(true);
  });

  it('answers a waiting check-in within a second when the console queues a command', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const waiting = checkinAs(t, d.token, { wait_s: 20 });
    await expect.poll(() => t.app.agents.isWaiting(d.id)).toBe(true);
    const queued = await zoneA.admin.post(`/api/servers/${d.id}/queues?o=${zoneA.zone.id}`, {
      command_type_name: 'GetOS',
    });
    expect(queued.status).toBe(201);
    // Only the wake-up hands the command to a waiting check-in: one that timed out after its
    // 20 s would answer with none (and the test's own timeout would end it first).
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.commands).toHaveLength(1);
    expect(res.body.commands[0]).toMatchObject({ id: queued.body.id, type: 'scan', args: {}, timeout_s: 900 });
    const [row] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, queued.body.id));
    expect(row!.status).toBe('in_progress');
  });

  it('ends a long-poll after wait_s when nothing is queued', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const answer = checkinAs(t, d.token, { wait_s: 1 });
    await expect.poll(() => t.app.agents.isWaiting(d.id)).toBe(true);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.commands).toEqual([]);
    expect(t.app.agents.isWaiting(d.id)).toBe(false);
  });

  it('hands out a command queued before the check-in at once', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const queued = await zoneA.admin.post(`/api/servers/${d.id}/queues?o=${zoneA.zone.id}`, {
      command_type_name: 'InstallUpdate',
      args: { names: ['openssl'] },
    });
    const res = await checkinAs(t, d.token, { wait_s: 20 });
    expect(res.body.commands).toEqual([
      expect.objectContaining({ id: queued.body.id, type: 'install_updates', args: { names: ['openssl'] } }),
    ]);
    // Handed out once: the next check-in has nothing.
    expect((await checkinAs(t, d.token)).body.commands).toEqual([]);
  });

  it('records a busy check-in (a heartbeat while commands run) and keeps the queued command for the next', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const queued = await zoneA.admin.post(`/api/servers/${d.id}/queues?o=${zoneA.zone.id}`, {
      command_type_name: 'GetOS',
    });
    const busy = await checkinAs(t, d.token, { busy: true, status: { uptime_s: 5 } });
    expect(busy.status).toBe(200);
    expect(busy.body).toMatchObject({ commands: [], send_inventory: false, checkin_interval_s: 60 });
    await flushLastSeen(t);
    const [presence] = await t.db.select().from(devicePresence).where(eq(devicePresence.deviceId, d.id));
    expect(presence!.uptimeS).toBe(5);
    const next = await checkinAs(t, d.token);
    expect(next.body.commands).toEqual([expect.objectContaining({ id: queued.body.id, type: 'scan' })]);
  });

  it('tells a removed device to stop with 410', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    expect((await checkinAs(t, d.token)).status).toBe(200);
    expect((await zoneA.admin.del(`/api/servers/${d.id}?o=${zoneA.zone.id}`)).status).toBe(204);
    const res = await checkinAs(t, d.token);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('agent.removed');
  });
});

describe('PUT /api/agent/v1/inventory', () => {
  it('replaces software and patches and derives compliance; an unchanged hash writes nothing', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const inv = inventoryBody({ hostname: 'inv-host' });
    expect((await agentCall(t, d.token, 'PUT', '/inventory', inv)).status).toBe(204);
    const detail = await zoneA.admin.get(`/api/servers/${d.id}?o=${zoneA.zone.id}`);
    expect(detail.body).toMatchObject({
      hostname: 'inv-host',
      package_count: 2,
      pending_patches: 1,
      compliance: 'needs_attention',
      detail: { cpu: 'Test CPU', serial: 'SER-1' },
    });
    const [before] = await t.db.select().from(devices).where(eq(devices.id, d.id));
    // Same hash, different content: ignored.
    t.clock.advance(60_000);
    expect((await agentCall(t, d.token, 'PUT', '/inventory', { ...inv, software: [], patches: [] })).status).toBe(204);
    const [after] = await t.db.select().from(devices).where(eq(devices.id, d.id));
    expect(after!.lastInventoryAt).toEqual(before!.lastInventoryAt);
    // A new hash replaces everything.
    const next = inventoryBody({ hostname: 'inv-host', patches: [], software: [{ name: 'zsh', version: '5.9' }] });
    expect((await agentCall(t, d.token, 'PUT', '/inventory', next)).status).toBe(204);
    const again = await zoneA.admin.get(`/api/servers/${d.id}?o=${zoneA.zone.id}`);
    expect(again.body).toMatchObject({ package_count: 1, pending_patches: 0, compliance: 'compliant' });

    // Check-ins carry fresher uptime and user than the inventory; the device page shows theirs.
    await checkinAs(t, d.token, { status: { uptime_s: 7777, logged_in_user: 'ada' } });
    await flushLastSeen(t);
    const fresh = await zoneA.admin.get(`/api/servers/${d.id}?o=${zoneA.zone.id}`);
    expect(fresh.body.detail).toMatchObject({ cpu: 'Test CPU', uptime_s: 7777, logged_in_user: 'ada' });
  });

  it('refuses more than 20,000 software rows', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const software = Array.from({ length: 20_001 }, (_, i) => ({ name: `p${i}`, version: '1' }));
    const res = await agentCall(t, d.token, 'PUT', '/inventory', inventoryBody({ software }));
    expect(res.status).toBe(400);
  });
});

describe('POST /api/agent/v1/commands/{id}/result', () => {
  it('records a result once; a repeated post changes nothing', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const queued = await zoneA.admin.post(`/api/servers/${d.id}/queues?o=${zoneA.zone.id}`, {
      command_type_name: 'GetOS',
    });
    await checkinAs(t, d.token);
    const result = { status: 'success', exit_code: 0, stdout_tail: 'ok', stderr_tail: '' };
    expect((await agentCall(t, d.token, 'POST', `/commands/${queued.body.id}/result`, result)).status).toBe(204);
    const second = { ...result, status: 'error', exit_code: 1 };
    expect((await agentCall(t, d.token, 'POST', `/commands/${queued.body.id}/result`, second)).status).toBe(204);
    const list = await zoneA.admin.get(`/api/servers/${d.id}/commands?o=${zoneA.zone.id}`);
    expect(list.body.data[0]).toMatchObject({ id: queued.body.id, status: 'success', exit_code: 0, stdout_tail: 'ok' });
  });

  it('marks commands not answered in time timed_out, and ignores a late result', async () => {
    const d = await enrollDevice(t, zoneA.accessKey);
    const queued = await zoneA.admin.post(`/api/servers/${d.id}/queues?o=${zoneA.zone.id}`, {
      command_type_name: 'Reboot',
    });
    await checkinAs(t, d.token);
    expect(await sweepOverdueCommands(t.ctx)).toBe(0);
    t.clock.advance((900 + COMMAND_TIMEOUT_GRACE_S + 1) * 1000);
    expect(await sweepOverdueCommands(t.ctx)).toBeGreaterThanOrEqual(1);
    const late = { status: 'success', exit_code: 0 };
    expect((await agentCall(t, d.token, 'POST', `/commands/${queued.body.id}/result`, late)).status).toBe(204);
    const list = await zoneA.admin.get(`/api/servers/${d.id}/commands?o=${zoneA.zone.id}`);
    expect(list.body.data[0]).toMatchObject({ id: queued.body.id, status: 'timed_out' });
  });
});

describe('isolation between zones', () => {
  it('never lets a device of zone A see or answer zone B’s commands', async () => {
    const a = await enrollDevice(t, zoneA.accessKey);
    const b = await enrollDevice(t, zoneB.accessKey);
    const queued = await zoneB.admin.post(`/api/servers/${b.id}/queues?o=${zoneB.zone.id}`, {
      command_type_name: 'GetOS',
    });
    expect(queued.status).toBe(201);
    expect((await checkinAs(t, a.token)).body.commands).toEqual([]);
    const answer = await agentCall(t, a.token, 'POST', `/commands/${queued.body.id}/result`, { status: 'success' });
    expect(answer.status).toBe(404);
    const own = await checkinAs(t, b.token);
    expect(own.body.commands.map((c: { id: number }) => c.id)).toEqual([queued.body.id]);
  });

  it('answers 404 in the console for another zone’s device, group and commands', async () => {
    const b = await enrollDevice(t, zoneB.accessKey);
    const o = zoneA.zone.id;
    expect((await zoneA.admin.get(`/api/servers/${b.id}?o=${o}`)).status).toBe(404);
    expect((await zoneA.admin.get(`/api/servers/${b.id}/commands?o=${o}`)).status).toBe(404);
    expect((await zoneA.admin.get(`/api/servers/${b.id}/packages?o=${o}`)).status).toBe(404);
    expect((await zoneA.admin.post(`/api/servers/${b.id}/queues?o=${o}`, { command_type_name: 'GetOS' })).status).toBe(
      404,
    );
    expect((await zoneA.admin.put(`/api/servers/${b.id}?o=${o}`, { notes: 'x' })).status).toBe(404);
    expect((await zoneA.admin.del(`/api/servers/${b.id}?o=${o}`)).status).toBe(404);
    expect((await zoneA.admin.get(`/api/servers/${b.id}?o=${zoneB.zone.id}`)).status).toBe(404);
    const batch = await zoneA.admin.post(`/api/servers/batch?o=${o}`, { action: 'remove', ids: [b.id] });
    expect(batch.body).toEqual({ affected: 0 });
    expect((await checkinAs(t, b.token)).status).toBe(200);
  });
});

describe('TokenCache', () => {
  it('stays within its bound and forgets a device by id', () => {
    const cache = new TokenCache(2, 60_000);
    const dev = (id: number) => ({
      id,
      organizationId: 1,
      tokenHash: `h${id}`,
      removed: false,
      checkinIntervalS: 60,
      inventoryHash: null,
    });
    cache.set(dev(1));
    cache.set(dev(2));
    cache.set(dev(3));
    expect(cache.size).toBe(2);
    expect(cache.get('h1')).toBeUndefined();
    cache.forgetDevice(3);
    expect(cache.get('h3')).toBeUndefined();
    expect(cache.get('h2')?.id).toBe(2);
  });
});
