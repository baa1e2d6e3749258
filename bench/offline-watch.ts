/**
 * The webhooks' offline watch when a whole fleet goes quiet at once (a network cut, or the
 * server back after a night down): DEVICES devices whose presence ran out since the watch's
 * last pass, then passes of the watch (`scanOfflineDevices`, as the server runs it every 30 s)
 * until it has caught up, with nobody listening and then with a `device.offline` webhook in
 * the zone, on PGlite in its own thread as the server opens it. Beside the passes a reader
 * asks the database `select 1` in a loop, as API requests would: its longest wait is what the
 * watch costs everybody else (on PGlite a transaction holds the one connection). Baseline:
 * the same reader with nothing else running, in the same run.
 *
 * Run: node --import tsx bench/offline-watch.ts   (figures in bench/README.md)
 * Env: DEVICES=100000  BENCH_PORT=18503
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDb, type Db } from '../packages/server/src/db/client';
import { systemClock } from '../packages/server/src/context';
import { scanOfflineDevices } from '../packages/server/src/modules/webhooks/webhooks.worker';
import { seedDevices } from './devices-seed';
import { load, pct } from './proc';
import { BENCH_ADMIN_ENV, benchSession, startServer } from './server';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const PORT = Number(process.env.BENCH_PORT ?? 18503);

/** Asks `select 1` one after another until `until` settles; the waits in ms. */
async function reader(db: Db, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  const stop = () => (done = true);
  until.then(stop, stop);
  const waits: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await db.execute(sql`select 1`);
    waits.push(performance.now() - t0);
  }
  return waits;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const longest = (waits: number[]) => waits.reduce((a, b) => Math.max(a, b), 0);
const summary = (waits: number[]) => {
  const sorted = [...waits].sort((a, b) => a - b);
  return `${waits.length} reads, p50 ${ms(pct(sorted, 0.5))}, p99 ${ms(pct(sorted, 0.99))}, longest ${ms(longest(waits))}`;
};

const dataDir = mkdtempSync(join(tmpdir(), 'patchwell-offline-'));
try {
  const server = await startServer({ port: PORT, dataDir, env: { PATCHWELL_DEMO: '0', ...BENCH_ADMIN_ENV } });
  const { zoneId } = await benchSession(server.url);
  await server.stop();
  const dbConfig = { pgliteDataDir: join(dataDir, 'pglite') };
  const seeded = await seedDevices(dbConfig, zoneId, { from: 0, to: DEVICES, inventoryTo: 0 }, new Date(), () => {});
  console.log(`${seeded.devices} devices seeded in ${seeded.seconds.toFixed(0)} s; ${load()}`);

  const handle = await openDb(dbConfig);
  const { db } = handle;
  try {
    const baseline = await reader(db, new Promise((resolve) => setTimeout(resolve, 3000)));
    console.log(`baseline, the reader alone for 3 s: ${summary(baseline)}`);
    const longestAlone = longest(baseline);

    for (const listening of [false, true]) {
      // Every device's presence ran out about half an hour ago, over a minute as their last
      // check-ins were spread; the watch last looked an hour ago.
      await db.execute(sql`insert into webhook_offline_scan (id, scanned_until) values (1, now() - interval '1 hour')
        on conflict (id) do update set scanned_until = excluded.scanned_until`);
      await db.execute(sql`update device_presence
        set online_until = now() - interval '30 minutes' + make_interval(secs => (device_id % 60000) / 1000.0)`);
      if (listening) {
        await db.execute(sql`insert into webhooks (organization_id, url, event_types, secret_sealed, enabled, created_at, updated_at)
          values (${zoneId}, 'https://hooks.example.invalid/offline', array['device.offline'], 'not used', true, now(), now())`);
      }
      const t0 = performance.now();
      const pass = scanOfflineDevices({ db, clock: systemClock });
      const [enqueued, waits] = await Promise.all([pass, reader(db, pass)]);
      console.log(
        `${listening ? 'a device.offline webhook in the zone' : 'nobody listening'}: ${enqueued} events enqueued in ${ms(performance.now() - t0)}; reader beside it: ${summary(waits)} (longest ÷ alone ${(longest(waits) / longestAlone).toFixed(1)}); ${load()}`,
      );
    }
  } finally {
    await handle.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
