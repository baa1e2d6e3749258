/**
 * A 20,000-row Tenable / Nessus CSV export against a zone of 10,000 devices (issue 11), on
 * PGlite and on PostgreSQL: upload → batch ready (the server parses, stores and matches every
 * row to devices and to the patches that fix its CVE), the server's memory growth meanwhile,
 * then accepting the batch and executing every task it made in one request (`POST .../tasks/execute`
 * with the batch: one command per device and job) until every task is in progress.
 *
 * The fleet is the simulator's (devices-seed.ts), each with its real-sized list of pending
 * patches and their CVEs; the CSV names ~9,800 of those devices (by name, FQDN or IP, as
 * scanners do) with CVEs their patches fix, 100 hosts that are not enrolled and a few CVEs
 * no patch fixes, so every matching path runs.
 *
 * Baseline, measured in the same run: csv-parse reading the same file in the bench's own
 * process (what no import can go below); the ratio says what matching and storing cost on top.
 *
 * Run: node --import tsx bench/remediation-import.ts   (figures in bench/README.md)
 * Env: DB=postgres,pglite  DEVICES=10000  ROWS=20000  PG_URL=postgres://postgres@127.0.0.1:5432  BENCH_PORT=18503  KEEP=1
 *      STOP=ready (stop before accepting)  PROFILE=<dir> (a CPU profile of the measured server)  PG_LOG_MS=<ms> (PostgreSQL logs statements slower than that)  BENCH_LOG=1
 *      SEED_CACHE=<dir> (keeps the seeded zone and its CSV there and starts from a copy of them next
 *      time: seeding 10,000 devices on PGlite takes minutes, and comparing two versions of the
 *      import needs the same fleet)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { SimMachine } from '@patchwell/agent/simulate/inventory';
import { seedDevices, seedPatches } from './devices-seed';
import { BENCH_ADMIN, benchSession, startServer, type Running } from './server';
import { cpuSeconds, rssMb, load } from './proc';

const DEVICES = Number(process.env.DEVICES ?? 10_000);
const ROWS = Number(process.env.ROWS ?? 20_000);
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DBS = (process.env.DB ?? 'pglite,postgres').split(',');
const PORT = Number(process.env.BENCH_PORT ?? 18503);
const ADMIN = BENCH_ADMIN;
const SEED_CACHE = process.env.SEED_CACHE;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const session = benchSession;

const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
const RISK: Record<string, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

/**
 * The Tenable export: one row per host × CVE (a plugin with several CVEs repeats its row),
 * hosts named the three ways scanners name them, plus unknown hosts and unknown CVEs.
 */
function tenableCsv(machines: SimMachine[], rows: number): string {
  const header = [
    'Plugin ID',
    'CVE',
    'CVSS v2.0 Base Score',
    'CVSS v3.0 Base Score',
    'Risk',
    'Host',
    'Protocol',
    'Port',
    'Name',
    'Synopsis',
    'Description',
    'Solution',
    'See Also',
    'Plugin Output',
  ];
  const lines = [header.map(quote).join(',')];
  let plugin = 150_000;
  const push = (cve: string, severity: string, host: string, name: string) =>
    lines.push(
      [
        String(plugin++),
        cve,
        '7.5',
        severity === 'critical' ? '9.8' : '7.8',
        RISK[severity] ?? 'Medium',
        host,
        'tcp',
        '0',
        `${name}: security update`,
        'The remote host is missing a security update.',
        'The remote host is affected by multiple vulnerabilities,\nincluding remote code execution.',
        `Apply ${name}.`,
        'https://nvd.nist.gov/',
        'Installed package version is older than the fixed version.',
      ]
        .map(quote)
        .join(','),
    );
  const withCves = machines.filter((m) => m.patches.some((p) => p.cves.length > 0));
  for (let i = 0; lines.length <= rows - 200; i++) {
    const m = withCves[i % withCves.length]!;
    const patch = m.patches.filter((p) => p.cves.length > 0)[Math.floor(i / withCves.length) % 2] ?? m.patches[0]!;
    const host =
      i % 3 === 0 ? m.ipPrivate : i % 3 === 1 ? m.system.hostname.toLowerCase() : (m.system.fqdn ?? m.system.hostname);
    push(patch.cves[0] ?? 'CVE-2026-0001', patch.severity, host, patch.name);
  }
  for (let i = 0; lines.length <= rows - 100; i++)
    push(`CVE-2026-${90000 + i}`, 'high', `ws-unknown-${i}.corp.example`, 'Unknown host');
  for (let i = 0; lines.length <= rows; i++)
    push(`CVE-2019-${10000 + i}`, 'medium', machines[i]!.ipPrivate, 'No fix here');
  return `${lines.join('\r\n')}\r\n`;
}

/** PG_LOG_MS=<ms>: PostgreSQL logs the bench database's statements slower than that. */
function logSlowStatements(database: string) {
  if (!process.env.PG_LOG_MS) return;
  const set = `alter database ${database} set log_min_duration_statement = ${Number(process.env.PG_LOG_MS)}`;
  execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-qc', set]);
}

type Batch = { id: number; status: string; error: string | null; impacted_device_count: number; statistics: unknown };
type Task = { id: number; status: string };

async function run(kind: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'patchwell-remediation-'));
  const database = kind === 'postgres' ? `patchwell_remediation_${process.pid}` : undefined;
  if (database) {
    execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
    logSlowStatements(database);
  }
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
    const cache = SEED_CACHE ? join(SEED_CACHE, `${kind}-${DEVICES}-${ROWS}`) : undefined;
    const cacheDb = `patchwell_remediation_seed_${DEVICES}_${ROWS}`;
    let zoneId: number;
    let csv: string;
    if (cache && existsSync(join(cache, 'seed.json'))) {
      ({ zoneId } = JSON.parse(readFileSync(join(cache, 'seed.json'), 'utf8')) as { zoneId: number });
      csv = readFileSync(join(cache, 'export.csv'), 'utf8');
      if (database) {
        execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
        execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', '-T', cacheDb, database]);
        logSlowStatements(database);
      } else cpSync(join(cache, 'pglite'), dbConfig.pgliteDataDir, { recursive: true });
      console.log(`started from the seed cached in ${cache}; ${load()}`);
    } else {
      server = await startServer({ port: PORT, dataDir, env });
      zoneId = (await session(server.url)).zoneId;
      await server.stop();
      server = undefined;
      const machines: SimMachine[] = [];
      const seeded = await seedDevices(dbConfig, zoneId, { from: 0, to: DEVICES, inventoryTo: 0 }, new Date(), (m) =>
        machines.push(m),
      );
      const patchRows = await seedPatches(dbConfig, machines);
      console.log(`seeded ${seeded.devices} devices and ${patchRows} pending patches; ${load()}`);
      csv = tenableCsv(machines, ROWS);
      if (cache) {
        mkdirSync(cache, { recursive: true });
        if (database) execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', '-T', database, cacheDb]);
        else cpSync(dbConfig.pgliteDataDir, join(cache, 'pglite'), { recursive: true });
        writeFileSync(join(cache, 'export.csv'), csv);
        writeFileSync(join(cache, 'seed.json'), JSON.stringify({ zoneId }));
      }
    }

    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const parsed = parse(csv, { columns: true, bom: true }) as unknown[];
    const baselineMs = performance.now() - t0;
    const cpuParse = process.cpuUsage(cpu0);
    const baselineCpu = (cpuParse.user + cpuParse.system) / 1e6;
    console.log(
      `file: ${parsed.length} data rows, ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1)} MiB; baseline csv-parse in the bench's process ${seconds(baselineMs)} (CPU ${baselineCpu.toFixed(2)} s)`,
    );

    // PROFILE=<dir>: a CPU profile of the measured server, written when it stops.
    const profile = process.env.PROFILE;
    server = await startServer({
      port: PORT,
      dataDir,
      env,
      ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${join(profile, kind)}`] } : {}),
    });
    const pid = server.child.pid!;
    const api = await session(server.url);
    const rss0 = rssMb(pid);
    let rssMax = rss0;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(pid))), 20);

    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'tenable_export_2026-11-25.csv');
    const t1 = performance.now();
    const serverCpu1 = cpuSeconds(pid);
    const uploaded = (await api.call(
      'POST',
      '/api/orgs/' + zoneId + '/tasks/patch/batches/upload?source=tenable',
      form,
    )) as unknown as Batch;
    const answeredMs = performance.now() - t1;
    let batch = uploaded;
    while (batch.status === 'building') {
      await new Promise((r) => setTimeout(r, 25));
      batch = (await api.call('GET', `/api/orgs/${zoneId}/tasks/batches/${uploaded.id}`)) as unknown as Batch;
    }
    const readyMs = performance.now() - t1;
    const readyCpu = cpuSeconds(pid) - serverCpu1;
    clearInterval(sampler);
    if (batch.status !== 'ready') throw new Error(`batch ended ${batch.status}: ${batch.error}`);
    console.log(
      `upload → answered ${seconds(answeredMs)}, → ready ${seconds(readyMs)} (${(readyMs / baselineMs).toFixed(1)}× the bare parse); server CPU ${readyCpu.toFixed(2)} s (${(readyCpu / baselineCpu).toFixed(1)}× the parse's); ${batch.impacted_device_count} impacted devices; statistics ${JSON.stringify(batch.statistics)}`,
    );
    console.log(
      `server RSS ${rss0.toFixed(0)} MB before, peak ${rssMax.toFixed(0)} MB: growth ${(rssMax - rss0).toFixed(0)} MB; ${load()}`,
    );

    // STOP=ready: leave the batch awaiting approval (with KEEP=1, to study the accept).
    if (process.env.STOP === 'ready') return;
    const t2 = performance.now();
    const serverCpu2 = cpuSeconds(pid);
    const accepted = (await api.call('POST', `/api/orgs/${zoneId}/tasks/batches/${uploaded.id}/accept`, {})) as {
      task_ids: number[];
    };
    const acceptMs = performance.now() - t2;
    const acceptCpu = cpuSeconds(pid) - serverCpu2;
    // Every task of the batch in one request (one transaction), as "Execute all" does.
    const executed = (await api.call('POST', `/api/orgs/${zoneId}/tasks/execute`, { batch_id: uploaded.id })) as {
      task_ids: number[];
      device_count: number;
    };
    const dispatchMs = performance.now() - t2;
    const dispatchCpu = cpuSeconds(pid) - serverCpu2;
    let running = 0;
    let size = 0;
    for (let page = 0; ; page++) {
      const tasks = (await api.call(
        'GET',
        `/api/orgs/${zoneId}/tasks?limit=500&page=${page}&batch_id=${uploaded.id}`,
      )) as { data: Task[]; size: number };
      running += tasks.data.filter((t) => t.status === 'in_progress').length;
      size = tasks.size;
      if ((page + 1) * 500 >= size) break;
    }
    console.log(
      `accept → ${accepted.task_ids.length} tasks in ${seconds(acceptMs)} (${(acceptMs / baselineMs).toFixed(1)}×, server CPU ${acceptCpu.toFixed(2)} s); accept + execute all (${executed.task_ids.length} tasks, ${executed.device_count} devices, one request) ${seconds(dispatchMs)} (${(dispatchMs / baselineMs).toFixed(1)}×, server CPU ${dispatchCpu.toFixed(2)} s); ${running} of ${size} tasks in progress; ${load()}`,
    );
  } finally {
    await server?.stop();
    if (process.env.KEEP === '1') {
      console.log(`kept ${dataDir}${database ? ` and database ${database}` : ''}`);
    } else {
      rmSync(dataDir, { recursive: true, force: true });
      if (database) execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--force', database]);
    }
  }
}

console.log(`# Remediation import: ${ROWS} Tenable rows against ${DEVICES} devices (${new Date().toISOString()})`);
for (const kind of DBS) await run(kind);
