/**
 * Issue 10 defect 5: results must survive a PostgreSQL restart. The server runs on a cluster
 * of this test's own (never the shared one), a simulated fleet executes commands, the
 * cluster stops mid-way and starts again: meanwhile the API answers 503 with Retry-After,
 * the fleet keeps its results and retries, and at the end every result is stored and no
 * command is left pending or in progress.
 */
import { startFleet } from '@patchwell/agent/simulate/fleet';
import { abortableSleep } from '@patchwell/agent/run/agent-loop';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres, type DbHandle } from '../db/client';
import { deviceCommands } from '../db/devices.schema';
import { buildZoneWithKey } from '../test/agents';
import { startTestApp, type TestApp } from '../test/app';
import { findPgBin, startPgCluster, type PgCluster } from '../test/pg-cluster';

const bin = findPgBin();
if (!bin) console.warn('db-restart.test.ts skipped: no initdb under /usr/lib/postgresql/*/bin (install postgresql).');

async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const start = Date.now();
  while (!(await check()) && Date.now() - start < ms) await abortableSleep(50);
  return check();
}

describe.skipIf(!bin)('a PostgreSQL restart under a working fleet', () => {
  let cluster: PgCluster;
  let handle: DbHandle;
  let t: TestApp;

  beforeAll(async () => {
    cluster = await startPgCluster(bin!);
    handle = await usePostgres(cluster.url);
    t = await startTestApp({ db: handle });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await handle?.close();
    await cluster?.destroy();
  });

  it('answers 503 with Retry-After while down, and stores every result after: 0 commands left open', async () => {
    const z = await buildZoneWithKey(t);
    const zo = `o=${z.zone.id}`;
    const count = 12;
    const fleet = startFleet({
      server: t.url,
      accessKey: z.accessKey,
      count,
      seed: 11,
      longPollDevices: count,
      // Scans take 1–4 s: long enough to stop the database while they run.
      timeScale: 0.5,
      failureRate: 0,
      retryMaxMs: 2_000,
    });
    const statuses = async () =>
      (
        await t.db
          .select({ status: deviceCommands.status })
          .from(deviceCommands)
          .where(eq(deviceCommands.organizationId, z.zone.id))
      ).map((r) => r.status);
    try {
      expect(await until(() => fleet.stats().inventories >= count, 30_000)).toBe(true);
      const list = await z.admin.get(`/api/servers?${zo}&limit=100`);
      const ids: number[] = list.body.data.map((d: { id: number }) => d.id);
      expect(ids).toHaveLength(count);
      const batch = await z.admin.post(`/api/servers/batch?${zo}`, { action: 'scan', ids });
      expect(batch.status).toBe(200);
      // Every device has its command (none waits to be handed out): now the database goes away.
      expect(await until(async () => (await statuses()).every((s) => s !== 'pending'), 20_000)).toBe(true);
      const openAtStop = (await statuses()).filter((s) => s === 'in_progress').length;
      await cluster.stop();
      expect(openAtStop).toBeGreaterThan(0);

      const down = await t.request(`/api/servers?${zo}`, { headers: { cookie: z.cookie } });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(await down.json()).toEqual({
        code: 'unavailable',
        message: 'The service is briefly unavailable. Please try again in a moment.',
      });
      // The devices finish their scans meanwhile; their results fail and are kept for retrying,
      // longer than the three tries after which the simulator used to drop a result.
      expect(await until(() => fleet.stats().longest_retry_streak >= 4, 60_000)).toBe(true);
      await cluster.start();

      // The server commits a result before its answer reaches the device: wait for both sides.
      const settled = await until(
        async () => (await statuses()).every((s) => s === 'success') && fleet.stats().results >= count,
        60_000,
      );
      const final = await statuses();
      expect({ settled, open: final.filter((s) => s === 'pending' || s === 'in_progress').length }).toEqual({
        settled: true,
        open: 0,
      });
      expect(final).toHaveLength(count);
      expect(fleet.stats().results).toBe(count);
      console.warn(
        `db restart: ${count} devices, ${openAtStop} commands running at the stop, ${fleet.stats().retries} failed ` +
          `sends retried (at most ${fleet.stats().longest_retry_streak} in a row), all stored`,
      );
    } finally {
      await fleet.stop();
    }
  }, 180_000);
});
