import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyRuns } from '../db/policies.schema';
import { organizations } from '../db/schema';
import { startTestApp, type TestApp } from '../test/app';
import { flushLastSeen, checkinAs, type EnrolledDevice } from '../test/agents';
import { clientFor, cookieFor } from '../test/authz-helpers';
import { createTestClock } from '../test/clock';
import { createTestDb, type TestDbHandle } from '../test/db';
import { createPolicyEngine } from './scheduler';
import {
  buildPolicyZone,
  commandsOf,
  customPolicyBody,
  inventoriedDevice,
  patch,
  patchPolicyBody,
  postResult,
  type TestZone,
} from '../test/policy-fixtures';

/**
 * The scheduler on two server nodes sharing one database (two apps in this process: on
 * PostgreSQL each with its own pool, as two processes would have; on PGlite sharing the
 * one connection), ticked by hand at instants the test chooses.
 */

let db: TestDbHandle;
let nodeA: TestApp;
let nodeB: TestApp;
const clock = createTestClock('2026-03-02T09:00:00.000Z');
const EVERY_DAY_AT_2 = {
  schedule_days: 254,
  schedule_time: '02:00',
  use_scheduled_timezone: true,
  scheduled_timezone: 'UTC+0000',
};

beforeAll(async () => {
  db = await createTestDb();
  nodeA = await startTestApp({ db, clock, config: { databaseUrl: db.url } });
  nodeB = await startTestApp({ db, clock, config: { databaseUrl: db.url } });
});
afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await db?.close();
});

/** The zone's administrator with a fresh session (moving the clock ends older ones). */
async function adminOf(z: TestZone) {
  return clientFor(nodeA, { cookie: await cookieFor(nodeA, z.user) });
}

async function create(z: TestZone, body: Record<string, unknown>) {
  const res = await (await adminOf(z)).post(`/api/policies?o=${z.o}`, body);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body as { id: number; next_run_time: string | null };
}

async function runsOf(policyIds: number[]) {
  return db.db.select().from(policyRuns).where(inArray(policyRuns.policyId, policyIds));
}

async function resultsOf(z: TestZone, policyId: number, runId: number) {
  const res = await (await adminOf(z)).get(`/api/policies/${policyId}/runs/${runId}/results?o=${z.o}`);
  return res.body.data as { server_name: string; status: string; command_id: number | null; message: string | null }[];
}

describe('exactly once on two nodes', () => {
  it('turns each due schedule into one run, however many ticks race', async () => {
    const z = await buildPolicyZone(nodeA);
    await inventoriedDevice(nodeA, z, 'sched-1', { patches: [patch('openssl', 'critical')] });
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const p = await create(
        z,
        patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: `Nightly ${i}`, ...EVERY_DAY_AT_2 }),
      );
      expect(p.next_run_time).toBe('2026-03-03T02:00:00.000Z');
      ids.push(p.id);
    }
    clock.set('2026-03-03T02:00:20.000Z');
    const ticks = await Promise.all([
      nodeA.app.policyEngine.tick(),
      nodeB.app.policyEngine.tick(),
      nodeA.app.policyEngine.tick(),
      nodeB.app.policyEngine.tick(),
    ]);
    expect(ticks.reduce((n, r) => n + r.runsCreated, 0)).toBe(12);
    let runs = await runsOf(ids);
    expect(runs).toHaveLength(12);
    expect(new Set(runs.map((r) => r.policyId)).size).toBe(12);
    expect(
      runs.every((r) => r.trigger === 'schedule' && r.scheduledFor?.toISOString() === '2026-03-03T02:00:00.000Z'),
    ).toBe(true);
    expect(runs.every((r) => r.status !== 'created')).toBe(true);

    // Nothing more until the next instant; the next one is again exactly one run each.
    await Promise.all([nodeA.app.policyEngine.tick(), nodeB.app.policyEngine.tick()]);
    expect(await runsOf(ids)).toHaveLength(12);
    clock.set('2026-03-04T02:00:05.000Z');
    await Promise.all([nodeB.app.policyEngine.tick(), nodeA.app.policyEngine.tick()]);
    runs = await runsOf(ids);
    expect(runs).toHaveLength(24);

    // Nodes down for three days: one late run per policy (a catch-up), not three.
    clock.set('2026-03-07T09:00:00.000Z');
    await Promise.all([nodeA.app.policyEngine.tick(), nodeB.app.policyEngine.tick()]);
    runs = await runsOf(ids);
    expect(runs).toHaveLength(36);
    expect(runs.filter((r) => r.trigger === 'catch_up')).toHaveLength(12);
    const policy = await (await adminOf(z)).get(`/api/policies/${ids[0]}?o=${z.o}`);
    expect(policy.body.next_run_time).toBe('2026-03-08T02:00:00.000Z');
  }, 120_000);
});

describe('devices offline at run time', () => {
  it('catch up at their next check-in when the policy asks for it, and miss the run otherwise', async () => {
    clock.set('2026-03-10T09:00:00.000Z');
    const z = await buildPolicyZone(nodeA);
    const sleeper = await inventoriedDevice(nodeA, z, 'sleeper', { patches: [patch('curl', 'medium')] });
    const catchUp = await create(
      z,
      patchPolicyBody(
        [z.defaultGroupId],
        { patch_rule: 'all', missed_patch_window: true },
        { name: 'Catch up', ...EVERY_DAY_AT_2 },
      ),
    );
    const strict = await create(
      z,
      patchPolicyBody(
        [z.defaultGroupId],
        { patch_rule: 'all', missed_patch_window: false },
        { name: 'Strict', ...EVERY_DAY_AT_2 },
      ),
    );
    clock.set('2026-03-11T02:00:10.000Z');
    await nodeB.app.policyEngine.tick();
    const [caught] = (await runsOf([catchUp.id])).filter(
      (r) => r.scheduledFor?.toISOString() === '2026-03-11T02:00:00.000Z',
    );
    const [missed] = (await runsOf([strict.id])).filter(
      (r) => r.scheduledFor?.toISOString() === '2026-03-11T02:00:00.000Z',
    );
    expect(await resultsOf(z, catchUp.id, caught!.id)).toMatchObject([
      { server_name: 'sleeper', status: 'pending', command_id: null },
    ]);
    expect(await resultsOf(z, strict.id, missed!.id)).toMatchObject([
      { server_name: 'sleeper', status: 'canceled', command_id: null },
    ]);

    // Hours later the device comes back: the next tick (on either node) queues the catch-up.
    clock.set('2026-03-11T08:30:00.000Z');
    expect((await checkinAs(nodeA, sleeper.token)).body.commands).toEqual([]);
    await flushLastSeen(nodeA);
    expect((await nodeA.app.policyEngine.tick()).catchUps).toBe(1);
    expect((await nodeB.app.policyEngine.tick()).catchUps).toBe(0);
    const commands = await commandsOf(nodeB, sleeper);
    expect(commands).toMatchObject([{ type: 'install_updates', args: { names: ['curl'] } }]);
    await nodeA.app.policyEngine.tick();
    expect(await resultsOf(z, catchUp.id, caught!.id)).toMatchObject([
      { status: 'in_progress', command_id: commands[0]!.id },
    ]);
    const run = await (await adminOf(z)).get(`/api/policies/${catchUp.id}/runs/${caught!.id}?o=${z.o}`);
    expect(run.body.status).toBe('running');
  }, 120_000);
});

describe('a scheduled slot while a "Run now" of the policy is open', () => {
  it('skips the devices the open run still holds and records why; the others get their command', async () => {
    clock.set('2026-03-14T01:50:00.000Z');
    const z = await buildPolicyZone(nodeA);
    const devices = [];
    for (const name of ['busy-1', 'busy-2', 'free-3']) {
      devices.push(await inventoriedDevice(nodeA, z, name, { patches: [patch('openssl', 'critical')] }));
    }
    const [one, two, three] = devices as [EnrolledDevice, EnrolledDevice, EnrolledDevice];
    for (const d of devices) await checkinAs(nodeA, d.token);
    await flushLastSeen(nodeA);
    const policy = await create(
      z,
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Nightly overlap', ...EVERY_DAY_AT_2 }),
    );
    const admin = await adminOf(z);
    for (const d of [one, two]) {
      const started = await admin.post(`/api/policies/${policy.id}/action?o=${z.o}`, {
        action: 'remediateServer',
        serverId: d.id,
      });
      expect(started.status).toBe(202);
    }
    const manual = await commandsOf(nodeA, one);
    expect(manual).toHaveLength(1);

    // The slot comes due while both manual runs' commands are still open.
    clock.set('2026-03-14T02:00:20.000Z');
    for (const d of devices) await checkinAs(nodeA, d.token);
    await flushLastSeen(nodeA);
    // nodeA runs the slot, so the wake of its queueing reaches the runtime the devices check in
    // with below. (Two apps on one PGlite share no wake channel, which production never has: a
    // PGlite server is one node. The race of two ticks is the first describe's.)
    await nodeA.app.policyEngine.tick();
    await nodeB.app.policyEngine.tick();
    const [scheduled] = (await runsOf([policy.id])).filter((r) => r.trigger === 'schedule');
    const results = await resultsOf(z, policy.id, scheduled!.id);
    const byName = new Map(results.map((r) => [r.server_name, r]));
    expect(byName.get('busy-1')).toMatchObject({ status: 'canceled', command_id: null });
    expect(byName.get('busy-1')!.message).toMatch(/^Skipped: run \d+ of this policy is still open on this device\.$/);
    expect(byName.get('busy-2')).toMatchObject({ status: 'canceled', command_id: null });
    expect(byName.get('free-3')).toMatchObject({ status: 'pending' });
    expect(byName.get('free-3')!.command_id).not.toBeNull();
    // Each device holds one open command of the policy, never two.
    expect(await commandsOf(nodeA, one)).toEqual([]);
    expect(await commandsOf(nodeA, three)).toHaveLength(1);

    // Once the manual run has finished on a device, the next slot reaches it again.
    expect((await postResult(nodeA, one, manual[0]!.id, { status: 'success', exit_code: 0 })).status).toBe(204);
    clock.set('2026-03-15T02:00:20.000Z');
    for (const d of devices) await checkinAs(nodeA, d.token);
    await flushLastSeen(nodeA);
    await nodeB.app.policyEngine.tick();
    const next = (await runsOf([policy.id])).find((r) => r.scheduledFor?.toISOString() === '2026-03-15T02:00:00.000Z');
    const again = new Map((await resultsOf(z, policy.id, next!.id)).map((r) => [r.server_name, r]));
    expect(again.get('busy-1')).toMatchObject({ status: 'pending' });
    expect(again.get('busy-2')).toMatchObject({ status: 'canceled' });
    expect(again.get('free-3')).toMatchObject({ status: 'canceled' });
  }, 120_000);
});

describe('policies in each device’s local time', () => {
  it('run per device timezone, each run targeting only that timezone’s devices', async () => {
    clock.set('2026-03-12T09:00:00.000Z');
    const z = await buildPolicyZone(nodeA);
    await inventoriedDevice(nodeA, z, 'berlin', { timezone: 'Europe/Berlin', patches: [patch('vim', 'low')] });
    await inventoriedDevice(nodeA, z, 'new-york', { timezone: 'America/New_York', patches: [patch('vim', 'low')] });
    const policy = await create(
      z,
      patchPolicyBody(
        [z.defaultGroupId],
        { patch_rule: 'all' },
        { name: 'Local 2am', ...EVERY_DAY_AT_2, use_scheduled_timezone: false },
      ),
    );
    // 02:00 in Berlin (UTC+1 in March before the change) is 01:00 UTC.
    expect(policy.next_run_time).toBe('2026-03-13T01:00:00.000Z');
    clock.set('2026-03-13T01:00:30.000Z');
    await nodeA.app.policyEngine.tick();
    let runs = await runsOf([policy.id]);
    expect(runs.map((r) => r.tzKey)).toEqual(['Europe/Berlin']);
    expect((await resultsOf(z, policy.id, runs[0]!.id)).map((r) => r.server_name)).toEqual(['berlin']);
    // 02:00 in New York (UTC-4 after its DST change on 8 March) is 06:00 UTC.
    clock.set('2026-03-13T06:00:30.000Z');
    await nodeB.app.policyEngine.tick();
    runs = await db.db
      .select()
      .from(policyRuns)
      .where(and(eq(policyRuns.policyId, policy.id), eq(policyRuns.tzKey, 'America/New_York')));
    expect(runs).toHaveLength(1);
    expect((await resultsOf(z, policy.id, runs[0]!.id)).map((r) => r.server_name)).toEqual(['new-york']);
  }, 120_000);
});

describe('the catch-up window', () => {
  it('gives up on a device that does not come back within 30 days, so the run finishes', async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    const z = await buildPolicyZone(nodeA);
    await inventoriedDevice(nodeA, z, 'gone', { patches: [patch('curl', 'medium')] });
    const policy = await create(z, patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Once' }));
    const started = await (
      await adminOf(z)
    ).post(`/api/policies/${policy.id}/action?o=${z.o}`, { action: 'remediateAll' });
    const runId = started.body.run.id;
    expect(await resultsOf(z, policy.id, runId)).toMatchObject([{ status: 'pending', command_id: null }]);
    clock.set('2026-04-20T09:00:00.000Z');
    await nodeA.app.policyEngine.tick();
    expect(await resultsOf(z, policy.id, runId)).toMatchObject([{ status: 'pending' }]);
    clock.set('2026-05-02T09:00:00.000Z');
    await nodeB.app.policyEngine.tick();
    expect(await resultsOf(z, policy.id, runId)).toMatchObject([
      {
        server_name: 'gone',
        status: 'canceled',
        message: 'The device did not check in before the catch-up window ended.',
      },
    ]);
    const run = await (await adminOf(z)).get(`/api/policies/${policy.id}/runs/${runId}?o=${z.o}`);
    expect(run.body).toMatchObject({ status: 'completed', results: { canceled: 1 } });
  }, 120_000);
});

describe('due timer', () => {
  it('starts a run at its due time, not at the next interval tick', async () => {
    clock.set('2026-03-20T01:59:59.500Z');
    const z = await buildPolicyZone(nodeA);
    const p = await create(
      z,
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'On time', ...EVERY_DAY_AT_2 }),
    );
    expect(p.next_run_time).toBe('2026-03-20T02:00:00.000Z');
    // An interval of an hour: only the timer armed for the due slot can tick within the test.
    const engine = createPolicyEngine(nodeA.ctx, { wake: async () => {} }, 3_600_000);
    engine.start();
    try {
      clock.set('2026-03-20T02:00:00.600Z');
      await expect
        .poll(async () => (await runsOf([p.id])).map((r) => r.scheduledFor?.toISOString()), { timeout: 5_000 })
        .toEqual(['2026-03-20T02:00:00.000Z']);
    } finally {
      await engine.stop();
    }
  });
});

describe('a zone that leaves the plan', () => {
  it('keeps its worklet policy’s schedule but makes no run until it upgrades again', async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    const z = await buildPolicyZone(nodeA);
    const p = await create(z, customPolicyBody([z.defaultGroupId], {}, { name: 'Hardening', ...EVERY_DAY_AT_2 }));
    const setPlan = (plan: 'patch' | 'manage') =>
      db.db.update(organizations).set({ plan, trialEndTime: null }).where(eq(organizations.id, z.o));

    await setPlan('patch');
    clock.set('2026-04-02T02:00:10.000Z');
    await Promise.all([nodeA.app.policyEngine.tick(), nodeB.app.policyEngine.tick()]);
    expect(await runsOf([p.id])).toEqual([]);
    const admin = await adminOf(z);
    expect((await admin.get(`/api/policies/${p.id}?o=${z.o}`)).body.next_run_time).toBe('2026-04-03T02:00:00.000Z');
    const now = await admin.post(`/api/policies/${p.id}/action?o=${z.o}`, { action: 'remediateAll' });
    expect(now.status).toBe(403);
    expect(now.body.code).toBe('plans.feature_unavailable');

    await setPlan('manage');
    clock.set('2026-04-03T02:00:10.000Z');
    await Promise.all([nodeA.app.policyEngine.tick(), nodeB.app.policyEngine.tick()]);
    expect((await runsOf([p.id])).map((r) => r.scheduledFor?.toISOString())).toEqual(['2026-04-03T02:00:00.000Z']);
  });
});
