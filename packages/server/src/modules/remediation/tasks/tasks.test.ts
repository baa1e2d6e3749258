import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMEDIATION_DEADLINES_DEFAULT } from '@patchwell/core/remediation/cves.schema';
import { activityLog } from '../../../db/policies.schema';
import { deviceCommands } from '../../../db/devices.schema';
import { startTestApp, type TestApp } from '../../../test/app';
import { checkinAs, flushLastSeen, type EnrolledDevice } from '../../../test/agents';
import { call, clientFor, cookieFor } from '../../../test/authz-helpers';
import { buildUser } from '../../../test/factories';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  postResult,
  type TestZone,
} from '../../../test/policy-fixtures';
import { acceptedBatch, cveStatus } from '../../../test/remediation-fixtures';
import { taskDueAt } from './tasks.service';

/** Reading and deleting remediation tasks over HTTP against the real database. */

let t: TestApp;
let z: TestZone;
let other: TestZone;
let fleet: EnrolledDevice[];
/** Tasks of one batch, in its solutions' order (see beforeAll). */
let ids: number[];
let batchId: number;

const base = () => `/api/orgs/${z.o}/tasks`;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  fleet = [];
  for (const [i, name] of ['web-1', 'db-1', '=cmd|calc'].entries()) {
    const device = await inventoriedDevice(t, z, name);
    await checkinAs(t, device.token, { status: { ip_addrs_private: [`10.0.0.${i + 1}`] } });
    fleet.push(device);
  }
  await flushLastSeen(t);
  const all = fleet.map((d) => d.id);
  const first = await acceptedBatch(t, {
    zoneId: z.o,
    userId: z.user.id,
    source: 'qualys',
    solutions: [
      { title: 'Low one', severity: 'low', deviceIds: all },
      { title: 'Critical one', severity: 'critical', deviceIds: all },
      { title: 'Medium one', severity: 'medium', deviceIds: [fleet[0]!.id] },
    ],
  });
  t.clock.advance(60_000);
  const second = await acceptedBatch(t, {
    zoneId: z.o,
    userId: z.user.id,
    source: 'tenable',
    solutions: [
      { title: 'High one', severity: 'high', deviceIds: all },
      { title: 'Critical two', severity: 'critical', deviceIds: [fleet[1]!.id] },
    ],
  });
  ids = [...first.taskIds, ...second.taskIds];
  batchId = first.batchId;
  // "High one" runs: its status is in_progress, so status sorts split it from the pending ones.
  const res = await call(t, { cookie: z.cookie }, 'PATCH', `${base()}/${ids[3]}?o=${z.o}`, { action: 'execute' });
  expect(res.status).toBe(200);
  // Another zone's task, for the 404s.
  const device = await inventoriedDevice(t, other, 'foreign-1');
  await acceptedBatch(t, { zoneId: other.o, userId: other.user.id, solutions: [{ deviceIds: [device.id] }] });
});
afterAll(async () => {
  await t.close();
});

const titles = (body: { data: { title: string }[] }) => body.data.map((task) => task.title);

describe('GET /api/orgs/:orgId/tasks', () => {
  it('lists the zone’s tasks newest first, with their counts', async () => {
    const res = await z.admin.get(`${base()}?o=${z.o}`);
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(5);
    expect(titles(res.body)).toEqual(['Critical two', 'High one', 'Medium one', 'Critical one', 'Low one']);
    expect(res.body.data[1]).toMatchObject({
      id: ids[3],
      source: 'tenable',
      status: 'in_progress',
      overall_status: 'in_progress',
      counts: { devices: 3, remediating: 3, remediated: 0, remediation_failed: 0, not_run: 0 },
      created_by_user: { id: z.user.id, email: z.user.email },
      organization_id: z.o,
    });
    expect(res.body.data[2]).toMatchObject({ status: 'pending', overall_status: 'unknown', counts: { devices: 1 } });
  });

  it('filters by status, severity, source and batch', async () => {
    const q = (query: string) => z.admin.get(`${base()}?o=${z.o}&${query}`).then((r) => titles(r.body));
    expect(await q('status:equals=in_progress')).toEqual(['High one']);
    expect(await q('severity:equals=critical')).toEqual(['Critical two', 'Critical one']);
    expect(await q('source:equals=qualys')).toEqual(['Medium one', 'Critical one', 'Low one']);
    expect(await q(`batch_id=${batchId}&severity:equals=low`)).toEqual(['Low one']);
  });

  it('sorts by status, then by severity from the worst', async () => {
    const asc = await z.admin.get(`${base()}?o=${z.o}&sort=status:asc`);
    expect(titles(asc.body)).toEqual(['Critical two', 'Critical one', 'Medium one', 'Low one', 'High one']);
    const desc = await z.admin.get(`${base()}?o=${z.o}&sort=status:desc`);
    expect(titles(desc.body)).toEqual(['High one', 'Critical two', 'Critical one', 'Medium one', 'Low one']);
    const bySeverity = await z.admin.get(`${base()}?o=${z.o}&sort=severity:asc`);
    expect(titles(bySeverity.body)).toEqual(['Low one', 'Medium one', 'High one', 'Critical two', 'Critical one']);
  });

  it('pages, and refuses a malformed sort with a clear message', async () => {
    const page = await z.admin.get(`${base()}?o=${z.o}&limit=2&page=1`);
    expect(page.body.size).toBe(5);
    expect(titles(page.body)).toEqual(['Medium one', 'Critical one']);
    const bad = await z.admin.get(`${base()}?o=${z.o}&sort=hostname:up`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Sort must be field:asc or field:desc.');
  });

  it('lets a read-only user read, and answers 404 for another zone or a mismatched o', async () => {
    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } });
    const client = clientFor(t, { cookie: await cookieFor(t, reader) });
    expect((await client.get(`${base()}?o=${z.o}`)).body.size).toBe(5);
    expect((await z.admin.get(`/api/orgs/${other.o}/tasks?o=${other.o}`)).status).toBe(404);
    expect((await z.admin.get(`${base()}?o=${other.o}`)).status).toBe(404);
  });
});

describe('GET /api/orgs/:orgId/tasks/:taskId', () => {
  it('answers the task with its deadline from the zone’s deadlines by severity', async () => {
    const critical = await z.admin.get(`${base()}/${ids[1]}?o=${z.o}`);
    expect(critical.status).toBe(200);
    const created = new Date(critical.body.created_at);
    const due = taskDueAt(created, 'critical', REMEDIATION_DEADLINES_DEFAULT)!;
    expect(due.getTime() - created.getTime()).toBe(15 * 86_400_000);
    expect(critical.body).toMatchObject({ title: 'Critical one', due_at: due.toISOString(), overdue: false });
    const low = await z.admin.get(`${base()}/${ids[0]}?o=${z.o}`);
    expect(low.body).toMatchObject({ due_at: null, overdue: false });
    expect(taskDueAt(created, 'none', REMEDIATION_DEADLINES_DEFAULT)).toBeNull();
    expect(taskDueAt(created, 'low', { ...REMEDIATION_DEADLINES_DEFAULT, low: 7 })!.getTime()).toBe(
      created.getTime() + 7 * 86_400_000,
    );
  });

  it('answers 404 for another zone’s task, by its zone or by ours', async () => {
    const theirs = (await clientFor(t, { cookie: other.cookie }).get(`/api/orgs/${other.o}/tasks?o=${other.o}`)).body
      .data[0].id;
    expect((await z.admin.get(`${base()}/${theirs}?o=${z.o}`)).status).toBe(404);
    expect((await z.admin.get(`/api/orgs/${other.o}/tasks/${theirs}?o=${other.o}`)).status).toBe(404);
    expect((await z.admin.get(`${base()}/${theirs}/jobs?o=${z.o}`)).status).toBe(404);
    expect((await z.admin.get(`${base()}/${theirs}/csv?o=${z.o}`)).status).toBe(404);
    const patched = await call(t, { cookie: z.cookie }, 'PATCH', `${base()}/${theirs}?o=${z.o}`, { action: 'execute' });
    expect(patched.status).toBe(404);
  });
});

describe('GET /api/orgs/:orgId/tasks/:taskId/jobs and /csv', () => {
  it('lists the devices’ jobs by host name, paged and filtered by status', async () => {
    const all = await z.admin.get(`${base()}/${ids[3]}/jobs?o=${z.o}`);
    expect(all.body.size).toBe(3);
    expect(all.body.data.map((j: { hostname: string }) => j.hostname)).toEqual(['=cmd|calc', 'db-1', 'web-1']);
    expect(all.body.data[2]).toMatchObject({
      device_id: fleet[0]!.id,
      ip_addrs_private: ['10.0.0.1'],
      status: 'pending',
      remediation_status: 'remediating',
    });
    const page = await z.admin.get(`${base()}/${ids[3]}/jobs?o=${z.o}&limit=1&page=1`);
    expect(page.body).toMatchObject({ size: 3, data: [{ hostname: 'db-1' }] });
    expect((await z.admin.get(`${base()}/${ids[3]}/jobs?o=${z.o}&status=success`)).body.size).toBe(0);
  });

  it('downloads each device’s remediation status as CSV, formula-like cells neutralised', async () => {
    const [web, db] = fleet;
    const [command] = await commandsOf(t, web!);
    await postResult(t, web!, command!.id, { status: 'success', exit_code: 0 });
    const [failing] = await commandsOf(t, db!);
    await postResult(t, db!, failing!.id, { status: 'error', exit_code: 1 });
    const res = await t.request(`${base()}/${ids[3]}/csv?o=${z.o}`, { headers: { cookie: z.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="task-${ids[3]}-remediation.csv"`);
    expect((await res.text()).trim().split('\n')).toEqual([
      'Hostname,Private IP,Remediation status',
      'web-1,10.0.0.1,remediated',
      'db-1,10.0.0.2,remediation failed',
      "'=cmd|calc,10.0.0.3,remediating",
    ]);
    const pending = await t.request(`${base()}/${ids[2]}/csv?o=${z.o}`, { headers: { cookie: z.cookie } });
    expect((await pending.text()).trim().split('\n')).toEqual([
      'Hostname,Private IP,Remediation status',
      'web-1,10.0.0.1,pending',
    ]);
  });
});

describe('DELETE /api/orgs/:orgId/tasks', () => {
  const del = (body: unknown, o = z.o, cookie = z.cookie) =>
    call(t, { cookie }, 'DELETE', `/api/orgs/${o}/tasks?o=${o}`, body);

  it('deletes tasks for good: their details and jobs answer 404 afterwards', async () => {
    const { taskIds } = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [{ deviceIds: [fleet[0]!.id] }, { deviceIds: [fleet[1]!.id] }],
    });
    const res = await del({ ids: taskIds });
    expect(res.status).toBe(204);
    for (const id of taskIds) {
      expect((await z.admin.get(`${base()}/${id}?o=${z.o}`)).status).toBe(404);
      expect((await z.admin.get(`${base()}/${id}/jobs?o=${z.o}`)).status).toBe(404);
    }
    const events = await t.db.select().from(activityLog).where(eq(activityLog.action, 'task.delete'));
    expect(events.map((e) => e.objectId)).toEqual(expect.arrayContaining(taskIds.map(String)));
  });

  it('cancels the open commands of an in-progress task it deletes', async () => {
    const device = await inventoriedDevice(t, z, 'deleted-run');
    const cve = 'CVE-2026-5001';
    const { taskIds } = await acceptedBatch(t, {
      zoneId: z.o,
      userId: z.user.id,
      solutions: [{ cves: [cve], deviceIds: [device.id] }],
    });
    await call(t, { cookie: z.cookie }, 'PATCH', `${base()}/${taskIds[0]}?o=${z.o}`, { action: 'execute' });
    expect(await cveStatus(t, z.o, cve, device.id)).toBe('remediating');
    expect((await del({ ids: taskIds })).status).toBe(204);
    const [command] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, device.id));
    expect(command!.status).toBe('canceled');
    expect(await commandsOf(t, device)).toEqual([]);
    expect(await cveStatus(t, z.o, cve, device.id)).toBe('open');
  });

  it('deletes nothing when one id is not the zone’s (404), and needs Task.modify', async () => {
    const theirs = (await clientFor(t, { cookie: other.cookie }).get(`/api/orgs/${other.o}/tasks?o=${other.o}`)).body
      .data[0].id;
    expect((await del({ ids: [ids[0], theirs] })).status).toBe(404);
    expect((await z.admin.get(`${base()}/${ids[0]}?o=${z.o}`)).status).toBe(200);
    expect((await del({ ids: [theirs] }, other.o)).status).toBe(404);
    const reader = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } });
    expect((await del({ ids: [ids[0]] }, z.o, await cookieFor(t, reader))).status).toBe(403);
    expect((await del({ ids: [] })).status).toBe(400);
    expect((await z.admin.get(`${base()}/${ids[0]}?o=${z.o}`)).status).toBe(200);
  });
});
