import { generateMachine } from '@patchwell/agent/simulate/inventory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScannerCsv } from '../remediation/batches/batch-upload.parse';
import { Readable } from 'node:stream';
import { loadConfig } from '../../config';
import { appError } from '../../domain/errors';
import { createLogger } from '../../logger';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import { createTestClock } from '../../test/clock';
import { createTestDb } from '../../test/db';
import type { DbHandle } from '../../db/client';
import { bootstrap } from './bootstrap';
import { startDemoFleet, type DemoFleet } from './demo.fleet';
import { DEMO_SCAN_FILE_NAME, demoScanCsv, seedDemoScan } from './demo.scan';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from './demo.seed';

const machines = Array.from({ length: 8 }, (_, i) => generateMachine(1000, i, Date.UTC(2026, 10, 25), i));

describe('the demo’s sample scan', () => {
  it('is a Qualys export the importer reads: the devices’ own patches’ CVEs and one host with no agent', async () => {
    const csv = demoScanCsv(machines, new Date(Date.UTC(2026, 10, 25, 2, 0, 11)));
    expect(csv.split('\r\n')[0]).toBe('"Scan Results","11/25/2026 at 02:00:11 (GMT)"');
    const parsed = await parseScannerCsv('qualys', {
      stream: Readable.from([Buffer.from(csv)]),
      isTruncated: () => false,
      tooLarge: () => appError('batches.too_large'),
    });
    const hosts = new Set(parsed.findings.map((f) => f.hostname.toLowerCase()));
    // Machines 4 to 7 (the first four long-poll), and the printer.
    expect(hosts.size).toBe(5);
    for (const m of machines.slice(0, 4)) expect(csv).not.toContain(m.ipPrivate);
    expect(hosts).toContain('prn-floor2-01.corp.example.com');
    const pending = new Set(machines.flatMap((m) => m.patches.flatMap((p) => p.cves)));
    const known = parsed.findings.filter((f) => !f.hostname.startsWith('prn-'));
    expect(known.length).toBeGreaterThan(5);
    expect(known.every((f) => pending.has(f.cve))).toBe(true);
  });
});

describe('the demo’s sample scan on a first start', () => {
  let handle: DbHandle;
  let t: TestApp;
  let fleet: DemoFleet | undefined;

  beforeAll(async () => {
    handle = await createTestDb();
    const config = loadConfig({ DATA_DIR: 'memory://', PATCHWELL_DEMO: '1' });
    await bootstrap({ config, db: handle.db, clock: createTestClock(), logger: createLogger('silent') });
    t = await startTestApp({ db: { ...handle, close: async () => undefined } });
    fleet = await startDemoFleet(t.ctx, t.url, 12);
  });
  afterAll(async () => {
    await fleet?.stop();
    await t.close();
    await handle.close();
  });

  it('is uploaded and accepted once the devices reported: batches, tasks and CVEs show, and only once', async () => {
    const zone = fleet!.zones.find((z) => z.name === 'Headquarters')!;
    await expect.poll(() => zone.isReported(), { timeout: 30_000 }).toBe(true);
    const ctx = { ...t.ctx, batchBuilder: t.app.batchBuilder };
    const batchId = await seedDemoScan(ctx, zone);
    expect(batchId).toBeGreaterThan(0);
    expect(await seedDemoScan(ctx, zone)).toBeUndefined();

    const { cookie } = await t.signIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    const get = async (path: string) => bodyOf(await t.request(path, { headers: { cookie } }));
    const o = zone.zoneId;
    const batch = await get(`/api/orgs/${o}/tasks/batches/${batchId}?o=${o}`);
    expect(batch).toMatchObject({ status: 'approved', source: 'qualys', report_source: DEMO_SCAN_FILE_NAME });
    expect(batch.statistics.issues).toMatchObject({ unknown_host: 1, cve_not_applicable: 0, unknown_cve: 0 });
    expect(batch.impacted_device_count).toBe(5);
    const tasks = await get(`/api/orgs/${o}/tasks?o=${o}&batch_id=${batchId}`);
    expect(tasks.size).toBeGreaterThan(0);
    expect(tasks.data.every((task: { status: string }) => task.status === 'pending')).toBe(true);
    const summary = await get(`/api/orgs/${o}/cves/summary?o=${o}`);
    expect(summary).toMatchObject({ affected_devices: 5 });
    expect(summary.open_cves).toBeGreaterThan(5);
  });
});
