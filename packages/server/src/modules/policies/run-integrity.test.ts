import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyDeviceResults } from '../../db/policies.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { flushLastSeen, checkinAs, type EnrolledDevice } from '../../test/agents';
import { call } from '../../test/authz-helpers';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  patchPolicyBody,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';

/**
 * Issue 10 defects 6 and 7: a policy cannot run twice at once on the same devices, a retried
 * "Run now", "Patch now" or bulk action with its Idempotency-Key starts nothing new, and a
 * deleted group leaves every policy's targets.
 */

let t: TestApp;
let z: TestZone;
let devices: EnrolledDevice[];

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  devices = [];
  for (const name of ['one', 'two', 'three']) {
    devices.push(await inventoriedDevice(t, z, name, { patches: [patch('openssl', 'critical')] }));
  }
  for (const d of devices) await checkinAs(t, d.token);
  await flushLastSeen(t);
});
afterAll(async () => {
  await t.close();
});

async function createPolicy(name: string, groups = [z.defaultGroupId]) {
  const res = await z.admin.post(`/api/policies?o=${z.o}`, patchPolicyBody(groups, { patch_rule: 'all' }, { name }));
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body.id as number;
}

/** Open commands of the policy per device (pending or in progress, with a command). */
async function openCommandsPerDevice(policyId: number) {
  const rows = await t.db
    .select({ deviceId: policyDeviceResults.deviceId })
    .from(policyDeviceResults)
    .where(
      and(
        eq(policyDeviceResults.policyId, policyId),
        inArray(policyDeviceResults.status, ['pending', 'in_progress']),
        isNotNull(policyDeviceResults.commandId),
      ),
    );
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.deviceId, (counts.get(r.deviceId) ?? 0) + 1);
  return counts;
}

const runNow = (policyId: number, headers: Record<string, string> = {}, body: unknown = { action: 'remediateAll' }) =>
  call(t, { cookie: z.cookie }, 'POST', `/api/policies/${policyId}/action?o=${z.o}`, body, headers);

describe('POST /api/policies/{id}/action while a run is open', () => {
  it('starts one run of three concurrent "Run now"; no device gets two open commands', async () => {
    const id = await createPolicy('Nightly everything');
    const answers = await Promise.all([runNow(id), runNow(id), runNow(id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'policies.run_open' });
    expect(refused.body.message).toMatch(/^This policy is already running on these devices \(run \d+\)\./);
    const counts = await openCommandsPerDevice(id);
    expect(counts.size).toBe(3);
    expect(Math.max(...counts.values())).toBe(1);

    // A single device's run is refused too while that device's command is open ...
    const one = await runNow(id, {}, { action: 'remediateServer', serverId: devices[0]!.id });
    expect(one.status).toBe(409);
    // ... and allowed again once every device has reported.
    for (const d of devices) {
      for (const c of await commandsOf(t, d)) {
        expect((await postResult(t, d, c.id, { status: 'success', exit_code: 0, stdout: 'ok' })).status).toBe(204);
      }
    }
    expect((await openCommandsPerDevice(id)).size).toBe(0);
    expect((await runNow(id)).status).toBe(202);
  });

  it('answers a retried POST with the same Idempotency-Key with the first run, starting nothing new', async () => {
    const id = await createPolicy('Retried');
    const key = 'c9b1e3c4-6f1a-4f7e-9d55-2a8e1f0e7b11';
    const first = await runNow(id, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    const again = await runNow(id, { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.body.run.id).toBe(first.body.run.id);
    expect(again.body).toEqual(first.body);
    expect(Math.max(...(await openCommandsPerDevice(id)).values())).toBe(1);
    const runs = await z.admin.get(`/api/policies/${id}/runs?o=${z.o}`);
    expect(runs.body.size).toBe(1);

    // The same key on another request is refused; a malformed key is a 400.
    const other = await createPolicy('Other');
    expect((await runNow(other, { 'idempotency-key': key })).status).toBe(422);
    const bad = await runNow(other, { 'idempotency-key': 'ä'.repeat(3) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      'Idempotency-Key': ['The Idempotency-Key must be 1 to 255 visible ASCII characters.'],
    });
    // A refused request frees its key: a retry after the open run finished runs.
    const busy = await runNow(id, { 'idempotency-key': 'retry-me' });
    expect(busy.status).toBe(409);
    expect((await runNow(id, { 'idempotency-key': 'retry-me' })).status).toBe(409);
  });
});

describe('POST /api/servers/{id}/queues with an Idempotency-Key', () => {
  it('queues one command for a retried "Patch now"', async () => {
    const device = devices[1]!;
    const path = `/api/servers/${device.id}/queues?o=${z.o}`;
    const body = { command_type_name: 'InstallAllUpdates' };
    const before = (await z.admin.get(`/api/servers/${device.id}/commands?o=${z.o}&limit=100`)).body.size as number;
    const headers = { 'idempotency-key': 'patch-now-1' };
    const first = await call(t, { cookie: z.cookie }, 'POST', path, body, headers);
    expect(first.status).toBe(201);
    const again = await call(t, { cookie: z.cookie }, 'POST', path, body, headers);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const after = (await z.admin.get(`/api/servers/${device.id}/commands?o=${z.o}&limit=100`)).body.size as number;
    expect(after).toBe(before + 1);
  });
});

describe('POST /api/servers/batch with an Idempotency-Key', () => {
  it('queues the commands once for a retried bulk action, and replays its answer', async () => {
    const ids = [devices[0]!.id, devices[2]!.id];
    const path = `/api/servers/batch?o=${z.o}`;
    const commandCount = async (id: number) =>
      (await z.admin.get(`/api/servers/${id}/commands?o=${z.o}&limit=100`)).body.size as number;
    const before = await Promise.all(ids.map(commandCount));
    const headers = { 'idempotency-key': 'bulk-scan-1' };
    const body = { action: 'scan', ids };
    const first = await call(t, { cookie: z.cookie }, 'POST', path, body, headers);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ affected: 2 });
    const again = await call(t, { cookie: z.cookie }, 'POST', path, body, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await Promise.all(ids.map(commandCount))).toEqual(before.map((n) => n + 1));
    // The same key for another bulk action is refused.
    const other = await call(t, { cookie: z.cookie }, 'POST', path, { action: 'reboot', ids }, headers);
    expect(other.status).toBe(422);
  });
});

describe('DELETE /api/servergroups/{id} and policy targets', () => {
  it('removes the deleted group from every policy that targeted it; the policy saves again', async () => {
    const group = await z.admin.post(`/api/servergroups?o=${z.o}`, { name: 'Doomed' });
    expect(group.status).toBe(201);
    const groupId = group.body.id as number;
    const id = await createPolicy('Two groups', [z.defaultGroupId, groupId]);
    expect((await z.admin.get(`/api/policies/${id}?o=${z.o}`)).body.server_groups).toEqual([z.defaultGroupId, groupId]);

    expect((await z.admin.del(`/api/servergroups/${groupId}?o=${z.o}`)).status).toBe(204);

    const after = await z.admin.get(`/api/policies/${id}?o=${z.o}`);
    expect(after.body.server_groups).toEqual([z.defaultGroupId]);
    const { id: _id, ...body } = after.body;
    const saved = await z.admin.put(`/api/policies/${id}?o=${z.o}`, { ...body, name: 'Two groups, one left' });
    expect(saved.status).toBe(200);
    expect(saved.body.server_groups).toEqual([z.defaultGroupId]);
  });
});
