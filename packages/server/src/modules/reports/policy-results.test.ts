import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gte } from 'drizzle-orm';
import { policyDeviceResults, policyRuns } from '../../db/policies.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { checkinAs, flushLastSeen, type EnrolledDevice } from '../../test/agents';
import { clientAcrossDays } from '../../test/cve-fixtures';
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
 * Policy results over HTTP: the policies that ran in the last 30 days (not before, not
 * never), with run and result counts equal to a direct count of their runs and results.
 */

const DAY = 86_400_000;
const NOW = new Date('2026-04-20T09:00:00.000Z');

let t: TestApp;
let z: TestZone;
let other: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;
const fleet: EnrolledDevice[] = [];
const policies: Record<string, { id: number; uuid: string }> = {};

async function createPolicy(name: string) {
  const res = await admin.post(
    `/api/policies?o=${z.o}`,
    patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name }),
  );
  expect(res.status).toBe(201);
  policies[name] = { id: res.body.id, uuid: res.body.uuid };
}

/** Runs the policy on every device (online first, so commands go out now) and posts each outcome (null: none yet). */
async function runNow(name: string, outcomes: (Record<string, unknown> | null)[]) {
  for (const device of fleet) await checkinAs(t, device.token);
  await flushLastSeen(t);
  const run = await admin.post(`/api/policies/${policies[name]!.id}/action?o=${z.o}`, { action: 'remediateAll' });
  expect(run.status).toBe(202);
  for (const [i, outcome] of outcomes.entries()) {
    const [command] = await commandsOf(t, fleet[i]!);
    expect(command?.type).toBe('install_updates');
    if (outcome) expect((await postResult(t, fleet[i]!, command!.id, outcome)).status).toBe(204);
  }
}

beforeAll(async () => {
  t = await startTestApp();
  t.clock.set(new Date(NOW.getTime() - 40 * DAY));
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
  for (const name of ['one', 'two', 'three']) {
    fleet.push(await inventoriedDevice(t, z, name, { patches: [patch('openssl', 'critical')] }));
  }
  await createPolicy('Nightly');
  await createPolicy('Old only');
  await createPolicy('Never run');
  await createPolicy('Deleted');
  const ok = { status: 'success', exit_code: 0 };
  const failed = { status: 'error', exit_code: 100 };
  // 40 days back: both ran once; outside the 30 days.
  await runNow('Nightly', [ok, ok, ok]);
  await runNow('Old only', [failed, ok, ok]);
  // 10 days back: Nightly again (one failure); Deleted ran, then is deleted.
  t.clock.set(new Date(NOW.getTime() - 10 * DAY));
  await runNow('Nightly', [ok, failed, ok]);
  await runNow('Deleted', [ok, ok, ok]);
  expect((await admin.del(`/api/policies/${policies.Deleted!.id}?o=${z.o}`)).status).toBe(204);
  // Today: Nightly once more; the third device is still installing.
  t.clock.set(NOW);
  await runNow('Nightly', [ok, ok, null]);
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('GET /api/reports/policy-results', () => {
  it('lists only the zone’s policies that ran in the last 30 days, with their runs and results counted', async () => {
    const res = await admin.get(`/api/reports/policy-results?o=${z.o}`);
    expect(res.status).toBe(200);
    expect(res.body.since).toBe(new Date(NOW.getTime() - 30 * DAY).toISOString());
    expect(res.body.data.map((p: JsonBody) => p.name)).toEqual(['Nightly']);
    expect(res.body.size).toBe(1);

    const since = new Date(NOW.getTime() - 30 * DAY);
    const id = policies.Nightly!.id;
    const runs = await t.db
      .select()
      .from(policyRuns)
      .where(and(eq(policyRuns.policyId, id), gte(policyRuns.createdAt, since)));
    const results = await t.db
      .select({ status: policyDeviceResults.status, deviceId: policyDeviceResults.deviceId })
      .from(policyDeviceResults)
      .innerJoin(policyRuns, eq(policyRuns.id, policyDeviceResults.runId))
      .where(and(eq(policyRuns.policyId, id), gte(policyRuns.createdAt, since)));
    const count = (...statuses: string[]) => results.filter((r) => statuses.includes(r.status)).length;
    expect(res.body.data[0]).toEqual({
      policy_id: id,
      policy_uuid: policies.Nightly!.uuid,
      name: 'Nightly',
      policy_type_name: 'patch',
      status: 'active',
      runs: runs.length,
      last_run_at: NOW.toISOString(),
      devices: new Set(results.map((r) => r.deviceId)).size,
      success: count('success'),
      failed: count('error', 'timed_out'),
      pending: count('pending', 'in_progress'),
      canceled: count('canceled'),
    });
    // The fixture: two runs in the period, 4 successes, 1 failure, 1 still running.
    expect(res.body.data[0]).toMatchObject({ runs: 2, devices: 3, success: 4, failed: 1, pending: 1 });
  });

  it('searches and sorts', async () => {
    const none = await admin.get(`/api/reports/policy-results?o=${z.o}&search=old`);
    expect(none.body.data).toEqual([]);
    const bad = await admin.get(`/api/reports/policy-results?o=${z.o}&sort=type:asc`);
    expect(bad.status).toBe(400);
  });

  it('gives one policy’s figures by UUID', async () => {
    const res = await admin.get(`/api/reports/policy-results/${policies.Nightly!.uuid}?o=${z.o}`);
    expect(res.status).toBe(200);
    expect(res.body.policy).toMatchObject({ name: 'Nightly', runs: 2, success: 4, failed: 1 });
    // The run's own list and results stay the policies API's.
    const runs = await admin.get(`/api/policies/${policies.Nightly!.id}/runs?o=${z.o}`);
    expect(runs.body.size).toBe(2);
  });

  it('answers a policy that did not run in the period with zeros, and 404 for deleted, unknown or foreign ones', async () => {
    const never = await admin.get(`/api/reports/policy-results/${policies['Never run']!.uuid}?o=${z.o}`);
    expect(never.status).toBe(200);
    expect(never.body.policy).toMatchObject({ runs: 0, last_run_at: null, success: 0 });
    const deleted = await admin.get(`/api/reports/policy-results/${policies.Deleted!.uuid}?o=${z.o}`);
    expect(deleted.status).toBe(404);
    const unknown = await admin.get(`/api/reports/policy-results/00000000-0000-4000-8000-000000000000?o=${z.o}`);
    expect(unknown.status).toBe(404);
    const outsider = clientAcrossDays(t, other.user);
    expect((await outsider.get(`/api/reports/policy-results/${policies.Nightly!.uuid}?o=${other.o}`)).status).toBe(404);
    expect((await outsider.get(`/api/reports/policy-results/${policies.Nightly!.uuid}?o=${z.o}`)).status).toBe(404);
    expect((await outsider.get(`/api/reports/policy-results?o=${z.o}`)).status).toBe(404);
    const malformed = await admin.get(`/api/reports/policy-results/not-a-uuid?o=${z.o}`);
    expect(malformed.status).toBe(400);
  });
});
