import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { AppContext } from '../context';
import { writeLastSeen, type DeviceIdentity, type SeenEntry } from './agent.store';

/**
 * The in-process state of the agent API on one node: the token cache, the coalesced
 * last-seen writes, the long-poll waiters and the per-device rate limit. Nothing here must
 * survive a restart: the database stays the source of truth, the cache entries expire, and
 * on PostgreSQL other nodes are told through LISTEN/NOTIFY to wake a waiter or drop an entry.
 */
export type AgentRuntime = {
  tokens: TokenCache;
  /** Records a check-in; written with others in one statement within {@link LAST_SEEN_FLUSH_MS}. */
  seen(entry: SeenEntry): void;
  /** Writes the pending check-ins now (tests, shutdown). */
  flushSeen(): Promise<void>;
  /** Resolves when a command is queued for the device, or after `ms` or on `signal`; true when woken. */
  waitForCommand(deviceId: number, ms: number, signal: AbortSignal): Promise<boolean>;
  /** Wakes the devices' waiting check-ins on every node (commands were queued for them). */
  wake(deviceIds: number[]): Promise<void>;
  /** Drops devices from every node's token cache (re-enrolled or removed). */
  forget(deviceIds: number[]): Promise<void>;
  /** Counts a request of the device; false when it is over its rate. */
  allow(deviceId: number): boolean;
  /** Ends waiting check-ins at once and refuses new waits (the server is draining). */
  stopWaiting(): void;
  /** Stops the timers and the listener, ends waiting check-ins, writes pending check-ins. */
  close(): Promise<void>;
};

/** How often coalesced check-ins are written. */
export const LAST_SEEN_FLUSH_MS = 1000;
/** How long a token stays cached: the bound on how stale another node's view may be without NOTIFY. */
export const TOKEN_CACHE_TTL_MS = 60_000;
/** Most cached tokens (oldest dropped first). */
export const TOKEN_CACHE_MAX = 200_000;
/** Requests per device per minute (check-ins, inventories, results). */
export const DEVICE_RATE_PER_MINUTE = 600;
/** Rows per batched last-seen UPDATE. */
const SEEN_CHUNK = 5000;
const CHANNEL = 'patchwell_agents';

/** token hash → device, bounded, with expiry; device id → token hash to drop by device. */
export class TokenCache {
  private readonly byHash = new Map<string, { device: DeviceIdentity; expires: number }>();
  private readonly hashByDevice = new Map<number, string>();

  constructor(
    private readonly max = TOKEN_CACHE_MAX,
    private readonly ttlMs = TOKEN_CACHE_TTL_MS,
  ) {}

  get(hash: string): DeviceIdentity | undefined {
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      this.delete(hash);
      return undefined;
    }
    return entry.device;
  }

  set(device: DeviceIdentity): void {
    const old = this.hashByDevice.get(device.id);
    if (old !== undefined && old !== device.tokenHash) this.byHash.delete(old);
    this.byHash.delete(device.tokenHash);
    this.byHash.set(device.tokenHash, { device, expires: Date.now() + this.ttlMs });
    this.hashByDevice.set(device.id, device.tokenHash);
    while (this.byHash.size > this.max) {
      const oldest = this.byHash.keys().next().value as string;
      this.delete(oldest);
    }
  }

  /** Updates the cached device in place (e.g. its inventory hash), if cached. */
  update(deviceId: number, patch: Partial<DeviceIdentity>): void {
    const hash = this.hashByDevice.get(deviceId);
    const entry = hash === undefined ? undefined : this.byHash.get(hash);
    if (entry) entry.device = { ...entry.device, ...patch };
  }

  forgetDevice(deviceId: number): void {
    const hash = this.hashByDevice.get(deviceId);
    if (hash !== undefined) this.delete(hash);
  }

  get size(): number {
    return this.byHash.size;
  }

  private delete(hash: string): void {
    const entry = this.byHash.get(hash);
    this.byHash.delete(hash);
    if (entry && this.hashByDevice.get(entry.device.id) === hash) this.hashByDevice.delete(entry.device.id);
  }
}

export function createAgentRuntime(ctx: Pick<AppContext, 'db' | 'logger' | 'config'>): AgentRuntime {
  const tokens = new TokenCache();
  let seen = new Map<number, SeenEntry>();
  const waiters = new Map<number, Set<() => void>>();
  const rate = new Map<number, number>();
  let rateWindow = Math.floor(Date.now() / 60_000);
  let closed = false;
  let flushing: Promise<void> | undefined;

  const flushSeen = async (): Promise<void> => {
    await flushing;
    if (!seen.size) return;
    const batch = [...seen.values()];
    seen = new Map();
    flushing = (async () => {
      for (let i = 0; i < batch.length; i += SEEN_CHUNK) {
        await writeLastSeen(ctx.db, batch.slice(i, i + SEEN_CHUNK));
      }
    })()
      .catch((err: unknown) => ctx.logger.warn({ err, devices: batch.length }, 'last-seen write failed'))
      .finally(() => {
        flushing = undefined;
      });
    await flushing;
  };
  const timer = setInterval(() => void flushSeen(), LAST_SEEN_FLUSH_MS);
  timer.unref();

  const wakeLocal = (id: number) => {
    for (const resolve of waiters.get(id) ?? []) resolve();
  };

  // Other nodes queue commands and remove devices too: on PostgreSQL they tell us here.
  let listener: pg.Client | undefined;
  let listenerRetry: NodeJS.Timeout | undefined;
  const listen = () => {
    const url = ctx.config.databaseUrl;
    if (!url || closed) return;
    const client = new pg.Client({ connectionString: url });
    listener = client;
    const retry = () => {
      if (closed || listener !== client) return;
      listener = undefined;
      void client.end().catch(() => undefined);
      listenerRetry = setTimeout(listen, 5000);
      listenerRetry.unref();
    };
    client.on('error', (err) => {
      ctx.logger.warn({ err }, 'agent notification listener lost its connection');
      retry();
    });
    client.on('notification', (msg) => {
      const [kind, id] = (msg.payload ?? '').split(':');
      const deviceId = Number(id);
      if (!Number.isInteger(deviceId)) return;
      if (kind === 'wake') wakeLocal(deviceId);
      if (kind === 'drop') tokens.forgetDevice(deviceId);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .catch((err: unknown) => {
        ctx.logger.warn({ err }, 'cannot listen for agent notifications');
        retry();
      });
  };
  listen();

  const notify = async (kind: 'wake' | 'drop', ids: number[]) => {
    if (!ctx.config.databaseUrl || !ids.length) return;
    // One statement for the batch, one small notification per device.
    const payloads = ids.map((id) => `${kind}:${id}`).join(',');
    await ctx.db
      .execute(sql`select pg_notify(${CHANNEL}, p) from unnest(string_to_array(${payloads}, ',')) as p`)
      .catch((err: unknown) => ctx.logger.warn({ err }, 'agent notification failed'));
  };

  return {
    tokens,
    seen(entry) {
      seen.set(entry.id, entry);
    },
    flushSeen,
    waitForCommand(deviceId, ms, signal) {
      return new Promise<boolean>((resolve) => {
        if (closed || signal.aborted) return resolve(false);
        const set = waiters.get(deviceId) ?? new Set();
        waiters.set(deviceId, set);
        const done = (woken: boolean) => {
          clearTimeout(timeout);
          signal.removeEventListener('abort', onAbort);
          set.delete(wake);
          if (!set.size && waiters.get(deviceId) === set) waiters.delete(deviceId);
          resolve(woken);
        };
        const wake = () => done(true);
        const onAbort = () => done(false);
        const timeout = setTimeout(() => done(false), ms);
        signal.addEventListener('abort', onAbort);
        set.add(wake);
      });
    },
    async wake(deviceIds) {
      for (const id of deviceIds) wakeLocal(id);
      await notify('wake', deviceIds);
    },
    async forget(deviceIds) {
      for (const id of deviceIds) tokens.forgetDevice(id);
      await notify('drop', deviceIds);
    },
    allow(deviceId) {
      const window = Math.floor(Date.now() / 60_000);
      if (window !== rateWindow) {
        rate.clear();
        rateWindow = window;
      }
      const n = (rate.get(deviceId) ?? 0) + 1;
      rate.set(deviceId, n);
      return n <= DEVICE_RATE_PER_MINUTE;
    },
    stopWaiting() {
      closed = true;
      for (const set of waiters.values()) for (const resolve of set) resolve();
    },
    async close() {
      this.stopWaiting();
      clearInterval(timer);
      clearTimeout(listenerRetry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await flushSeen();
    },
  };
}
