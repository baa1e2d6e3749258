import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { usePglite, usePostgres, type DbHandle } from '../db/client';
import { PGLITE_OPTIONS } from '../db/pglite-options';
import { PgliteThread } from '../db/pglite-thread';
import { onServer, withDatabase } from './pg-template.global';

/**
 * A fresh, migrated database for one test file.
 * - With `DATABASE_URL` (a PostgreSQL server): `CREATE DATABASE pw_t_<random>` on it, a copy
 *   of the run's migrated template (pg-template.global.ts); dropped again by `close()`.
 * - Without: PGlite in memory, in a thread of its own as the server runs it (decision 0029).
 *   The migrated base is built once per test worker (~3 s); each file's database is loaded
 *   from an image of it, so files never see each other's rows. With `PGLITE_THREAD=main`,
 *   each file gets a `clone()` of the base in the test's thread instead (the same 337 s for the
 *   server's tests either way).
 */
export async function createTestDb(): Promise<TestDbHandle> {
  const url = process.env.DATABASE_URL;
  return url ? createPostgresDb(url) : createPgliteDb();
}

/** A test database; `url` is set on PostgreSQL (for tests that need their own connections, e.g. LISTEN). */
export type TestDbHandle = DbHandle & { url?: string };

let base: Promise<PGlite> | undefined;

async function migratedBase(): Promise<PGlite> {
  const client = await PGlite.create(PGLITE_OPTIONS);
  await usePglite(client); // migrates; the handle is not kept, the base lives for the worker
  return client;
}

let image: Promise<Uint8Array> | undefined;
/** PGlite's WebAssembly compiled once per test worker, not by each file's database thread. */
let wasmModule: Promise<WebAssembly.Module> | undefined;
/** Node's WebAssembly, which @types/node declares as types only. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } })
  .WebAssembly;

async function createPgliteDb(): Promise<DbHandle> {
  base ??= migratedBase();
  if (process.env.PGLITE_THREAD !== 'main') {
    // Shared memory: each file's thread reads the image where it is, not a copy made for it.
    image ??= base.then(async (b) => {
      const bytes = new Uint8Array(await (await b.dumpDataDir('none')).arrayBuffer());
      const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
      shared.set(bytes);
      return shared;
    });
    wasmModule ??= readFile(fileURLToPath(import.meta.resolve('@electric-sql/pglite/pglite.wasm'))).then((bytes) =>
      wasm.compile(bytes),
    );
    // The run's bundle of the worker (pglite-worker.global.ts), when vitest made one.
    const script = inject('pgliteWorker');
    const thread = await PgliteThread.open(
      { image: await image, wasmModule: await wasmModule },
      script ? new URL(script) : undefined,
    );
    return usePglite(thread, { migrate: false });
  }
  // clone() is typed as the interface; it returns a PGlite.
  const clone = (await (await base).clone()) as PGlite;
  return usePglite(clone, { migrate: false });
}

async function createPostgresDb(url: string): Promise<TestDbHandle> {
  const name = `pw_t_${randomBytes(6).toString('hex')}`;
  // The run's migrated template (pg-template.global.ts) when vitest made one; else migrated here.
  const template = inject('pgTemplate');
  await onServer(url, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const testUrl = withDatabase(url, name);
  const handle = await usePostgres(testUrl, { migrate: !template });
  return {
    ...handle,
    url: testUrl,
    async close() {
      await handle.close();
      await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
