import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CVE_EXCEPTION_EXPIRY_PAST } from '@patchwell/core/remediation/cves.schema';
import { activityLog } from '../../../db/policies.schema';
import { cveEvents, cveExceptions } from '../../../db/remediation.schema';
import { startTestApp, type TestApp } from '../../../test/app';
import type { EnrolledDevice } from '../../../test/agents';
import { acceptBatch, clientAcrossDays } from '../../../test/cve-fixtures';
import { buildUser } from '../../../test/factories';
import { buildPolicyZone, inventoriedDevice, type TestZone } from '../../../test/policy-fixtures';

/**
 * Issue 11: "not affected / risk accepted" (exceptions on a device or the whole zone, with a
 * reason and an expiry, leaving the counts until they expire, recorded with who decided) and
 * remediation deadlines by severity per zone.
 */

const DAY = 86_400_000;
const X = 'CVE-2025-10001';
const Y = 'CVE-2025-20002';
const start = new Date('2026-03-02T09:00:00.000Z');

let t: TestApp;
let z: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;
let reader: ReturnType<typeof clientAcrossDays>;
let operator: ReturnType<typeof clientAcrossDays>;
let a: EnrolledDevice;
let b: EnrolledDevice;
let c: EnrolledDevice;
let other: TestZone;
let otherAdmin: ReturnType<typeof clientAcrossDays>;
let otherDevice: EnrolledDevice;
let otherException: number;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
  reader = clientAcrossDays(t, await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 2 } }));
  operator = clientAcrossDays(t, await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 4 } }));
  a = await inventoriedDevice(t, z, 'alpha');
  b = await inventoriedDevice(t, z, 'bravo');
  c = await inventoriedDevice(t, z, 'charlie');
  await acceptBatch(t, z.zone.id, [
    { deviceId: a.id, cve: X, severity: 'critical' },
    { deviceId: b.id, cve: X, severity: 'critical' },
    { deviceId: c.id, cve: X, severity: 'critical' },
    { deviceId: a.id, cve: Y, severity: 'high' },
  ]);

  other = await buildPolicyZone(t);
  otherAdmin = clientAcrossDays(t, other.user);
  otherDevice = await inventoriedDevice(t, other, 'foreign');
  await acceptBatch(t, other.zone.id, [{ deviceId: otherDevice.id, cve: X, severity: 'critical' }]);
  const res = await otherAdmin.post(`/api/orgs/${other.zone.id}/cves/${X}/exceptions?o=${other.zone.id}`, {
    kind: 'false_positive',
    reason: 'FOREIGN-REASON',
  });
  expect(res.status).toBe(201);
  otherException = res.body.id;
});

afterAll(async () => {
  await t.close();
});

const cvePath = (cve: string) => `/api/orgs/${z.zone.id}/cves/${cve}`;
const except = (cve: string, body: Record<string, unknown>, client = admin) =>
  client.post(`${cvePath(cve)}/exceptions?o=${z.zone.id}`, body);
const revoke = (id: number, client = admin) => client.del(`/api/orgs/${z.zone.id}/cve-exceptions/${id}?o=${z.zone.id}`);
const counts = async () => {
  const res = await admin.get(`/api/orgs/${z.zone.id}/cves?o=${z.zone.id}&sort=cve:asc`);
  expect(res.status).toBe(200);
  return Object.fromEntries(
    res.body.data.map((r: { cve: string; affected_device_count: number; excepted_device_count: number }) => [
      r.cve,
      [r.affected_device_count, r.excepted_device_count],
    ]),
  );
};
const eventsOf = (deviceId: number, cve: string) =>
  t.db
    .select({ status: cveEvents.status, cause: cveEvents.cause, details: cveEvents.details, at: cveEvents.at })
    .from(cveEvents)
    .where(and(eq(cveEvents.deviceId, deviceId), eq(cveEvents.cve, cve)))
    .orderBy(asc(cveEvents.at), asc(cveEvents.id));
const activityOf = (id: number) =>
  t.db
    .select({ action: activityLog.action, userId: activityLog.userId, details: activityLog.details })
    .from(activityLog)
    .where(and(eq(activityLog.objectType, 'cve_exception'), eq(activityLog.objectId, String(id))))
    .orderBy(asc(activityLog.id));

let deviceException: number;
let zoneException: number;

describe('POST /api/orgs/{orgId}/cves/{cve}/exceptions', () => {
  it('takes one device out of the counts until the exception expires, recording who decided', async () => {
    expect(await counts()).toEqual({ [X]: [3, 0], [Y]: [1, 0] });
    const expires = new Date(start.getTime() + 2 * DAY).toISOString();
    const res = await except(X, {
      kind: 'risk_accepted',
      reason: ' Isolated lab host ',
      device_id: a.id,
      expires_at: expires,
    });
    expect(res.status).toBe(201);
    deviceException = res.body.id;
    expect(res.body).toEqual({
      id: deviceException,
      cve: X,
      device_id: a.id,
      hostname: 'alpha',
      kind: 'risk_accepted',
      reason: 'Isolated lab host',
      expires_at: expires,
      created_by_user: { id: z.user.id, email: z.user.email },
      created_at: start.toISOString(),
      revoked_at: null,
      revoked_by_user: null,
      state: 'active',
    });
    expect(await counts()).toEqual({ [X]: [2, 1], [Y]: [1, 0] });
    const detail = await admin.get(`${cvePath(X)}?o=${z.zone.id}`);
    const alpha = detail.body.devices.find((d: { device_id: number }) => d.device_id === a.id);
    expect(alpha).toMatchObject({ status: 'excepted', exception: { id: deviceException, state: 'active' } });
    expect(detail.body.exceptions.map((e: { id: number }) => e.id)).toEqual([deviceException]);

    expect((await eventsOf(a.id, X)).map((e) => [e.status, e.cause])).toEqual([
      ['open', expect.stringMatching(/^batch:/)],
      ['excepted', `exception:${deviceException}`],
    ]);
    expect(await activityOf(deviceException)).toEqual([
      {
        action: 'cve_exception.create',
        userId: z.user.id,
        details: {
          cve: X,
          kind: 'risk_accepted',
          reason: 'Isolated lab host',
          device_id: a.id,
          expires_at: expires,
          devices_excepted: 1,
        },
      },
    ]);
  });

  it('takes every device of the zone out with a zone-wide decision', async () => {
    const res = await except(
      Y.toLowerCase(),
      { kind: 'false_positive', reason: 'Scanner misreads the backport' },
      operator,
    );
    expect(res.status).toBe(201);
    zoneException = res.body.id;
    expect(res.body).toMatchObject({ cve: Y, device_id: null, hostname: null, expires_at: null, state: 'active' });
    expect(await counts()).toEqual({ [X]: [2, 1], [Y]: [0, 1] });
    const summary = await admin.get(`/api/orgs/${z.zone.id}/cves/summary?o=${z.zone.id}`);
    // Alpha is excepted on both CVEs; bravo and charlie are affected by X.
    expect(summary.body).toMatchObject({ open_cves: 1, affected_devices: 2 });
  });

  it('counts an expired exception again at once, with nothing written, and records its end with the next change', async () => {
    const eventCount = async () => (await t.db.select({ id: cveEvents.id }).from(cveEvents)).length;
    const before = await eventCount();
    t.clock.set(new Date(start.getTime() + 2 * DAY - 1));
    expect(await counts()).toEqual({ [X]: [2, 1], [Y]: [0, 1] });
    // It holds until its expiry instant, not at it.
    t.clock.advance(1);
    expect(await counts()).toEqual({ [X]: [3, 0], [Y]: [0, 1] });
    expect(await eventCount()).toBe(before);
    const detail = await admin.get(`${cvePath(X)}?o=${z.zone.id}`);
    expect(detail.body.exceptions[0]).toMatchObject({ id: deviceException, state: 'expired' });
    expect(detail.body.devices.every((d: { exception: unknown }) => d.exception === null)).toBe(true);
    // Alpha was excepted at the end of days 1 and 2, and counts again on day 3 (it expired at 09:00).
    expect(detail.body.history).toEqual([
      { date: '2026-03-02', affected: 2, remediated: 0 },
      { date: '2026-03-03', affected: 2, remediated: 0 },
      { date: '2026-03-04', affected: 3, remediated: 0 },
    ]);

    t.clock.advance(DAY);
    const res = await except(X, { kind: 'false_positive', reason: 'Not installed', device_id: c.id });
    expect(res.status).toBe(201);
    const alpha = await eventsOf(a.id, X);
    expect(alpha.at(-1)).toEqual({
      status: 'open',
      cause: `exception:${deviceException}`,
      details: { exception_id: deviceException, end: 'expired' },
      at: new Date(start.getTime() + 2 * DAY),
    });
    // Recorded once: the next change writes no second expiry event.
    await except(X, { kind: 'false_positive', reason: 'Not installed either', device_id: b.id });
    expect((await eventsOf(a.id, X)).filter((e) => e.details.end === 'expired')).toHaveLength(1);
  });

  it('refuses a second exception of the same scope while one holds', async () => {
    const res = await except(X, { kind: 'risk_accepted', reason: 'Again', device_id: c.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('cve_exception.exists');
  });

  it('answers bad input with 400 and the message, and foreign devices and CVEs with 404', async () => {
    const blank = await except(X, { kind: 'risk_accepted', reason: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors.reason).toEqual(['A reason is required.']);
    const past = await except(X, { kind: 'risk_accepted', reason: 'Old', expires_at: start.toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.errors.expires_at).toEqual([CVE_EXCEPTION_EXPIRY_PAST]);
    expect((await except(X, { kind: 'ignore', reason: 'x' })).status).toBe(400);
    expect((await except(X, { kind: 'risk_accepted', reason: 'x', extra: 1 })).status).toBe(400);
    const badCve = await except('CVE-2025-1', { kind: 'risk_accepted', reason: 'x' });
    expect(badCve.status).toBe(400);
    expect(badCve.body.errors.cve).toEqual(['Must be a CVE id such as CVE-2024-3094.']);

    expect((await except(X, { kind: 'risk_accepted', reason: 'x', device_id: otherDevice.id })).status).toBe(404);
    expect((await except('CVE-2025-99999', { kind: 'risk_accepted', reason: 'x' })).status).toBe(404);
    const rows = await t.db.select({ id: cveExceptions.id }).from(cveExceptions).where(eq(cveExceptions.reason, 'x'));
    expect(rows).toEqual([]);
  });

  it('needs Task.modify to change and Task.read to see', async () => {
    const res = await except(X, { kind: 'risk_accepted', reason: 'Reader tries' }, reader);
    expect(res.status).toBe(403);
    expect((await revoke(zoneException, reader)).status).toBe(403);
    expect((await reader.get(`${cvePath(X)}?o=${z.zone.id}`)).status).toBe(200);
  });
});

describe('DELETE /api/orgs/{orgId}/cve-exceptions/{exceptionId}', () => {
  it('revokes a zone-wide exception: its devices count again, with events and who revoked it', async () => {
    const res = await revoke(zoneException);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: zoneException,
      state: 'revoked',
      revoked_at: t.clock.now().toISOString(),
      revoked_by_user: { id: z.user.id, email: z.user.email },
    });
    expect((await counts())[Y]).toEqual([1, 0]);
    expect((await eventsOf(a.id, Y)).map((e) => [e.status, e.cause, e.details.end])).toEqual([
      ['open', expect.stringMatching(/^batch:/), undefined],
      ['excepted', `exception:${zoneException}`, undefined],
      ['open', `exception:${zoneException}`, 'revoked'],
    ]);
    expect((await activityOf(zoneException)).map((r) => [r.action, r.userId])).toEqual([
      ['cve_exception.create', expect.any(Number)],
      ['cve_exception.revoke', z.user.id],
    ]);
  });

  it('keeps a device held by its own exception when a zone-wide one over it is revoked', async () => {
    // X: bravo and charlie have their own exceptions; a zone-wide one adds alpha.
    expect((await counts())[X]).toEqual([1, 2]);
    const wide = await except(X, { kind: 'risk_accepted', reason: 'Whole zone, for now' });
    expect(wide.status).toBe(201);
    expect((await counts())[X]).toEqual([0, 3]);
    expect((await eventsOf(c.id, X)).filter((e) => e.cause === `exception:${wide.body.id}`)).toEqual([]);
    expect((await revoke(wide.body.id)).status).toBe(200);
    expect((await counts())[X]).toEqual([1, 2]);
    expect((await eventsOf(a.id, X)).at(-1)).toMatchObject({ status: 'open', cause: `exception:${wide.body.id}` });
    expect((await eventsOf(c.id, X)).filter((e) => e.cause === `exception:${wide.body.id}`)).toEqual([]);
  });

  it('answers 409 for an exception already revoked or expired', async () => {
    const again = await revoke(zoneException);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('cve_exception.ended');
    expect((await revoke(deviceException)).status).toBe(409);
  });

  it('answers 404 for another zone’s exception, whichever zone the path names', async () => {
    expect((await revoke(otherException)).status).toBe(404);
    expect(
      (await admin.del(`/api/orgs/${other.zone.id}/cve-exceptions/${otherException}?o=${other.zone.id}`)).status,
    ).toBe(404);
    const [row] = await t.db.select().from(cveExceptions).where(eq(cveExceptions.id, otherException));
    expect(row!.revokedAt).toBeNull();
    const mine = await admin.get(`${cvePath(X)}?o=${z.zone.id}`);
    expect(mine.text).not.toContain('FOREIGN-REASON');
  });
});

describe('remediation deadlines', () => {
  const path = () => `/api/orgs/${z.zone.id}/remediation-deadlines?o=${z.zone.id}`;

  it('are the defaults until the zone sets its own', async () => {
    const res = await reader.get(path());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ critical: 15, high: 30, medium: 90, low: null });
  });

  it('move due dates and overdue counts at once, and are logged', async () => {
    const due = async () => {
      const res = await admin.get(`/api/orgs/${z.zone.id}/cves?o=${z.zone.id}&sort=cve:asc`);
      return res.body.data.map((r: { due_at: string | null; overdue_device_count: number }) => [
        r.due_at,
        r.overdue_device_count,
      ]);
    };
    // Day 4: nothing is due yet under the defaults.
    expect(await due()).toEqual([
      [new Date(start.getTime() + 15 * DAY).toISOString(), 0],
      [new Date(start.getTime() + 30 * DAY).toISOString(), 0],
    ]);
    const res = await admin.put(path(), { critical: 2, high: 1, medium: null, low: 365 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ critical: 2, high: 1, medium: null, low: 365 });
    // X: alpha is affected and past due; bravo and charlie are excepted, so not overdue. Y: alpha overdue.
    expect(await due()).toEqual([
      [new Date(start.getTime() + 2 * DAY).toISOString(), 1],
      [new Date(start.getTime() + 1 * DAY).toISOString(), 1],
    ]);
    const summary = await admin.get(`/api/orgs/${z.zone.id}/cves/summary?o=${z.zone.id}`);
    expect(summary.body).toMatchObject({ overdue: { critical: 1, high: 1 }, overdue_total: 1 });
    expect((await admin.get(`/api/orgs/${z.zone.id}/cves?o=${z.zone.id}&overdue=false`)).body.size).toBe(0);

    const [log] = await t.db
      .select({ userId: activityLog.userId, details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, 'remediation_deadlines.update'));
    expect(log).toEqual({
      userId: z.user.id,
      details: {
        before: { critical: 15, high: 30, medium: 90, low: null },
        after: { critical: 2, high: 1, medium: null, low: 365 },
      },
    });
    // Another zone keeps its own (the defaults).
    expect(
      (await otherAdmin.get(`/api/orgs/${other.zone.id}/remediation-deadlines?o=${other.zone.id}`)).body.critical,
    ).toBe(15);
  });

  it('refuses bad values with 400, readers with 403 and another zone with 404', async () => {
    const zero = await admin.put(path(), { critical: 0, high: 1, medium: null, low: null });
    expect(zero.status).toBe(400);
    expect(Object.keys(zero.body.errors)).toEqual(['critical']);
    expect((await admin.put(path(), { critical: 1, high: 1, medium: null })).status).toBe(400);
    expect((await reader.put(path(), { critical: 1, high: 1, medium: null, low: null })).status).toBe(403);
    const foreign = await admin.put(`/api/orgs/${other.zone.id}/remediation-deadlines?o=${other.zone.id}`, {
      critical: 1,
      high: 1,
      medium: 1,
      low: 1,
    });
    expect(foreign.status).toBe(404);
    expect((await admin.get(path())).body).toEqual({ critical: 2, high: 1, medium: null, low: 365 });
  });
});
