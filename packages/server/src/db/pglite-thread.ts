/**
 * PGlite in a thread of its own (decision 0029): what drizzle and `raw.ts` call on a PGlite
 * (`query`, `exec`, `transaction`, `listen`, `close`), answered by `pglite-worker.ts`.
 * Statements wait in the worker, not in the event loop, so check-ins and the console's requests
 * are parsed and answered while the database works.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions as PgliteQueryOptions, Results, Transaction } from '@electric-sql/pglite';
import {
  deserializeError,
  type WorkerSource,
  type QueryOptions,
  type QueryResult,
  type Reply,
  type Request,
} from './pglite-thread.protocol';

/** A request before it is numbered (each kind of request without its `id`). */
type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;
type Call = WithoutId<Request>;

/**
 * The worker's young generation (V8's default: up to 48 MB). Rows pass through it on their way
 * out and die young; at 12 MB the server's RSS peaked at 472-477 MB under check-in load against
 * 503-517 MB with the default, at the same rate (decision 0029).
 */
const resourceLimits = { maxYoungGenerationSizeMb: 12 };

/**
 * The bundle's worker beside `dist/main.mjs`; else (sources, tests) the source beside this file,
 * loaded through tsx, whose hooks a worker must register itself.
 */
function startWorker(workerData: WorkerSource, script?: URL): Worker {
  if (script) return new Worker(script, { workerData, resourceLimits });
  const bundled = new URL('./pglite-worker.mjs', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return new Worker(bundled, { workerData, resourceLimits });
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./pglite-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, { eval: true, workerData, resourceLimits });
}

/** What of PGlite's query options can cross: parsers only as the types they keep as text. */
async function crossable(options: PgliteQueryOptions | undefined): Promise<QueryOptions> {
  const out: QueryOptions = {};
  if (options?.rowMode) out.rowMode = options.rowMode;
  if (options?.parsers) {
    out.textTypes = Object.entries(options.parsers).map(([oid, parse]) => {
      // drizzle keeps times, dates and intervals as PostgreSQL wrote them; any other parser
      // would have to run in the worker, which cannot receive a function.
      if (parse('x', Number(oid)) !== 'x')
        throw new Error(`PGlite thread: only text-keeping parsers cross (type ${oid})`);
      return Number(oid);
    });
  }
  if (options?.blob) out.blob = new Uint8Array(await options.blob.arrayBuffer());
  return out;
}

export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(worker: Worker) {
    this.worker = worker;
  }

  /**
   * Starts the worker and waits until its PGlite is open: on `dataDir`, or in memory (from
   * `image`, a `dumpDataDir()` of another database, when given). `script` is a bundle of
   * pglite-worker.ts made elsewhere (the tests make one per run); by default, the one beside
   * the server's bundle, else the source through tsx.
   */
  static async open(source: WorkerSource, script?: URL): Promise<PgliteThread> {
    const worker = startWorker(source, script);
    const thread = new PgliteThread(worker);
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: Reply) => {
        if ('ready' in reply) resolve();
        else if ('failed' in reply) reject(deserializeError(reply.failed));
        else thread.receive(reply);
      });
      // Worded as PGlite's own closed error, so that requests from then on answer 503
      // (db/errors.ts); what stopped the thread, when it failed, is the error's cause.
      const lost = (err: Error) => {
        thread.failure ??= err;
        reject(thread.failure);
        for (const call of thread.pending.values()) call.reject(thread.failure);
        thread.pending.clear();
      };
      worker.on('error', (cause) => lost(new Error('PGlite is closed: its thread failed', { cause })));
      worker.on('exit', (code) => lost(new Error(`PGlite is closed: its thread exited (${code})`)));
    });
    return thread;
  }

  private receive(reply: Reply): void {
    if ('notify' in reply) {
      for (const listener of this.listeners.get(reply.notify) ?? []) listener(reply.payload);
      return;
    }
    if (!('id' in reply)) return;
    const call = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (reply.ok) call?.resolve(reply.value);
    else call?.reject(deserializeError(reply.error));
  }

  private call<T>(request: Call, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  private async runQuery<T>(sql: string, params: unknown[] = [], options?: PgliteQueryOptions, tx?: number) {
    const crossing = await crossable(options);
    const result = await this.call<QueryResult>(
      { op: 'query', sql, params, options: crossing, tx },
      crossing.blob ? [crossing.blob.buffer as ArrayBuffer] : [],
    );
    const { blob, ...rest } = result;
    return { ...rest, ...(blob ? { blob: new Blob([blob]) } : {}) } as unknown as Results<T>;
  }

  query<T>(sql: string, params?: unknown[], options?: PgliteQueryOptions): Promise<Results<T>> {
    return this.runQuery<T>(sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.call<Results[]>({ op: 'exec', sql });
  }

  /** PGlite's transaction: `fn`'s statements run inside it; it commits when `fn` resolves, else rolls back. */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: PgliteQueryOptions) => {
        open();
        return this.runQuery<R>(sql, params, options, id);
      },
      exec: (sql: string) => {
        open();
        return this.call<Results[]>({ op: 'exec', sql, tx: id });
      },
      rollback: async () => {
        open();
        closed = true;
        await this.call({ op: 'end', tx: id, commit: false });
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      if (!closed) {
        closed = true;
        // The caller hears why its transaction failed, not why the rollback did too.
        await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      }
      throw err;
    }
    if (!closed) {
      closed = true;
      await this.call({ op: 'end', tx: id, commit: true });
    }
    return result;
  }

  /** Calls `callback` with each notification on `channel`, before the answer to the statement that sent it. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(callback);
    return async () => {
      set.delete(callback);
      if (set.size || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      await this.call({ op: 'unlisten', channel });
    };
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call({ op: 'close' });
    await this.worker.terminate();
  }
}

/** PGlite in this thread or in its own: what the rest of `db/` may call on either. */
export type EmbeddedClient = Pick<PGlite, 'query' | 'exec' | 'transaction' | 'listen' | 'close'>;
