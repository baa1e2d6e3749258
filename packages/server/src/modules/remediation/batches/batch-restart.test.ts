import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app';
import { buildZoneWithKey } from '../../../test/agents';
import { createTestDb, type TestDbHandle } from '../../../test/db';
import { BUILD_FAILED_REASON } from './batch-builder';
import { enrollFleet, sampleFile, uploadCsv } from './batches.fixtures';

/**
 * A batch is matched after its upload's answer. A server that stops before (or while) it is
 * built leaves it `building` with its findings stored; the next server on the same database
 * builds it as it starts.
 */

let db: TestDbHandle;
let first: TestApp;

beforeAll(async () => {
  db = await createTestDb();
  first = await startTestApp({ db });
});
afterAll(async () => {
  await db.close();
});

describe('a batch left building', () => {
  it('is refused every decision and its CSV until built, and is built by the next server at start', async () => {
    const z = await buildZoneWithKey(first);
    const o = z.zone.id;
    await enrollFleet(first, z.accessKey);
    // This server will die before building anything.
    first.app.batchBuilder.pause();
    const res = await uploadCsv(first, { cookie: z.cookie }, o, 'tenable', sampleFile('tenable'));
    expect(res.status, res.text).toBe(202);
    const batchId = res.body.id as number;
    const api = (path: string) => `/api/orgs/${o}/tasks/batches/${batchId}${path}?o=${o}`;

    const csv = await z.admin.get(api('/csv'));
    expect(csv.status).toBe(409);
    expect(csv.body).toMatchObject({
      code: 'batches.building',
      message: 'This batch is still being matched to devices; its CSV can be downloaded once it is ready.',
    });
    for (const action of ['accept', 'reject']) {
      const decided = await z.admin.post(api(`/${action}`));
      expect(decided.status, action).toBe(409);
      expect(decided.body.code).toBe('batches.building');
    }
    expect((await z.admin.get(api('/issues'))).body).toEqual({ data: [], size: 0 });
    await first.app.batchBuilder.idle();
    expect((await z.admin.get(api(''))).body).toMatchObject({ status: 'building', statistics: null });
    await first.close();

    const second = await startTestApp({ db });
    try {
      await second.app.batchBuilder.idle();
      const cookie = z.cookie;
      const detail = await second.request(api(''), { headers: { cookie } });
      expect(await detail.json()).toMatchObject({
        id: batchId,
        status: 'ready',
        impacted_device_count: 5,
        statistics: { issues: { unknown_host: 2, unknown_cve: 1, cve_not_applicable: 1 } },
      });
      const again = await second.request(api('/csv'), { headers: { cookie } });
      expect(again.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('ends in error, with the reason the console shows, when it cannot be built; it can then only be rejected', async () => {
    const t = await startTestApp({ db });
    try {
      const z = await buildZoneWithKey(t);
      const o = z.zone.id;
      // The database refuses the build's reads (not an outage: a broken schema).
      await t.db.execute(sql`alter table device_details rename to device_details_away`);
      let res;
      try {
        res = await uploadCsv(t, { cookie: z.cookie }, o, 'generic', sampleFile('generic'));
        expect(res.status, res.text).toBe(202);
        await t.app.batchBuilder.idle();
      } finally {
        await t.db.execute(sql`alter table device_details_away rename to device_details`);
      }
      const api = (path: string) => `/api/orgs/${o}/tasks/batches/${res.body.id}${path}?o=${o}`;
      expect((await z.admin.get(api(''))).body).toMatchObject({ status: 'error', error: BUILD_FAILED_REASON });
      expect((await z.admin.post(api('/accept'))).status).toBe(409);
      // Its rows, unmatched, are still in its CSV.
      const csv = await z.admin.get(api('/csv'));
      expect(csv.status).toBe(200);
      expect(csv.text).toContain('CVE-2017-0144');
      expect((await z.admin.post(api('/reject'))).body).toMatchObject({ status: 'rejected' });
    } finally {
      await t.close();
    }
  });
});
