import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXTS } from '@patchwell/core/texts';
import { activityLog } from '../../../db/policies.schema';
import { deviceCommands } from '../../../db/devices.schema';
import { startTestApp, type TestApp } from '../../../test/app';
import { call, cookieFor } from '../../../test/authz-helpers';
import { buildUser } from '../../../test/factories';
import { buildPolicyZone, commandsOf, inventoriedDevice, type TestZone } from '../../../test/policy-fixtures';
import type { EnrolledDevice } from '../../../test/agents';
import { acceptedBatch, cveStatus } from '../../../test/remediation-fixtures';

/**
 * `POST /api/orgs/{orgId}/tasks/execute`: many tasks (by ids, or a batch's) executed in one
 * request and one transaction, over HTTP against the real database.
 */

let t: TestApp;
let z: TestZone;
let other: TestZone;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
});
afterAll(async () => {
  await t.close();
});

const execute = (body: unknown, cookie = z.cookie, zone = z.o) =>
  call(t, { cookie }, 'POST', `/api/orgs/${zone}/tasks/execute?o=${zone}`, body);
const task = async (id: number) => (await call(t, { cookie: z.cookie }, 'GET', `/api/orgs/${z.o}/tasks/${id}`)).body;

let seq = 0;
async function devices(n: number, zone = z): Promise<EnrolledDevice[]> {
  const out: EnrolledDevice[] = [];
  for (let i = 0; i < n; i++) out.push(await inventoriedDevice(t, zone, `bulk-${++seq}`));
  return out;
}

async function commandCount(deviceIds: number[]): Promise<number> {
  return (await t.db.select().from(deviceCommands).where(inArray(deviceCommands.deviceId, deviceIds))).length;
}

describe('POST /api/orgs/:orgId/tasks/execute', () => {
  it('executes a batch’s pending tasks at once, each device its own command, and leaves the others', async () => {
    const [a, b, c] = await devices(3);
    const { batchId, taskIds } = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [
        { patchName: 'openssl', cves: ['CVE-2026-5101'], deviceIds: [a!.id, b!.id] },
        { patchName: 'curl', cves: ['CVE-2026-5102'], deviceIds: [c!.id], devicePatches: { [c!.id]: ['curl'] } },
        { patchName: 'zlib1g', cves: ['CVE-2026-5103'], deviceIds: [a!.id] },
      ],
    });
    // The third was executed on its own before: the batch's execute leaves it.
    expect(
      (await call(t, { cookie: z.cookie }, 'PATCH', `/api/orgs/${z.o}/tasks/${taskIds[2]}`, { action: 'execute' }))
        .status,
    ).toBe(200);

    const res = await execute({ batch_id: batchId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ task_ids: taskIds.slice(0, 2), device_count: 3 });
    for (const id of taskIds.slice(0, 2)) {
      expect(await task(id)).toMatchObject({ status: 'in_progress', executed_by_user: { id: z.user.id } });
    }
    expect((await commandsOf(t, a!)).map((cmd) => cmd.args.names).sort()).toEqual([['openssl'], ['zlib1g']]);
    expect(await commandsOf(t, c!)).toMatchObject([{ type: 'install_updates', args: { names: ['curl'] } }]);
    expect(await cveStatus(t, z.o, 'CVE-2026-5101', b!.id)).toBe('remediating');
    const events = await t.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'task.execute'), inArray(activityLog.objectId, taskIds.map(String))));
    expect(events.map((e) => e.objectId).sort()).toEqual(taskIds.map(String).sort());

    // Again: nothing left pending, nothing queued twice.
    const again = await execute({ batch_id: batchId });
    expect(again.body).toEqual({ task_ids: [], device_count: 0 });
    expect(await commandCount([a!.id, b!.id, c!.id])).toBe(4);
  });

  it('executes tasks named by id, or none of them when one is not pending', async () => {
    const [a, b] = await devices(2);
    const { taskIds } = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [{ deviceIds: [a!.id] }, { deviceIds: [b!.id] }, { deviceIds: [b!.id], patchName: 'curl' }],
    });
    expect((await execute({ ids: [taskIds[0]] })).status).toBe(200);
    const refused = await execute({ ids: [taskIds[1], taskIds[0]] });
    expect(refused.status).toBe(409);
    expect((await task(taskIds[1]!)).status).toBe('pending');
    expect(await commandCount([b!.id])).toBe(0);

    const res = await execute({ ids: [taskIds[2], taskIds[1], taskIds[2]] });
    expect(res.body).toEqual({ task_ids: [taskIds[1], taskIds[2]], device_count: 1 });
    expect(await commandCount([b!.id])).toBe(2);
  });

  it('answers 404 for another zone’s tasks or batch, and 400 for a body naming neither or both', async () => {
    const [foreign] = await devices(1, other);
    const theirs = await acceptedBatch(t, {
      zoneId: other.o,
      userId: other.user.id,
      solutions: [{ deviceIds: [foreign!.id] }],
    });
    expect((await execute({ ids: theirs.taskIds })).status).toBe(404);
    expect((await execute({ batch_id: theirs.batchId })).status).toBe(404);
    expect(await commandCount([foreign!.id])).toBe(0);
    for (const body of [{}, { ids: [] }, { ids: theirs.taskIds, batch_id: theirs.batchId }]) {
      expect((await execute(body)).status).toBe(400);
    }
  });

  it('refuses users without admin or patch admin rights with the spec’s text', async () => {
    const [device] = await devices(1);
    const { taskIds } = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [{ deviceIds: [device!.id] }],
    });
    for (const roleId of [2, 5]) {
      const user = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: roleId } });
      const res = await execute({ ids: taskIds }, await cookieFor(t, user));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(TEXTS.remediationTasks.executeForbidden);
    }
    expect(await commandCount([device!.id])).toBe(0);
    // The Zone Operator is the former patch administrator.
    const operator = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 4 } });
    expect((await execute({ ids: taskIds }, await cookieFor(t, operator))).status).toBe(200);
  });
});
