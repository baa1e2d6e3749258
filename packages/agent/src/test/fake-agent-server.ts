/**
 * An in-process stand-in for the server's agent API, validating every body with the shared
 * zod schemas of `@patchwell/core`, for agent behaviour the real server cannot provoke on cue
 * (repeated 5xx). The agent against the real server: server/src/agent-api/agent-e2e.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ZCheckinBody,
  ZCommandResultBody,
  ZEnrollBody,
  ZInventoryBody,
  type AgentCommand,
  type CommandResultBody,
  type InventoryBody,
} from '@patchwell/core/agent/agent-protocol.schema';

export type FakeDevice = {
  id: number;
  machineId: string;
  hostname: string;
  token: string;
  removed: boolean;
  queue: AgentCommand[];
  inventory: InventoryBody | null;
  results: Map<number, CommandResultBody>;
  checkins: number;
  wake: (() => void) | null;
};

export async function startFakeAgentServer(options: { accessKey?: string; intervalS?: number } = {}) {
  const accessKey = options.accessKey ?? 'good-key';
  const devices = new Map<string, FakeDevice>();
  let nextId = 1;
  let nextCommandId = 100;
  let unavailable: { left: number; path: RegExp | null; retryAfterS: number | null } = {
    left: 0,
    path: null,
    retryAfterS: null,
  };
  const requests: string[] = [];
  /** Every answer, in order: the request, its status, and when it was sent (ms since the epoch). */
  const answers: { request: string; status: number; at: number }[] = [];

  const byToken = (req: http.IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return [...devices.values()].find((d) => d.token === token) ?? null;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = req.url ?? '';
        const request = `${req.method} ${url}`;
        const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
          answers.push({ request, status, at: Date.now() });
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(body === undefined ? '' : JSON.stringify(body));
        };
        requests.push(request);
        if (unavailable.left > 0 && (!unavailable.path || unavailable.path.test(request))) {
          unavailable.left--;
          const retryAfter: Record<string, string> =
            unavailable.retryAfterS === null ? {} : { 'retry-after': String(unavailable.retryAfterS) };
          return send(503, { code: 'unavailable', message: 'Try later.' }, retryAfter);
        }
        const json = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : {};
        if (url === '/api/agent/v1/enroll') {
          const body = ZEnrollBody.parse(json);
          if (body.access_key !== accessKey)
            return send(401, { code: 'agent.invalid_access_key', message: 'Bad key.' });
          let d = devices.get(body.machine_id);
          if (!d) {
            d = {
              id: nextId++,
              machineId: body.machine_id,
              hostname: body.hostname,
              token: '',
              removed: false,
              queue: [],
              inventory: null,
              results: new Map(),
              checkins: 0,
              wake: null,
            };
            devices.set(body.machine_id, d);
          }
          d.token = `pwd_${randomUUID().replace(/-/g, '')}`;
          return send(201, {
            device_id: d.id,
            device_uuid: randomUUID(),
            token: d.token,
            checkin_interval_s: options.intervalS ?? 60,
          });
        }
        const d = byToken(req);
        if (!d) return send(401, { code: 'agent.invalid_token', message: 'Bad token.' });
        if (d.removed) return send(410, { code: 'agent.removed', message: 'Removed.' });
        const installer = /^\/api\/agent\/v1\/installers\/([^/?]+)$/.exec(url);
        if (installer && req.method === 'GET') {
          const bytes = installers.get(decodeURIComponent(installer[1]!));
          if (!bytes) return send(404, { code: 'not_found', message: 'Not found.' });
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': String(bytes.length),
            'x-checksum-sha256': createHash('sha256').update(bytes).digest('hex'),
          });
          return res.end(bytes);
        }
        if (url === '/api/agent/v1/checkin') {
          const body = ZCheckinBody.parse(json);
          d.checkins++;
          if (body.busy) {
            return send(200, {
              commands: [],
              send_inventory: false,
              checkin_interval_s: options.intervalS ?? 60,
              server_time: new Date().toISOString(),
            });
          }
          if (d.queue.length === 0 && body.wait_s > 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, body.wait_s * 1000);
              d.wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            d.wake = null;
          }
          const commands = d.queue.splice(0);
          return send(200, {
            commands,
            send_inventory: (d.inventory?.hash ?? null) !== (body.inventory_hash ?? null),
            checkin_interval_s: options.intervalS ?? 60,
            server_time: new Date().toISOString(),
          });
        }
        if (url === '/api/agent/v1/inventory' && req.method === 'PUT') {
          d.inventory = ZInventoryBody.parse(json) as InventoryBody;
          return send(204);
        }
        const m = /^\/api\/agent\/v1\/commands\/(\d+)\/result$/.exec(url);
        if (m) {
          const id = Number(m[1]);
          if (!d.results.has(id) && !issued.get(id)?.includes(d.machineId))
            return send(404, { code: 'not_found', message: 'Not found.' });
          d.results.set(id, ZCommandResultBody.parse(json));
          return send(204);
        }
        send(404, { code: 'not_found', message: 'Not found.' });
      })().catch((err: unknown) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'validation', message: String(err) }));
      });
    });
  });
  const issued = new Map<number, string[]>();
  /** Installers any device may download (the real server also checks the zone and an open command). */
  const installers = new Map<string, Buffer>();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    accessKey,
    devices,
    requests,
    answers,
    /** Queues a command for a device (wakes its long-poll). */
    queue(machineId: string, type: AgentCommand['type'], args: AgentCommand['args'] = {}, timeout_s = 60): number {
      const d = devices.get(machineId);
      if (!d) throw new Error(`no device ${machineId}`);
      const id = nextCommandId++;
      issued.set(id, [machineId]);
      d.queue.push({ id, type, args, timeout_s, created_at: new Date().toISOString() });
      d.wake?.();
      return id;
    },
    /** Serves `bytes` at `/installers/{id}`. */
    addInstaller(id: string, bytes: Buffer) {
      installers.set(id, bytes);
    },
    revokeToken(machineId: string) {
      devices.get(machineId)!.token = 'revoked';
    },
    remove(machineId: string) {
      devices.get(machineId)!.removed = true;
      devices.get(machineId)!.wake?.();
    },
    /**
     * The next n requests (only those whose `METHOD /path` matches `path`, when given) answer
     * 503, with `Retry-After: retryAfterS` when given, as the server does while its database restarts.
     */
    failNext(n: number, options: { path?: RegExp; retryAfterS?: number } = {}) {
      unavailable = { left: n, path: options.path ?? null, retryAfterS: options.retryAfterS ?? null };
    },
    async close() {
      for (const d of devices.values()) d.wake?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
