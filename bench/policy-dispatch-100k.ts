/**
 * A scheduled patch_all policy over 100,000 devices, on PostgreSQL and on PGlite: the time
 * from the instant it is due to every command queued, and what the scheduler asks of the
 * database for it. Every device has its simulated machine's pending patches in
 * `device_patches` (about a dozen each), so the engine plans from a real-sized inventory.
 *
 * The real server runs with its scheduler's default settings (a 15 s interval, and a timer
 * armed for the next due slot); the policy is created
 * through the API with a schedule a minute or two ahead (UTC+0000), and the bench polls the
 * run through the API until it is queued. "Due → queued" is measured by the bench's clock: from
 * the due instant to the poll that sees the run queued (every 100 ms).
 * Then a "Run now" (`POST /api/policies/{id}/action`) of the same policy is timed the same way.
 * The bench shifts the seeded fleet's last check-ins to the due instant, so nine devices in
 * ten are online then (the rest get a `canceled` result: they missed the run).
 * Last, the floor under the run (server stopped): the same results, commands and standings
 * written again by plain INSERT … SELECTs, rolled back; the bench prints due → queued against it.
 *
 * Run: node --import tsx bench/policy-dispatch-100k.ts   (figures in bench/README.md)
 * Env: DB=postgres,pglite  DEVICES=100000  PG_URL=postgres://postgres@127.0.0.1:5432  BENCH_PORT=18502
 *      PG_LOG_MS=<ms> has PostgreSQL log the bench's statements slower than that (its server log).
 *      KEEP=1 keeps the data directory and the PostgreSQL database; PROFILE=<dir> writes the server's CPU profile.
 *      DATABASE_URL=<an existing database> measures on it instead of a created one (it is emptied first
 *      unless reused). REUSE_DIR=<a kept data directory> (and DATABASE_URL for PostgreSQL) measures the kept
 *      fleet again without seeding, with a new policy.
 *      EXPORT=1 also times the devices' CSV export of the whole zone (as devices-100k.ts does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { openDb } from '../packages/server/src/db/client';
import type { Db } from '../packages/server/src/db/client';
import { copyCsv, queryRows } from '../packages/server/src/db/raw';
import { seedDevices, seedPatches } from './devices-seed';
import { BENCH_ADMIN, benchSession, startServer, type Running } from './server';
import type { SimMachine } from '@patchwell/agent/simulate/inventory';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DBS = (process.env.DB ?? 'postgres,pglite').split(',');
const PORT = Number(process.env.BENCH_PORT ?? 18502);
const ADMIN = BENCH_ADMIN;
/** An existing database to measure on; the PGlite runs must not inherit it. */
const GIVEN_DB = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
const REUSE_DIR = process.env.REUSE_DIR;

/** PROFILE=<dir>: a CPU profile of the measured server, written when it stops. */
function profileArgs(kind: string) {
  const dir = process.env.PROFILE;
  return dir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${join(dir, kind)}`] } : {};
}

const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

function cpuSeconds(pid: number): number {
  const stat = execFileSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' });
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
}

const session = benchSession;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(execFileSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }));
  return m ? Number(m[1]) / 1024 : 0;
}

/** The zone's CSV export (`sort=name:asc`, as devices-100k.ts): rows, bytes, first byte, end, server RSS peak. */
async function csvExport(url: string, cookie: string, zoneId: number, pid: number) {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  try {
    const res = await fetch(`${url}/api/servers/export.csv?o=${zoneId}&sort=name:asc`, { headers: { cookie } });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      if (!firstByteMs) firstByteMs = performance.now() - t0;
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - t0) / 1000;
    return {
      rows: lines - 1,
      bytes,
      firstByteMs,
      seconds,
      cpu: cpuSeconds(pid) - cpu0,
      rssBefore: before,
      rssPeak: Math.max(peak, rssMb(pid)),
    };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The same rows as the export, in its order, written by one COPY through the server's own
 * driver code (db/raw.ts copyCsv), with the server stopped: what the database alone costs.
 */
async function exportBaseline(config: { databaseUrl?: string; pgliteDataDir: string }, zoneId: number) {
  const handle = await openDb(config);
  try {
    const t0 = performance.now();
    const { csv, rows } = await copyCsv(
      handle.db,
      `select d.id, coalesce(d.custom_name, d.hostname), d.hostname, d.os_family, d.os_name, d.os_version,
              d.agent_version, g.name, d.tags, d.ip_addrs, d.ip_addrs_private, pr.online_until > now(), pr.last_seen_at,
              d.needs_reboot, d.pending_patches, d.compliance, d.created_at
         from devices d join server_groups g on g.id = d.group_id left join device_presence pr on pr.device_id = d.id
        where d.organization_id = ${Number(zoneId)} and d.removed_at is null
        order by lower(coalesce(d.custom_name, d.hostname)), d.id`,
    );
    return { rows, bytes: Buffer.byteLength(csv), seconds: (performance.now() - t0) / 1000 };
  } finally {
    await handle.close();
  }
}

/**
 * The floor under a run: the same rows it wrote (its results, its commands, its standings)
 * written again by plain INSERT … SELECTs of the stored rows, in a transaction rolled back,
 * server stopped. What a run costs beyond this is its own logic (targets, outcomes, arguments).
 */
async function writeFloor(config: { databaseUrl?: string; pgliteDataDir: string }, runId: number, policyId: number) {
  const handle = await openDb(config);
  const timed: Record<string, number> = {};
  const time = async (name: string, exec: Pick<Db, 'execute'>, statement: SQL) => {
    const t0 = performance.now();
    await exec.execute(statement);
    timed[name] = (performance.now() - t0) / 1000;
  };
  try {
    await handle.db
      .transaction(async (tx) => {
        const [ids] = await queryRows<{ lo: number; hi: number }>(
          tx as unknown as Db,
          sql`select min(command_id) as lo, max(command_id) as hi from policy_device_results where run_id = ${runId}`,
        );
        // Negative run and policy ids: no row of the run's own is touched, and nothing keys them (decisions 0024, 0031).
        await time(
          'results',
          tx,
          sql`insert into policy_device_results (run_id, policy_id, organization_id, device_id, status, command_id,
                     command_type, args, selected_patches, message, created_at, queued_at, finished_at)
              select -run_id, -policy_id, organization_id, device_id, status, -command_id, command_type, args,
                     selected_patches, message, created_at, queued_at, finished_at
                from policy_device_results where run_id = ${runId}`,
        );
        await time(
          'commands',
          tx,
          sql`insert into device_commands (device_id, organization_id, type, args, status, timeout_s, created_by,
                     policy_result_id, created_at, deadline_at)
              select device_id, organization_id, type, args, status, timeout_s, created_by, policy_result_id, created_at, deadline_at
                from device_commands where id between ${ids?.lo ?? 0} and ${ids?.hi ?? -1}`,
        );
        await time(
          'standings',
          tx,
          sql`insert into device_policy_status (device_id, policy_id, organization_id, status, last_result_id,
                     last_result_status, last_run_at, next_patch_time, updated_at)
              select device_id, -policy_id, organization_id, status, last_result_id, last_result_status, last_run_at,
                     next_patch_time, updated_at
                from device_policy_status where policy_id = ${policyId}`,
        );
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof TransactionRollbackError)) throw err;
      });
  } finally {
    await handle.close();
  }
  return timed;
}

type DbCounters = { xacts: number; inserted: number; updated: number; blocksRead: number; blocksHit: number };

/** PostgreSQL's own counters for the database (pg_stat_database); null on PGlite. */
async function dbCounters(databaseUrl: string | undefined): Promise<DbCounters | null> {
  if (!databaseUrl) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Counters are collected at the end of transactions and flushed about once a second.
    await client.query('select pg_stat_force_next_flush()').catch(() => undefined);
    const { rows } = await client.query(
      `select xact_commit + xact_rollback as xacts, tup_inserted as inserted, tup_updated as updated,
              blks_read as blocks_read, blks_hit as blocks_hit
         from pg_stat_database where datname = current_database()`,
    );
    const r = rows[0] as Record<string, string>;
    return {
      xacts: Number(r.xacts),
      inserted: Number(r.inserted),
      updated: Number(r.updated),
      blocksRead: Number(r.blocks_read),
      blocksHit: Number(r.blocks_hit),
    };
  } finally {
    await client.end();
  }
}

function delta(a: DbCounters | null, b: DbCounters | null): string {
  if (!a || !b) return '';
  return `; database: ${b.xacts - a.xacts} transactions, ${b.inserted - a.inserted} rows inserted, ${b.updated - a.updated} updated, ${b.blocksHit - a.blocksHit + b.blocksRead - a.blocksRead} blocks touched (${b.blocksRead - a.blocksRead} read)`;
}

type Run = {
  id: number;
  status: string;
  scheduled_for: string | null;
  create_time: string;
  queued_at: string | null;
  device_count: number;
  results: Record<string, number>;
};

async function waitQueued(
  call: Awaited<ReturnType<typeof session>>['call'],
  policyId: number,
  runId: number | null,
  timeoutMs: number,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const list = (await call('GET', `/api/policies/${policyId}/runs?page=0&size=5`)) as { data: Run[] };
    const run = list.data.find((r) => (runId === null ? r.scheduled_for !== null : r.id === runId));
    if (run?.queued_at) return run;
    if (Date.now() > until) throw new Error(`the run was not queued within ${timeoutMs} ms: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function run(kind: string) {
  // REUSE_DIR holds both databases' fleets (PGlite's under pglite/), each with its own state file.
  const stateFile = `dispatch-${kind}.json`;
  if (REUSE_DIR) mkdirSync(REUSE_DIR, { recursive: true });
  const reuse = REUSE_DIR && existsSync(join(REUSE_DIR, stateFile)) ? REUSE_DIR : undefined;
  const dataDir = REUSE_DIR ?? mkdtempSync(join(tmpdir(), 'patchwell-dispatch-'));
  const given = kind === 'postgres' ? GIVEN_DB : undefined;
  const database = kind === 'postgres' && !given ? `patchwell_dispatch_${process.pid}` : undefined;
  if (database) execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
  const databaseUrl = given ?? (database ? `${PG_URL}/${database}` : undefined);
  if (given && !reuse) {
    // An existing database, emptied: the first start migrates it.
    const client = new pg.Client({ connectionString: given });
    await client.connect();
    await client.query('drop schema public cascade; create schema public');
    await client.end();
  }
  // PG_LOG_MS=<ms>: PostgreSQL logs the bench database's statements slower than that.
  if (databaseUrl && process.env.PG_LOG_MS) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      `alter database ${await client.query('select current_database() as d').then((r) => r.rows[0].d as string)} set log_min_duration_statement = ${Number(process.env.PG_LOG_MS)}`,
    );
    await client.end();
  }
  const env: Record<string, string> = {
    PATCHWELL_DEMO: '0',
    PATCHWELL_ADMIN_EMAIL: ADMIN.email,
    PATCHWELL_ADMIN_PASSWORD: ADMIN.password,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const dbConfig = { databaseUrl, pgliteDataDir: join(dataDir, 'pglite') };
  let server: Running | undefined;
  console.log(`\n## ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`);
  try {
    let seededAt: Date;
    if (reuse) {
      seededAt = new Date((JSON.parse(readFileSync(join(reuse, stateFile), 'utf8')) as { base: string }).base);
      console.log(`reusing ${reuse}${databaseUrl ? ` and ${databaseUrl}` : ''}`);
      // The previous runs' policies go, with their standings, runs, results and commands, so
      // every run starts from the same fleet.
      const clean = await openDb(dbConfig);
      await clean.db.execute(sql`delete from device_commands where policy_result_id is not null`);
      // Standings and results have no key to their policy or run that cascades (decisions 0024, 0031).
      for (const table of ['device_policy_status', 'policy_device_results']) {
        await clean.db.execute(sql`delete from ${sql.identifier(table)} where policy_id in
                                     (select id from policies where name = 'Patch everything (bench)')`);
      }
      await clean.db.execute(sql`delete from policies where name = 'Patch everything (bench)'`);
      await clean.db.execute(sql`vacuum analyze device_commands, policy_device_results, device_policy_status`);
      await clean.close();
    } else {
      server = await startServer({ port: PORT, dataDir, env });
      const { zoneId } = await session(server.url);
      await server.stop();
      server = undefined;

      const machines: SimMachine[] = [];
      seededAt = new Date();
      const seeded = await seedDevices(dbConfig, zoneId, { from: 0, to: DEVICES, inventoryTo: 0 }, seededAt, (m) =>
        machines.push(m),
      );
      const t0 = performance.now();
      const patchRows = await seedPatches(dbConfig, machines);
      console.log(
        `seeded ${seeded.devices} devices in ${seeded.seconds.toFixed(0)} s and ${patchRows} pending patches (${(patchRows / DEVICES).toFixed(1)} per device) in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${load()}`,
      );
      machines.length = 0;
    }

    // The policy is created due at the next whole minute at least 45 s away (UTC+0000, every day).
    server = await startServer({ port: PORT, dataDir, env });
    let api = await session(server.url);
    const groups = (await api.call('GET', '/api/servergroups')) as unknown as { id: number; default: boolean }[];
    const groupId = groups.find((g) => g.default)!.id;
    const due = new Date(Math.ceil((Date.now() + 45_000) / 60_000) * 60_000);
    const policy = await api.call('POST', '/api/policies', {
      name: 'Patch everything (bench)',
      policy_type_name: 'patch',
      server_groups: [groupId],
      schedule_days: 254,
      schedule_time: due.toISOString().slice(11, 16),
      scheduled_timezone: 'UTC+0000',
      use_scheduled_timezone: true,
      configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: 'all' },
      notes: '',
    });
    const policyId = Number(policy.id);
    await server.stop();
    // The fleet's last check-ins move with the clock, as a fleet that kept checking in would:
    // nine in ten are online at the due instant.
    const shifted = await openDb(dbConfig);
    await shifted.db.execute(
      sql`update device_presence set last_seen_at = last_seen_at + (${due.toISOString()}::timestamptz - ${seededAt.toISOString()}::timestamptz), online_until = online_until + (${due.toISOString()}::timestamptz - ${seededAt.toISOString()}::timestamptz)`,
    );
    await shifted.close();
    if (REUSE_DIR) writeFileSync(join(dataDir, stateFile), JSON.stringify({ base: due }));

    server = await startServer({ port: PORT, dataDir, env, ...profileArgs(kind) });
    const pid = server.child.pid!;
    api = await session(server.url);
    console.log(`policy ${policyId} due at ${due.toISOString()}; waiting; ${load()}`);
    await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now() - 2000)));

    const before = await dbCounters(databaseUrl);
    const cpu0 = cpuSeconds(pid);
    const scheduled = await waitQueued(api.call, policyId, null, 300_000);
    const observed = Date.now() - due.getTime();
    const cpu = cpuSeconds(pid) - cpu0;
    const after = await dbCounters(databaseUrl);
    console.log(
      `scheduled run over ${scheduled.device_count} devices: due → seen queued ${(observed / 1000).toFixed(1)} s (the scheduler's default 15 s interval with its due timer; polled every 100 ms); results ${JSON.stringify(scheduled.results)}; server CPU ${cpu.toFixed(1)} s${delta(before, after)}; ${load()}`,
    );

    // "Run now" is refused while the scheduled run is still open on the devices (policies.run_open).
    await (async () => {
      const before2 = await dbCounters(databaseUrl);
      const cpu1 = cpuSeconds(pid);
      const t1 = performance.now();
      const action = (await api.call('POST', `/api/policies/${policyId}/action`, { action: 'remediateAll' })) as {
        run: Run;
      };
      const answered = performance.now() - t1;
      const manual = await waitQueued(api.call, policyId, action.run.id, 300_000);
      const manualQueued = performance.now() - t1;
      const after2 = await dbCounters(databaseUrl);
      console.log(
        `run now over ${manual.device_count} devices: answered in ${(answered / 1000).toFixed(1)} s, seen queued after ${(manualQueued / 1000).toFixed(1)} s; results ${JSON.stringify(manual.results)}; server CPU ${(cpuSeconds(pid) - cpu1).toFixed(1)} s${delta(before2, after2)}; ${load()}`,
      );
    })().catch((err: Error) => console.log(`run now: ${err.message.slice(0, 200)}`));
    if (process.env.EXPORT === '1') {
      for (let i = 0; i < 2; i++) {
        const e = await csvExport(server.url, api.cookie, api.zoneId, pid);
        console.log(
          `CSV export of the zone (sort=name:asc): ${e.rows} rows, ${(e.bytes / 2 ** 20).toFixed(1)} MiB in ${e.seconds.toFixed(2)} s, first byte after ${e.firstByteMs.toFixed(0)} ms; server CPU ${e.cpu.toFixed(2)} s; RSS ${e.rssBefore.toFixed(0)} → peak ${e.rssPeak.toFixed(0)} MB; ${load()}`,
        );
      }
      await server.stop();
      server = undefined;
      const b = await exportBaseline(dbConfig, api.zoneId);
      console.log(
        `baseline: one COPY of the same rows through the same driver, server stopped: ${b.rows} rows, ${(b.bytes / 2 ** 20).toFixed(1)} MiB in ${b.seconds.toFixed(2)} s; ${load()}`,
      );
    }
    await server?.stop();
    server = undefined;
    const floor = await writeFloor(dbConfig, scheduled.id, policyId);
    const floorSeconds = Object.values(floor).reduce((a, b) => a + b, 0);
    console.log(
      `floor: the run's rows written again by plain INSERT … SELECT, server stopped: ${Object.entries(floor)
        .map(([k, v]) => `${k} ${v.toFixed(2)} s`)
        .join(
          ', ',
        )}; ${floorSeconds.toFixed(2)} s in all; due → seen queued is ${(observed / 1000 / floorSeconds).toFixed(2)} × that; ${load()}`,
    );
  } finally {
    await server?.stop();
    if (process.env.KEEP === '1' || REUSE_DIR) {
      console.log(`kept REUSE_DIR=${dataDir}${databaseUrl ? ` and database ${databaseUrl}` : ''}`);
    } else {
      rmSync(dataDir, { recursive: true, force: true });
      if (database) execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--force', database]);
    }
  }
}

console.log(`# Policy dispatch over ${DEVICES} devices (${new Date().toISOString()})`);
for (const kind of DBS) await run(kind);
