import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog } from '../../../db/policies.schema';
import {
  cveDeviceStates,
  remediationBatches,
  remediationFindings,
  remediationJobs,
  remediationTasks,
} from '../../../db/remediation.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../../test/app';
import { buildZoneWithKey } from '../../../test/agents';
import { clientFor, cookieFor, type Caller } from '../../../test/authz-helpers';
import { buildUser } from '../../../test/factories';
import { enrollFleet, KB_SERVER, sampleFile, uploadCsv } from './batches.fixtures';
import { fixOfPatch } from './patch-fix';

/**
 * Deciding on a batch: accepting a `ready` one creates a task per solution with a pending
 * job per device and opens its CVEs in the zone's view, in one transaction; rejecting is
 * final; any other move answers 409 and changes nothing.
 */

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let o: number;
let ids: Record<string, number>;
let admin: Caller;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  o = z.zone.id;
  admin = { cookie: z.cookie };
  ids = await enrollFleet(t, z.accessKey);
});
afterAll(async () => {
  await t.close();
});

const api = (path: string) => `/api/orgs/${o}/tasks/batches${path}?o=${o}`;

async function readyBatch(caller: Caller = admin): Promise<JsonBody> {
  const res = await uploadCsv(t, caller, o, 'qualys', sampleFile('qualys'));
  expect(res.status, res.text).toBe(202);
  await t.app.batchBuilder.idle();
  return (await z.admin.get(api(`/${res.body.id}`))).body;
}

const activity = (batchId: number) =>
  t.db
    .select({ action: activityLog.action, userId: activityLog.userId, details: activityLog.details })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.organizationId, o),
        eq(activityLog.objectType, 'batch'),
        eq(activityLog.objectId, String(batchId)),
      ),
    )
    .orderBy(activityLog.id);

describe('POST .../batches/{batchId}/accept', () => {
  it('creates one task per solution, a pending job per device, and opens the CVEs, once', async () => {
    const batch = await readyBatch();
    const solutions = (await z.admin.get(api(`/${batch.id}/solutions`) + '&limit=100')).body.data as JsonBody[];
    expect(solutions).toHaveLength(8);

    const res = await z.admin.post(api(`/${batch.id}/accept`));
    expect(res.status, res.text).toBe(200);
    expect(res.body.batch).toMatchObject({
      id: batch.id,
      status: 'approved',
      updated_by_user: { id: z.user.id, email: z.user.email },
    });
    expect(res.body.task_ids).toHaveLength(8);

    const tasks = await t.db.select().from(remediationTasks).where(eq(remediationTasks.batchId, batch.id));
    expect(tasks.map((task) => task.id).sort()).toEqual([...res.body.task_ids].sort());
    const server = tasks.find((task) => task.title === fixOfPatch(KB_SERVER))!;
    expect(server).toMatchObject({ kind: 'patch-now', status: 'pending', source: 'qualys', organizationId: o });
    const smb1 = tasks.find((task) => task.kind === 'patch-with-worklet')!;
    expect(smb1).toMatchObject({ workletId: 'win-smb1-disabled', severity: 'critical' });
    const jobs = await t.db
      .select()
      .from(remediationJobs)
      .where(inArray(remediationJobs.taskId, res.body.task_ids as number[]));
    expect(jobs).toHaveLength(solutions.reduce((n, s) => n + s.device_count, 0));
    expect(jobs.filter((j) => j.taskId === smb1.id).map((j) => j.deviceId)).toEqual([ids['SRV-SQL-0003']]);
    // The fix's job installs the exact update the device reported; a worklet's job names none.
    expect(jobs.filter((j) => j.taskId === server.id).map((j) => j.patchNames)).toEqual([[KB_SERVER]]);
    expect(jobs.find((j) => j.taskId === smb1.id)!.patchNames).toBeNull();
    expect(new Set(jobs.map((j) => j.status))).toEqual(new Set(['pending']));

    const states = await t.db.select().from(cveDeviceStates).where(eq(cveDeviceStates.organizationId, o));
    expect(states.find((s) => s.cve === 'CVE-2024-5535' && s.deviceId === ids['db-us-0020'])).toMatchObject({
      status: 'open',
      severity: 'critical',
    });

    const again = await z.admin.post(api(`/${batch.id}/accept`));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('batches.decided');
    const reject = await z.admin.post(api(`/${batch.id}/reject`));
    expect(reject.status).toBe(409);
    expect(await t.db.select().from(remediationTasks).where(eq(remediationTasks.batchId, batch.id))).toHaveLength(8);
    expect((await activity(batch.id)).map((e) => e.action)).toEqual(['batch.upload', 'batch.accept']);
  });

  it('leaves out devices removed since the batch was built', async () => {
    const batch = await readyBatch();
    const removed = await z.admin.del(`/api/servers/${ids['db-us-0020']}?o=${o}`);
    expect(removed.status).toBe(204);
    const res = await z.admin.post(api(`/${batch.id}/accept`));
    expect(res.status).toBe(200);
    const jobs = await t.db
      .select({ deviceId: remediationJobs.deviceId })
      .from(remediationJobs)
      .where(inArray(remediationJobs.taskId, res.body.task_ids as number[]));
    expect(jobs.map((j) => j.deviceId)).not.toContain(ids['db-us-0020']);
    const findings = await t.db
      .select({ issue: remediationFindings.issue })
      .from(remediationFindings)
      .where(and(eq(remediationFindings.batchId, batch.id), eq(remediationFindings.deviceId, ids['db-us-0020']!)));
    expect(findings.map((f) => f.issue).sort()).toEqual(['cve_not_applicable', 'unsupported_host']);
  });

  it('refuses a caller without Task.modify, and a batch that could not be built', async () => {
    const operator = await buildUser(t.db, { accountId: z.account.id, zones: { [o]: 5 } });
    const patchOperator = clientFor(t, { cookie: await cookieFor(t, operator) });
    const batch = await readyBatch();
    expect((await patchOperator.post(api(`/${batch.id}/accept`))).status).toBe(403);
    expect((await patchOperator.get(api(`/${batch.id}`))).status).toBe(200);

    const [failed] = await t.db
      .insert(remediationBatches)
      .values({
        organizationId: o,
        source: 'generic',
        fileName: 'broken.csv',
        status: 'error',
        error: 'Matching this file failed.',
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      })
      .returning();
    const accept = await z.admin.post(api(`/${failed!.id}/accept`));
    expect(accept.status).toBe(409);
    expect(accept.body.message).toMatch(/could not be matched/);
    const reject = await z.admin.post(api(`/${failed!.id}/reject`));
    expect(reject.status).toBe(200);
    expect(reject.body).toMatchObject({ status: 'rejected', error: 'Matching this file failed.' });
  });
});

describe('POST .../batches/{batchId}/reject', () => {
  it('is final: a rejected batch can be neither accepted nor rejected again', async () => {
    const zoneOperator = await buildUser(t.db, { accountId: z.account.id, zones: { [o]: 4 } });
    const caller = { cookie: await cookieFor(t, zoneOperator) };
    const batch = await readyBatch(caller);
    const res = await clientFor(t, caller).post(api(`/${batch.id}/reject`));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'rejected',
      updated_by_user: { id: zoneOperator.id, email: zoneOperator.email },
    });
    for (const action of ['accept', 'reject']) {
      const again = await z.admin.post(api(`/${batch.id}/${action}`));
      expect(again.status, action).toBe(409);
      expect(again.body.message).toMatch(/upload the file again/);
    }
    expect(await t.db.select().from(remediationTasks).where(eq(remediationTasks.batchId, batch.id))).toEqual([]);
    const events = await activity(batch.id);
    expect(events.map((e) => [e.action, e.userId])).toEqual([
      ['batch.upload', zoneOperator.id],
      ['batch.reject', zoneOperator.id],
    ]);
    expect(events[1]!.details).toMatchObject({ file_name: 'qualys.csv', previous_status: 'ready' });
    const listed = await z.admin.get(`/api/orgs/${o}/tasks/batches?o=${o}&status:not_in=approved`);
    expect(listed.body.data.find((b: JsonBody) => b.id === batch.id).status).toBe('rejected');
  });
});
