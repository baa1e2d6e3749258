/**
 * The Reports over 100,000 devices in one zone: the overview's p95, the prepatch report's
 * first page p95, and data extracts of the whole zone over 90 days (wall time from request
 * to ready, download time, and the server's peak RSS while building and downloading, against
 * its RSS before). Each latency is also given as a ratio to the device list's first page
 * (`GET /api/servers`) measured in the same run, so figures from a loaded machine compare.
 *
 * The fleet is bench/devices-seed.ts's (simulated machines, about a dozen pending patches each
 * with their publication dates), plus, written with SQL in the server's schema: install
 * commands over the last 90 days (success, failure, dry run) and a daily compliance snapshot
 * for each of those days.
 *
 * Run: node --import tsx bench/reports.ts   (figures in bench/README.md)
 * Env: DB=postgres,pglite  DEVICES=100000  COMMANDS=200000  REQUESTS=40
 *      PG_URL=postgres://postgres@127.0.0.1:5432  BENCH_PORT=18504
 *      KEEP=1 keeps the data directory and the PostgreSQL database; REUSE_DIR=<it> (and, on
 *      PostgreSQL, REUSE_DB=<it>) measure them again without seeding.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { SimMachine } from '@patchwell/agent/simulate/inventory';
import { openDb } from '../packages/server/src/db/client';
import { seedDevices, seedPatches } from './devices-seed';
import { BENCH_ADMIN, benchSession, startServer, type Running } from './server';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const COMMANDS = Number(process.env.COMMANDS ?? 200_000);
const REQUESTS = Number(process.env.REQUESTS ?? 40);
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DBS = (process.env.DB ?? 'postgres,pglite').split(',');
const PORT = Number(process.env.BENCH_PORT ?? 18504);
const ADMIN = BENCH_ADMIN;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

const session = benchSession;

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

/** Install commands over the last 90 days and a compliance snapshot per day, written in the server's schema. */
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
    await handle.db.execute(sql`vacuum analyze`);
  } finally {
    await handle.close();
  }
}

async function extract(
  server: Running,
  zoneId: number,
  cookie: string,
  kind: string,
): Promise<{ buildS: number; downloadS: number; rows: number; bytes: number; peakMb: number; baseMb: number }> {
  const pid = server.child.pid!;
  const baseMb = rssMb(pid);
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
    const t1 = performance.now();
    const res = await fetch(`${server.url}/api/reports/data-extracts/${id}/csv?o=${zoneId}`, { headers: { cookie } });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
    return { buildS, downloadS: (performance.now() - t1) / 1000, rows, bytes, peakMb, baseMb };
  } finally {
    clearInterval(timer);
  }
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
    `seeded ${DEVICES} devices, ${patchRows} pending patches, ${COMMANDS} install commands over 90 days and 90 snapshots in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${load()}`,
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
    const o = `o=${zoneId}`;
    const baseline = await measure(server.url, cookie, `/api/servers?${o}&page=0&limit=25`);
    const rows: [string, { p50: number; p95: number }][] = [
      ['GET /api/servers first page (baseline)', baseline],
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
    ];
    for (const [name, r] of rows) {
      console.log(
        `  ${name.padEnd(48)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms  p95 ×${(r.p95 / baseline.p95).toFixed(1)} the baseline`,
      );
    }
    console.log(`  (${REQUESTS} sequential requests each after 2 warm-up calls; ${load()})`);
    for (const kindOf of ['device_inventory', 'patch_history']) {
      const e = await extract(server, zoneId, cookie, kindOf);
      console.log(
        `  90-day ${kindOf} extract of the zone: ${e.rows} rows, request → ready ${e.buildS.toFixed(1)} s, download ${(e.bytes / 1e6).toFixed(1)} MB in ${e.downloadS.toFixed(1)} s; server RSS ${e.baseMb.toFixed(0)} MB before, peak ${e.peakMb.toFixed(0)} MB; ${load()}`,
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
