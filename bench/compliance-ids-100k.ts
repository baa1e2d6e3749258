/**
 * Two costs of the engine at 100,000 devices, in process on PGlite (or `DATABASE_URL`), with
 * the server's own store code, each beside a baseline measured in the same run so the ratio
 * survives a noisy machine:
 *
 * 1. The compliance recompute that follows every status write (`refreshCompliance` of one
 *    device: its standings through the policy's groups and device filters, the patches of its
 *    last result with their ages, its own patches), against the status write it follows (the
 *    upsert of one `device_policy_status` row). With the policy's device filters off and on.
 * 2. Reserving the ids of a 100,000-device dispatch (`reserveCommandIds`, `allocateResultIds`),
 *    against returning 100,000 integers from `generate_series` through the same driver.
 *
 * The fleet is written with SQL (`generate_series`): 100,000 devices, 10 pending patches
 * each (1,000,000 rows, published 5 to 120 days ago), one patch policy over their group with
 * a result and a status per device, a tenth of them failed.
 *
 * Run: node --import tsx bench/compliance-ids-100k.ts   Env: DEVICES=100000 SAMPLES=400 ROUNDS=5
 */
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { openDb } from '../packages/server/src/db/client';
import { queryRows } from '../packages/server/src/db/raw';
import { accounts, organizations } from '../packages/server/src/db/schema';
import { refreshCompliance } from '../packages/server/src/modules/devices/compliance.store';
import { ensureDefaultGroup } from '../packages/server/src/modules/devices/groups.store';
import { reserveCommandIds } from '../packages/server/src/modules/commands/commands.service';
import { allocateResultIds } from '../packages/server/src/engine/results.store';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const SAMPLES = Number(process.env.SAMPLES ?? 400);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const NOW = new Date('2026-06-01T00:00:00Z');

const load = () => `load ${loadavg()[0]!.toFixed(1)}`;
const ms = (n: number) => `${n.toFixed(2)} ms`;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const median = (xs: number[]) => pct(xs, 0.5);

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const handle = await openDb({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: 'memory://' });
const db = handle.db;
const t0 = performance.now();
const [account] = await db.insert(accounts).values({ name: 'Bench', createdAt: NOW }).returning();
const [zone] = await db
  .insert(organizations)
  .values({ name: 'Bench zone', accountId: account!.id, createdAt: NOW })
  .returning();
const group = await ensureDefaultGroup(db, zone!.id, NOW);

await db.execute(sql`
  insert into devices (organization_id, group_id, machine_id, hostname, os_family, os_name, os_version,
                       agent_version, token_hash, tags, compliance_reason, created_at)
  select ${zone!.id}, ${group.id}, 'm-' || i, 'host-' || i, 'linux', 'Ubuntu', '24.04', '1.0.0', 'hash-' || i,
         case when i % 2 = 0 then array['prod'] else array['lab'] end, '', ${NOW.toISOString()}::timestamptz
    from generate_series(1, ${DEVICES}) i`);
await db.execute(sql`
  insert into device_patches (device_id, name, version, severity, published_at)
  select d.id, 'pkg-' || p, '2.0', (array['critical','high','medium','low'])[1 + (d.id + p) % 4],
         ${NOW.toISOString()}::timestamptz - ((5 + (d.id * 7 + p * 13) % 115) || ' days')::interval
    from devices d, generate_series(1, 10) p`);
const [policy] = await queryRows<{ id: number }>(
  db,
  sql`insert into policies (organization_id, name, type, status, configuration, server_groups, created_at, updated_at)
      values (${zone!.id}, 'Servers nightly', 'patch', 'active', '{"patch_rule":"all"}'::jsonb,
              array[${group.id}]::int[], ${NOW.toISOString()}::timestamptz, ${NOW.toISOString()}::timestamptz) returning id`,
);
const [run] = await queryRows<{ id: number }>(
  db,
  sql`insert into policy_runs (policy_id, organization_id, trigger, status, created_at)
      values (${policy!.id}, ${zone!.id}, 'manual', 'completed', ${NOW.toISOString()}::timestamptz) returning id`,
);
await db.execute(sql`
  insert into policy_device_results (run_id, policy_id, organization_id, device_id, status, selected_patches, created_at)
  select ${run!.id}, ${policy!.id}, ${zone!.id}, id, case when id % 10 = 0 then 'error' else 'success' end,
         array(select 'pkg-' || p from generate_series(1, 10) p), ${NOW.toISOString()}::timestamptz
    from devices`);
await db.execute(sql`
  insert into device_policy_status (device_id, policy_id, organization_id, status, last_result_id, last_result_status, updated_at)
  select device_id, policy_id, organization_id, case when status = 'error' then 'needs_attention' else 'compliant' end,
         id, status, ${NOW.toISOString()}::timestamptz
    from policy_device_results`);
await db.execute(sql`analyze`);
console.log(
  `seeded ${DEVICES} devices, ${DEVICES * 10} patches in ${((performance.now() - t0) / 1000).toFixed(1)} s (${load()})`,
);

const ids = (await queryRows<{ id: number }>(db, sql`select id from devices order by id`)).map((r) => Number(r.id));
const sample = Array.from({ length: SAMPLES }, (_, i) => ids[(i * 7919) % ids.length]!);

/** The status write a result makes (one upsert), without the recompute that follows it. */
const statusWrite = (deviceId: number, status: string) =>
  db.execute(sql`
    insert into device_policy_status (device_id, policy_id, organization_id, status, updated_at)
    values (${deviceId}, ${policy!.id}, ${zone!.id}, ${status}, ${NOW.toISOString()}::timestamptz)
    on conflict (device_id, policy_id) do update set status = excluded.status, updated_at = excluded.updated_at`);

async function recomputeRound(label: string) {
  const writes: number[] = [];
  const recomputes: number[] = [];
  // Interleaved, so both see the same moments of the machine.
  for (const [i, id] of sample.entries()) {
    writes.push(await timed(() => statusWrite(id, i % 2 ? 'needs_attention' : 'pending')));
    recomputes.push(await timed(() => refreshCompliance(db, [id], NOW)));
  }
  const ratio = median(recomputes) / median(writes);
  console.log(
    `${label}: recompute p50 ${ms(median(recomputes))} p95 ${ms(pct(recomputes, 0.95))}; status write p50 ` +
      `${ms(median(writes))} p95 ${ms(pct(writes, 0.95))}; ratio ${ratio.toFixed(2)} (${load()})`,
  );
}

// Warm the plans and caches once, then measure.
await recomputeRound('warm-up');
await recomputeRound('filters off');
await db.execute(sql`update policies set configuration = '{"patch_rule":"all","device_filters_enabled":true,
  "device_filters":[{"field":"tag","op":"in","value":["PROD"]},{"field":"os_family","op":"not_in","value":["macOS"]}]}'::jsonb
  where id = ${policy!.id}`);
await recomputeRound('filters on (tag is PROD, OS is not macOS)');

const reserve: number[] = [];
const results: number[] = [];
const series: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  await db.transaction(async (tx) => {
    reserve.push(await timed(() => reserveCommandIds(tx, DEVICES)));
    results.push(await timed(() => allocateResultIds(tx, DEVICES)));
    series.push(
      await timed(() => queryRows(tx as unknown as typeof db, sql`select i from generate_series(1, ${DEVICES}) i`)),
    );
  });
}
console.log(
  `ids for ${DEVICES} devices, median of ${ROUNDS}: commands ${ms(median(reserve))}, results ${ms(median(results))}; ` +
    `generate_series baseline ${ms(median(series))}; ratios ${(median(reserve) / median(series)).toFixed(2)} and ` +
    `${(median(results) / median(series)).toFixed(2)} (${load()})`,
);
await handle.close();
