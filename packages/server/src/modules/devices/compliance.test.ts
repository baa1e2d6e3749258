import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLIANCE_STATES, type Compliance } from '@patchwell/core/devices/devices.schema';
import { devices } from '../../db/devices.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { checkinAs, flushLastSeen, type EnrolledDevice } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { createTestClock } from '../../test/clock';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  patchPolicyBody,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/raw';
import { backfillCompliance, WITHOUT_COMPLIANCE } from './compliance.store';

/**
 * One meaning of compliance over HTTP: a fleet with patches, a policy and its results, then
 * the policy list's counts, the device list (per state, through its filter), each device's
 * page and its policies, and the dashboard must tell the same story.
 */

const clock = createTestClock('2026-03-02T09:00:00.000Z');
let t: TestApp;
let z: TestZone;
let serversGroup: number;
let policyId: number;
const fleet: Record<string, EnrolledDevice> = {};

type Counts = Record<Compliance, number>;

async function policyCounts(): Promise<{ compliant: number; non_compliant: number; pending: number }> {
  const res = await z.admin.get(`/api/policies?o=${z.o}&limit=100`);
  expect(res.status).toBe(200);
  return (res.body.data as { id: number; compliance: never }[]).find((p) => p.id === policyId)!.compliance;
}

async function listCounts(): Promise<Counts> {
  const counts = {} as Counts;
  for (const state of COMPLIANCE_STATES) {
    const res = await z.admin.get(`/api/servers?o=${z.o}&compliance=${state}&limit=100`);
    expect(res.status).toBe(200);
    counts[state] = res.body.size;
    expect(res.body.data.every((d: { compliance: string }) => d.compliance === state)).toBe(true);
  }
  return counts;
}

async function dashboardCounts(): Promise<Counts> {
  const res = await z.admin.get(`/api/dashboard?o=${z.o}`);
  expect(res.status).toBe(200);
  return res.body.compliance;
}

type Detail = { compliance: Compliance; compliance_reason: string };
type PolicyStatus = { policy_id: number; compliance: Compliance; status: number; reason: string };

async function detailOf(device: EnrolledDevice): Promise<{ detail: Detail; policies: PolicyStatus[] }> {
  const [detail, policies] = await Promise.all([
    z.admin.get(`/api/servers/${device.id}?o=${z.o}`),
    z.admin.get(`/api/servers/${device.id}/policies?o=${z.o}`),
  ]);
  expect(detail.status).toBe(200);
  expect(policies.status).toBe(200);
  return { detail: detail.body, policies: policies.body.data };
}

/** Every view's numbers, and the checks that they agree with each other. */
async function agreement() {
  const [policy, list, dashboard] = await Promise.all([policyCounts(), listCounts(), dashboardCounts()]);
  const details = await Promise.all(Object.values(fleet).map(detailOf));
  const fromDetails = { compliant: 0, pending: 0, needs_attention: 0 } as Counts;
  const policyFromDetails = { compliant: 0, non_compliant: 0, pending: 0 };
  for (const { detail, policies } of details) {
    fromDetails[detail.compliance]++;
    expect(detail.compliance_reason).not.toBe('');
    const mine = policies.find((p) => p.policy_id === policyId);
    if (mine) {
      policyFromDetails[mine.compliance === 'needs_attention' ? 'non_compliant' : mine.compliance]++;
      // With its only policy, the device's state and reason are that policy's.
      expect(detail.compliance).toBe(mine.compliance);
      expect(detail.compliance_reason).toBe(mine.reason);
    }
  }
  expect(list).toEqual(fromDetails);
  expect(dashboard).toEqual(list);
  expect(policy).toEqual(policyFromDetails);
  return { policy, list, dashboard };
}

beforeAll(async () => {
  t = await startTestApp({ clock });
  z = await buildPolicyZone(t);
  const group = await z.admin.post(`/api/servergroups?o=${z.o}`, { name: 'Servers' });
  expect(group.status).toBe(201);
  serversGroup = group.body.id;
  const servers = {
    'web-1': [patch('openssl', 'critical'), patch('openssh-server', 'high')],
    'web-2': [patch('openssh-server', 'high'), patch('sudo', 'high')],
    'web-3': [patch('curl', 'medium')],
    'db-1': [],
  };
  const laptops = {
    'laptop-1': [patch('openssl', 'critical')],
    'laptop-2': [patch('vim', 'low')],
    'laptop-3': [],
  };
  for (const [name, patches] of Object.entries({ ...servers, ...laptops })) {
    fleet[name] = await inventoriedDevice(t, z, name, { patches });
  }
  const moved = await z.admin.post(`/api/servergroups/${serversGroup}/servers?o=${z.o}`, {
    ids: Object.keys(servers).map((n) => fleet[n]!.id),
  });
  expect(moved.status).toBe(200);
  for (const device of Object.values(fleet)) await checkinAs(t, device.token);
  await flushLastSeen(t);

  const policy = await z.admin.post(
    `/api/policies?o=${z.o}`,
    patchPolicyBody([serversGroup], { patch_rule: 'all' }, { name: 'Servers nightly' }),
  );
  expect(policy.status).toBe(201);
  policyId = policy.body.id;
  const run = await z.admin.post(`/api/policies/${policyId}/action?o=${z.o}`, { action: 'remediateAll' });
  expect(run.status).toBe(202);
  // web-1 installs for real, web-2 fails, web-3 only simulates; db-1 had nothing to do.
  const outcomes: Record<string, Record<string, unknown>> = {
    'web-1': { status: 'success', exit_code: 0 },
    'web-2': { status: 'error', exit_code: 100, stderr_tail: 'E: Unable to fetch some archives' },
    'web-3': { status: 'success', exit_code: 0, simulated: true },
  };
  for (const [name, body] of Object.entries(outcomes)) {
    const [command] = await commandsOf(t, fleet[name]!);
    expect(command?.type).toBe('install_updates');
    expect((await postResult(t, fleet[name]!, command!.id, body)).status).toBe(204);
  }
});
afterAll(async () => {
  await t.close();
});

describe('compliance: one meaning on every screen', () => {
  it('gives the policy list, device list, device pages and dashboard the same numbers', async () => {
    const { policy, list } = await agreement();
    // web-1 (installed) and db-1 (nothing to do) are up to date; web-2 failed; web-3 was a dry run.
    expect(policy).toEqual({ compliant: 2, non_compliant: 1, pending: 1 });
    // Plus the laptops no policy covers, rated by their patches: Critical, Low, none.
    expect(list).toEqual({ compliant: 3, pending: 2, needs_attention: 2 });
  });

  it('says why on each device', async () => {
    const reasons = Object.fromEntries(
      await Promise.all(
        Object.entries(fleet).map(async ([name, d]) => [name, (await detailOf(d)).detail.compliance_reason]),
      ),
    );
    // The patches were published on 1 February; the clock reads 2 March: 29 days.
    expect(reasons['web-1']).toBe('Up to date with policy Servers nightly.');
    expect(reasons['web-2']).toBe(
      'Needs remediation: 2 High patches older than 15 days from policy Servers nightly failed to install.',
    );
    expect(reasons['web-3']).toBe(
      'Pending: 1 Medium patch older than 15 days from policy Servers nightly was only simulated (the agent runs without --allow-changes).',
    );
    expect(reasons['laptop-1']).toBe(
      '1 Critical patch older than 15 days pending, and no policy has run on this device.',
    );
  });

  it('rewords a reason when its patches age into the next bucket, and the views still agree', async () => {
    // Moving the clock ends the administrator's session: a new one each time.
    const moveTo = async (at: string) => {
      clock.set(at);
      z.cookie = await cookieFor(t, z.user);
      z.admin = clientFor(t, { cookie: z.cookie });
    };
    await moveTo('2026-03-03T23:59:00.000Z');
    expect((await t.app.policyEngine.tick()).reasonsReworded).toBe(0);
    // 1 February + 31 days: the patches are older than 30 days.
    await moveTo('2026-03-04T00:00:00.000Z');
    expect((await t.app.policyEngine.tick()).reasonsReworded).toBe(4);
    expect((await t.app.policyEngine.tick()).reasonsReworded).toBe(0);
    expect((await detailOf(fleet['web-2']!)).detail.compliance_reason).toBe(
      'Needs remediation: 2 High patches older than 30 days from policy Servers nightly failed to install.',
    );
    expect((await detailOf(fleet['laptop-1']!)).detail.compliance_reason).toBe(
      '1 Critical patch older than 30 days pending, and no policy has run on this device.',
    );
    await agreement();
  });

  it('counts a device against a policy only while the policy’s device filters select it', async () => {
    const tagged = await z.admin.post(
      `/api/policies?o=${z.o}`,
      patchPolicyBody(
        [serversGroup],
        {
          patch_rule: 'all',
          device_filters_enabled: true,
          device_filters: [{ field: 'tag', op: 'in', value: ['PROD'] }],
        },
        { name: 'Tagged servers' },
      ),
    );
    expect(tagged.status).toBe(201);
    const taggedId = tagged.body.id as number;
    const tag = (action: 'tag' | 'untag') =>
      z.admin.post(`/api/servers/batch?o=${z.o}`, { action, ids: [fleet['web-3']!.id], tags: ['prod'] });
    expect((await tag('tag')).status).toBe(200);
    await checkinAs(t, fleet['web-3']!.token);
    await flushLastSeen(t);
    expect((await z.admin.post(`/api/policies/${taggedId}/action?o=${z.o}`, { action: 'remediateAll' })).status).toBe(
      202,
    );
    // Only web-3 carries the tag: it alone gets the run, and it fails there.
    const [command] = (await commandsOf(t, fleet['web-3']!)).filter((c) => c.type === 'install_updates');
    expect((await postResult(t, fleet['web-3']!, command!.id, { status: 'error', exit_code: 1 })).status).toBe(204);
    const countsOf = async (id: number) =>
      ((await z.admin.get(`/api/policies?o=${z.o}&limit=100`)).body.data as { id: number; compliance: unknown }[]).find(
        (p) => p.id === id,
      )!.compliance;
    expect(await countsOf(taggedId)).toEqual({ compliant: 0, non_compliant: 1, pending: 0 });
    expect((await detailOf(fleet['web-3']!)).detail).toMatchObject({ compliance: 'needs_attention' });

    // Untagged, web-3 is no longer the policy's: its failure there stops counting everywhere.
    expect((await tag('untag')).status).toBe(200);
    expect(await countsOf(taggedId)).toEqual({ compliant: 0, non_compliant: 0, pending: 0 });
    const { detail, policies } = await detailOf(fleet['web-3']!);
    expect(policies.map((p) => p.policy_id)).toEqual([policyId]);
    expect(detail.compliance).toBe('pending');
    const { list } = await agreement();
    expect(list).toEqual({ compliant: 3, pending: 2, needs_attention: 2 });
    expect((await z.admin.del(`/api/policies/${taggedId}?o=${z.o}`)).status).toBe(204);
  });

  it('never counts a simulated success as compliant, and its result says simulated', async () => {
    const { detail, policies } = await detailOf(fleet['web-3']!);
    expect(detail.compliance).toBe('pending');
    const mine = policies.find((p) => p.policy_id === policyId)!;
    expect(mine).toMatchObject({ compliance: 'pending', status: 2 });
    const runs = await z.admin.get(`/api/policies/${policyId}/runs?o=${z.o}`);
    const results = await z.admin.get(`/api/policies/${policyId}/runs/${runs.body.data[0].id}/results?o=${z.o}`);
    const byName = Object.fromEntries(
      (results.body.data as { server_name: string; status: string; simulated: boolean }[]).map((r) => [
        r.server_name,
        r,
      ]),
    );
    expect(byName['web-3']).toMatchObject({ status: 'success', simulated: true });
    expect(byName['web-1']).toMatchObject({ status: 'success', simulated: false });
  });

  it('still agrees after a device leaves the policy’s group: its status there stops counting', async () => {
    const defaults = await z.admin.post(`/api/servergroups/${z.defaultGroupId}/servers?o=${z.o}`, {
      ids: [fleet['web-1']!.id],
    });
    expect(defaults.status).toBe(200);
    const { policy, list } = await agreement();
    expect(policy).toEqual({ compliant: 1, non_compliant: 1, pending: 1 });
    // web-1 is now rated by its Critical and High patches.
    expect(list).toEqual({ compliant: 2, pending: 2, needs_attention: 3 });
    const { detail } = await detailOf(fleet['web-1']!);
    expect(detail.compliance_reason).toBe(
      '1 Critical and 1 High patches older than 30 days pending, and no policy has run on this device.',
    );
  });

  it('rewords its devices’ reasons when the policy is renamed', async () => {
    const renamed = await z.admin.put(
      `/api/policies/${policyId}?o=${z.o}`,
      patchPolicyBody([serversGroup], { patch_rule: 'all' }, { name: 'Servers every night' }),
    );
    expect(renamed.status).toBe(200);
    const { detail } = await detailOf(fleet['web-2']!);
    expect(detail.compliance_reason).toContain('from policy Servers every night failed to install.');
  });

  it('stops counting a deleted policy’s statuses', async () => {
    expect((await z.admin.del(`/api/policies/${policyId}?o=${z.o}`)).status).toBe(204);
    const [list, dashboard] = await Promise.all([listCounts(), dashboardCounts()]);
    expect(list).toEqual({ compliant: 2, pending: 2, needs_attention: 3 });
    expect(dashboard).toEqual(list);
    const { detail, policies } = await detailOf(fleet['web-2']!);
    expect(policies).toEqual([]);
    expect(detail).toMatchObject({ compliance: 'needs_attention' });
    expect(detail.compliance_reason).toBe(
      '2 High patches older than 30 days pending, and no policy has run on this device.',
    );
  });

  it('fills in devices from before the rule at start', async () => {
    await t.db.update(devices).set({ compliance: 'compliant', complianceReason: '' });
    expect(await backfillCompliance(t.db, clock.now())).toBe(Object.keys(fleet).length);
    expect(await listCounts()).toEqual({ compliant: 2, pending: 2, needs_attention: 3 });
    expect(await backfillCompliance(t.db, clock.now())).toBe(0);
  });

  it('does no backfill work on a second start: its query reads only the partial index of unset rows', async () => {
    expect(await backfillCompliance(t.db, clock.now())).toBe(0);
    // The plan the query gets once a table is large (at 100,000 devices a sequential scan
    // is what the index avoids); on a test's few rows the planner would scan them anyway.
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await queryRows<{ 'QUERY PLAN': unknown }>(
        tx as unknown as typeof t.db,
        sql`explain (analyze, format json) ${WITHOUT_COMPLIANCE} order by id limit 5000`,
      );
      return JSON.stringify(rows[0]!['QUERY PLAN']);
    });
    expect(plan).toContain('"Index Name":"devices_compliance_unset_idx"');
    // Nothing filtered out row by row: the index holds exactly the rows the backfill wants.
    expect(plan).not.toContain('Rows Removed by Filter');
    expect(plan).toMatch(/"Actual Rows":0[,}]/);
  });
});
