import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../db/client';
import { queryRows } from '../db/raw';
import { sweepOverdueCommands } from '../modules/commands/commands.sweep';
import { closeOpenRuns } from './results';
import { startTestApp, type TestApp } from '../test/app';
import { flushLastSeen, agentCall, checkinAs, inventoryBody, type EnrolledDevice } from '../test/agents';
import { clientFor, cookieFor } from '../test/authz-helpers';
import {
  buildPolicyZone,
  commandsOf,
  customPolicyBody,
  inventoriedDevice,
  onlineInventoriedDevice,
  patch,
  patchPolicyBody,
  postResult,
  requiredSoftwareBody,
  type TestZone,
} from '../test/policy-fixtures';

/**
 * The engine end to end through HTTP: policies created with the API, devices enrolled and
 * inventoried through the agent API, "Run now", commands picked up by check-ins, results
 * posted back, and the scheduler ticked by hand (its clock is the test's).
 */

let t: TestApp;
let z: TestZone;
let alpha: EnrolledDevice;
let bravo: EnrolledDevice;
let quiet: EnrolledDevice;

const INVENTORY = [
  patch('openssl', 'critical'),
  patch('openssh-server', 'high'),
  patch('curl', 'medium'),
  patch('vim', 'low'),
  patch('tzdata', 'none', { cves: [] }),
];

const ALPHA_SOFTWARE = [{ name: 'bash', version: '5.2', source: 'dpkg', arch: 'amd64' }];

beforeAll(async () => {
  // Ticks happen when the test says: test apps run with POLICY_SCHEDULER_INTERVAL_MS=0.
  t = await startTestApp();
  z = await buildPolicyZone(t);
  alpha = await inventoriedDevice(t, z, 'alpha', { patches: INVENTORY, software: ALPHA_SOFTWARE });
  bravo = await inventoriedDevice(t, z, 'bravo', {
    patches: [],
    software: [{ name: 'nginx', version: '1.24', source: 'dpkg', arch: 'amd64' }],
  });
  quiet = await inventoriedDevice(t, z, 'quiet', { patches: INVENTORY });
  await checkinAs(t, alpha.token);
  await checkinAs(t, bravo.token);
  await flushLastSeen(t);
});
afterAll(async () => {
  await t.close();
});

async function createPolicy(body: Record<string, unknown>, zone = z) {
  const res = await zone.admin.post(`/api/policies?o=${zone.o}`, body);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body as { id: number };
}

async function runNow(policyId: number, body: Record<string, unknown> = { action: 'remediateAll' }, zone = z) {
  const res = await zone.admin.post(`/api/policies/${policyId}/action?o=${zone.o}`, body);
  expect(res.status).toBe(202);
  return res.body.run as { id: number; status: string; results: Record<string, number> };
}

async function resultsOf(policyId: number, runId: number, zone = z) {
  const res = await zone.admin.get(`/api/policies/${policyId}/runs/${runId}/results?o=${zone.o}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data as {
    server_name: string;
    status: string;
    patches: string[];
    message: string | null;
    command_id: number | null;
    exit_code: number | null;
    stdout_tail: string | null;
  }[];
}

describe('patch policies select from each device’s inventory', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['patch_all', { patch_rule: 'all' }, ['openssl', 'openssh-server', 'curl', 'vim', 'tzdata']],
    ['patch_only', { patch_rule: 'filter', filter_type: 'include', filters: ['open*'] }, ['openssl', 'openssh-server']],
    [
      'patch_all_except',
      { patch_rule: 'filter', filter_type: 'exclude', filters: ['open*', 'VIM'] },
      ['curl', 'tzdata'],
    ],
    [
      'patch_by_severity',
      { patch_rule: 'filter', filter_type: 'severity', severity_filter: ['critical', 'high'] },
      ['openssl', 'openssh-server'],
    ],
    [
      'patch_advanced',
      { patch_rule: 'advanced', advanced_filter: [{ left: 'display-name', condition: 'contains', right: 'ss' }] },
      ['openssl', 'openssh-server'],
    ],
  ];
  for (const [mode, configuration, expected] of cases) {
    it(`${mode}: queues install_updates with exactly the selected names`, async () => {
      const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], configuration, { name: `Mode ${mode}` }));
      const run = await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
      const [command] = await commandsOf(t, alpha);
      expect(command).toMatchObject({ type: 'install_updates', args: { names: expected } });
      const [result] = await resultsOf(policy.id, run.id);
      expect(result).toMatchObject({
        server_name: 'alpha',
        status: 'pending',
        patches: expected,
        command_id: command!.id,
      });
      // Its compliance is recomputed after the run's commit, before "Run now" answers, on the
      // set-based path (patch_all) as on the per-device one.
      const listed = await z.admin.get(`/api/servers/${alpha.id}?o=${z.o}`);
      expect(listed.body).toMatchObject({ compliance: 'pending' });
      // Leave the device idle for the next case.
      await postResult(t, alpha, command!.id, { status: 'success', exit_code: 0 });
    });
  }
});

describe('running a policy now', () => {
  it('queues for online devices, records "nothing to do", waits for offline ones, and results flow back', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'All now' }));
    const run = await runNow(policy.id);
    expect(run.status).toBe('queued');
    expect(run.results).toMatchObject({ pending: 2, success: 1 });
    // The devices' compliance is recomputed after the run's commit, before "Run now" answers.
    const listed = await z.admin.get(`/api/servers?o=${z.o}&sort=name:asc`);
    expect(
      Object.fromEntries(listed.body.data.map((d: { name: string; compliance: string }) => [d.name, d.compliance])),
    ).toMatchObject({ alpha: 'pending', bravo: 'compliant', quiet: 'pending' });

    const byName = Object.fromEntries((await resultsOf(policy.id, run.id)).map((r) => [r.server_name, r]));
    expect(byName.bravo).toMatchObject({ status: 'success', message: 'No patches for this policy to install.' });
    expect(byName.quiet).toMatchObject({ status: 'pending', command_id: null });
    expect(byName.quiet!.message).toMatch(/offline/);

    const [command] = await commandsOf(t, alpha);
    expect(command?.type).toBe('install_updates');
    await t.app.policyEngine.tick();
    expect((await resultsOf(policy.id, run.id)).find((r) => r.server_name === 'alpha')?.status).toBe('in_progress');

    const posted = await postResult(t, alpha, command!.id, {
      status: 'success',
      exit_code: 0,
      stdout_tail: 'upgraded 5',
    });
    expect(posted.status).toBe(204);
    expect((await resultsOf(policy.id, run.id)).find((r) => r.server_name === 'alpha')).toMatchObject({
      status: 'success',
      exit_code: 0,
      stdout_tail: 'upgraded 5',
    });
    const mine = await z.admin.get(`/api/servers/${alpha.id}/policies?o=${z.o}`);
    expect(mine.body.data.find((p: { policy_id: number }) => p.policy_id === policy.id)).toMatchObject({
      compliance: 'compliant',
      status: 1,
      result: { status: 'success', stdout_tail: 'upgraded 5' },
    });
    const stats = await z.admin.get(`/api/policystats?o=${z.o}`);
    expect(stats.body.find((s: { policy_id: number }) => s.policy_id === policy.id)).toMatchObject({
      compliant: 2,
      pending: 1,
      noncompliant: 0,
    });

    // The offline device catches up at its next check-in (a manual run always does).
    t.clock.advance(60_000);
    await checkinAs(t, quiet.token);
    await flushLastSeen(t);
    const tick = await t.app.policyEngine.tick();
    expect(tick.catchUps).toBe(1);
    const [late] = await commandsOf(t, quiet);
    expect(late).toMatchObject({ type: 'install_updates' });
    await postResult(t, quiet, late!.id, { status: 'error', exit_code: 100, stderr_tail: 'dpkg lock' });
    await t.app.policyEngine.tick();
    const final = await z.admin.get(`/api/policies/${policy.id}/runs/${run.id}?o=${z.o}`);
    expect(final.body).toMatchObject({ status: 'error', results: { success: 2, error: 1, pending: 0 } });
    const quietPolicies = await z.admin.get(`/api/servers/${quiet.id}/policies?o=${z.o}`);
    expect(quietPolicies.body.data.find((p: { policy_id: number }) => p.policy_id === policy.id)).toMatchObject({
      compliance: 'needs_attention',
      status: 0,
    });
  });

  it('closes a run when its last result arrives, without waiting for a tick', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'At once' }));
    const run = await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
    expect(run.status).toBe('queued');
    const [command] = await commandsOf(t, alpha);
    await postResult(t, alpha, command!.id, { status: 'success', exit_code: 0 });
    const final = await z.admin.get(`/api/policies/${policy.id}/runs/${run.id}?o=${z.o}`);
    expect(final.body).toMatchObject({ status: 'completed', results: { success: 1, pending: 0 } });
  });
});

describe('required software and worklets', () => {
  it('installs a missing package and leaves devices that have it', async () => {
    const policy = await createPolicy(requiredSoftwareBody([z.defaultGroupId], { package_name: 'NGINX' }));
    const run = await runNow(policy.id);
    const byName = Object.fromEntries((await resultsOf(policy.id, run.id)).map((r) => [r.server_name, r]));
    expect(byName.bravo).toMatchObject({ status: 'success', message: 'NGINX is installed.' });
    const [command] = await commandsOf(t, alpha);
    expect(command).toMatchObject({ type: 'install_package', args: { package: 'NGINX' } });
    expect(command!.args.version).toBeUndefined();
    await postResult(t, alpha, command!.id, { status: 'success', exit_code: 0 });
  });

  it('runs a worklet’s remediation on "Run now" and its evaluation after each scan', async () => {
    const policy = await createPolicy(customPolicyBody([z.defaultGroupId]));
    const run = await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
    const [remediation] = await commandsOf(t, alpha);
    expect(remediation).toMatchObject({
      type: 'run_script',
      args: { language: 'bash', script: 'touch /etc/hardened' },
    });
    await postResult(t, alpha, remediation!.id, { status: 'error', exit_code: 2, stderr_tail: 'read-only' });
    expect((await resultsOf(policy.id, run.id))[0]).toMatchObject({ status: 'error', exit_code: 2 });

    // A scan queued from the console: its result makes the server queue the evaluation.
    const scan = await z.admin.post(`/api/servers/${alpha.id}/queues?o=${z.o}`, { command_type_name: 'GetOS' });
    expect(scan.status).toBe(201);
    const [scanCommand] = await commandsOf(t, alpha);
    await postResult(t, alpha, scanCommand!.id, { status: 'success', exit_code: 0 });
    const [evaluation] = await commandsOf(t, alpha);
    expect(evaluation).toMatchObject({
      type: 'run_script',
      args: { language: 'bash', script: 'test -f /etc/hardened' },
    });
    await postResult(t, alpha, evaluation!.id, { status: 'success', exit_code: 0 });
    const mine = await z.admin.get(`/api/servers/${alpha.id}/policies?o=${z.o}`);
    expect(mine.body.data.find((p: { policy_id: number }) => p.policy_id === policy.id)).toMatchObject({
      compliance: 'compliant',
      evaluation_exit_code: 0,
    });

    // A successful remediation is followed by the evaluation again.
    await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
    const [again] = await commandsOf(t, alpha);
    await postResult(t, alpha, again!.id, { status: 'success', exit_code: 0 });
    const [reevaluation] = await commandsOf(t, alpha);
    expect(reevaluation).toMatchObject({ type: 'run_script', args: { script: 'test -f /etc/hardened' } });
    await postResult(t, alpha, reevaluation!.id, { status: 'success', exit_code: 1 });
    const after = await z.admin.get(`/api/servers/${alpha.id}/policies?o=${z.o}`);
    expect(after.body.data.find((p: { policy_id: number }) => p.policy_id === policy.id)).toMatchObject({
      compliance: 'needs_attention',
      evaluation_exit_code: 1,
    });
  });
  it('evaluates worklets again when the agent reports a changed inventory, not twice while one is open', async () => {
    const reinventory = async (patches: ReturnType<typeof patch>[]) => {
      const body = inventoryBody({ hostname: 'alpha', patches, software: ALPHA_SOFTWARE });
      body.system.timezone = 'UTC';
      expect((await agentCall(t, alpha.token, 'PUT', '/inventory', body)).status).toBe(204);
    };
    const evaluations = async () => (await commandsOf(t, alpha)).filter((c) => c.args.purpose === 'evaluate');

    await reinventory([patch('zlib', 'high')]);
    const first = await evaluations();
    expect(first.length).toBeGreaterThan(0);
    expect(first[0]).toMatchObject({ type: 'run_script', args: { script: 'test -f /etc/hardened' } });

    // Another change while those evaluations are out queues none more.
    await reinventory([patch('zlib', 'high'), patch('bash', 'low')]);
    expect(await evaluations()).toEqual([]);

    // Answered, the next change evaluates again.
    for (const c of first) await postResult(t, alpha, c.id, { status: 'success', exit_code: 0 });
    await reinventory([patch('bash', 'low')]);
    const second = await evaluations();
    expect(second.length).toBe(first.length);

    // The later tests see alpha as it was.
    for (const c of second) await postResult(t, alpha, c.id, { status: 'success', exit_code: 0 });
    await reinventory(INVENTORY);
    for (const c of await evaluations()) await postResult(t, alpha, c.id, { status: 'success', exit_code: 0 });
  });
});

describe('manual approval', () => {
  it('installs nothing until approved, lists what waits, then installs the approved patch', async () => {
    const policy = await createPolicy(
      patchPolicyBody([z.defaultGroupId], { patch_rule: 'manual' }, { name: 'Approve me' }),
    );
    const first = await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
    expect((await resultsOf(policy.id, first.id))[0]).toMatchObject({ status: 'success', command_id: null });
    expect(await commandsOf(t, alpha)).toEqual([]);

    const waiting = await z.admin.get(`/api/policy-manual-approval?o=${z.o}`);
    const entry = waiting.body.data.find((p: { policy_id: number }) => p.policy_id === policy.id);
    expect(entry.pending.map((a: { software: { display_name: string } }) => a.software.display_name).sort()).toEqual([
      'curl',
      'openssh-server',
      'openssl',
      'tzdata',
      'vim',
    ]);
    const openssl = entry.pending.find(
      (a: { software: { display_name: string } }) => a.software.display_name === 'openssl',
    );
    const decided = await z.admin.put(`/api/approvals/${openssl.id}?o=${z.o}`, { manual_approval: true });
    expect(decided.body).toMatchObject({ status: 'approved', manual_approval: true, server_count: 1 });
    const listed = await z.admin.get(`/api/approvals?o=${z.o}&policy=${policy.id}&status=approved`);
    expect(listed.body).toMatchObject({ size: 1, results: [{ id: openssl.id }] });

    await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
    const [command] = await commandsOf(t, alpha);
    expect(command).toMatchObject({ type: 'install_updates', args: { names: ['openssl'] } });
    await postResult(t, alpha, command!.id, { status: 'success', exit_code: 0 });
  });
});

// Last: moving the clock hours ahead ends the administrator's session.
describe('timeouts', () => {
  it('marks a result timed out when its command times out', async () => {
    const policy = await createPolicy(patchPolicyBody([z.defaultGroupId], { patch_rule: 'all' }, { name: 'Slow' }));
    const run = await runNow(policy.id, { action: 'remediateServer', serverId: alpha.id });
    await commandsOf(t, alpha);
    t.clock.advance(3 * 3600_000);
    expect(await sweepOverdueCommands(t.ctx)).toBeGreaterThanOrEqual(1);
    await t.app.policyEngine.tick();
    const admin = clientFor(t, { cookie: await cookieFor(t, z.user) });
    const final = await admin.get(`/api/policies/${policy.id}/runs/${run.id}?o=${z.o}`);
    expect(final.body).toMatchObject({ status: 'timeout', results: { timed_out: 1 } });
  });
});

describe('patch_all installs the names of the device’s latest inventory', () => {
  it('each once, in the inventory’s order, and again after a new inventory', async () => {
    // A zone of its own: the earlier tests' zone has its counts and its clock-aged session.
    const zone = await buildPolicyZone(t);
    const churn = await onlineInventoriedDevice(t, zone, 'churn', {
      // Two versions of one package (two repositories offer it): the command names it once.
      patches: [patch('openssl', 'critical'), patch('curl', 'medium'), patch('openssl', 'high', { version: '3.0' })],
    });
    const policy = await createPolicy(
      patchPolicyBody([zone.defaultGroupId], { patch_rule: 'all' }, { name: 'Churn' }),
      zone,
    );
    const first = await runNow(policy.id, { action: 'remediateServer', serverId: churn.id }, zone);
    const [command] = await commandsOf(t, churn);
    expect(command?.args.names).toEqual(['openssl', 'curl']);
    expect((await resultsOf(policy.id, first.id, zone))[0]?.patches).toEqual(['openssl', 'curl']);
    await postResult(t, churn, command!.id, { status: 'success', exit_code: 0 });

    const body = inventoryBody({ hostname: 'churn', patches: [patch('vim', 'low'), patch('curl', 'medium')] });
    expect((await agentCall(t, churn.token, 'PUT', '/inventory', body)).status).toBe(204);
    await runNow(policy.id, { action: 'remediateServer', serverId: churn.id }, zone);
    const [next] = await commandsOf(t, churn);
    expect(next?.args.names).toEqual(['vim', 'curl']);
    await postResult(t, churn, next!.id, { status: 'success', exit_code: 0 });

    const none = inventoryBody({ hostname: 'churn', patches: [] });
    expect((await agentCall(t, churn.token, 'PUT', '/inventory', none)).status).toBe(204);
    const last = await runNow(policy.id, { action: 'remediateServer', serverId: churn.id }, zone);
    expect(last.results).toMatchObject({ success: 1 });
    expect(await commandsOf(t, churn)).toEqual([]);
  });

  it('at most the protocol’s 1,000 names, the inventory’s first, in the command and its result', async () => {
    const zone = await buildPolicyZone(t);
    const names = Array.from({ length: 1003 }, (_, n) => `pkg-${String(n).padStart(4, '0')}`);
    const many = await onlineInventoriedDevice(t, zone, 'many', { patches: names.map((name) => patch(name, 'low')) });
    const policy = await createPolicy(
      patchPolicyBody([zone.defaultGroupId], { patch_rule: 'all' }, { name: 'Many' }),
      zone,
    );
    const run = await runNow(policy.id, { action: 'remediateServer', serverId: many.id }, zone);
    const [command] = await commandsOf(t, many);
    expect(command?.args.names).toEqual(names.slice(0, 1000));
    expect((await resultsOf(policy.id, run.id, zone))[0]?.patches).toEqual(names.slice(0, 1000));
  });

  it('the migration that added the stored names fills them from the stored patches as an inventory writes them', async () => {
    const stored = () => queryRows(t.db, sql`select device_id, names from device_patch_names order by device_id`);
    const written = await stored();
    expect(written.length).toBeGreaterThan(2);
    const migration = readFileSync(join(MIGRATIONS_FOLDER, '20261206153756_device_patch_names.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((part) => /INSERT INTO/i.test(part));
    await t.db.execute(sql`delete from device_patch_names where cardinality(names) > 0`);
    await t.db.execute(sql.raw(backfill!));
    // Devices whose inventory had no patches have an empty row the migration has no rows for.
    expect(await stored()).toEqual(written);
  });
});

describe('the scheduler’s tick recounts the open runs whose results changed', () => {
  /** Each run's counts and the transaction that last wrote its row. */
  const runRows = (ids: number[]) =>
    queryRows<{ id: number; xmin: string; status: string; success_count: number; pending_count: number }>(
      t.db,
      sql`select id, xmin::text as xmin, status, success_count, pending_count from policy_runs
           where id = any(${sql.param(ids)}::int[]) order by id`,
    );
  const notes = async () =>
    (await queryRows<{ run_id: number }>(t.db, sql`select run_id from policy_run_changes`)).map((n) =>
      Number(n.run_id),
    );

  it('and leaves the others unwritten; the first tick after a start recounts them all', async () => {
    const zone = await buildPolicyZone(t);
    const one = await onlineInventoriedDevice(t, zone, 'count-1', { patches: [patch('openssl', 'critical')] });
    const two = await onlineInventoriedDevice(t, zone, 'count-2', { patches: [patch('curl', 'medium')] });
    const first = await createPolicy(
      patchPolicyBody([zone.defaultGroupId], { patch_rule: 'all' }, { name: 'C1' }),
      zone,
    );
    const second = await createPolicy(
      patchPolicyBody([zone.defaultGroupId], { patch_rule: 'all' }, { name: 'C2' }),
      zone,
    );
    const runA = await runNow(first.id, { action: 'remediateAll' }, zone);
    const runB = await runNow(second.id, { action: 'remediateServer', serverId: two.id }, zone);
    await t.app.policyEngine.tick();
    expect(await notes()).toEqual([]);
    const [beforeA, beforeB] = await runRows([runA.id, runB.id]);

    // A result of run A arrives: its writer notes the run; the tick recounts it alone.
    const [commandA] = await commandsOf(t, one);
    await postResult(t, one, commandA!.id, { status: 'success', exit_code: 0 });
    expect(await notes()).toContain(runA.id);
    await t.app.policyEngine.tick();
    const [afterA, afterB] = await runRows([runA.id, runB.id]);
    expect(afterA).toMatchObject({ status: 'running', success_count: 1, pending_count: 1 });
    expect(afterA?.xmin).not.toBe(beforeA?.xmin);
    expect(afterB).toEqual(beforeB);
    expect(await notes()).toEqual([]);

    // A result changed without a note (as by a version before the notes): a tick passes it
    // by, the first tick of a newly started scheduler (`everyRun`) counts it.
    await t.db.execute(
      sql`update policy_device_results set status = 'error' where run_id = ${runB.id} and device_id = ${two.id}`,
    );
    await t.app.policyEngine.tick();
    expect((await runRows([runB.id]))[0]).toEqual(afterB);
    await closeOpenRuns(t.db, t.clock.now(), undefined, { everyRun: true });
    expect((await runRows([runB.id]))[0]).toMatchObject({ status: 'error', pending_count: 0 });
  });

  for (const [mode, configuration] of [
    ['patch_all', { patch_rule: 'all' }],
    ['patch_only', { patch_rule: 'filter', filter_type: 'include', filters: ['open*'] }],
  ] as const) {
    it(`${mode}: a later run supersedes what an earlier one waits for, and the earlier run finishes`, async () => {
      const zone = await buildPolicyZone(t);
      // Inventoried, never checked in: offline, so a "Run now" waits for it.
      const away = await inventoriedDevice(t, zone, `away-${mode}`, { patches: [patch('openssl', 'critical')] });
      const policy = await createPolicy(
        patchPolicyBody([zone.defaultGroupId], configuration, { name: `Away ${mode}` }),
        zone,
      );
      const earlier = await runNow(policy.id, { action: 'remediateServer', serverId: away.id }, zone);
      expect((await runRows([earlier.id]))[0]).toMatchObject({ status: 'queued', pending_count: 1 });
      // The dispatch notes the earlier run, and the recount after it (as a tick's) finishes it.
      const later = await runNow(policy.id, { action: 'remediateServer', serverId: away.id }, zone);
      expect((await runRows([earlier.id]))[0]).toMatchObject({ status: 'completed', pending_count: 0 });
      expect(await resultsOf(policy.id, earlier.id, zone)).toMatchObject([
        { status: 'canceled', message: 'Superseded by a later run of the policy.' },
      ]);
      expect((await runRows([later.id]))[0]).toMatchObject({ status: 'queued', pending_count: 1 });
    });
  }
});
