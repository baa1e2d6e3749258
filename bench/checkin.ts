/**
 * The agent check-in route under sustained load (issue 16), against a bare `node:http` hello
 * server measured in the same run with the same load generator and settings: N seeded devices
 * (tokens of the real shape, stored hashed), every one checked in once (tokens cached, as in a
 * fleet's steady state), then `DURATION` seconds of check-ins of random devices from 64
 * keep-alive connections. Prints check-ins/s, p50/p99, the ratio to the bare server (and to
 * Fastify with the route's schemas and no work, bench/checkin-floor.ts), CPU a request by thread, the
 * server's CPU and its RSS sampled over the run (start, peak, end, and every tenth of the run,
 * so a memory that grows shows as a slope).
 *
 * Run: node --import tsx bench/checkin.ts   (figures in bench/README.md)
 * Env: DB=pglite,postgres  DEVICES=100000  DURATION=30 (the sustained run is 600)
 *      BARE_DURATION=<DURATION> (the bare server's run)  CONNECTIONS=64  BENCH_PORT=18601
 *      DATABASE_URL=postgres://…/<db> for PostgreSQL (its public schema is replaced when it
 *      holds no fleet of this size: use a database of your own)
 *      SEED_CACHE=<dir> (default $TMPDIR/patchwell-checkin-seed): the seeded PGlite data directory
 *      and each fleet's state are kept there and copied for every run; RESEED=1 seeds again.
 *      PROFILE=<dir>: a CPU profile of the server during the measured run (written when it stops)
 *      SERVER_NODE_ARGS="--flag …": node or V8 flags for the server (heap sizing, `--trace-gc` with BENCH_LOG=1)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { seedDevices, seededToken, statusOf, seededHash } from './devices-seed';
import { benchSession, startServer, BENCH_ADMIN, type Running } from './server';
import { cpuSeconds, load, machineTicks, memoryParts, rssMb } from './proc';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const DURATION = Number(process.env.DURATION ?? 30);
// The bare server's run: its rate is steady after seconds, so a 10-minute check-in run need
// not spend 10 more minutes on it.
const BARE_DURATION = Number(process.env.BARE_DURATION ?? DURATION);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const DBS = (process.env.DB ?? 'pglite,postgres').split(',');
const PORT = Number(process.env.BENCH_PORT ?? 18601);
const SEED_CACHE = process.env.SEED_CACHE ?? join(tmpdir(), 'patchwell-checkin-seed');
const CHECKIN_PATH = '/api/agent/v1/checkin';
// The PostgreSQL runs' database; taken out of the environment so that the PGlite server
// (started with this process's environment) does not use it too.
const DATABASE_URL = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;

type Fleet = { zoneId: number; bodies: string[] };

const serverEnv = (databaseUrl: string | undefined): Record<string, string> => ({
  PATCHWELL_DEMO: '0',
  PATCHWELL_ADMIN_EMAIL: BENCH_ADMIN.email,
  PATCHWELL_ADMIN_PASSWORD: BENCH_ADMIN.password,
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});

function psql(url: string, command: string): string {
  return execFileSync('psql', [url, '-XAtc', command], {
    encoding: 'utf8',
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  }).trim();
}

/**
 * Starts the server on an empty database (migrations, the administrator's zone) and returns the
 * zone. A server that overran its shutdown grace (a loaded machine) exits before PGlite wrote
 * its data: it is started again until it stops cleanly, so the zone is on disk before seeding.
 */
async function bootstrapZone(dataDir: string, databaseUrl: string | undefined): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const server = await startServer({ port: PORT, dataDir, env: serverEnv(databaseUrl) });
    let zoneId: number;
    try {
      zoneId = (await benchSession(server.url)).zoneId;
    } finally {
      await server.stop();
    }
    if (server.child.exitCode === 0) return zoneId;
    if (attempt === 3) throw new Error(`the seeding server exited with ${server.child.exitCode}`);
  }
}

/** The zone, then the fleet written straight to the stopped server's database. */
async function seed(dataDir: string, databaseUrl: string | undefined): Promise<Fleet> {
  const zoneId = await bootstrapZone(dataDir, databaseUrl);
  const bodies = new Array<string>(DEVICES);
  const report = await seedDevices(
    { databaseUrl, pgliteDataDir: join(dataDir, 'pglite') },
    zoneId,
    { from: 0, to: DEVICES, inventoryTo: 0 },
    new Date(),
    (m) => {
      bodies[m.index] = JSON.stringify({ status: statusOf(m), inventory_hash: seededHash(m), wait_s: 0 });
    },
  );
  console.log(`seeded ${report.devices} devices in ${report.seconds.toFixed(0)} s; ${load()}`);
  return { zoneId, bodies };
}

/**
 * The fleet of `kind`, seeded once and kept in SEED_CACHE: PGlite's data directory is copied
 * for each run (check-ins change it); PostgreSQL's database is reused while it holds the fleet.
 */
async function fleetFor(kind: string): Promise<{ dataDir: string; databaseUrl?: string; fleet: Fleet }> {
  mkdirSync(SEED_CACHE, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'patchwell-checkin-'));
  if (kind === 'pglite') {
    const cached = join(SEED_CACHE, `pglite-${DEVICES}`);
    const stateFile = join(cached, 'fleet.json');
    if (process.env.RESEED || !existsSync(stateFile)) {
      rmSync(cached, { recursive: true, force: true });
      mkdirSync(cached, { recursive: true });
      const fleet = await seed(cached, undefined);
      writeFileSync(stateFile, JSON.stringify(fleet));
    }
    cpSync(cached, dataDir, { recursive: true });
    return { dataDir, fleet: JSON.parse(readFileSync(stateFile, 'utf8')) as Fleet };
  }
  const databaseUrl = DATABASE_URL;
  if (!databaseUrl?.startsWith('postgres')) throw new Error('DB=postgres needs DATABASE_URL (a database of your own)');
  const stateFile = join(SEED_CACHE, `postgres-${DEVICES}.json`);
  const hasFleet = () => {
    try {
      return Number(psql(databaseUrl, 'select count(*) from devices')) === DEVICES;
    } catch {
      return false;
    }
  };
  if (process.env.RESEED || !existsSync(stateFile) || !hasFleet()) {
    psql(databaseUrl, 'drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
    const fleet = await seed(dataDir, databaseUrl);
    writeFileSync(stateFile, JSON.stringify(fleet));
  }
  return { dataDir, databaseUrl, fleet: JSON.parse(readFileSync(stateFile, 'utf8')) as Fleet };
}

/**
 * The floors the check-in route is measured against, each a child process on `port`: a bare
 * `node:http` server that reads the body and answers a small JSON (the floor of any route), and
 * Fastify with the route's zod schemas answering without any work (bench/checkin-floor.ts).
 */
async function startFloor(
  kind: 'bare' | 'fastify',
  port: number,
): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const code = `
    const http = require('node:http');
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"hello":"world"}');
      });
    }).listen(${port}, '127.0.0.1', () => process.send('ready'));`;
  const args = kind === 'bare' ? ['-e', code] : ['--import', 'tsx', join(import.meta.dirname, 'checkin-floor.ts')];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, PORT: String(port) },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (c) => reject(new Error(`${kind} floor server exited with ${c}`)));
  });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Samples a process's RSS every 250 ms; `series` has one sample per tenth of the run. */
function rssSampler(pid: number, seconds: number) {
  const samples: number[] = [];
  const start = rssMb(pid);
  let peak = start;
  const timer = setInterval(() => {
    const v = rssMb(pid);
    peak = Math.max(peak, v);
    samples.push(v);
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      const end = rssMb(pid);
      const per = Math.max(1, Math.floor(samples.length / 10));
      const series = samples.filter((_, i) => i % per === per - 1).slice(0, 10);
      return { start, peak: Math.max(peak, end), end, series, seconds };
    },
  };
}

/** The same autocannon settings for both servers: POSTs of a device's check-in body and token. */
async function hammer(
  url: string,
  pid: number,
  pick: () => number,
  fleet: Fleet,
  run: { amount: number } | { duration: number },
) {
  const cpu0 = cpuSeconds(pid);
  const main0 = cpuSeconds(pid, pid);
  const generator0 = process.cpuUsage();
  const machine0 = machineTicks();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...run,
    requests: [
      {
        method: 'POST',
        path: CHECKIN_PATH,
        setupRequest: (req) => {
          const i = pick();
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${seededToken(i)}` },
            body: fleet.bodies[i],
          };
        },
      },
    ],
  });
  const cpu = cpuSeconds(pid) - cpu0;
  const main = cpuSeconds(pid, pid) - main0;
  const generator = process.cpuUsage(generator0);
  const machine = machineTicks();
  const generatorSeconds = (generator.user + generator.system) / 1e6;
  const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, result.requests.total);
  return {
    perSecond: result.requests.total / result.duration,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuShare: cpu / result.duration,
    // The load generator runs in this process on the same cores: when server and generator
    // together use every core, the rate is the machine's, not the server's alone.
    generatorShare: generatorSeconds / result.duration,
    machineBusy: (machine.busy - machine0.busy) / (machine.total - machine0.total),
    // CPU a request costs, steadier than the rate between sittings: the server's own thread
    // (HTTP, routes), its other threads (PGlite's worker, V8's GC helpers), the load generator,
    // and the whole machine (with the kernel's loopback and anything else running).
    micros: {
      main: perRequest(main),
      other: perRequest(cpu - main),
      generator: perRequest(generatorSeconds),
      machine: perRequest((machine.busy - machine0.busy) / 100),
    },
  };
}

const line = (label: string, r: Awaited<ReturnType<typeof hammer>>) =>
  `${label}: ${r.perSecond.toFixed(0)}/s (${r.total}), p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, ` +
  `non-2xx ${r.non2xx}, errors ${r.errors}; server CPU ${(r.cpuShare * 100).toFixed(0)} % of a core, ` +
  `load generator ${(r.generatorShare * 100).toFixed(0)} %, machine ${(r.machineBusy * 100).toFixed(0)} % busy of ${cpus().length} cores\n` +
  `  CPU a request: server's thread ${r.micros.main.toFixed(0)} µs, its other threads ${r.micros.other.toFixed(0)} µs, ` +
  `load generator ${r.micros.generator.toFixed(0)} µs, machine ${r.micros.machine.toFixed(0)} µs ` +
  `(at most ${((cpus().length * 1e6) / r.micros.machine).toFixed(0)}/s with every core busy)`;

async function run(kind: string) {
  console.log(`\n## ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`);
  const { dataDir, databaseUrl, fleet } = await fleetFor(kind);
  let server: Running | undefined;
  try {
    const profile = process.env.PROFILE;
    const extra = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    server = await startServer({
      port: PORT,
      dataDir,
      env: serverEnv(databaseUrl),
      nodeArgs: [...extra, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
    });
    if (extra.length > 0) console.log(`server node flags: ${extra.join(' ')}`);
    const pid = server.child.pid!;
    console.log(`server up in ${(server.startMs / 1000).toFixed(1)} s; RSS idle ${rssMb(pid).toFixed(0)} MB`);

    // Every device checks in once: its token is read from the database, then cached.
    let seq = 0;
    const first = await hammer(server.url, pid, () => seq++ % DEVICES, fleet, { amount: DEVICES });
    console.log(line(`first check-in of each of ${DEVICES} devices`, first));

    const floor = async (kind: 'bare' | 'fastify') => {
      const server = await startFloor(kind, PORT + 1);
      try {
        return await hammer(`http://127.0.0.1:${PORT + 1}`, server.child.pid!, () => 0, fleet, {
          duration: BARE_DURATION,
        });
      } finally {
        await server.stop();
      }
    };
    const bare = await floor('bare');
    console.log(line(`bare node:http hello, ${BARE_DURATION} s`, bare));
    const fastify = await floor('fastify');
    console.log(line(`Fastify with the route's zod schemas and no work, ${BARE_DURATION} s`, fastify));

    const rss = rssSampler(pid, DURATION);
    const random = () => Math.floor(Math.random() * DEVICES);
    const warm = await hammer(server.url, pid, random, fleet, { duration: DURATION });
    const mem = rss.stop();
    console.log(line(`check-ins, random devices of ${DEVICES}, ${DURATION} s, ${CONNECTIONS} connections`, warm));
    console.log(
      `check-in ÷ bare: ${((warm.perSecond / bare.perSecond) * 100).toFixed(1)} %; ` +
        `÷ Fastify floor: ${((warm.perSecond / fastify.perSecond) * 100).toFixed(1)} %; ` +
        `server's thread above the Fastify floor: ${(warm.micros.main - fastify.micros.main).toFixed(0)} µs a check-in; ${load()}`,
    );
    console.log(
      `server RSS during the run: start ${mem.start.toFixed(0)} MB, peak ${mem.peak.toFixed(0)} MB, end ${mem.end.toFixed(0)} MB; ` +
        `by tenths: ${mem.series.map((v) => v.toFixed(0)).join(' ')}`,
    );
    const parts = await memoryParts(server.url);
    console.log(
      `after the run: V8 heap ${parts.heapUsed.toFixed(0)} MB used of ${parts.heapTotal.toFixed(0)} MB, ` +
        `external ${parts.external.toFixed(0)} MB, RSS ${rssMb(pid).toFixed(0)} MB`,
    );
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`${DEVICES} devices, ${CONNECTIONS} connections, ${DURATION} s; ${load()}`);
for (const kind of DBS) await run(kind);
