/**
 * The thread that runs PGlite when the server keeps its embedded database off the event loop
 * (decision 0029). It opens the data directory, then takes up the server's thread's messages
 * (pglite-thread.protocol.ts) in the order they come; PGlite's own locks run their statements
 * and transactions one at a time, in that order, as they would in one thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from './pglite-options';
import {
  serializeError,
  type QueryOptions,
  type Reply,
  type Request,
  type WorkerSource,
} from './pglite-thread.protocol';

const port = parentPort!;
const post = (reply: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

type OpenTransaction = { tx: Transaction; finish(commit: boolean): void; done: Promise<void> };

/** Thrown inside PGlite's transaction callback to have it roll back. */
class RollBack extends Error {}

function pgliteOptions(options: QueryOptions) {
  const identity = (value: string) => value;
  return {
    rowMode: options.rowMode,
    parsers: options.textTypes ? Object.fromEntries(options.textTypes.map((oid) => [oid, identity])) : undefined,
    blob: options.blob ? new Blob([options.blob]) : undefined,
  };
}

/**
 * An image as PGlite reads it (whole, by `arrayBuffer()`; it reads nothing else of it), over
 * the bytes it was sent as: a Blob of them would copy them in, and Node 20 reads a Blob back in
 * 64 KiB chunks it then joins, 0.4 s of each open of a 45 MB image.
 */
class ImageBlob extends Blob {
  constructor(private readonly image: Uint8Array) {
    super([]);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.image.slice().buffer);
  }
}

async function main(): Promise<void> {
  const { dataDir, image, wasmModule } = workerData as WorkerSource;
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir, {
      ...PGLITE_OPTIONS,
      loadDataDir: image ? new ImageBlob(image) : undefined,
      pgliteWasmModule: wasmModule,
    });
  } catch (err) {
    post({ failed: serializeError(err) });
    return;
  }
  const transactions = new Map<number, OpenTransaction>();
  const unlisten = new Map<string, () => Promise<void>>();
  let nextTx = 1;
  const openTransaction = (tx: number): OpenTransaction => {
    const open = transactions.get(tx);
    if (!open) throw new Error('Transaction is closed');
    return open;
  };
  const target = (tx: number | undefined): Pick<Transaction, 'query' | 'exec'> =>
    tx === undefined ? db : openTransaction(tx).tx;

  const handle = async (request: Request): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> => {
    switch (request.op) {
      case 'query': {
        const result = await target(request.tx).query(request.sql, request.params, pgliteOptions(request.options));
        const blob = result.blob ? new Uint8Array(await result.blob.arrayBuffer()) : undefined;
        return {
          value: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows, blob },
          transfer: blob ? [blob.buffer as ArrayBuffer] : [],
        };
      }
      case 'exec':
        return { value: await target(request.tx).exec(request.sql) };
      case 'begin': {
        const id = nextTx++;
        // The transaction stays open until the server's thread ends it; PGlite's lock holds
        // other transactions back meanwhile, as it does in one thread.
        return new Promise((began, failed) => {
          let finish!: (commit: boolean) => void;
          const decided = new Promise<boolean>((resolve) => (finish = resolve));
          const done = db
            .transaction(async (tx) => {
              transactions.set(id, { tx, finish, done });
              began({ value: id });
              if (!(await decided)) throw new RollBack();
            })
            .catch((err: unknown) => {
              if (!(err instanceof RollBack)) throw err;
            })
            .finally(() => transactions.delete(id));
          // A BEGIN that failed never reached the callback.
          done.catch(failed);
        });
      }
      case 'end': {
        const open = openTransaction(request.tx);
        open.finish(request.commit);
        await open.done;
        return { value: null };
      }
      case 'listen': {
        if (!unlisten.has(request.channel)) {
          const channel = request.channel;
          // Posted before the answer to the statement that caused it: the server's thread sees
          // the notification first, as it does when PGlite runs there.
          unlisten.set(channel, await db.listen(channel, (payload) => post({ notify: channel, payload })));
        }
        return { value: null };
      }
      case 'unlisten':
        await unlisten.get(request.channel)?.();
        unlisten.delete(request.channel);
        return { value: null };
      case 'close':
        await db.close();
        return { value: null };
    }
  };

  port.on('message', (request: Request) => {
    handle(request).then(
      ({ value, transfer }) => post({ id: request.id, ok: true, value }, transfer),
      (err: unknown) => post({ id: request.id, ok: false, error: serializeError(err) }),
    );
  });
  post({ ready: true });
}

void main();
