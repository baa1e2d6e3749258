import type pg from 'pg';
import { dbErrorSummary, isRowError } from '../db/errors';
import type { AppContext } from '../context';
import { devicesWithPendingCommands } from '../modules/commands/commands.service';
import { createBatcher } from './batcher';
import {
  createListener,
  findDevicesByTokenHashes,
  notifyMany,
  startListening,
  vacuumAgentTables,
  writeLastSeen,
  type DeviceIdentity,
  type SeenEntry,
} from './agent.store';

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
  /** The device of a token hash: from the cache, else from the database (sharing the query with others). */
  findDevice(tokenHash: string): Promise<DeviceIdentity | undefined>;
  /**
   * Whether the device has pending commands. Read from the database (concurrent check-ins
   * share one query) unless a read found none since the device was last woken.
   */
  hasPendingCommands(deviceId: number): Promise<boolean>;
  /** Resolves when a command is queued for the device, or after `ms` or on `signal`; true when woken. */
  waitForCommand(deviceId: number, ms: number, signal: AbortSignal): Promise<boolean>;
  /** Whether a check-in of the device is waiting on this node (tests wait for it instead of sleeping). */
  isWaiting(deviceId: number): boolean;
  /** On PostgreSQL: whether this node listens for other nodes' notifications (always true on PGlite). */
  readonly listening: boolean;
  /** Wakes the devices' waiting check-ins on every node (commands were queued for them). */
  wake(deviceIds: number[]): Promise<void>;
  /** Drops devices from every node's token cache (re-enrolled or removed). */
  forget(deviceIds: number[]): Promise<void>;
  /** Counts a request of the device; false when it is over its rate. */
  allow(deviceId: number): boolean;
  /** Ends waiting check-ins at once and refuses new waits (the server is closing). */
  stopWaiting(): void;
  /** True once {@link stopWaiting} was called: answers then close their connection. */
  readonly stopping: boolean;
  /** Stops the timers and the listener, ends waiting check-ins, writes pending check-ins. */
  close(): Promise<void>;
};

/** How often coalesced check-ins are written. */
export const LAST_SEEN_FLUSH_MS = 1000;
/**
 * How long a token stays cached. Changes reach the cache at once: locally through `forget`,
 * from other nodes through NOTIFY, and the cache is emptied whenever the listener loses its
 * connection (notifications may have been missed). The expiry is only a backstop, so it is
 * well above the check-in interval: at 60 s it would expire just before each device's next
 * check-in and turn every check-in into a token query.
 */
export const TOKEN_CACHE_TTL_MS = 15 * 60_000;
/** Most cached tokens (oldest dropped first). */
export const TOKEN_CACHE_MAX = 200_000;
/** Requests per device per minute (check-ins, inventories, results). */
export const DEVICE_RATE_PER_MINUTE = 600;
/**
 * Rows per batched last-seen write. PGlite runs one statement at a time in its one session:
 * a second's check-ins written as one statement held every other statement behind it (in the
 * server's thread, a check-in p99 of 130 ms at 5,000/s, decision 0021). In its own thread
 * (decision 0029) chunks of 5,000 wrote 8-10 % more check-ins a second than chunks of 500, but
 * the token reads of devices not yet cached waited behind them (p99 99 against 49-64 ms) and
 * RSS peaked 10-20 MB higher: 500 stays. PostgreSQL runs them elsewhere, on other
 * connections: fewer, larger statements cost it less.
 */
const SEEN_CHUNK_POSTGRES = 5000;
const SEEN_CHUNK_PGLITE = 500;
/**
 * How long "no commands pending" is trusted without a read. Queueings wake their devices,
 * which drops the mark at once; this only bounds the delay for a queueing that did not.
 */
export const KNOWN_EMPTY_TTL_MS = 10 * 60_000;
/** On PGlite: when the planner's statistics are first gathered after start, then how often. */
const ANALYZE_FIRST_MS = 30_000;
const ANALYZE_EVERY_MS = 5 * 60_000;
/** Keys per batched lookup (token hashes, device ids), and such lookups running at once. */
const BATCH_CHUNK = 1000;
const BATCHES_IN_FLIGHT = 2;
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
    this.generation++;
    const hash = this.hashByDevice.get(deviceId);
    if (hash !== undefined) this.delete(hash);
  }

  clear(): void {
    this.generation++;
    this.byHash.clear();
    this.hashByDevice.clear();
  }

  /**
   * Counts drops: a device read from the database before a drop may be the dropped one
   * (an old token, a removed device), so it is cached only if none happened meanwhile.
   */
  generation = 0;

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
  const seenChunk = ctx.config.databaseUrl ? SEEN_CHUNK_POSTGRES : SEEN_CHUNK_PGLITE;

  // One check-in PostgreSQL refuses (a NUL byte in a text, say) must not cost every other
  // device of every zone its presence: a failed chunk is written again in halves, down to the
  // one row that fails, which is skipped and logged by id only (its contents are the device's).
  const writeIsolating = async (entries: SeenEntry[]): Promise<void> => {
    try {
      await writeLastSeen(ctx.db, entries);
    } catch (err) {
      // A database that is down fails every half alike: no splitting, reported once.
      if (!isRowError(err)) throw err;
      if (entries.length === 1) {
        const [bad] = entries;
        ctx.logger.warn(
          { error: dbErrorSummary(err), deviceId: bad!.id, zoneId: bad!.organization_id },
          'check-in not stored: skipped',
        );
        return;
      }
      const half = Math.ceil(entries.length / 2);
      await writeIsolating(entries.slice(0, half));
      await writeIsolating(entries.slice(half));
    }
  };

  const flushSeen = async (): Promise<void> => {
    await flushing;
    if (!seen.size) return;
    const batch = [...seen.values()];
    seen = new Map();
    flushing = (async () => {
      for (let i = 0; i < batch.length; i += seenChunk) {
        await writeIsolating(batch.slice(i, i + seenChunk));
      }
    })()
      .catch((err: unknown) =>
        ctx.logger.warn({ error: dbErrorSummary(err), devices: batch.length }, 'last-seen write failed'),
      )
      .finally(() => {
        flushing = undefined;
      });
    await flushing;
  };
  const timer = setInterval(() => void flushSeen(), LAST_SEEN_FLUSH_MS);
  timer.unref();

  // PGlite runs no autovacuum daemon, so nothing would ever gather the planner's statistics
  // (without them it estimates a handful of devices and plans the console's device list as
  // nested loops over the whole zone: seconds at 100,000 devices instead of milliseconds) nor
  // reclaim the row versions check-ins and commands leave behind (every scan would read them),
  // nor set the visibility map the device list's index-only scans rely on.
  let analyzing: Promise<unknown> | undefined;
  const analyze = () => {
    if (closed || analyzing) return;
    // Only the tables check-ins and the device list plan on: VACUUM holds PGlite's one
    // connection, and the inventory tables (millions of rows) would hold it for seconds.
    analyzing = vacuumAgentTables(ctx.db)
      .catch((err: unknown) => ctx.logger.warn({ err }, 'vacuum failed'))
      .finally(() => {
        analyzing = undefined;
      });
  };
  const analyzeTimers = ctx.config.databaseUrl
    ? []
    : [setTimeout(analyze, ANALYZE_FIRST_MS), setInterval(analyze, ANALYZE_EVERY_MS)];
  for (const t of analyzeTimers) t.unref();

  // Concurrent check-ins share their reads: the device of a token, and whether commands wait.
  const tokenLookups = createBatcher<string, DeviceIdentity | undefined>(
    async (hashes) => new Map((await findDevicesByTokenHashes(ctx.db, hashes)).map((d) => [d.tokenHash, d])),
    { missing: undefined, chunk: BATCH_CHUNK, inFlight: BATCHES_IN_FLIGHT },
  );
  const pendingLookups = createBatcher<number, boolean>(
    async (ids) => new Map((await devicesWithPendingCommands(ctx.db, ids)).map((id) => [id, true])),
    { missing: false, chunk: BATCH_CHUNK, inFlight: BATCHES_IN_FLIGHT },
  );

  // Devices a pending-commands read found without any, until when that answer is trusted.
  // Every queueing wakes its devices after its commit (here, or on another node through
  // NOTIFY), and a wake drops the device from here; `wakes` keeps a read that raced with a
  // wake from marking its device. On PostgreSQL the marks are trusted only while we listen.
  const knownEmpty = new Map<number, number>();
  let wakes = 0;
  let trustEmpty = !ctx.config.databaseUrl;
  const distrustEmpty = () => {
    trustEmpty = false;
    knownEmpty.clear();
    wakes++;
  };

  const wakeLocal = (id: number) => {
    wakes++;
    knownEmpty.delete(id);
    for (const resolve of waiters.get(id) ?? []) resolve();
  };

  // Other nodes queue commands and remove devices too: on PostgreSQL they tell us here.
  let listener: pg.Client | undefined;
  let listenerRetry: NodeJS.Timeout | undefined;
  const listen = () => {
    const url = ctx.config.databaseUrl;
    if (!url || closed) return;
    const client = createListener(url);
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
      // Drops of tokens and wakes from other nodes may be lost until we listen again.
      tokens.clear();
      distrustEmpty();
      retry();
    });
    // Also when the connection ends without an error: nobody is listening any more.
    client.on('end', distrustEmpty);
    client.on('notification', (msg) => {
      const [kind, id] = (msg.payload ?? '').split(':');
      const deviceId = Number(id);
      if (!Number.isInteger(deviceId)) return;
      if (kind === 'wake') wakeLocal(deviceId);
      if (kind === 'drop') tokens.forgetDevice(deviceId);
    });
    startListening(client, CHANNEL)
      // Whatever was cached while nobody listened may have missed a drop.
      .then(() => {
        tokens.clear();
        // A read begun before we listened may have missed a wake: it must not mark.
        wakes++;
        trustEmpty = true;
      })
      .catch((err: unknown) => {
        ctx.logger.warn({ err }, 'cannot listen for agent notifications');
        retry();
      });
  };
  listen();

  const notify = async (kind: 'wake' | 'drop', ids: number[]) => {
    if (!ctx.config.databaseUrl || !ids.length) return;
    // One statement for the batch, one small notification per device.
    await notifyMany(
      ctx.db,
      CHANNEL,
      ids.map((id) => `${kind}:${id}`),
    ).catch((err: unknown) => ctx.logger.warn({ err }, 'agent notification failed'));
  };

  return {
    tokens,
    seen(entry) {
      seen.set(entry.id, entry);
    },
    flushSeen,
    async findDevice(tokenHash) {
      const cached = tokens.get(tokenHash);
      if (cached) return cached;
      const generation = tokens.generation;
      const device = await tokenLookups.load(tokenHash);
      if (device && tokens.generation === generation) tokens.set(device);
      return device;
    },
    async hasPendingCommands(deviceId) {
      const until = knownEmpty.get(deviceId);
      if (until !== undefined) {
        if (trustEmpty && until > Date.now()) return false;
        knownEmpty.delete(deviceId);
      }
      const wakesBefore = wakes;
      const pending = await pendingLookups.load(deviceId);
      if (!pending && trustEmpty && wakes === wakesBefore) {
        if (knownEmpty.size >= TOKEN_CACHE_MAX) knownEmpty.clear();
        knownEmpty.set(deviceId, Date.now() + KNOWN_EMPTY_TTL_MS);
      }
      return pending;
    },
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
    isWaiting(deviceId) {
      return (waiters.get(deviceId)?.size ?? 0) > 0;
    },
    get listening() {
      return trustEmpty;
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
    get stopping() {
      return closed;
    },
    stopWaiting() {
      closed = true;
      for (const set of waiters.values()) for (const resolve of set) resolve();
    },
    async close() {
      this.stopWaiting();
      clearInterval(timer);
      for (const t of analyzeTimers) clearTimeout(t);
      await analyzing;
      clearTimeout(listenerRetry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await flushSeen();
    },
  };
}
