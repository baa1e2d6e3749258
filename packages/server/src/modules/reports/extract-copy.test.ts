import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { deviceCommands, devicePresence, devices } from '../../db/devices.schema';
import { dataExtractChunks, dataExtracts } from '../../db/reports.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { cookieFor } from '../../test/authz-helpers';
import { clientAcrossDays } from '../../test/cve-fixtures';
import { buildPolicyZone, type TestZone } from '../../test/policy-fixtures';
import { findInventoryAfter } from './extract-sources.store';
import { inventoryCells, patchHistoryCells } from './extract-formats';
import { findPatchHistory } from './overview.store';
import { csvLines, runExtractJobs } from './extracts.worker';

/**
 * The extracts COPY writes (device inventory, patch history) hold byte for byte the CSV the
 * JavaScript cells (`inventoryCells`, `patchHistoryCells`, `csvCell`, csv-stringify) make of
 * the same rows: formula-like text, commas, quotes, line breaks, nulls, empty lists and
 * non-ASCII text, over keyset pages of 4 rows whose keys tie to the microsecond.
 */

const NOW = new Date('2026-05-10T12:00:00.000Z');
/** Three rows to a microsecond, so page boundaries fall inside ties. */
const stamp = (i: number) => `2026-05-09T10:00:00.000${String(Math.floor(i / 3)).padStart(3, '0')}Z`;
const AWKWARD = [
  '=cmd|calc',
  'a, "quoted"\nline',
  'Grüße 東京',
  ' @x',
  '-1',
  'plain',
  '\u00a0+x',
  'tab\tinside',
  'cr\rinside',
  '＝full-width',
];

let t: TestApp;
let z: TestZone;

beforeAll(async () => {
  t = await startTestApp();
  t.clock.set(NOW);
  z = await buildPolicyZone(t);
  const rows = Array.from({ length: 23 }, (_, i) => ({
    organizationId: z.o,
    groupId: z.defaultGroupId,
    machineId: `copy-${i}`,
    hostname: i % 4 === 0 ? AWKWARD[(i + 3) % AWKWARD.length]! : `host-${i}`,
    customName: i % 3 === 0 ? null : AWKWARD[i % AWKWARD.length]!,
    osFamily: 'linux' as const,
    osName: i === 1 ? '' : 'Debian',
    osVersion: AWKWARD[(i + 1) % AWKWARD.length]!,
    agentVersion: '1.0.0',
    tokenHash: `copy-token-${i}`,
    tags: i % 5 === 0 ? [] : ['=a', 'b,c', AWKWARD[i % AWKWARD.length]!],
    ipAddrs: i % 2 ? ['10.0.0.1', '::1'] : [],
    needsReboot: i % 2 === 0,
    complianceReason: i % 3 ? `needs, "things"\n${i}` : '',
    pendingPatches: i,
    createdAt: sql`${stamp(i)}::timestamptz` as unknown as Date,
  }));
  const inserted = await t.db.insert(devices).values(rows).returning({ id: devices.id });
  await t.db.insert(devicePresence).values(
    inserted
      .filter((_, i) => i % 2)
      .map((d, i) => ({
        deviceId: d.id,
        organizationId: z.o,
        lastSeenAt: sql`${stamp(i)}::timestamptz` as unknown as Date,
        onlineUntil: NOW,
      })),
  );
  const args = [
    { names: ['=x', 1, 'b,c', 'Grüße'] },
    { names: [] },
    { package: '-pkg' },
    { names: 'not a list', package: 'p "q"' },
    {},
    { names: [null, ''] },
  ];
  const types = ['install_updates', 'install_package', 'install_all'] as const;
  const statuses = ['success', 'error', 'timed_out'] as const;
  await t.db.insert(deviceCommands).values(
    Array.from({ length: 31 }, (_, i) => ({
      deviceId: inserted[i % inserted.length]!.id,
      organizationId: z.o,
      type: types[i % types.length]!,
      args: args[i % args.length]! as never,
      status: statuses[i % statuses.length]!,
      exitCode: i % 4 === 0 ? null : i,
      data: i % 5 === 0 ? { simulated: true } : null,
      timeoutS: 3600,
      createdAt: NOW,
      finishedAt: sql`${stamp(i)}::timestamptz` as unknown as Date,
      deadlineAt: NOW,
    })),
  );
}, 60_000);

afterAll(async () => {
  await t.close();
});

/** Requests an extract of the zone, builds it in pages of 4 rows, and answers its CSV without the header and its range. */
async function extractOf(kind: 'device_inventory' | 'patch_history') {
  const created = await clientAcrossDays(t, z.user).post(`/api/reports/data-extracts?o=${z.o}`, {
    kind,
    preset: 'last7days',
  });
  expect(created.status).toBe(202);
  expect(await runExtractJobs(t.ctx, { copyPageRows: 4 })).toEqual([{ id: created.body.id, outcome: 'ready' }]);
  const [row] = await t.db.select().from(dataExtracts).where(eq(dataExtracts.id, created.body.id));
  const res = await t.request(`/api/reports/data-extracts/${created.body.id}/csv?o=${z.o}`, {
    headers: { cookie: await cookieFor(t, z.user) },
  });
  const text = await res.text();
  return { id: row!.id, body: text.slice(text.indexOf('\n') + 1), range: { from: row!.rangeFrom, to: row!.rangeTo } };
}

describe('data extracts written by COPY', () => {
  it('write the device inventory as the JavaScript cells do', async () => {
    const { body, range } = await extractOf('device_inventory');
    const rows = await findInventoryAfter(t.db, z.o, range.to, 0, 1000);
    expect(rows).toHaveLength(23);
    expect(body).toBe(csvLines(rows.map(inventoryCells)));
    expect(body).toContain("'=cmd|calc");
    expect(body).toContain('Grüße 東京');
  });

  it('write the patch history as the JavaScript cells do, none lost or twice across tied keys', async () => {
    const { body, range } = await extractOf('patch_history');
    const { rows } = await findPatchHistory(t.db, z.o, range, { offset: 0, limit: 1000 });
    expect(rows).toHaveLength(31);
    // The report's order is newest first; the extract's oldest first.
    expect(body).toBe(csvLines(rows.reverse().map(patchHistoryCells)));
    expect(body).toContain("'=x b,c Grüße");
  });

  it('store each page zipped, and still serve pages the previous version stored as text', async () => {
    const { id, body } = await extractOf('device_inventory');
    const pages = await t.db.select().from(dataExtractChunks).where(eq(dataExtractChunks.extractId, id));
    // 23 devices in pages of 4: five boundaries, six pages.
    expect(pages).toHaveLength(6);
    expect(pages.every((p) => p.body === null && p.bodyGz !== null)).toBe(true);
    // The same extract as the previous version stored it: every other page as plain text.
    await t.db.delete(dataExtractChunks).where(eq(dataExtractChunks.extractId, id));
    const lines = body.split(/(?<=\n)(?=\d)/);
    await t.db.insert(dataExtractChunks).values(
      lines.map((line, i) => ({
        extractId: id,
        seq: i + 1,
        rows: 1,
        ...(i % 2 ? { body: line } : { bodyGz: gzipSync(line).toString('base64') }),
      })),
    );
    const res = await t.request(`/api/reports/data-extracts/${id}/csv?o=${z.o}`, {
      headers: { cookie: await cookieFor(t, z.user) },
    });
    const text = await res.text();
    expect(text.slice(text.indexOf('\n') + 1)).toBe(body);
  });

  it('refuses a page with both bodies or none', async () => {
    const [extract] = await t.db.select({ id: dataExtracts.id }).from(dataExtracts).limit(1);
    for (const both of [{ body: 'a\n', bodyGz: 'H4sI' }, {}]) {
      await expect(
        t.db.insert(dataExtractChunks).values({ extractId: extract!.id, seq: 1000, rows: 1, ...both }),
      ).rejects.toThrow();
    }
  });
});
