import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app';
import { agentCall, buildZoneWithKey, checkinAs, enrollDevice } from '../../test/agents';
import type { CommandFinished } from './commands.events';
import { cancelCommands } from './commands.service';

let t: TestApp;
let zone: Awaited<ReturnType<typeof buildZoneWithKey>>;
const warnings: { msg: string; subscriber?: string; commandId?: number }[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
  t = await startTestApp({ logger });
  zone = await buildZoneWithKey(t);
});
afterAll(async () => {
  await t.close();
});

async function queueScan(deviceId: number): Promise<number> {
  const queued = await zone.admin.post(`/api/servers/${deviceId}/queues?o=${zone.zone.id}`, {
    command_type_name: 'GetOS',
  });
  expect(queued.status).toBe(201);
  return queued.body.id as number;
}

describe('commandFinished', () => {
  it('is announced once per recorded result, with the stored row, and not for a repeated post', async () => {
    const seen: CommandFinished[] = [];
    const off = t.app.commandEvents.onCommandFinished('test', async (e) => void seen.push(e));
    try {
      const d = await enrollDevice(t, zone.accessKey);
      const id = await queueScan(d.id);
      await checkinAs(t, d.token);
      const result = { status: 'success', exit_code: 0 };
      expect((await agentCall(t, d.token, 'POST', `/commands/${id}/result`, result)).status).toBe(204);
      expect((await agentCall(t, d.token, 'POST', `/commands/${id}/result`, result)).status).toBe(204);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.command).toMatchObject({ id, deviceId: d.id, organizationId: zone.zone.id, status: 'success' });
      expect(seen[0]!.result.status).toBe('success');
    } finally {
      off();
    }
  });

  it('logs a failing subscriber and still answers the agent 204; the other subscribers run', async () => {
    const after: number[] = [];
    const offFailing = t.app.commandEvents.onCommandFinished('a failing subscriber', async () => {
      throw new Error('boom');
    });
    const offAfter = t.app.commandEvents.onCommandFinished('test', async (e) => void after.push(e.command.id));
    try {
      const d = await enrollDevice(t, zone.accessKey);
      const id = await queueScan(d.id);
      await checkinAs(t, d.token);
      const res = await agentCall(t, d.token, 'POST', `/commands/${id}/result`, { status: 'error', exit_code: 2 });
      expect(res.status).toBe(204);
      expect(after).toEqual([id]);
      expect(warnings).toContainEqual(expect.objectContaining({ subscriber: 'a failing subscriber', commandId: id }));
      const list = await zone.admin.get(`/api/servers/${d.id}/commands?o=${zone.zone.id}`);
      expect(list.body.data[0]).toMatchObject({ id, status: 'error', exit_code: 2 });
    } finally {
      offFailing();
      offAfter();
    }
  });
});

describe('cancelCommands', () => {
  it('cancels only the zone’s open commands, announces each, and a later result changes nothing', async () => {
    const seen: CommandFinished[] = [];
    const off = t.app.commandEvents.onCommandFinished('test', async (e) => void seen.push(e));
    try {
      const d = await enrollDevice(t, zone.accessKey);
      const id = await queueScan(d.id);
      const cctx = { ...t.ctx, commandEvents: t.app.commandEvents };
      expect(await cancelCommands(cctx, zone.zone.id + 1000, [id])).toEqual([]);
      const canceled = await cancelCommands(cctx, zone.zone.id, [id]);
      expect(canceled.map((c) => [c.id, c.status])).toEqual([[id, 'canceled']]);
      expect(seen.map((e) => [e.command.id, e.result.status])).toEqual([[id, 'canceled']]);
      // Nothing is handed out, and a result for it is ignored.
      expect((await checkinAs(t, d.token)).body.commands).toEqual([]);
      expect((await agentCall(t, d.token, 'POST', `/commands/${id}/result`, { status: 'success' })).status).toBe(204);
      const list = await zone.admin.get(`/api/servers/${d.id}/commands?o=${zone.zone.id}`);
      expect(list.body.data[0]).toMatchObject({ id, status: 'canceled' });
    } finally {
      off();
    }
  });
});
