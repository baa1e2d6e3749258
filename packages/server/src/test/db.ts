import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PGLITE_OPTIONS, usePglite, usePostgres, type DbHandle } from '../db/client';

/**
 * A fresh, migrated database for one test file.
 * - With `DATABASE_URL` (a PostgreSQL server): `CREATE DATABASE pw_t_<random>` on it,
 *   migrated; dropped again by `close()`.
 * - Without: PGlite in memory. The migrated base is built once per worker (~3 s) and
 *   each file gets a `clone()` of it (~1 s), so files never see each other's rows.
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

async function createPgliteDb(): Promise<DbHandle> {
  base ??= migratedBase();
  // clone() is typed as the interface; it returns a PGlite.
  const clone = (await (await base).clone()) as PGlite;
  return usePglite(clone, { migrate: false });
}

async function createPostgresDb(url: string): Promise<TestDbHandle> {
  const name = `pw_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const handle = await usePostgres(testUrl.toString());
  return {
    ...handle,
    url: testUrl.toString(),
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
