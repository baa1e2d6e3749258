import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DATA_EXTRACT_ERRORS } from '@patchwell/core/reports/extracts.schema';
import { DATE_RANGE_ERRORS } from '@patchwell/core/reports/date-range';
import { activityLog } from '../../db/policies.schema';
import { dataExtractChunks, dataExtracts } from '../../db/reports.schema';
import { deviceSoftware, devices } from '../../db/devices.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import type { EnrolledDevice } from '../../test/agents';
import { cookieFor } from '../../test/authz-helpers';
import { clientAcrossDays } from '../../test/cve-fixtures';
import {
  buildPolicyZone,
  commandsOf,
  inventoriedDevice,
  patch,
  postResult,
  type TestZone,
} from '../../test/policy-fixtures';
import { sweepExpiredExtracts } from './extracts.service';
import { appendChunk, claimExtract } from './extracts.store';
import { looksLikeFormula } from '@patchwell/core/rules/csv-cell';
import { queryRows } from '../../db/raw';
import { guardedCellSql } from './extract-sources.store';
import { EXTRACT_STALE_MS, runExtractJobs } from './extracts.worker';

/**
 * Data extracts: requested over HTTP, built by the worker as a job (claimed once however
 * many workers look), followed to `ready`, downloaded as CSV whose rows equal a direct
 * count of the source, and gone after their expiry.
 */

const DAY = 86_400_000;
const NOW = new Date('2026-05-10T12:00:00.000Z');

let t: TestApp;
let z: TestZone;
let other: TestZone;
let admin: ReturnType<typeof clientAcrossDays>;
const fleet: EnrolledDevice[] = [];

async function request(body: Record<string, unknown>, client = admin, o = z.o) {
  return client.post(`/api/reports/data-extracts?o=${o}`, body);
}

async function download(id: number, o = z.o, user = z.user) {
  const res = await t.request(`/api/reports/data-extracts/${id}/csv?o=${o}`, {
    headers: { cookie: await cookieFor(t, user) },
  });
  const text = await res.text();
  return { res, text, rows: res.status === 200 ? (parse(text, { columns: true }) as Record<string, string>[]) : [] };
}

/** Builds every queued extract; returns the outcomes. */
/** Pages of 1,000 events, so the fixture's thousands page as a million would. */
const ACTIVITY_PAGE = 1000;
const work = () => runExtractJobs(t.ctx, { copyPageRows: ACTIVITY_PAGE });

beforeAll(async () => {
  t = await startTestApp();
  t.clock.set(new Date(NOW.getTime() - 3 * DAY));
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  admin = clientAcrossDays(t, z.user);
  const software = [
    { name: 'openssl', version: '3.0.1', source: 'dpkg', arch: 'amd64' },
    { name: '=cmd|calc', version: '1', source: 'dpkg', arch: 'amd64' },
  ];
  for (const name of ['one', 'two', 'three']) {
    fleet.push(await inventoriedDevice(t, z, name, { patches: [patch('openssl', 'critical')], software }));
  }
  await inventoriedDevice(t, other, 'outsider', { software });
  // Install history: two days back, and today.
  for (const [i, device] of fleet.entries()) {
    const queued = await admin.post(`/api/servers/${device.id}/queues?o=${z.o}`, {
      command_type_name: 'InstallUpdate',
      args: { names: ['openssl'] },
    });
    expect(queued.status).toBe(201);
    const [command] = await commandsOf(t, device);
    const finished_at = new Date(NOW.getTime() - (i === 0 ? 0 : 2 * DAY)).toISOString();
    await postResult(t, device, command!.id, { status: i === 1 ? 'error' : 'success', exit_code: 0, finished_at });
  }
  // Activity: 4,500 events in the last week, one 40 days back, one in the other zone.
  const events = Array.from({ length: 4500 }, (_, i) => ({
    organizationId: z.o,
    userId: z.user.id,
    via: 'session' as const,
    action: 'device.tag',
    objectType: 'device',
    objectId: String(fleet[i % 3]!.id),
    details: { tag: `t${i}` },
    createdAt: new Date(NOW.getTime() - 5 * DAY + i * 60_000),
  }));
  for (let i = 0; i < events.length; i += 1000) await t.db.insert(activityLog).values(events.slice(i, i + 1000));
  await t.db.insert(activityLog).values([
    { ...events[0]!, createdAt: new Date(NOW.getTime() - 40 * DAY) },
    { ...events[0]!, organizationId: other.o, details: { tag: 'OUTSIDER' } },
  ]);
  t.clock.set(NOW);
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('POST /api/reports/data-extracts', () => {
  it('refuses ranges beyond 90 days back, in the future, incomplete or mixed, and unknown kinds', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { kind: 'activity', preset: 'custom', startDate: '2026-02-08', endDate: '2026-05-10' },
        'startDate',
        DATE_RANGE_ERRORS.tooOld,
      ],
      [
        { kind: 'activity', preset: 'custom', startDate: '2026-05-01', endDate: '2026-05-11' },
        'endDate',
        DATE_RANGE_ERRORS.future,
      ],
      [{ kind: 'activity', preset: 'custom', startDate: '2026-05-01' }, 'endDate', DATE_RANGE_ERRORS.required],
      [
        { kind: 'activity', preset: 'custom', startDate: '2026-05-02', endDate: '2026-05-01' },
        'endDate',
        DATE_RANGE_ERRORS.order,
      ],
      [{ kind: 'activity', preset: 'today', startDate: '2026-05-01' }, 'startDate', DATE_RANGE_ERRORS.onlyCustom],
    ];
    for (const [body, field, message] of cases) {
      const res = await request(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[field]).toEqual([message]);
    }
    expect((await request({ kind: 'passwords', preset: 'today' })).status).toBe(400);
    expect(
      (await request({ kind: 'activity', preset: 'custom', startDate: '2026-02-31', endDate: '2026-05-01' })).status,
    ).toBe(400);
    // Exactly 90 days back is allowed.
    const edge = await request({ kind: 'activity', preset: 'custom', startDate: '2026-02-09', endDate: '2026-05-10' });
    expect(edge.status).toBe(202);
    expect(edge.body).toMatchObject({ start_date: '2026-02-09', end_date: '2026-05-10', status: 'queued' });
    await work();
  });
});

describe('a data extract’s life', () => {
  it('is queued, built once by one of two workers, then downloaded with the rows a direct count gives', async () => {
    const created = await request({ kind: 'patch_history', preset: 'last7days' });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      kind: 'patch_history',
      status: 'queued',
      progress: 0,
      start_date: '2026-05-04',
      requested_by: z.user.email,
    });
    const id = created.body.id;
    expect((await download(id)).res.status).toBe(409);
    expect((await download(id)).text).toContain(DATA_EXTRACT_ERRORS.notReady);

    // Two workers look at once: exactly one claims and builds it.
    const [a, b] = await Promise.all([work(), work()]);
    expect([...a, ...b]).toEqual([{ id, outcome: 'ready' }]);
    const [row] = await t.db.select().from(dataExtracts).where(eq(dataExtracts.id, id));
    expect(row!.attempts).toBe(1);

    const ready = await admin.get(`/api/reports/data-extracts/${id}?o=${z.o}`);
    expect(ready.body).toMatchObject({ status: 'ready', progress: 100, row_count: 3, requested_by: z.user.email });
    expect(ready.body.expires_at).toBe(new Date(NOW.getTime() + 7 * DAY).toISOString());

    const { res, rows } = await download(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('patch-history-2026-05-04-to-2026-05-10');
    expect(rows.map((r) => [r.Device, r.Status, r.Patches]).sort()).toEqual([
      ['one', 'success', 'openssl'],
      ['three', 'success', 'openssl'],
      ['two', 'error', 'openssl'],
    ]);
    // Oldest first.
    expect(rows.at(-1)!.Device).toBe('one');
  });

  it('extracts the activity of the range only, page after page, in order', async () => {
    const created = await request({ kind: 'activity', preset: 'last7days' });
    await work();
    const direct = await t.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(activityLog)
      .where(
        and(
          eq(activityLog.organizationId, z.o),
          sql`${activityLog.createdAt} >= ${'2026-05-04T00:00:00Z'}::timestamptz`,
        ),
      );
    const { rows, text } = await download(created.body.id);
    expect(rows).toHaveLength(direct[0]!.n);
    // The fixture's 4,500 tags, with the events the test's own requests wrote.
    const tags = rows.filter((r) => r.Action === 'device.tag');
    expect(tags).toHaveLength(4500);
    expect(text).not.toContain('OUTSIDER');
    expect(rows[0]).toMatchObject({ Action: 'device.tag', User: z.user.email, 'Object type': 'device' });
    expect(JSON.parse(rows[0]!.Details!)).toEqual({ tag: 't0' });
    expect(tags.at(-1)!.Details).toContain('t4499');
    expect(rows.map((r) => r.Time)).toEqual(rows.map((r) => r.Time).sort());
    const pages = await t.db.select().from(dataExtractChunks).where(eq(dataExtractChunks.extractId, created.body.id));
    expect(pages).toHaveLength(Math.ceil(direct[0]!.n / ACTIVITY_PAGE));
    expect(pages.length).toBeGreaterThan(4);
  });

  it('pages events apart by the microsecond, and writes awkward cells as the other extracts do', async () => {
    // Events another tool wrote may carry microseconds: 2,500 within three milliseconds, three
    // to a microsecond, straddle the page boundaries; none may be lost or written twice.
    const stamp = (i: number) => `2026-05-09T10:00:00.00${Math.floor(i / 1000)}${String(i % 1000).padStart(3, '0')}Z`;
    const events = Array.from({ length: 2500 }, (_, i) => ({
      organizationId: z.o,
      via: 'agent' as const,
      action: 'agent.install',
      objectType: 'device',
      objectId: i === 2 ? '@SUM(A1)' : String(fleet[0]!.id),
      actorName: i === 0 ? '=cmd|calc' : `micro-${i}`,
      details: i === 1 ? { note: 'a, "quoted"\nline' } : {},
      createdAt: sql`${stamp(Math.floor(i / 3))}::timestamptz` as unknown as Date,
    }));
    await t.db.insert(activityLog).values(events);
    const created = await request({ kind: 'activity', preset: 'last7days' });
    await work();
    const { rows } = await download(created.body.id);
    const mine = rows.filter((r) => r.User === "'=cmd|calc" || r.User!.startsWith('micro-'));
    expect(mine).toHaveLength(2500);
    expect(new Set(mine.map((r) => r['Event ID'])).size).toBe(2500);
    expect(mine.find((r) => r['Object ID'] === "'@SUM(A1)")).toBeTruthy();
    expect(JSON.parse(mine.find((r) => r.User === 'micro-1')!.Details!)).toEqual({ note: 'a, "quoted"\nline' });
    expect(mine.find((r) => r.User === 'micro-3')!.Details).toBe('');
    expect(mine[0]!.Time).toBe('2026-05-09T10:00:00.000Z');
  });

  it('guards formula-like cells in SQL exactly as csvCell does', async () => {
    const samples = [
      '=1',
      ' =1',
      '\u3000=x',
      'a=1',
      '-2',
      '\t',
      'ok',
      '\uff1dx',
      '\u2212',
      '\u00a0@x',
      '\ufeff+1',
      'x\n=',
      '',
      '\u200b=1',
      '\n',
      ' \r+',
      // Each space before a sign and before a letter (not the BOM: the driver's decoder drops
      // a leading one from the answer), and each sign alone.
      ...[...' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'].flatMap((c) =>
        c === '\ufeff' ? [`${c}=1`] : [`${c}=1`, `${c}a`],
      ),
      ...'-=+@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b\u2212',
    ];
    for (const sample of samples) {
      const [row] = await queryRows<{ v: string }>(
        t.db,
        sql`select ${sql.raw(guardedCellSql('s.v'))} as v from (select ${sample}::text as v) s`,
      );
      expect(row!.v, JSON.stringify(sample)).toBe(looksLikeFormula(sample) ? `'${sample}` : sample);
    }
  });

  it('extracts the device inventory and the software, formula-like cells guarded', async () => {
    const inventory = await request({ kind: 'device_inventory', preset: 'today' });
    const software = await request({ kind: 'software', preset: 'today' });
    expect((await work()).map((o) => o.outcome)).toEqual(['ready', 'ready']);
    const live = and(eq(devices.organizationId, z.o), isNull(devices.removedAt));
    const deviceCount = (await t.db.select({ id: devices.id }).from(devices).where(live)).length;
    const softwareCount = (
      await t.db
        .select({ id: deviceSoftware.id })
        .from(deviceSoftware)
        .innerJoin(devices, eq(devices.id, deviceSoftware.deviceId))
        .where(live)
    ).length;
    const inv = await download(inventory.body.id);
    expect(inv.rows).toHaveLength(deviceCount);
    expect(inv.rows.map((r) => r.Name)).toEqual(['one', 'two', 'three']);
    expect(inv.rows[0]).toMatchObject({ Compliance: 'needs_attention', 'Pending patches': '1' });
    const sw = await download(software.body.id);
    expect(sw.rows).toHaveLength(softwareCount);
    expect(sw.rows).toHaveLength(6);
    expect(sw.rows.map((r) => r.Software)).toContain("'=cmd|calc");
    expect(sw.text).not.toContain('outsider');
  });

  it('restarts an extract whose node stopped writing, and the old worker’s pages are refused', async () => {
    const created = await request({ kind: 'device_inventory', preset: 'today' });
    const first = await claimExtract(t.db, NOW, new Date(NOW.getTime() - EXTRACT_STALE_MS), 3);
    expect(first?.id).toBe(created.body.id);
    // Another worker a minute later: the first is still beating, nothing to claim.
    t.clock.set(new Date(NOW.getTime() + 60_000));
    expect(await work()).toEqual([]);
    // Three minutes later the first node is presumed dead: the next worker restarts it.
    t.clock.set(new Date(NOW.getTime() + 3 * 60_000));
    expect(await work()).toEqual([{ id: created.body.id, outcome: 'ready' }]);
    const late = await appendChunk(
      t.db,
      { id: first!.id, attempt: first!.attempts },
      { seq: 99, rows: 1, lines: Buffer.from('stale\n') },
      { rowCount: 1, progress: 1, now: t.clock.now() },
    );
    expect(late).toBe(false);
    const { rows } = await download(created.body.id);
    expect(rows).toHaveLength(3);
    t.clock.set(NOW);
  });

  it('records a failed build as an error that cannot be downloaded', async () => {
    const [broken] = await t.db
      .insert(dataExtracts)
      .values({
        organizationId: z.o,
        kind: 'no-such-kind' as 'activity',
        preset: 'today',
        rangeFrom: new Date('2026-05-10T00:00:00Z'),
        rangeTo: new Date('2026-05-11T00:00:00Z'),
        createdAt: NOW,
      })
      .returning();
    expect(await work()).toEqual([{ id: broken!.id, outcome: 'error' }]);
    const { res, text } = await download(broken!.id);
    expect(res.status).toBe(409);
    expect(text).toContain(DATA_EXTRACT_ERRORS.failed);
    await t.db.delete(dataExtracts).where(eq(dataExtracts.id, broken!.id));
  });

  it('allows three in progress per zone', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await request({ kind: 'activity', preset: 'today' })).body.id);
    const busy = await request({ kind: 'activity', preset: 'today' });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe(DATA_EXTRACT_ERRORS.busy);
    // Another zone is not held back by this one's.
    expect(
      (await request({ kind: 'activity', preset: 'today' }, clientAcrossDays(t, other.user), other.o)).status,
    ).toBe(202);
    await work();
    expect((await request({ kind: 'activity', preset: 'today' })).status).toBe(202);
    await work();
  });

  it('logs the request in the activity log', async () => {
    const rows = await t.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.organizationId, z.o), eq(activityLog.action, 'data_extract.request')));
    expect(rows.length).toBeGreaterThan(5);
    expect(rows[0]).toMatchObject({ userId: z.user.id, objectType: 'data_extract' });
  });

  it('lists the zone’s extracts newest first, hides them from other zones, and expires them after 7 days', async () => {
    const list = await admin.get(`/api/reports/data-extracts?o=${z.o}&limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.size).toBe(list.body.data.length);
    const ids = list.body.data.map((e: JsonBody) => e.id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    const id = ids.at(-1);

    const outsider = clientAcrossDays(t, other.user);
    expect((await outsider.get(`/api/reports/data-extracts/${id}?o=${z.o}`)).status).toBe(404);
    expect((await outsider.get(`/api/reports/data-extracts/${id}?o=${other.o}`)).status).toBe(404);
    expect((await download(id, other.o, other.user)).res.status).toBe(404);
    const theirs = await outsider.get(`/api/reports/data-extracts?o=${other.o}`);
    expect(theirs.body.data.every((e: JsonBody) => !ids.includes(e.id))).toBe(true);

    t.clock.set(new Date(NOW.getTime() + 7 * DAY + 1));
    const expired = await admin.get(`/api/reports/data-extracts/${id}?o=${z.o}`);
    expect(expired.body.status).toBe('expired');
    const gone = await download(id);
    expect(gone.res.status).toBe(410);
    expect(gone.text).toContain(DATA_EXTRACT_ERRORS.expired);
    expect(await sweepExpiredExtracts(t.ctx)).toBeGreaterThan(0);
    expect((await admin.get(`/api/reports/data-extracts/${id}?o=${z.o}`)).status).toBe(404);
    expect(await t.db.select().from(dataExtractChunks).where(eq(dataExtractChunks.extractId, id))).toEqual([]);
  });
});
