/**
 * The agent API under volume: concurrent check-ins share their token and pending-command
 * reads, and each still gets exactly its own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { buildZoneWithKey, checkinAs, enrollDevice, type EnrolledDevice } from '../test/agents';
import { createAgentRuntime } from './agent-runtime';
import { hashDeviceToken } from './agent.service';

let t: TestApp;
let zone: Awaited<ReturnType<typeof buildZoneWithKey>>;

beforeAll(async () => {
  t = await startTestApp();
  zone = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/agent/v1/checkin under volume', () => {
  it('gives each of many concurrent check-ins its own commands and nobody else’s', async () => {
    const fleet: EnrolledDevice[] = [];
    for (let i = 0; i < 30; i++) fleet.push(await enrollDevice(t, zone.accessKey));
    const queued = new Map<number, number>();
    for (const d of [fleet[3]!, fleet[17]!]) {
      const res = await zone.admin.post(`/api/servers/${d.id}/queues?o=${zone.zone.id}`, {
        command_type_name: 'GetOS',
      });
      expect(res.status).toBe(201);
      queued.set(d.id, res.body.id);
    }

    const answers = await Promise.all([
      ...fleet.map((d) => checkinAs(t, d.token)),
      checkinAs(t, 'pwd_notAValidTokenOfAnyDevice000000000000000'),
    ]);

    fleet.forEach((d, i) => {
      expect(answers[i]!.status).toBe(200);
      const id = queued.get(d.id);
      expect(answers[i]!.body.commands.map((c: { id: number }) => c.id)).toEqual(id ? [id] : []);
    });
    expect(answers[fleet.length]!.status).toBe(401);
    // Handed out once: the next check-ins find nothing.
    const again = await Promise.all([fleet[3]!, fleet[17]!].map((d) => checkinAs(t, d.token)));
    expect(again.map((a) => a.body.commands)).toEqual([[], []]);
  });

  it('hands out a command queued after a check-in found none (the empty answer is not kept past a queueing)', async () => {
    const d = await enrollDevice(t, zone.accessKey);
    expect((await checkinAs(t, d.token)).body.commands).toEqual([]);
    expect((await checkinAs(t, d.token)).body.commands).toEqual([]);
    const queued = await zone.admin.post(`/api/servers/${d.id}/queues?o=${zone.zone.id}`, {
      command_type_name: 'GetOS',
    });
    const res = await checkinAs(t, d.token);
    expect(res.body.commands.map((c: { id: number }) => c.id)).toEqual([queued.body.id]);
  });

  it('does not cache a token read before the device was dropped (re-enrolled or removed meanwhile)', async () => {
    const d = await enrollDevice(t, zone.accessKey);
    const runtime = createAgentRuntime(t.ctx);
    try {
      const hash = hashDeviceToken(d.token);
      const reading = runtime.findDevice(hash);
      // The drop lands while the read is in flight: its answer may predate the drop.
      await runtime.forget([d.id]);
      expect((await reading)?.id).toBe(d.id);
      expect(runtime.tokens.get(hash)).toBeUndefined();
      // A read after the drop is cached again.
      await runtime.findDevice(hash);
      expect(runtime.tokens.get(hash)?.id).toBe(d.id);
    } finally {
      await runtime.close();
    }
  });

  it('tells which devices have pending commands, sharing one read among concurrent callers', async () => {
    const a = await enrollDevice(t, zone.accessKey);
    const b = await enrollDevice(t, zone.accessKey);
    await zone.admin.post(`/api/servers/${b.id}/queues?o=${zone.zone.id}`, { command_type_name: 'GetOS' });
    const runtime = createAgentRuntime(t.ctx);
    try {
      expect(await Promise.all([a.id, b.id, a.id, 999_999].map((id) => runtime.hasPendingCommands(id)))).toEqual([
        false,
        true,
        false,
        false,
      ]);
    } finally {
      await runtime.close();
    }
  });
});
