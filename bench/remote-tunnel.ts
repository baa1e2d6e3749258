/**
 * Remote control's tunnel (issue 14, decision 0016): browser ⇄ server ⇄ agent ⇄ a TCP server
 * on loopback (standing in for the device's VNC server: the relay carries bytes, whatever
 * they say), against a direct loopback connection to the same TCP server, in the same run.
 *
 *   1. throughput: STREAM_MB sent by the device's TCP server, read by the browser's end;
 *   2. latency: ROUNDS echoes of a 64-byte message, one at a time (the added latency is the
 *      tunnel's p50 minus the direct one's);
 *   3. SESSIONS concurrent sessions on one server node, each echoing 4 KiB messages for
 *      SECONDS s: the aggregate rate, per-message p50/p99, the server's CPU and memory.
 *
 * Real parts: the server (`npm start`'s code, PGlite or DATABASE_URL), the agent's own tunnel
 * code (`openTunnel`, `bridgeToTcp`), the browser's end as a `ws` client with the session
 * cookie and the single-use token. Sessions are unattended (the zone's setting), so no prompt.
 *
 * Env: SESSIONS=50 SECONDS=15 STREAM_MB=64 ROUNDS=2000 PORT=18480 DATABASE_URL (optional)
 */
import net from 'node:net';
import WebSocket from 'ws';
import { generateMachine } from '@patchwell/agent/simulate/inventory';
import { bridgeToTcp, openTunnel } from '@patchwell/agent/remote/tunnel';
import { enrollBodyOf, inventoryOf, SEED } from './devices-seed';
import { cpuSeconds, load, pct, rssMb } from './proc';
import { BENCH_ADMIN, benchSession, startServer } from './server';

const SESSIONS = Number(process.env.SESSIONS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 15);
const STREAM_MB = Number(process.env.STREAM_MB ?? 64);
const ROUNDS = Number(process.env.ROUNDS ?? 2000);
const PORT = Number(process.env.PORT ?? 18480);

const ms = (n: number) => `${n.toFixed(2)} ms`;
const mbps = (bytes: number, s: number) => `${(bytes / 1024 / 1024 / s).toFixed(0)} MiB/s`;

/** The device's "VNC server": the first byte a client sends picks `s` (stream) or `e` (echo). */
function startTarget(): Promise<{ port: number; close(): void }> {
  const chunk = Buffer.alloc(256 * 1024, 7);
  const server = net.createServer((socket) => {
    socket.once('data', (first) => {
      if (first[0] === 0x73) {
        let left = STREAM_MB * 1024 * 1024;
        const pump = () => {
          while (left > 0) {
            const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
            left -= part.length;
            if (!socket.write(part)) return void socket.once('drain', pump);
          }
        };
        pump();
      } else {
        if (first.length > 1) socket.write(first.subarray(1));
        socket.pipe(socket);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as net.AddressInfo).port, close: () => server.close() }),
    ),
  );
}

/** A byte pipe either straight to the target or through a remote session. */
type Pipe = { send(data: Buffer): void; onData(fn: (data: Buffer) => void): void; close(): Promise<void> };

function direct(port: number): Promise<Pipe> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  return new Promise((resolve) =>
    socket.once('connect', () =>
      resolve({
        send: (d) => void socket.write(d),
        onData: (fn) => void socket.on('data', fn),
        close: async () => void socket.destroy(),
      }),
    ),
  );
}

type Device = { id: number; token: string };

async function tunnel(
  url: string,
  cookie: string,
  call: Awaited<ReturnType<typeof benchSession>>['call'],
  device: Device,
  targetPort: number,
): Promise<Pipe> {
  const session = (await call('POST', `/api/servers/${device.id}/remote-sessions`, { kind: 'control' })) as {
    id: number;
    token: string;
    tunnel_path: string;
  };
  const agentSocket = await openTunnel(url, device.token, session.id);
  const agentDone = bridgeToTcp(agentSocket, targetPort);
  const wsUrl = new URL(`${session.tunnel_path}?token=${encodeURIComponent(session.token)}`, url);
  wsUrl.protocol = 'ws:';
  const browser = new WebSocket(wsUrl, { headers: { cookie }, maxPayload: 4 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    browser.once('open', () => resolve());
    browser.once('error', reject);
  });
  return {
    send: (d) => browser.send(d, { binary: true }),
    onData: (fn) => void browser.on('message', (d) => fn(d as Buffer)),
    close: async () => {
      browser.close();
      await agentDone;
    },
  };
}

/** Seconds to read STREAM_MB through `pipe`. */
async function stream(pipe: Pipe): Promise<number> {
  const want = STREAM_MB * 1024 * 1024;
  let got = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    pipe.onData((d) => {
      got += d.length;
      if (got >= want) resolve();
    });
    pipe.send(Buffer.from('s'));
  });
  return (performance.now() - t0) / 1000;
}

/** Echo round trips of `size` bytes, one at a time, until `rounds` or `untilMs`; their latencies. */
async function echo(pipe: Pipe, size: number, rounds: number, untilMs = Infinity): Promise<number[]> {
  const message = Buffer.alloc(size, 1);
  const latencies: number[] = [];
  let waiting: (() => void) | undefined;
  let got = 0;
  pipe.onData((d) => {
    got += d.length;
    if (got >= size && waiting) {
      got -= size;
      const w = waiting;
      waiting = undefined;
      w();
    }
  });
  pipe.send(Buffer.from('e'));
  for (let i = 0; i < rounds && performance.now() < untilMs; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      pipe.send(message);
    });
    latencies.push(performance.now() - t0);
  }
  return latencies.sort((a, b) => a - b);
}

async function main() {
  const target = await startTarget();
  const server = await startServer({
    port: PORT,
    env: {
      PATCHWELL_ADMIN_EMAIL: BENCH_ADMIN.email,
      PATCHWELL_ADMIN_PASSWORD: BENCH_ADMIN.password,
      PATCHWELL_DEMO: '0',
      PATCHWELL_FLAGS: 'remote_control=1',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  });
  const pid = server.child.pid!;
  try {
    const { zoneId, cookie, call } = await benchSession(server.url);
    await call('PUT', '/api/remote-settings', { unattended: true });
    const { access_key: accessKey } = (await call('GET', `/api/orgs/${zoneId}/access-key`)) as { access_key: string };

    // SESSIONS devices for the concurrent phase, and two more for the single-session ones.
    const devices: Device[] = [];
    for (let i = 0; i < SESSIONS + 2; i++) {
      const m = generateMachine(SEED, 500_000 + i);
      const enrolled = await fetch(`${server.url}/api/agent/v1/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(enrollBodyOf(accessKey, m)),
      });
      const { device_id: id, token } = (await enrolled.json()) as { device_id: number; token: string };
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      const inv = await fetch(`${server.url}/api/agent/v1/inventory`, {
        method: 'PUT',
        headers,
        body: JSON.stringify(inventoryOf(m)),
      });
      if (inv.status !== 204) throw new Error(`inventory: ${inv.status} ${await inv.text()}`);
      const checkin = await fetch(`${server.url}/api/agent/v1/checkin`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ status: {}, wait_s: 0 }),
      });
      if (checkin.status !== 200) throw new Error(`check-in: ${checkin.status} ${await checkin.text()}`);
      devices.push({ id, token });
    }
    // Check-ins are written in batches: wait until the devices show online.
    for (;;) {
      const list = (await call('GET', `/api/servers?limit=500`)) as { data: { connected: boolean }[] };
      if (list.data.filter((d) => d.connected).length >= devices.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`remote tunnel bench: ${devices.length} devices ready; ${load()}`);

    // 1. Throughput, direct then through the tunnel (twice each: the first warms up).
    const directS: number[] = [];
    const tunnelS: number[] = [];
    for (let round = 0; round < 2; round++) {
      const d = await direct(target.port);
      directS.push(await stream(d));
      await d.close();
      const t = await tunnel(server.url, cookie, call, devices[SESSIONS]!, target.port);
      tunnelS.push(await stream(t));
      await t.close();
    }
    const bytes = STREAM_MB * 1024 * 1024;
    console.log(
      `throughput, ${STREAM_MB} MiB device → browser: direct ${mbps(bytes, directS[1]!)}, tunnel ${mbps(bytes, tunnelS[1]!)}; tunnel ÷ direct ${(directS[1]! / tunnelS[1]!).toFixed(2)}; ${load()}`,
    );

    // 2. Latency of one small message at a time.
    const d = await direct(target.port);
    const directLat = await echo(d, 64, ROUNDS);
    await d.close();
    const t = await tunnel(server.url, cookie, call, devices[SESSIONS + 1]!, target.port);
    const tunnelLat = await echo(t, 64, ROUNDS);
    await t.close();
    console.log(
      `latency, ${ROUNDS} echoes of 64 bytes: direct p50 ${ms(pct(directLat, 0.5))} p99 ${ms(pct(directLat, 0.99))}; tunnel p50 ${ms(pct(tunnelLat, 0.5))} p99 ${ms(pct(tunnelLat, 0.99))}; added p50 ${ms(pct(tunnelLat, 0.5) - pct(directLat, 0.5))}; ${load()}`,
    );

    // 3. SESSIONS at once, echoing 4 KiB messages for SECONDS s; then the same over direct connections.
    const concurrent = async (open: (i: number) => Promise<Pipe>) => {
      const pipes = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => open(i)));
      const cpu0 = cpuSeconds(pid);
      const rss0 = rssMb(pid);
      let rssPeak = rss0;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 250);
      const t0 = performance.now();
      const until = t0 + SECONDS * 1000;
      const lats = (await Promise.all(pipes.map((p) => echo(p, 4096, Infinity, until)))).flat().sort((a, b) => a - b);
      const wallS = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      const cpuS = cpuSeconds(pid) - cpu0;
      await Promise.all(pipes.map((p) => p.close()));
      return { lats, wallS, cpuS, rss0, rssPeak };
    };
    const viaTunnel = await concurrent((i) => tunnel(server.url, cookie, call, devices[i]!, target.port));
    const viaDirect = await concurrent(() => direct(target.port));
    const rate = (r: typeof viaTunnel) => (r.lats.length * 4096 * 2) / 1024 / 1024 / r.wallS;
    console.log(
      `${SESSIONS} sessions × ${SECONDS} s of 4 KiB echoes: tunnel ${(viaTunnel.lats.length / viaTunnel.wallS).toFixed(0)} msg/s (${rate(viaTunnel).toFixed(1)} MiB/s both ways), p50 ${ms(pct(viaTunnel.lats, 0.5))} p99 ${ms(pct(viaTunnel.lats, 0.99))}; direct ${(viaDirect.lats.length / viaDirect.wallS).toFixed(0)} msg/s, p50 ${ms(pct(viaDirect.lats, 0.5))} p99 ${ms(pct(viaDirect.lats, 0.99))}; tunnel ÷ direct ${(viaTunnel.lats.length / viaTunnel.wallS / (viaDirect.lats.length / viaDirect.wallS)).toFixed(2)}`,
    );
    console.log(
      `server during the ${SESSIONS} sessions: CPU ${((viaTunnel.cpuS / viaTunnel.wallS) * 100).toFixed(0)} % of a core, RSS ${viaTunnel.rss0.toFixed(0)} → peak ${viaTunnel.rssPeak.toFixed(0)} MB; ${load()}`,
    );
  } finally {
    await server.stop();
    target.close();
  }
}

await main();
