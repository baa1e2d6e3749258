/**
 * The Reports over 100,000 devices in one zone: the overview's p95, the prepatch report's
 * first page p95, and data extracts of the whole zone over 90 days (wall time from request
 * to ready, download time, and the server's peak RSS while building and downloading, against
 * its RSS before). Each latency is also given as a ratio to the device list's first page
 * (`GET /api/servers`) measured in the same run, so figures from a loaded machine compare.
 *
 * The fleet is bench/devices-seed.ts's (simulated machines, about a dozen pending patches each
 * with their publication dates), plus, written with SQL in the server's schema: install
 * commands over the last 90 days (success, failure, dry run), a daily compliance snapshot
 * for each of those days, and the activity log's events over the same 90 days (agent outcomes,
 * people's changes to devices and policies, sign-ins), whose first pages are measured too.
 *
 * Run: node --import tsx bench/reports.ts   (figures in bench/README.md)
 * Env: DB=postgres,pglite  DEVICES=100000  COMMANDS=200000  EVENTS=1000000  REQUESTS=40
 *      PG_URL=postgres://postgres@127.0.0.1:5432  BENCH_PORT=18504
 *      KEEP=1 keeps the data directory and the PostgreSQL database; REUSE_DIR=<it> (and, on
 *      PostgreSQL, REUSE_DB=<it>) measure them again without seeding.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { SimMachine } from '@patchwell/agent/simulate/inventory';
import { openDb, type Db } from '../packages/server/src/db/client';
import { seedDevices, seedPatches } from './devices-seed';
import { BENCH_ADMIN, benchSession, startServer, type Running } from './server';
import { cpuSeconds, rssMb, load, pct } from './proc';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const COMMANDS = Number(process.env.COMMANDS ?? 200_000);
const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const REQUESTS = Number(process.env.REQUESTS ?? 40);
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DBS = (process.env.DB ?? 'postgres,pglite').split(',');
const PORT = Number(process.env.BENCH_PORT ?? 18504);
const ADMIN = BENCH_ADMIN;
/** ONLY=extracts skips the latencies; EXTRACTS picks the extracts built. */
const ONLY_EXTRACTS = process.env.ONLY === 'extracts';
const EXTRACTS = (process.env.EXTRACTS ?? 'device_inventory,patch_history,activity').split(',');
/**
 * FLAT=1: the activity extract is built twice, then 3 × EVENTS more events are written and it
 * is built twice again by a fresh server, so its RSS growth at EVENTS and at 4 × EVENTS compare: a
 * build bounded by its page size grows alike for both.
 */
const FLAT = process.env.FLAT === '1';

const session = benchSession;

/** `YYYY-MM-DD` of the UTC day `n` days ago. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function firstDeviceId(url: string, cookie: string, zoneId: number): Promise<number> {
  const res = await fetch(`${url}/api/servers?o=${zoneId}&page=0&limit=1`, { headers: { cookie } });
  const body = (await res.json()) as { data: { id: number }[] };
  return body.data[0]!.id;
}

/** Sequential GETs after two warm-up calls; latencies sorted, in ms. */
async function measure(url: string, cookie: string, path: string): Promise<{ p50: number; p95: number }> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, { headers: { cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return performance.now() - t0;
  };
  await once();
  await once();
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) latencies.push(await once());
  latencies.sort((a, b) => a - b);
  return { p50: pct(latencies, 0.5), p95: pct(latencies, 0.95) };
}

/**
 * Install commands over the last 90 days, a compliance snapshot per day and the activity log's
 * events (newest days busiest, as a growing fleet's are), written in the server's schema.
 */
async function seedHistory(config: { databaseUrl?: string; pgliteDataDir: string }, zoneId: number, now: Date) {
  const handle = await openDb(config);
  try {
    const at = now.toISOString();
    await handle.db.execute(sql`
      insert into device_commands (device_id, organization_id, type, args, status, exit_code, data, timeout_s,
                                   created_at, started_at, finished_at, deadline_at)
      select ids.a[1 + (g % ids.n)], ${zoneId},
             case when g % 10 = 0 then 'install_all' else 'install_updates' end,
             case when g % 10 = 0 then '{}'::jsonb else jsonb_build_object('names', jsonb_build_array('openssl', 'curl')) end,
             case when g % 7 = 0 then 'error' else 'success' end,
             case when g % 7 = 0 then 100 else 0 end,
             case when g % 13 = 0 then '{"simulated": true}'::jsonb else null end,
             3600, x.t, x.t, x.t + interval '5 minutes', x.t + interval '1 hour'
        from (select array_agg(id order by id) as a, count(*)::int as n from devices where organization_id = ${zoneId}) ids,
             generate_series(1, ${COMMANDS}) g,
             lateral (select ${at}::timestamptz - (g % 90) * interval '1 day' - (g % 1440) * interval '1 minute' as t) x`);
    await handle.db.execute(sql`
      insert into compliance_snapshots (organization_id, day, compliant, pending, needs_attention, total, taken_at)
      select ${zoneId}, (${at}::timestamptz - d * interval '1 day')::date, 30000 + d, 20000, 50000 - d, 100000,
             ${at}::timestamptz - d * interval '1 day'
        from generate_series(1, 90) d
      on conflict do nothing`);
    await insertEvents(handle.db, zoneId, now, EVENTS);
    await handle.db.execute(sql`vacuum analyze`);
  } finally {
    await handle.close();
  }
}
/**
 * `count` events over the last 90 days (newest days busiest).
 * Seven in ten are agent outcomes on devices, the rest people's changes and sign-ins.
 */
async function insertEvents(db: Db, zoneId: number, now: Date, count: number) {
  const at = now.toISOString();
  await db.execute(sql`
      insert into activity_log (account_id, organization_id, user_id, device_id, actor_name, via, action,
                                object_type, object_id, object_name, details, client_address, created_at)
      select z.account_id, ${zoneId},
             case when g % 10 < 7 then null else u.id end,
             case when g % 10 < 7 then ids.a[1 + (g % ids.n)] else null end,
             case when g % 10 < 7 then 'sim-' || (g % ids.n) else u.email end,
             case when g % 10 < 7 then 'agent' else 'session' end,
             (array['agent.command_result', 'agent.command_result', 'agent.command_result', 'agent.install',
                    'agent.install', 'agent.reboot', 'agent.command_result', 'device.update', 'policy.update',
                    'auth.sign_in'])[1 + g % 10],
             case when g % 10 = 8 then 'policy' when g % 10 = 9 then 'user' else 'device' end,
             case when g % 10 = 8 then '1' when g % 10 = 9 then u.id::text else ids.a[1 + (g % ids.n)]::text end,
             case when g % 10 = 8 then 'Nightly' when g % 10 = 9 then u.email else 'sim-' || (g % ids.n) end,
             case when g % 10 = 7 then '{"changes": {"notes": {"from": "", "to": "checked"}}}'::jsonb
                  else jsonb_build_object('status', 'success', 'exit_code', 0) end,
             case when g % 10 < 7 then null else '10.0.0.' || (g % 250) end,
             ${at}::timestamptz - (sqrt(g::float8 / ${count}) * 90 * 86400) * interval '1 second'
        from (select account_id from organizations where id = ${zoneId}) z,
             (select id, email from users order by id limit 1) u,
             (select array_agg(id order by id) as a, count(*)::int as n from devices where organization_id = ${zoneId}) ids,
             generate_series(1, ${count}) g`);
}

async function extract(
  server: Running,
  zoneId: number,
  cookie: string,
  kind: string,
): Promise<{
  buildS: number;
  buildCpuS: number;
  buildPeakMb: number;
  downloadS: number;
  rows: number;
  bytes: number;
  peakMb: number;
  baseMb: number;
}> {
  const pid = server.child.pid!;
  const baseMb = rssMb(pid);
  const cpu0 = cpuSeconds(pid);
  let peakMb = baseMb;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 100);
  try {
    const today = new Date();
    const start = new Date(today.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
    const t0 = performance.now();
    const created = await fetch(`${server.url}/api/reports/data-extracts?o=${zoneId}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ kind, preset: 'custom', startDate: start, endDate: today.toISOString().slice(0, 10) }),
    });
    const { id } = (await created.json()) as { id: number };
    let status = '';
    let rows = 0;
    while (status !== 'ready') {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`${server.url}/api/reports/data-extracts/${id}?o=${zoneId}`, { headers: { cookie } });
      const body = (await res.json()) as { status: string; row_count: number; error: string | null };
      if (body.status === 'error') throw new Error(`extract failed: ${body.error}`);
      status = body.status;
      rows = body.row_count;
    }
    const buildS = (performance.now() - t0) / 1000;
    const buildCpuS = cpuSeconds(pid) - cpu0;
    const buildPeakMb = Math.max(peakMb, rssMb(pid));
    const t1 = performance.now();
    const res = await fetch(`${server.url}/api/reports/data-extracts/${id}/csv?o=${zoneId}`, { headers: { cookie } });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
    return { buildS, buildCpuS, buildPeakMb, downloadS: (performance.now() - t1) / 1000, rows, bytes, peakMb, baseMb };
  } finally {
    clearInterval(timer);
  }
}

function report(kind: string, e: Awaited<ReturnType<typeof extract>>) {
  console.log(
    `  90-day ${kind} extract of the zone: ${e.rows} rows, request → ready ${e.buildS.toFixed(1)} s (server CPU ${e.buildCpuS.toFixed(2)} s), download ${(e.bytes / 1e6).toFixed(1)} MB in ${e.downloadS.toFixed(1)} s; server RSS ${e.baseMb.toFixed(0)} MB before, peak ${e.buildPeakMb.toFixed(0)} MB building (+${(e.buildPeakMb - e.baseMb).toFixed(0)}), ${e.peakMb.toFixed(0)} MB downloading (+${(e.peakMb - e.baseMb).toFixed(0)}); ${load()}`,
  );
}

/** The latencies of the reports' requests, and the dashboard's first computation. */
async function latencies(url: string, cookie: string, zoneId: number) {
  const server = { url };
  const o = `o=${zoneId}`;
  const firstDevice = await firstDeviceId(server.url, cookie, zoneId);
  const baseline = await measure(server.url, cookie, `/api/servers?${o}&page=0&limit=25`);
  // The dashboard computes its figures on the first call and serves them for 5 minutes.
  const t0 = performance.now();
  const firstDashboard = await fetch(`${server.url}/api/reports/dashboard?${o}`, { headers: { cookie } });
  await firstDashboard.arrayBuffer();
  const dashboardComputeMs = performance.now() - t0;
  const rows: [string, { p50: number; p95: number }][] = [
    ['GET /api/servers first page (baseline)', baseline],
    ['GET /api/reports/dashboard (cached)', await measure(server.url, cookie, `/api/reports/dashboard?${o}`)],
    ['GET /api/reports/overview (10 days)', await measure(server.url, cookie, `/api/reports/overview?${o}`)],
    ['GET /api/reports/prepatch first page', await measure(server.url, cookie, `/api/reports/prepatch?${o}`)],
    [
      'GET /api/reports/prepatch?severity=critical',
      await measure(server.url, cookie, `/api/reports/prepatch?${o}&severity=critical`),
    ],
    [
      'GET /api/reports/needs-attention first page',
      await measure(server.url, cookie, `/api/reports/needs-attention?${o}`),
    ],
    ['GET /api/events first page (last 30 days)', await measure(server.url, cookie, `/api/events?${o}`)],
    ['GET /api/events?action=policy (a type)', await measure(server.url, cookie, `/api/events?${o}&action=policy`)],
    [
      'GET /api/events?object_type=device&object_id',
      await measure(server.url, cookie, `/api/events?${o}&object_type=device&object_id=${firstDevice}`),
    ],
    [
      'GET /api/events?preset=custom (90 days) page 40',
      await measure(
        server.url,
        cookie,
        `/api/events?${o}&preset=custom&startDate=${daysAgo(89)}&endDate=${daysAgo(0)}&page=40`,
      ),
    ],
  ];
  for (const [name, r] of rows) {
    console.log(
      `  ${name.padEnd(48)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms  p95 ×${(r.p95 / baseline.p95).toFixed(1)} the baseline`,
    );
  }
  console.log(`  (${REQUESTS} sequential requests each after 2 warm-up calls; ${load()})`);
  console.log(
    `  GET /api/reports/dashboard computed on its first call in ${dashboardComputeMs.toFixed(0)} ms (×${(dashboardComputeMs / baseline.p95).toFixed(1)} the baseline's p95)`,
  );
}

/** The fleet, its pending patches and its history, written straight to the stopped server's database. */
async function seed(dbConfig: { databaseUrl?: string; pgliteDataDir: string }, zoneId: number) {
  const machines: SimMachine[] = [];
  const now = new Date();
  const t0 = performance.now();
  await seedDevices(dbConfig, zoneId, { from: 0, to: DEVICES, inventoryTo: 0 }, now, (m) => machines.push(m));
  const patchRows = await seedPatches(dbConfig, machines);
  machines.length = 0;
  await seedHistory(dbConfig, zoneId, now);
  console.log(
    `seeded ${DEVICES} devices, ${patchRows} pending patches, ${COMMANDS} install commands over 90 days, 90 snapshots and ${EVENTS} events in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${load()}`,
  );
}

async function run(kind: string) {
  const reuse = Boolean(process.env.REUSE_DIR);
  const dataDir = process.env.REUSE_DIR ?? mkdtempSync(join(tmpdir(), 'patchwell-reports-'));
  const database = kind === 'postgres' ? (process.env.REUSE_DB ?? `patchwell_reports_${process.pid}`) : undefined;
  if (database && !reuse) execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
  const databaseUrl = database ? `${PG_URL}/${database}` : undefined;
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
    server = await startServer({ port: PORT, dataDir, env });
    const { zoneId } = await session(server.url);
    await server.stop();
    server = undefined;

    if (!reuse) await seed(dbConfig, zoneId);

    server = await startServer({ port: PORT, dataDir, env });
    const { cookie } = await session(server.url);
    if (!ONLY_EXTRACTS) await latencies(server.url, cookie, zoneId);
    if (!FLAT) for (const kindOf of EXTRACTS) report(kindOf, await extract(server, zoneId, cookie, kindOf));
    if (FLAT) {
      // Each size twice: the first build also fills the database's cache (in the server's
      // process on PGlite, up to shared_buffers), the second shows the build's own memory.
      const growth = async (label: string, s: Running, c: string) => {
        const cold = await extract(s, zoneId, c, 'activity');
        report(`activity ${label}, first`, cold);
        const warm = await extract(s, zoneId, c, 'activity');
        report(`activity ${label}, again`, warm);
        return { cold: cold.buildPeakMb - cold.baseMb, warm: warm.buildPeakMb - warm.baseMb };
      };
      const small = await growth(`(${EVENTS} events)`, server, cookie);
      await server.stop();
      server = undefined;
      const handle = await openDb(dbConfig);
      try {
        await insertEvents(handle.db, zoneId, new Date(), 3 * EVENTS);
        await handle.db.execute(sql`vacuum analyze`);
      } finally {
        await handle.close();
      }
      server = await startServer({ port: PORT, dataDir, env });
      const large = await growth(`(${4 * EVENTS} events)`, server, (await session(server.url)).cookie);
      const ratio = (a: number, b: number) => (b / Math.max(1, a)).toFixed(2);
      console.log(
        `  activity build RSS growth, ${EVENTS} → ${4 * EVENTS} events: first build ${small.cold.toFixed(0)} → ${large.cold.toFixed(0)} MB (×${ratio(small.cold, large.cold)}), again ${small.warm.toFixed(0)} → ${large.warm.toFixed(0)} MB (×${ratio(small.warm, large.warm)})`,
      );
    }
  } finally {
    await server?.stop();
    if (process.env.KEEP === '1' || reuse) {
      console.log(`kept ${dataDir}${database ? ` and database ${database}` : ''}`);
    } else {
      rmSync(dataDir, { recursive: true, force: true });
      if (database) execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--force', database]);
    }
  }
}

console.log(`# Reports over ${DEVICES} devices (${new Date().toISOString()})`);
for (const kind of DBS) await run(kind);
