import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../test/app';
import { buildZoneWithKey, checkinAs, enrollDevice } from '../test/agents';
import { createTestDb, type TestDbHandle } from '../test/db';

/**
 * Two server nodes on one PostgreSQL: a command queued on one node wakes a check-in waiting
 * on the other (LISTEN/NOTIFY), and a re-enrolment on one drops the old token on the other.
 * PostgreSQL only: PGlite is one process's database, there is no second node.
 */
describe.runIf(process.env.DATABASE_URL)('agent API on several nodes (PostgreSQL)', () => {
  let db: TestDbHandle;
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    db = await createTestDb();
    nodeA = await startTestApp({ db, config: { databaseUrl: db.url } });
    nodeB = await startTestApp({ db, config: { databaseUrl: db.url } });
    // Both listeners connected: from then on every notification reaches both nodes.
    await vi.waitFor(() => expect(nodeA.app.agents.listening && nodeB.app.agents.listening).toBe(true));
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await db?.close();
  });

  it('wakes a check-in waiting on node A when node B queues a command', async () => {
    const z = await buildZoneWithKey(nodeB);
    const d = await enrollDevice(nodeA, z.accessKey);
    const waiting = checkinAs(nodeA, d.token, { wait_s: 20 });
    await expect.poll(() => nodeA.app.agents.isWaiting(d.id)).toBe(true);
    const queued = await z.admin.post(`/api/servers/${d.id}/queues?o=${z.zone.id}`, { command_type_name: 'GetOS' });
    expect(queued.status).toBe(201);
    // Without node B's wake the check-in would wait its 20 s and answer with no command.
    const res = await waiting;
    expect(res.body.commands.map((c: { id: number }) => c.id)).toEqual([queued.body.id]);
  });

  it('hands out on node A a command node B queued after A found none for the device', async () => {
    const z = await buildZoneWithKey(nodeB);
    const d = await enrollDevice(nodeA, z.accessKey);
    expect((await checkinAs(nodeA, d.token)).body.commands).toEqual([]);
    const queued = await z.admin.post(`/api/servers/${d.id}/queues?o=${z.zone.id}`, { command_type_name: 'GetOS' });
    expect(queued.status).toBe(201);
    // Node B's wake reaches A through NOTIFY; until it does, A may still trust its empty read.
    await expect
      .poll(async () => (await checkinAs(nodeA, d.token)).body.commands.map((c: { id: number }) => c.id))
      .toEqual([queued.body.id]);
  });

  it('drops the old token on node A when the device re-enrols on node B', async () => {
    const z = await buildZoneWithKey(nodeA);
    const d = await enrollDevice(nodeA, z.accessKey);
    expect((await checkinAs(nodeA, d.token)).status).toBe(200); // cached on A
    await enrollDevice(nodeB, z.accessKey, { machine_id: d.machineId });
    await expect.poll(async () => (await checkinAs(nodeA, d.token)).status).toBe(401);
  });
});
