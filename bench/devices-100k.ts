/**
 * 100,000 enrolled devices in one zone, on PGlite and on PostgreSQL: enrolment and inventory
 * through the real agent API for a sample, the rest seeded (bench/devices-seed.ts), then
 * check-ins with the agent's bodies and device tokens from many keep-alive connections, and
 * the console's device list with filters, sort and count. Prints the figures.
 *
 * Run: node --import tsx bench/devices-100k.ts   (figures in bench/README.md)
 * Env: DB=pglite,postgres  DEVICES=100000  SAMPLE=1000 (enrolled and inventoried through HTTP)
 *      INVENTORY_DEVICES=1000 (with a full inventory)  COLD=20000  DURATION=30  CONNECTIONS=64
 *      LIST_REQUESTS=300  PG_URL=postgres://postgres@127.0.0.1:5432 (createdb/dropdb)  BENCH_PORT=18501
 *      DATABASE_URL=<a database of your own>: PostgreSQL runs there (emptied by nobody: it must
 *      be empty or hold a kept run's data) instead of a database the bench creates and drops
 *      PROFILE=<dir>: a CPU profile of the measured server
 *      PARTS=checkins,list,rps,export: what to measure (all by default); rps is autocannon at
 *      RPS_CONNECTIONS=10 for RPS_DURATION=10 s on /healthz (the run's baseline), /api/users/self
 *      and the device list's first page (`sort=name:asc&limit=25&page=0`)
 *      KEEP=1 keeps the data directory (and the PostgreSQL database); REUSE_DIR=<it> (and
 *      REUSE_DB=<it>) measure them again without enrolling and seeding.
 * The server's CPU time is read from /proc, so the figures also say what one core of its own
 * would sustain on a machine shared with other work.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { generateMachine } from '@patchwell/agent/simulate/inventory';
import { SEED, enrollBodyOf, inventoryOf, seedDevices, seededHash, seededToken, statusOf } from './devices-seed';
import { startServer, type Running } from './server';
import { cpuSeconds, rssMb, load, pct, pool } from './proc';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const SAMPLE = Math.min(DEVICES, Number(process.env.SAMPLE ?? 1000));
const INVENTORY_DEVICES = Math.min(DEVICES, Number(process.env.INVENTORY_DEVICES ?? 1000));
const DURATION = Number(process.env.DURATION ?? 30);
/**
 * Devices that make their first check-in (token read from the database); the measured run
 * then picks among them at random, all cached, as a fleet in its steady state.
 */
const COLD = Math.min(DEVICES, Number(process.env.COLD ?? 20_000));
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const LIST_REQUESTS = Number(process.env.LIST_REQUESTS ?? 300);
const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DBS = (process.env.DB ?? 'pglite,postgres').split(',');
// Read here and taken out of the environment the servers inherit, so the PGlite run stays on PGlite.
const OWN_DATABASE_URL = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
const PORT = Number(process.env.BENCH_PORT ?? 18501);
const STATE_FILE = 'bench-state.json';
const PARTS = new Set((process.env.PARTS ?? 'checkins,list,rps,export').split(','));
const RPS_CONNECTIONS = Number(process.env.RPS_CONNECTIONS ?? 10);
const RPS_DURATION = Number(process.env.RPS_DURATION ?? 10);
const ADMIN = { email: 'bench@example.com', password: 'bench passphrase 2026' };

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Samples the server's RSS every 250 ms; `peak()` since the last `reset()`. */
function rssSampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  timer.unref();
  return {
    reset: () => (peak = rssMb(pid)),
    peak: () => Math.max(peak, rssMb(pid)),
    stop: () => clearInterval(timer),
  };
}

async function signIn(url: string) {
  const basic = Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64');
  const res = await fetch(`${url}/api/users/self`, { headers: { authorization: `Basic ${basic}` } });
  const self = (await res.json()) as { orgs: { id: number }[] };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, zoneId: self.orgs[0]!.id };
}

type CheckinPlan = { tokens: string[]; bodies: string[] };

/** Check-ins as the agent sends them (wait_s 0); `pick` chooses the device of each request. */
async function checkins(url: string, pid: number, plan: CheckinPlan, options: { pick: () => number; amount?: number }) {
  const cpu0 = cpuSeconds(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: DURATION }),
    requests: [
      {
        method: 'POST',
        path: '/api/agent/v1/checkin',
        setupRequest: (req) => {
          const i = options.pick();
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${plan.tokens[i]}` },
            body: plan.bodies[i],
          };
        },
      },
    ],
  });
  return {
    perSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    // What one core would sustain: a shared machine gives the server only a share of one.
    perCpuSecond: result.requests.total / Math.max(0.01, cpuSeconds(pid) - cpu0),
  };
}

const LIST_VARIANTS = [
  'sort=name:asc&limit=25&page=0',
  'sort=name:asc&limit=100&page=400',
  'status=online&sort=last_seen_at:desc&limit=25&page=3',
  'os_family=windows&sort=hostname:asc&limit=100&page=10',
  'status=online&os_family=linux&sort=pending_patches:desc&limit=25&page=0',
  'search=web&sort=name:asc&limit=25&page=0',
  'status=offline&compliance=needs_attention&sort=create_time:desc&limit=100&page=0',
];

async function deviceList(url: string, pid: number, cookie: string, zoneId: number) {
  const rows: { query: string; p50: number; p95: number; size: number; cpuMs: number }[] = [];
  for (const query of LIST_VARIANTS) {
    let size = 0;
    const cpu0 = cpuSeconds(pid);
    const latencies = await pool(LIST_REQUESTS, 1, async () => {
      const res = await fetch(`${url}/api/servers?o=${zoneId}&${query}`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`GET /api/servers?${query}: ${res.status} ${await res.text()}`);
      size = ((await res.json()) as { size: number }).size;
    });
    const cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / LIST_REQUESTS;
    rows.push({ query, p50: pct(latencies, 0.5), p95: pct(latencies, 0.95), size, cpuMs });
  }
  return rows;
}

/**
 * Requests per second at RPS_CONNECTIONS connections: /healthz first, as the baseline the
 * others are a share of (the machine is shared), then the session routes the console calls most.
 */
async function throughput(url: string, pid: number, cookie: string, zoneId: number) {
  const routes = [
    ['GET /healthz', '/healthz'],
    ['GET /api/users/self', `/api/users/self?o=${zoneId}`],
    ['GET /api/servers (first page)', `/api/servers?o=${zoneId}&sort=name:asc&limit=25&page=0`],
  ] as const;
  const rows: {
    label: string;
    perSecond: number;
    p50: number;
    p95: number;
    p99: number;
    bad: number;
    cpuMs: number;
  }[] = [];
  for (const [label, path] of routes) {
    const cpu0 = cpuSeconds(pid);
    const r = await autocannon({
      url: url + path,
      headers: { cookie },
      connections: RPS_CONNECTIONS,
      duration: RPS_DURATION,
    });
    rows.push({
      label,
      perSecond: r.requests.total / r.duration,
      p50: r.latency.p50,
      p95: r.latency.p97_5,
      p99: r.latency.p99,
      bad: r.non2xx + r.errors + r.timeouts,
      cpuMs: ((cpuSeconds(pid) - cpu0) * 1000) / Math.max(1, r.requests.total),
    });
  }
  return rows;
}

/** The whole zone as CSV, streamed: its rows, size, time to the first byte and to the end. */
async function csvExport(url: string, pid: number, cookie: string, zoneId: number) {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const res = await fetch(`${url}/api/servers/export.csv?o=${zoneId}&sort=name:asc`, { headers: { cookie } });
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
  let firstByteMs = 0;
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of res.body) {
    if (!firstByteMs) firstByteMs = performance.now() - t0;
    bytes += chunk.length;
    // Counted natively: a loop over 18 MiB in JavaScript took the bench's share of the machine.
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines++;
  }
  return {
    rows: newlines - 1, // the header line
    bytes,
    firstByteMs,
    seconds: (performance.now() - t0) / 1000,
    cpuS: cpuSeconds(pid) - cpu0,
  };
}

type Env = Record<string, string>;

/** Enrols the sample through HTTP, sends its inventories, then seeds the rest into the stopped server's database. */
async function prepare(kind: string, dataDir: string, env: Env, databaseUrl: string | undefined) {
  const server = await startServer({ port: PORT, dataDir, env });
  const pid = server.child.pid!;
  const plan: CheckinPlan = { tokens: new Array<string>(DEVICES), bodies: new Array<string>(DEVICES) };
  let zoneId: number;
  try {
    const session = await signIn(server.url);
    zoneId = session.zoneId;
    const keyRes = await fetch(`${server.url}/api/orgs/${zoneId}/access-key?o=${zoneId}`, {
      headers: { cookie: session.cookie },
    });
    const accessKey = ((await keyRes.json()) as { access_key: string }).access_key;
    const sample = Array.from({ length: SAMPLE }, (_, i) => generateMachine(SEED, i));
    let t = performance.now();
    let cpu0 = cpuSeconds(pid);
    const enrolLat = await pool(SAMPLE, 32, async (i) => {
      const m = sample[i]!;
      const res = await fetch(`${server.url}/api/agent/v1/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(enrollBodyOf(accessKey, m)),
      });
      if (res.status !== 201) throw new Error(`enroll: ${res.status} ${await res.text()}`);
      plan.tokens[i] = ((await res.json()) as { token: string }).token;
    });
    const enrolS = (performance.now() - t) / 1000;
    console.log(
      `enrolment (HTTP, ${SAMPLE} devices, 32 concurrent): ${(SAMPLE / enrolS).toFixed(0)}/s, p50 ${ms(pct(enrolLat, 0.5))}, p99 ${ms(pct(enrolLat, 0.99))}; ${(SAMPLE / (cpuSeconds(pid) - cpu0)).toFixed(0)} per server CPU-second; ${load()}`,
    );
    t = performance.now();
    cpu0 = cpuSeconds(pid);
    const invLat = await pool(SAMPLE, 8, async (i) => {
      const res = await fetch(`${server.url}/api/agent/v1/inventory`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${plan.tokens[i]}` },
        body: JSON.stringify(inventoryOf(sample[i]!)),
      });
      if (res.status !== 204) throw new Error(`inventory: ${res.status} ${await res.text()}`);
    });
    const invS = (performance.now() - t) / 1000;
    const rows = sample.reduce((n, m) => n + m.software.length + m.patches.length, 0);
    console.log(
      `inventory (HTTP, ${SAMPLE} devices, ${Math.round(rows / SAMPLE)} rows each, 8 concurrent): ${(SAMPLE / invS).toFixed(0)}/s, p50 ${ms(pct(invLat, 0.5))}, p99 ${ms(pct(invLat, 0.99))}; ${(SAMPLE / (cpuSeconds(pid) - cpu0)).toFixed(0)} per server CPU-second; ${load()}`,
    );
    sample.forEach((m, i) => {
      plan.bodies[i] = JSON.stringify({ status: statusOf(m), inventory_hash: seededHash(m), wait_s: 0 });
    });
  } finally {
    await server.stop();
  }
  const seeded = await seedDevices(
    { databaseUrl, pgliteDataDir: join(dataDir, 'pglite') },
    zoneId,
    { from: SAMPLE, to: DEVICES, inventoryTo: INVENTORY_DEVICES },
    new Date(),
    (m) => {
      plan.tokens[m.index] = seededToken(m.index);
      plan.bodies[m.index] = JSON.stringify({ status: statusOf(m), inventory_hash: seededHash(m), wait_s: 0 });
    },
  );
  console.log(
    `seeded ${seeded.devices} devices in ${seeded.seconds.toFixed(0)} s; ${seeded.inventories} of them given an inventory (replaceInventory) in ${seeded.inventorySeconds.toFixed(0)} s; ${load()}`,
  );
  writeFileSync(join(dataDir, STATE_FILE), JSON.stringify({ zoneId, plan }));
  return { zoneId, plan };
}

async function run(kind: string) {
  // REUSE_DIR: a PGlite data directory a previous run kept (KEEP=1), to measure again without seeding.
  // REUSE_DB: the same for a PostgreSQL database (its state file is in REUSE_DIR).
  const reuse =
    kind === 'pglite' ? process.env.REUSE_DIR : (process.env.REUSE_DB || OWN_DATABASE_URL) && process.env.REUSE_DIR;
  const dataDir = reuse ?? mkdtempSync(join(tmpdir(), 'patchwell-100k-'));
  const own = kind === 'postgres' ? OWN_DATABASE_URL : undefined;
  const database = kind === 'postgres' && !own ? (process.env.REUSE_DB ?? `patchwell_bench_${process.pid}`) : undefined;
  if (database && !reuse) execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
  const databaseUrl = own ?? (database ? `${PG_URL}/${database}` : undefined);
  const env: Env = {
    PATCHWELL_DEMO: '0',
    PATCHWELL_ADMIN_EMAIL: ADMIN.email,
    PATCHWELL_ADMIN_PASSWORD: ADMIN.password,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  let server: Running | undefined;
  console.log(`\n## ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`);
  try {
    const { zoneId, plan } = reuse
      ? (JSON.parse(readFileSync(join(reuse, STATE_FILE), 'utf8')) as { zoneId: number; plan: CheckinPlan })
      : await prepare(kind, dataDir, env, databaseUrl);
    const devices = plan.tokens.length;

    // PROFILE=<dir>: a CPU profile of the measured server, written when it stops.
    const profile = process.env.PROFILE;
    server = await startServer({
      port: PORT,
      dataDir,
      env,
      ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
    });
    const pid = server.child.pid!;
    const rss = rssSampler(pid);
    console.log(
      `restart with ${devices} devices: ${(server.startMs / 1000).toFixed(1)} s; RSS idle ${rssMb(pid).toFixed(0)} MB`,
    );

    if (PARTS.has('checkins')) {
      // Every device's first check-in: its token comes from the database, then from the cache.
      let seq = 0;
      rss.reset();
      const cold = await checkins(server.url, pid, plan, {
        pick: () => seq++ % devices,
        amount: Math.min(COLD, devices),
      });
      console.log(
        `check-ins, first of ${cold.total} devices (token from the database): ${cold.perSecond.toFixed(0)}/s, p50 ${cold.p50} ms, p99 ${cold.p99} ms, non-2xx ${cold.non2xx}, errors ${cold.errors}; ${cold.perCpuSecond.toFixed(0)} per server CPU-second; RSS peak ${rss.peak().toFixed(0)} MB; ${load()}`,
      );
      rss.reset();
      const warm = await checkins(server.url, pid, plan, { pick: () => Math.floor(Math.random() * cold.total) });
      console.log(
        `check-ins, random devices of those for ${DURATION} s, ${CONNECTIONS} connections: ${warm.perSecond.toFixed(0)}/s (${warm.total}), p50 ${warm.p50} ms, p99 ${warm.p99} ms, non-2xx ${warm.non2xx}, errors ${warm.errors}; ${warm.perCpuSecond.toFixed(0)} per server CPU-second; RSS peak ${rss.peak().toFixed(0)} MB; ${load()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 1500)); // the coalesced last-seen writes land
    const session = await signIn(server.url);
    if (PARTS.has('list')) {
      console.log(`device list (GET /api/servers, one request at a time, ${LIST_REQUESTS} each):`);
      for (const row of await deviceList(server.url, pid, session.cookie, zoneId)) {
        console.log(
          `  ${row.query.padEnd(82)} size ${String(row.size).padStart(6)}  p50 ${ms(row.p50)}  p95 ${ms(row.p95)}  server CPU ${ms(row.cpuMs)}/request`,
        );
      }
      console.log(`  (${load()}); RSS after ${rssMb(pid).toFixed(0)} MB`);
    }
    if (PARTS.has('rps')) {
      console.log(`throughput (autocannon, ${RPS_CONNECTIONS} connections, ${RPS_DURATION} s each):`);
      const rows = await throughput(server.url, pid, session.cookie, zoneId);
      for (const row of rows) {
        console.log(
          `  ${row.label.padEnd(30)} ${row.perSecond.toFixed(0).padStart(6)} req/s (${((100 * row.perSecond) / rows[0]!.perSecond).toFixed(1)} % of /healthz)  p50 ${row.p50} ms  p97.5 ${row.p95} ms  p99 ${row.p99} ms  non-2xx/errors ${row.bad}  server CPU ${row.cpuMs.toFixed(2)} ms/request`,
        );
      }
      console.log(`  (${load()})`);
    }
    if (PARTS.has('export')) {
      rss.reset();
      const exported = await csvExport(server.url, pid, session.cookie, zoneId);
      console.log(
        `CSV export of the zone (GET /api/servers/export.csv): ${exported.rows} rows, ${(exported.bytes / 2 ** 20).toFixed(1)} MiB in ${exported.seconds.toFixed(1)} s, first byte after ${ms(exported.firstByteMs)}; server CPU ${exported.cpuS.toFixed(1)} s; RSS peak ${rss.peak().toFixed(0)} MB`,
      );
    }
    rss.stop();
  } finally {
    await server?.stop();
    if (process.env.KEEP) console.log(`kept REUSE_DIR=${dataDir}${database ? ` REUSE_DB=${database}` : ''}`);
    else if (!reuse) {
      rmSync(dataDir, { recursive: true, force: true });
      if (database) execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
    }
  }
}

console.log(
  process.env.REUSE_DIR
    ? `reusing ${process.env.REUSE_DIR}; check-ins ${DURATION} s on ${CONNECTIONS} connections`
    : `${DEVICES} devices (${SAMPLE} enrolled through HTTP, ${INVENTORY_DEVICES} with a full inventory), check-ins ${DURATION} s on ${CONNECTIONS} connections`,
);
for (const kind of DBS) await run(kind);
